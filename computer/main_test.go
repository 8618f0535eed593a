package computer

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// The tests' fake engine is this test binary run again under another name:
// fakeEngine makes a symbolic link to it called "fakeengine-MODES", and
// TestMain, seeing that name, plays the engine instead of running tests. The
// rules library starts an engine with no arguments and this process's
// environment, so the name is the one way to tell each fake what to do.
//
// MODES is a list of modes joined by "+": the fake's first start behaves as
// the first, its second start as the second, and so on, the last repeating.
// It counts its starts in NAME.starts and writes every line it receives to
// NAME.log as "START LINE", for the tests to read.
const fakePrefix = "fakeengine-"

func TestMain(m *testing.M) {
	if base := filepath.Base(os.Args[0]); strings.HasPrefix(base, fakePrefix) {
		os.Exit(runFakeEngine(os.Args[0], strings.TrimPrefix(base, fakePrefix), os.Stdin, os.Stdout))
	}
	// A binary built with -race sleeps a second before it exits; the fakes
	// inherit this setting, so that a fake that quits or crashes is gone at
	// once.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fakeEngine returns the path of a fake engine playing modes.
func fakeEngine(t testing.TB, modes ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fakePrefix+strings.Join(modes, "+"))
	if err := os.Symlink(self, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeLog returns the lines a fake engine received, each prefixed with the
// number of the start that received it.
func fakeLog(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path + ".log")
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// The fake's modes. Every mode answers the handshake; what it does on "go":
//
//	good     the first legal move in UCI order, with an info line (cp 17)
//	noelo    as good, without UCI_Elo and UCI_LimitStrength
//	plain    as good, with no strength options at all
//	bench    as good, and writes the time it writes bestmove to NAME.stamps
//	slow     waits for "stop", then answers as good
//	crash-search   writes an info line and exits with status 3
//	crash-start    exits with status 3 at once, before reading anything
//	hang-search    writes an info line and never answers, not even "stop"
//	garbage        answers "bestmove ???"
//	illegal        answers "bestmove a1a1"
//	no-uciok       answers "uci" with its id and options but no "uciok"
func runFakeEngine(self, spec string, in io.Reader, out io.Writer) int {
	starts := 1
	if data, err := os.ReadFile(self + ".starts"); err == nil {
		starts, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		starts++
	}
	if err := os.WriteFile(self+".starts", []byte(strconv.Itoa(starts)), 0o644); err != nil {
		return 1
	}
	modes := strings.Split(spec, "+")
	mode := modes[min(starts, len(modes))-1]
	if mode == "crash-start" {
		return 3
	}
	logf, err := os.OpenFile(self+".log", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 1
	}
	defer logf.Close()
	var stamps *os.File
	if mode == "bench" {
		if stamps, err = os.OpenFile(self+".stamps", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			return 1
		}
		defer stamps.Close()
	}
	w := bufio.NewWriter(out)
	say := func(lines ...string) {
		for _, l := range lines {
			w.WriteString(l)
			w.WriteByte('\n')
		}
		w.Flush()
	}
	pos := board.Start()
	waiting := false
	answer := func() {
		a, err := board.Analyse(pos)
		if err != nil || len(a.Moves) == 0 {
			say("bestmove (none)")
			return
		}
		moves := make([]string, len(a.Moves))
		for i, m := range a.Moves {
			moves[i] = m.UCI()
		}
		sort.Strings(moves)
		say("info depth 1 seldepth 2 multipv 1 score cp 17 nodes 42 nps 42000 time 1 pv " + moves[0])
		if stamps != nil {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], uint64(time.Now().UnixNano()))
			stamps.Write(b[:])
		}
		say("bestmove " + moves[0])
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		fmt.Fprintf(logf, "%d %s\n", starts, line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "uci":
			say("id name Fake Engine 1.0", "id author the boardd tests",
				"option name Hash type spin default 16 min 1 max 33554432",
				"option name Threads type spin default 1 min 1 max 1024",
				"option name Move Overhead type spin default 10 min 0 max 5000")
			if mode != "plain" {
				say("option name Skill Level type spin default 20 min 0 max 20")
			}
			if mode != "plain" && mode != "noelo" {
				say("option name UCI_LimitStrength type check default false",
					"option name UCI_Elo type spin default 1350 min 1350 max 2850")
			}
			if mode != "no-uciok" {
				say("uciok")
			}
		case "isready":
			say("readyok")
		case "position":
			p, err := fakePosition(fields[1:])
			if err != nil {
				say("info string " + err.Error())
			}
			pos = p
		case "go":
			switch mode {
			case "crash-search":
				say("info depth 1 score cp 5 pv e2e4")
				return 3
			case "hang-search":
				say("info depth 1 score cp 5 pv e2e4")
			case "garbage":
				say("bestmove ???")
			case "illegal":
				say("bestmove a1a1")
			case "slow":
				waiting = true
			default:
				answer()
			}
		case "stop":
			if waiting {
				waiting = false
				answer()
			}
		case "quit":
			return 0
		}
	}
	return 0
}

// fakePosition reads the arguments of a "position" command.
func fakePosition(args []string) (board.Position, error) {
	var pos board.Position
	var err error
	switch {
	case len(args) >= 1 && args[0] == "startpos":
		pos, args = board.Start(), args[1:]
	case len(args) >= 7 && args[0] == "fen":
		if pos, err = board.ParseFEN(strings.Join(args[1:7], " ")); err != nil {
			return board.Start(), err
		}
		args = args[7:]
	default:
		return board.Start(), fmt.Errorf("bad position %q", args)
	}
	if len(args) > 0 && args[0] == "moves" {
		for _, t := range args[1:] {
			m, err := board.ParseUCI(t)
			if err != nil {
				return pos, err
			}
			pos = pos.Apply(m)
		}
	}
	return pos, nil
}

// virtualTime is an injected clock whose timers fire only when the test
// moves it, and which shows the test the deadlines being waited for.
type virtualTime struct {
	mu      sync.Mutex
	now     time.Duration
	waiters map[*virtualWaiter]bool
	changed chan struct{} // closed, and replaced, at every change
}

type virtualWaiter struct {
	until time.Duration
	fire  chan struct{}
}

func newVirtualTime() *virtualTime {
	return &virtualTime{waiters: map[*virtualWaiter]bool{}, changed: make(chan struct{})}
}

func (v *virtualTime) Now() time.Duration {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

func (v *virtualTime) notify() {
	close(v.changed)
	v.changed = make(chan struct{})
}

// Wait is Options.Wait on virtual time.
func (v *virtualTime) Wait(ctx context.Context, until time.Duration) error {
	v.mu.Lock()
	if until <= v.now {
		v.mu.Unlock()
		return ctx.Err()
	}
	w := &virtualWaiter{until: until, fire: make(chan struct{})}
	v.waiters[w] = true
	v.notify()
	v.mu.Unlock()
	select {
	case <-w.fire:
		return nil
	case <-ctx.Done():
		v.mu.Lock()
		delete(v.waiters, w)
		v.notify()
		v.mu.Unlock()
		return ctx.Err()
	}
}

// advanceTo moves the time to t and fires the timers it reaches.
func (v *virtualTime) advanceTo(t time.Duration) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if t > v.now {
		v.now = t
	}
	for w := range v.waiters {
		if w.until <= v.now {
			close(w.fire)
			delete(v.waiters, w)
		}
	}
	v.notify()
}

// pending lists the deadlines waited for, earliest first.
func (v *virtualTime) pending() []time.Duration {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []time.Duration
	for w := range v.waiters {
		out = append(out, w.until)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// waitFor blocks until someone waits for the deadline until, then moves the
// time there. It fails the test if nobody does within ten real seconds.
func (v *virtualTime) waitFor(t testing.TB, until time.Duration) {
	t.Helper()
	giveUp := time.After(10 * time.Second)
	for {
		v.mu.Lock()
		found := false
		for w := range v.waiters {
			found = found || w.until == until
		}
		changed := v.changed
		v.mu.Unlock()
		if found {
			v.advanceTo(until)
			return
		}
		select {
		case <-changed:
		case <-giveUp:
			t.Fatalf("nobody waited for %v (now %v); deadlines waited for: %v", until, v.Now(), v.pending())
		}
	}
}

// result waits for a request's result, failing the test after a minute.
func result(t testing.TB, ch <-chan Result) Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Minute):
		t.Fatal("no result within a minute")
		return Result{}
	}
}

// testLogger writes the player's log to the test's log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
