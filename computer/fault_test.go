package computer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeOptions are the options of the fault tests: virtual time, a move time
// of 1s, so that a search's watchdog fires at 1s+3s after it starts and a
// hung engine is given up 2s later; restarts wait 1s, 2s, 4s.
func fakeOptions(t testing.TB, path string, vt *virtualTime) Options {
	return Options{
		Path:             path,
		Level:            Level{Strength: StrengthFull, Limit: Limit{MoveTime: time.Second}},
		HandshakeTimeout: 10 * time.Second,
		Grace:            3 * time.Second,
		StopGrace:        2 * time.Second,
		MinBackoff:       time.Second,
		MaxBackoff:       8 * time.Second,
		Clock:            vt,
		Wait:             vt.Wait,
		Logger:           testLogger(t),
	}
}

// received returns the lines start number n of a fake engine received.
func received(t testing.TB, path string, n int) []string {
	t.Helper()
	var out []string
	prefix := strconv.Itoa(n) + " "
	for _, l := range fakeLog(t, path) {
		if strings.HasPrefix(l, prefix) {
			out = append(out, strings.TrimPrefix(l, prefix))
		}
	}
	return out
}

// waitReceived blocks until start n of the fake has received a line starting
// with prefix.
func waitReceived(t testing.TB, path string, n int, prefix string) {
	t.Helper()
	giveUp := time.Now().Add(20 * time.Second)
	for time.Now().Before(giveUp) {
		for _, l := range received(t, path, n) {
			if strings.HasPrefix(l, prefix) {
				return
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("start %d of the fake never received %q; it received %q", n, prefix, received(t, path, n))
}

// step is a deadline the test moves the virtual clock to, once start number
// start of the fake (if not 0) has received a line beginning with got: a
// handshake deadline must not pass before the engine could have answered.
type step struct {
	until time.Duration
	start int
	got   string
}

// at is a step with no condition.
func at(d time.Duration) step { return step{until: d} }

// walk takes the virtual clock through steps.
func walk(t testing.TB, vt *virtualTime, path string, steps []step) {
	t.Helper()
	for _, s := range steps {
		if s.start > 0 {
			waitReceived(t, path, s.start, s.got)
		}
		vt.waitFor(t, s.until)
	}
}

func asFault(t testing.TB, err error) *FaultError {
	t.Helper()
	var fe *FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("%v is no *FaultError", err)
	}
	return fe
}

// Each misbehaviour of an engine mid-game is reported as what it is, with the
// engine's name, and the player restarts the engine and gives it the position
// again: the request is answered all the same.
func TestFaultRecovered(t *testing.T) {
	moves := []string{"e2e4", "e7e5"}
	for _, tc := range []struct {
		name  string
		modes []string
		steps []step
		want  [][]string // each recovered fault's message has these
	}{
		{"crash mid-search", []string{"crash-search", "good"}, []step{at(1 * time.Second)},
			[][]string{{"computer: engine Fake Engine 1.0 (", "crashed while searching: its process ended"}}},
		{"hang without bestmove", []string{"hang-search", "good"}, []step{at(4 * time.Second), at(6 * time.Second), at(7 * time.Second)},
			[][]string{{`hung while searching: no "bestmove" 2s after "stop" (sent 4s into a search expected to last 1s)`}}},
		{"garbage bestmove", []string{"garbage", "good"}, []step{at(1 * time.Second)},
			[][]string{{`answered garbage while searching: "bestmove ???"`, `; its last words: "bestmove ???"`}}},
		{"illegal bestmove", []string{"illegal", "good"}, []step{at(1 * time.Second)},
			[][]string{{`answered garbage while searching: "bestmove a1a1": a1a1 is not a legal move in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2`}}},
		{"no uciok after a restart", []string{"crash-search", "no-uciok", "good"}, []step{at(1 * time.Second), {until: 11 * time.Second, start: 2, got: "uci"}, at(13 * time.Second)},
			[][]string{{"crashed while searching"}, {`no handshake while starting: no "uciok" after "uci" within 10s`}}},
		{"crash at restart", []string{"crash-search", "crash-start", "good"}, []step{at(1 * time.Second), at(3 * time.Second)},
			[][]string{{"crashed while searching"}, {"crashed while starting: its process ended"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vt := newVirtualTime()
			path := fakeEngine(t, tc.modes...)
			p := startPlayer(t, fakeOptions(t, path, vt))
			ch := p.Think(context.Background(), Request{Moves: moves})
			walk(t, vt, path, tc.steps)
			r := result(t, ch)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if r.Reply.UCI != "a2a3" || r.Reply.Engine != "Fake Engine 1.0" {
				t.Errorf("reply %+v", r.Reply)
			}
			if len(r.Reply.Faults) != len(tc.want) {
				t.Fatalf("faults %q, want %d", r.Reply.Faults, len(tc.want))
			}
			for i, want := range tc.want {
				msg := r.Reply.Faults[i].Error()
				for _, w := range append(want, path) {
					if !strings.Contains(msg, w) {
						t.Errorf("fault %d %q lacks %q", i, msg, w)
					}
				}
			}
			// The last start was given the game again.
			last := len(tc.modes)
			got := received(t, path, last)
			if !slices.Contains(got, "position startpos moves e2e4 e7e5") || !slices.Contains(got, "go movetime 1000") {
				t.Errorf("start %d received %q", last, got)
			}
		})
	}
}

// An engine that fails again after its restart fails the request with both
// faults; the next request starts it once more.
func TestFaultTwice(t *testing.T) {
	for _, tc := range []struct {
		name      string
		modes     []string
		steps     []step
		want      []string
		nextSteps []step
	}{
		{"crashes again", []string{"crash-search", "crash-search", "good"}, []step{at(time.Second)},
			[]string{"crashed while searching", "; restarted, given the position again, it failed again: ", "crashed while searching"},
			[]step{at(2 * time.Second)}},
		{"hangs again", []string{"hang-search", "hang-search", "good"},
			[]step{at(4 * time.Second), at(6 * time.Second), at(7 * time.Second), at(11 * time.Second), at(13 * time.Second)},
			[]string{"hung while searching", "failed again", "hung while searching"},
			[]step{at(14 * time.Second)}},
		{"answers garbage again", []string{"garbage", "illegal", "good"}, []step{at(time.Second)},
			[]string{`"bestmove ???"`, "failed again", `"bestmove a1a1"`},
			[]step{at(2 * time.Second)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vt := newVirtualTime()
			path := fakeEngine(t, tc.modes...)
			p := startPlayer(t, fakeOptions(t, path, vt))
			ch := p.Think(context.Background(), Request{})
			walk(t, vt, path, tc.steps)
			r := result(t, ch)
			if r.Err == nil {
				t.Fatalf("reply %+v, want an error", r.Reply)
			}
			msg := r.Err.Error()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error %q lacks %q after byte %d", msg, w, at)
				}
				at += i + len(w)
			}
			if fe := asFault(t, r.Err); fe.Engine != "Fake Engine 1.0" {
				t.Errorf("fault names %q", fe.Engine)
			}
			ch = p.Think(context.Background(), Request{})
			walk(t, vt, path, tc.nextSteps)
			if r := result(t, ch); r.Err != nil || r.Reply.UCI != "a2a3" || len(r.Reply.Faults) != 0 {
				t.Fatalf("next request: %+v", r)
			}
		})
	}
}

// An engine that is gone when it must be restarted: the restarts are
// bounded, each waits longer, and the error says the engine is missing.
func TestFaultEngineRemoved(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "crash-search")
	p := startPlayer(t, fakeOptions(t, path, vt))
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	ch := p.Think(context.Background(), Request{})
	walk(t, vt, path, []step{at(1 * time.Second), at(3 * time.Second), at(7 * time.Second)})
	r := result(t, ch)
	if r.Err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{"crashed while searching", "gave up after 3 attempts to restart the engine", "cannot start while starting", "no such file"} {
		if !strings.Contains(r.Err.Error(), w) {
			t.Errorf("error %q lacks %q", r.Err, w)
		}
	}
	if got := received(t, path, 2); len(got) != 0 {
		t.Errorf("a second start happened: %q", got)
	}
}

// An engine that cannot be started, or does not finish its handshake, is
// Start's error.
func TestFaultAtStart(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "engine.txt")
	if err := os.WriteFile(notExec, []byte("id name nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		path  string
		steps []step
		fault Fault
		want  string
	}{
		{"missing", filepath.Join(dir, "no-such-engine"), nil, FaultMissing, "no such file or directory"},
		{"not a program", notExec, nil, FaultMissing, "permission denied"},
		{"exits at once", fakeEngine(t, "crash-start"), nil, FaultCrashed, "crashed while starting: its process ended"},
		{"never says uciok", fakeEngine(t, "no-uciok"), []step{{until: 10 * time.Second, start: 1, got: "uci"}}, FaultHandshake, `no "uciok" after "uci" within 10s`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vt := newVirtualTime()
			errc := make(chan error, 1)
			go func() {
				p, err := Start(context.Background(), fakeOptions(t, tc.path, vt))
				if err == nil {
					p.Close()
				}
				errc <- err
			}()
			walk(t, vt, tc.path, tc.steps)
			err := <-errc
			if err == nil {
				t.Fatal("started")
			}
			fe := asFault(t, err)
			if fe.Fault != tc.fault || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q: want fault %v with %q and the path", err, tc.fault, tc.want)
			}
		})
	}
}

// A cancelled request sends "stop" after its "go" and is answered with the
// cancellation; the engine, which answered the stop, carries on without a
// restart.
func TestCancel(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "slow")
	p := startPlayer(t, fakeOptions(t, path, vt))
	ctx, cancel := context.WithCancel(context.Background())
	ch := p.Think(ctx, Request{})
	waitReceived(t, path, 1, "go ")
	select {
	case r := <-ch:
		t.Fatalf("answered before the engine: %+v", r)
	default:
	}
	cancel()
	r := result(t, ch)
	if !errors.Is(r.Err, context.Canceled) || !strings.Contains(r.Err.Error(), "computer: request cancelled") {
		t.Fatalf("result %+v", r)
	}
	got := received(t, path, 1)
	if i := slices.Index(got, "go movetime 1000"); i < 0 || !slices.Contains(got[i:], "stop") {
		t.Errorf("engine received %q: want stop after go", got)
	}
	// The slow engine answers only "stop": the watchdog sends it when the
	// search overruns its move time and grace, and the move stands.
	ch = p.Think(context.Background(), Request{Moves: []string{"e2e4"}})
	vt.waitFor(t, 4*time.Second)
	r = result(t, ch)
	if r.Err != nil || r.Reply.UCI != "a7a5" || len(r.Reply.Faults) != 0 {
		t.Fatalf("result %+v", r)
	}
	if got := received(t, path, 2); len(got) != 0 {
		t.Errorf("the engine was restarted: %q", got)
	}
}

// A cancelled request whose engine does not answer "stop" is still answered
// with the cancellation; the hung engine is killed and the next request
// restarts it.
func TestCancelHung(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "hang-search", "good")
	p := startPlayer(t, fakeOptions(t, path, vt))
	ctx, cancel := context.WithCancel(context.Background())
	ch := p.Think(ctx, Request{})
	waitReceived(t, path, 1, "go ")
	cancel()
	vt.waitFor(t, 2*time.Second)
	if r := result(t, ch); !errors.Is(r.Err, context.Canceled) {
		t.Fatalf("result %+v", r)
	}
	ch = p.Think(context.Background(), Request{})
	vt.waitFor(t, 3*time.Second)
	if r := result(t, ch); r.Err != nil || r.Reply.UCI != "a2a3" {
		t.Fatalf("result %+v", r)
	}
}

// Closing the player stops a search, answers it and the waiting requests
// with ErrClosed, and quits the engine; later requests get ErrClosed at once.
func TestClose(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "slow")
	p, err := Start(context.Background(), fakeOptions(t, path, vt))
	if err != nil {
		t.Fatal(err)
	}
	searching := p.Think(context.Background(), Request{})
	waiting := p.Hint(context.Background(), Request{})
	waitReceived(t, path, 1, "go ")
	p.Close()
	for _, ch := range []<-chan Result{searching, waiting, p.Think(context.Background(), Request{})} {
		if r := result(t, ch); !errors.Is(r.Err, ErrClosed) {
			t.Errorf("result %+v, want ErrClosed", r)
		}
	}
	got := received(t, path, 1)
	if !slices.Contains(got, "stop") || got[len(got)-1] != "quit" {
		t.Errorf("engine received %q", got)
	}
}

// The player closes when the context it was started with ends.
func TestContextEndsPlayer(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "good")
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, fakeOptions(t, path, vt))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-p.done
	if r := result(t, p.Think(context.Background(), Request{})); !errors.Is(r.Err, ErrClosed) {
		t.Errorf("result %+v", r)
	}
}

// A fault met while answering a request that is then withdrawn (an
// evaluation cancelled as the player moves, while the engine is restarted)
// is not lost: the next reply lists it, so the console still tells of it.
func TestFaultOfCancelledRequestReported(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "crash-search", "good")
	p := startPlayer(t, fakeOptions(t, path, vt))
	ctx, cancel := context.WithCancel(context.Background())
	ch := p.Evaluate(ctx, Request{Moves: []string{"e2e4"}})
	// The engine crashes on "go"; the player waits 1s to restart it.
	giveUp := time.Now().Add(20 * time.Second)
	for !slices.Contains(vt.pending(), time.Second) {
		if time.Now().After(giveUp) {
			t.Fatalf("no restart awaited; deadlines %v", vt.pending())
		}
		time.Sleep(2 * time.Millisecond)
	}
	cancel()
	if r := result(t, ch); !errors.Is(r.Err, context.Canceled) {
		t.Fatalf("the withdrawn evaluation: %+v", r)
	}
	ch = p.Think(context.Background(), Request{Moves: []string{"e2e4", "e7e5"}})
	walk(t, vt, path, []step{at(time.Second)}) // the restart's wait, from 0s
	r := result(t, ch)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if len(r.Reply.Faults) != 1 || !strings.Contains(r.Reply.Faults[0].Error(), "crashed while searching") {
		t.Errorf("the next reply's faults %q, want the crash of the withdrawn request", r.Reply.Faults)
	}
	// The reply after it has nothing more to tell.
	ch = p.Think(context.Background(), Request{Moves: []string{"e2e4", "e7e5", "a2a3", "a7a6"}})
	if r := result(t, ch); r.Err != nil || len(r.Reply.Faults) != 0 {
		t.Errorf("the reply after: %+v", r)
	}
}
