package daemon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// TestHallHearsTheBoardsVoice: a board run with --hall and a voice carries
// its voice to the hall, through a real Mosquitto with the shipped access
// list: each line it says reaches the hall's view of the board as a say
// event in its language and convention, and its speech program failing
// shows as the voice fault in the board's state on the hall and in its
// health.
func TestHallHearsTheBoardsVoice(t *testing.T) {
	if _, err := mosquittotest.Path(); err != nil {
		t.Skipf("mosquitto is not installed (apt-get install mosquitto): %v", err)
	}
	passwords := map[string]string{"hall": "hall-secret-1", "b1": "b1-secret-1"}
	mq, err := mosquittotest.Start(mosquittotest.Options{Dir: t.TempDir(), Passwords: passwords,
		ACLFile: filepath.Join("..", "systemd", "mosquitto", "boardd.acl")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mq.Stop() })
	dir := t.TempDir()
	hallDir, state := filepath.Join(dir, "hall"), filepath.Join(dir, "state")
	for d, pw := range map[string]string{hallDir: passwords["hall"], state: passwords["b1"]} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, broker.PasswordFile), []byte(pw+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := broker.Load(broker.Options{URL: mq.URL(), Username: "hall", Dirs: []string{hallDir}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := hall.New(context.Background(), hall.Options{Broker: cfg, MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })

	// A speech program that speaks until the file fail exists, then
	// crashes.
	fail := filepath.Join(dir, "fail")
	program := filepath.Join(dir, "fake-espeak")
	script := fmt.Sprintf("#!/bin/sh\nif [ -e %q ]; then echo 'no sound card' >&2; exit 3; fi\ncat >/dev/null\n", fail)
	if err := os.WriteFile(program, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	in, feed := io.Pipe()
	t.Cleanup(func() { feed.Close() })
	runDaemon(t, Options{Config: writeFile(t, "boardd.toml", fmt.Sprintf("[voice]\nprogram = %q\n", program)), StateDir: state,
		Listen: "127.0.0.1:0", Input: "-", Stdin: in, Hall: mq.URL(), BoardID: "b1", Voice: "de", VoiceConvention: "appendix-d"})

	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: journal %v", what, journalMoves(t, state))
			}
		}
	}
	waitUntil("the board in the hall", func() bool {
		b := h.Board("b1")
		if b == nil {
			return false
		}
		_, err := b.State(context.Background())
		return err == nil
	})
	var mu sync.Mutex
	var said []string
	stop := h.Board("b1").Watch(func(c console.Change) {
		if c.Say != nil {
			mu.Lock()
			said = append(said, string(c.Say))
			mu.Unlock()
		}
	})
	defer stop()
	heard := func(want ...string) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			return slices.Equal(said, want)
		}
	}
	faulty := func(want bool) func() bool {
		return func() bool {
			st, err := h.Board("b1").State(context.Background())
			return err == nil && slices.Contains(st.Faults, "voice") == want && slices.Contains(h.Board("b1").Summary().Faults, "voice") == want
		}
	}

	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 60 * time.Millisecond, Pause: 600 * time.Millisecond})
	play := func(uci string) {
		t.Helper()
		from := len(p.Lines)
		if err := p.Move(uci); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, l := range p.Lines[from:] {
			b.Write(trace.Append(nil, l))
		}
		if _, err := feed.Write(b.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	play("e2e4")
	waitUntil("e2e4 heard on the hall", heard(`{"text":"Bauer Eva zwei Eva vier","lang":"de"}`))
	if !faulty(false)() {
		t.Error("the voice's fault on the hall while the board is heard")
	}
	if err := os.WriteFile(fail, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	play("e7e5")
	waitUntil("e7e5 on the hall's page to speak", heard(`{"text":"Bauer Eva zwei Eva vier","lang":"de"}`, `{"text":"Bauer Eva sieben Eva fuenf","lang":"de"}`))
	waitUntil("the voice's fault on the hall", faulty(true))
	if got := strings.Join(journalMoves(t, state), " "); got != "e2e4 e7e5" {
		t.Errorf("the journal: %s, want e2e4 e7e5 (the game goes on)", got)
	}
}
