package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// The real binaries through a real Mosquitto with the shipped ACL and
// per-board passwords: `boardd hall` and `boardd run --hall`; the board's
// moves reach the hall's API; the board is killed (SIGKILL) and started
// again and plays on; the arbiter declares the result through the hall's
// console API with the hall's token, and the board carries it out.
func TestHallBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the boardd binary")
	}
	br, err := mosquittotest.Start(mosquittotest.Options{
		Dir:       t.TempDir(),
		Passwords: map[string]string{"hall": "hall-pw-0001", "b7": "b7-pw-0001"},
		ACLFile:   filepath.Join("..", "..", "systemd", "mosquitto", "boardd.acl"),
	})
	if errors.Is(err, mosquittotest.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { br.Kill() })
	bin := buildBoardd(t)

	hallDir, boardDir := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(hallDir, "hall-password"), "hall-pw-0001\n")
	write(filepath.Join(boardDir, "hall-password"), "b7-pw-0001\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	hp := startBoardd(t, bin, daemonEnv(), "hall", "--broker", br.URL(), "--state-dir", hallDir, "--listen", addr, "--round", "3", "--event", "Club night")
	base := "http://" + addr
	var token string
	waitUntil(t, "the hall's token and verify key", 10*time.Second, func() bool {
		data, err := os.ReadFile(filepath.Join(hallDir, "arbiter-token"))
		token = strings.TrimSpace(string(data))
		_, kerr := os.Stat(filepath.Join(hallDir, actionsig.VerifyKeyFile))
		return err == nil && len(token) == 32 && kerr == nil
	})
	// The board gets the hall's verify key, never its token or its signing
	// key.
	key, err := os.ReadFile(filepath.Join(hallDir, actionsig.VerifyKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(boardDir, actionsig.VerifyKeyFile), string(key))

	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 40 * time.Millisecond, Pause: 500 * time.Millisecond})
	uci := strings.Fields("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5")
	if err := p.Move(uci[:4]...); err != nil {
		t.Fatal(err)
	}
	half := len(p.Lines)
	if err := p.Move(uci[4:]...); err != nil {
		t.Fatal(err)
	}
	feed := func(pr *proc, lines []trace.Line) {
		t.Helper()
		var b bytes.Buffer
		for _, l := range lines {
			b.Write(trace.Append(nil, l))
		}
		if _, err := pr.stdin.Write(b.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"run", "--state-dir", boardDir, "--listen", "127.0.0.1:0", "--hall", "mqtt://" + br.Addr(), "--board-id", "b7"}
	bp := startBoardd(t, bin, daemonEnv("BOARDD_INPUT=-"), args...)
	defer func() {
		if t.Failed() {
			t.Logf("hall:\n%s\nboard:\n%s\nmosquitto:\n%s", hp.stderr.String(), bp.stderr.String(), br.Log())
		}
	}()
	feed(bp, p.Lines[:half])
	waitUntil(t, "4 moves in the hall", 15*time.Second, func() bool { return len(hallUCI(t, base, "b7")) == 4 })

	// A power cut: the board is killed and starts again; its game comes
	// back from the journal and it plays on.
	bp.cmd.Process.Signal(syscall.SIGKILL)
	bp.wait(t, 5*time.Second)
	bp = startBoardd(t, bin, daemonEnv("BOARDD_INPUT=-"), args...)
	feed(bp, p.Lines[half:])
	waitUntil(t, "8 moves in the hall", 15*time.Second, func() bool { return len(hallUCI(t, base, "b7")) == 8 })
	if got := hallUCI(t, base, "b7"); !slices.Equal(got, uci) {
		t.Errorf("the hall holds %v, want %v", got, uci)
	}

	// The arbiter, through the hall's console API with the hall's token.
	waitUntil(t, "the board in the hall's console", 10*time.Second, func() bool {
		res, err := http.Get(base + "/api/boards/b7/state")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == http.StatusOK
	})
	req, _ := http.NewRequest(http.MethodPost, base+"/api/boards/b7/arbiter", strings.NewReader(`{"action":"result","value":"1/2-1/2"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the arbiter's result through the hall: %s", res.Status)
	}
	waitUntil(t, "the result in the broadcast PGN", 10*time.Second, func() bool {
		res, err := http.Get(base + "/broadcast/rounds/3.pgn")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		pgn := b.String()
		return strings.Contains(pgn, `[Result "1/2-1/2"]`) && strings.Contains(pgn, `[Event "Club night"]`) && strings.Contains(pgn, "4. d3 Bc5 1/2-1/2")
	})
	hp.cmd.Process.Signal(syscall.SIGTERM)
	if err := hp.wait(t, 10*time.Second); err != nil {
		t.Errorf("boardd hall on SIGTERM: %v", err)
	}
	// Nothing on the board's card could act as the hall's arbiter.
	signing, err := os.ReadFile(filepath.Join(hallDir, actionsig.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(boardDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(token)) || bytes.Contains(data, bytes.TrimSpace(signing)) {
			t.Errorf("the board's %s holds the hall's arbiter token or signing key", path)
		}
		return nil
	})
}

func hallUCI(t *testing.T, base, id string) []string {
	t.Helper()
	res, err := http.Get(base + "/api/hall/boards/" + id + "/moves")
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	var moves []struct {
		UCI string `json:"uci"`
	}
	if json.NewDecoder(res.Body).Decode(&moves) != nil {
		return nil
	}
	var out []string
	for _, m := range moves {
		out = append(out, m.UCI)
	}
	return out
}

func waitUntil(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting %v for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
