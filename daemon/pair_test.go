package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"context"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/opponent/opponenttest"
)

// TestPairedBoards runs two boards paired on this machine, over a direct
// TCP link and through a real Mosquitto with the shipped access list: the
// sighted player's (White) and the blind player's (Black, speaking by
// Appendix D through a fake espeak-ng). Each board's moves reach the
// other, are announced there, carried out, and the two journals end alike.
func TestPairedBoards(t *testing.T) {
	t.Run("direct", func(t *testing.T) {
		pairedBoards(t, func(a Options) Options {
			a.Pair = "listen:127.0.0.1:0"
			return a
		}, func(a *running, b Options) Options {
			m := regexp.MustCompile(`waiting for the other board" part=pair addr=(\S+)`).FindStringSubmatch(a.log.String())
			if m == nil {
				t.Fatalf("no address in the log:\n%s", a.log.String())
			}
			b.Pair = "connect:" + m[1]
			return b
		})
	})
	t.Run("hall", func(t *testing.T) {
		if _, err := mosquittotest.Path(); err != nil {
			t.Skipf("mosquitto is not installed (apt-get install mosquitto): %v", err)
		}
		passwords := map[string]string{"b1": "b1-secret-1", "b2": "b2-secret-1"}
		mq, err := mosquittotest.Start(mosquittotest.Options{Dir: t.TempDir(), Passwords: passwords,
			ACLFile: filepath.Join("..", "systemd", "mosquitto", "boardd.acl")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { mq.Stop() })
		withHall := func(o Options, self, other string) Options {
			if err := os.MkdirAll(o.StateDir, 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(o.StateDir, broker.PasswordFile), []byte(passwords[self]+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			o.Hall, o.BoardID, o.Pair = mq.URL(), self, "hall:"+other
			return o
		}
		pairedBoards(t, func(a Options) Options { return withHall(a, "b1", "b2") },
			func(_ *running, b Options) Options { return withHall(b, "b2", "b1") })
	})
}

// pairedBoards plays the opening on two paired boards, the link made by
// linkA and linkB.
func pairedBoards(t *testing.T, linkA func(Options) Options, linkB func(*running, Options) Options) {
	dir := t.TempDir()
	said, cfg := fakeSpeech(t, dir)

	inA, feedA := io.Pipe()
	inB, feedB := io.Pipe()
	t.Cleanup(func() { feedA.Close(); feedB.Close() })
	stateA, stateB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	a := runDaemon(t, linkA(Options{StateDir: stateA, Listen: "127.0.0.1:0", BoardID: "sighted", Input: "-", Stdin: inA, PairSide: "white"}))
	b := runDaemon(t, linkB(a, Options{Config: cfg, StateDir: stateB, Listen: "127.0.0.1:0", BoardID: "blind", Input: "-", Stdin: inB,
		PairSide: "black", Voice: "en", VoiceConvention: "appendix-d"}))

	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				got, _ := os.ReadFile(said)
				t.Fatalf("waiting for %s: journals %v and %v; said:\n%s", what, journalMoves(t, stateA), journalMoves(t, stateB), got)
			}
		}
	}
	saidLine := func(line string) func() bool {
		return func() bool {
			got, _ := os.ReadFile(said)
			return strings.Contains(string(got), line+"\n")
		}
	}
	moves := func(state string, n int) func() bool {
		return func() bool { return len(journalMoves(t, state)) == n }
	}

	go feedA.Write(moveLines(t, "e2e4"))
	waitUntil("e2e4 announced on the blind board", saidLine("White plays Bauer Eva zwei Eva vier. Make the move on the board."))
	go feedB.Write(moveLines(t, "e2e4", "e7e5")) // White's carried out, then Black's own
	waitUntil("two moves on the blind board", moves(stateB, 2))
	waitUntil("e7e5 shown on the sighted board", func() bool {
		return strings.Contains(a.log.String(), `msg="opponent: move" part=pair move=e5`)
	})
	go feedA.Write([]byte("{\"t\":100,\"lift\":\"e7\"}\n{\"t\":160,\"place\":\"e5\"}\n")) // Black's move carried out
	waitUntil("two moves on the sighted board", moves(stateA, 2))
	if ma, mb := journalMoves(t, stateA), journalMoves(t, stateB); strings.Join(ma, " ") != "e2e4 e7e5" || strings.Join(mb, " ") != "e2e4 e7e5" {
		t.Errorf("the journals: %v and %v, want e2e4 e7e5 on both", ma, mb)
	}
	waitUntil("Black's own move said", saidLine("Bauer Eva sieben Eva fuenf"))

	// White offers a draw with his next move (fide2023:9.1.2.1): the blind
	// player's board says so and shows it, and his acceptance there ends
	// the game drawn on both boards.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	token := func(state string) string {
		tok, err := os.ReadFile(filepath.Join(state, console.TokenFile))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(tok))
	}
	id := func(r *running) string {
		m := regexp.MustCompile(`msg=console url=\S+ board=(\S+)`).FindStringSubmatch(r.log.String())
		if m == nil {
			t.Fatalf("no board id in the log:\n%s", r.log.String())
		}
		return m[1]
	}
	doorA := &opponenttest.ConsoleDoor{Board: a.url + "/api/boards/" + id(a), Token: token(stateA)}
	doorB := &opponenttest.ConsoleDoor{Board: b.url + "/api/boards/" + id(b), Token: token(stateB)}
	if err := doorA.Command(ctx, "draw", ""); err != nil {
		t.Fatalf("White's draw offer: %v", err)
	}
	go feedA.Write([]byte("{\"t\":200,\"lift\":\"g1\"}\n{\"t\":260,\"place\":\"f3\"}\n"))
	waitUntil("the offer said on the blind board", saidLine("White offers a draw. Accept with the check button on White's side, or the console's Offer a draw; decline by moving."))
	st, err := doorB.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pair == nil || st.Pair.DrawOffer != "white" || st.Pair.Law != "fide2023:9.1.2.1" {
		t.Errorf("the blind board's console shows the pairing as %+v, want White's draw offer (fide2023:9.1.2.1)", st.Pair)
	}
	go feedB.Write([]byte("{\"t\":2000,\"lift\":\"g1\"}\n{\"t\":2060,\"place\":\"f3\"}\n")) // White's move carried out
	waitUntil("three moves on the blind board", moves(stateB, 3))
	if err := doorB.Command(ctx, "draw", ""); err != nil {
		t.Fatalf("Black's acceptance: %v", err)
	}
	for _, door := range []*opponenttest.ConsoleDoor{doorA, doorB} {
		waitUntil("the draw on "+door.Board, func() bool {
			st, err := door.State(ctx)
			return err == nil && st.Result != nil && st.Result.Result == "1/2-1/2"
		})
	}
}

func TestPairFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{PairSide: "white"}, "--pair-side \"white\" without --pair"},
		{Options{Pair: "connect:x:1", PairSide: "green"}, "--pair-side \"green\""},
		{Options{Pair: "shout:x", PairSide: "white"}, "want hall:BOARD"},
		{Options{Pair: "listen:127.0.0.1:0", PairSide: "white", Engine: "/bin/true"}, "no --engine or --lichess"},
		{Options{Pair: "hall:b2", PairSide: "white"}, "needs --hall"},
		{Options{Pair: "connect:127.0.0.1:9", PairSide: "black", Laws: "fide2023", VisuallyImpaired: "white"}, "--visually-impaired white with --pair-side black"},
	} {
		d, _ := testDaemon(t, c.o)
		if err := d.configure(); err != nil && c.o.Engine == "" {
			t.Fatal(err)
		}
		d.cfg.Engine.Path = c.o.Engine
		err := d.startPair()
		var ue UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a usage error containing %q", c.o, err, c.want)
		}
	}
}

// The configuration's [pair] pairs the board without flags, and each flag
// given wins over its key.
func TestPairFromConfig(t *testing.T) {
	cfg := writeFile(t, "boardd.toml", "[pair]\nwith = \"connect:127.0.0.1:9\"\nside = \"white\"\n")
	for _, c := range []struct {
		name       string
		o          Options
		with, side string
	}{
		{"the file alone", Options{Config: cfg}, "connect:127.0.0.1:9", "white"},
		{"--pair-side wins", Options{Config: cfg, PairSide: "black"}, "connect:127.0.0.1:9", "black"},
		{"--pair wins", Options{Config: cfg, Pair: "listen:127.0.0.1:0"}, "listen:127.0.0.1:0", "white"},
		{"no file", Options{Pair: "connect:127.0.0.1:9", PairSide: "black"}, "connect:127.0.0.1:9", "black"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.StateDir = t.TempDir()
			d, _ := testDaemon(t, c.o)
			if err := d.configure(); err != nil {
				t.Fatal(err)
			}
			if with, side := d.pairSettings(); with != c.with || side != c.side {
				t.Errorf("paired with %q playing %q, want %q playing %q", with, side, c.with, c.side)
			}
		})
	}
}

// Two boards that both play White disagree about whose move it is: the
// blind player's board says so aloud, and neither takes the other's move.
func TestPairedBoardsDifferenceSaid(t *testing.T) {
	dir := t.TempDir()
	said, cfg := fakeSpeech(t, dir)
	inA, feedA := io.Pipe()
	inB, feedB := io.Pipe()
	t.Cleanup(func() { feedA.Close(); feedB.Close() })
	stateA, stateB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	a := runDaemon(t, Options{StateDir: stateA, Listen: "127.0.0.1:0", BoardID: "a", Input: "-", Stdin: inA, PairSide: "white", Pair: "listen:127.0.0.1:0"})
	m := regexp.MustCompile(`waiting for the other board" part=pair addr=(\S+)`).FindStringSubmatch(a.log.String())
	if m == nil {
		t.Fatalf("no address in the log:\n%s", a.log.String())
	}
	b := runDaemon(t, Options{Config: cfg, StateDir: stateB, Listen: "127.0.0.1:0", BoardID: "b", Input: "-", Stdin: inB,
		PairSide: "white", Pair: "connect:" + m[1], Voice: "en"})
	go feedA.Write(moveLines(t, "e2e4"))
	for deadline := time.Now().Add(10 * time.Second); len(journalMoves(t, stateA)) < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("e2e4 never made on the first board")
		}
	}
	go feedB.Write(moveLines(t, "d2d4"))
	want := "The boards differ: both boards play white: whose move it is is in doubt. Call the arbiter."
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, _ := os.ReadFile(said)
		if strings.Contains(string(got), want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the blind board said:\n%s\nwant a line %q", got, want)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); len(journalMoves(t, stateB)) < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("d2d4 never made on the second board")
		}
	}
	if ma, mb := journalMoves(t, stateA), journalMoves(t, stateB); strings.Join(ma, " ") != "e2e4" || strings.Join(mb, " ") != "d2d4" {
		t.Errorf("the journals: %v and %v, want e2e4 and d2d4 alone", ma, mb)
	}
	// The console shows the difference as the arbiter's, not as the
	// opponent's fault.
	var st console.State
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st = consoleState(t, b.url+"/api/boards/b/state")
		if st.Pair != nil && st.Pair.Differ != nil && len(st.Pair.Differ.HereMoves) == 1 || time.Now().After(deadline) {
			break
		}
	}
	if st.Pair == nil || st.Pair.Differ == nil || st.Pair.Other != m[1] || !strings.Contains(st.Pair.Differ.Why, "both boards play white") ||
		strings.Join(st.Pair.Differ.HereMoves, " ") != "d2d4" || strings.Join(st.Pair.Differ.ThereMoves, " ") != "e2e4" || st.Pair.Differ.Since.IsZero() {
		t.Errorf("the console's pair: %+v %+v", st.Pair, st.Pair.Differ)
	} else if st.Opponent == nil || st.Opponent.Fault != "" {
		t.Errorf("the difference shows as the opponent's fault: %+v", st.Opponent)
	}

	// The first board goes away: the blind board says so, and the console
	// tells it.
	a.stop()
	gone := "The other board has gone away; the game waits for it."
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, _ := os.ReadFile(said)
		if strings.Contains(string(got), gone) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the blind board said:\n%s\nwant a line %q", got, gone)
		}
	}
	if st := consoleState(t, b.url+"/api/boards/b/state"); st.Pair == nil || st.Pair.Gone != "board" || !slices.Contains(st.Notices, "The other board ("+m[1]+") has gone away; the game waits for it.") {
		t.Errorf("the console after the other board went: %+v, notices %q", st.Pair, st.Notices)
	}
}

// consoleState reads a board's state from its console.
func consoleState(t *testing.T, url string) console.State {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st console.State
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return st
}

// fakeSpeech writes, in dir, a speech program that appends each line it is
// given to a file, and a configuration naming it: the file's path (said)
// and the configuration's (cfg).
func fakeSpeech(t *testing.T, dir string) (said, cfg string) {
	t.Helper()
	said = filepath.Join(dir, "said.txt")
	program := filepath.Join(dir, "fake-espeak")
	if err := os.WriteFile(program, []byte(fmt.Sprintf("#!/bin/sh\ncat >>%q\necho >>%q\n", said, said)), 0o755); err != nil {
		t.Fatal(err)
	}
	return said, writeFile(t, "boardd.toml", fmt.Sprintf("[voice]\nprogram = %q\n", program))
}

// fakeOpponentSource is an opponent panel offering every command, noting
// those carried out.
type fakeOpponentSource struct{ done *[]string }

func (f fakeOpponentSource) Opponent() *console.Opponent {
	return &console.Opponent{Name: "board-02", Commands: opponent.Commands()}
}

func (f fakeOpponentSource) Command(_ context.Context, command, _ string) error {
	*f.done = append(*f.done, command)
	return nil
}

func (f fakeOpponentSource) Watch(func()) func() { return func() {} }

// A paired board's panel offers, and its API takes, only the commands both
// boards carry out: a hint, a new game, a side or a level would act on
// this board alone.
func TestPairedOpponentCommands(t *testing.T) {
	var done []string
	p := pairedOpponent{fakeOpponentSource{&done}}
	if got := strings.Join(p.Opponent().Commands, " "); got != "takeback resign draw" {
		t.Errorf("the panel offers %q, want takeback resign draw", got)
	}
	for _, c := range []struct {
		command string
		taken   bool
	}{
		{opponent.CommandTakeBack, true},
		{opponent.CommandDraw, true},
		{opponent.CommandResign, true},
		{opponent.CommandHint, false},
		{opponent.CommandNewGame, false},
		{opponent.CommandSide, false},
		{opponent.CommandLevel, false},
	} {
		done = done[:0]
		err := p.Command(t.Context(), c.command, "")
		var refused *console.RefusedError
		switch {
		case c.taken && (err != nil || len(done) != 1):
			t.Errorf("%s: %v, carried out %v; want it passed on", c.command, err, done)
		case !c.taken && (!errors.As(err, &refused) || len(done) != 0 || !strings.Contains(err.Error(), "this board alone")):
			t.Errorf("%s: %v, carried out %v; want it refused (409) saying why", c.command, err, done)
		}
	}
}
