package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// hold is a hand holding a man: the board runs in real time, and a man set
// back within the bump window is jostled, not touched.
func hold() { time.Sleep(game.DefaultBump + 80*time.Millisecond) }

func ledRoles(st State) map[string]string {
	out := map[string]string{}
	for _, l := range st.LEDs {
		out[l.Square] = l.Role + "/" + l.Blink
	}
	return out
}

func noteTypes(st State) []string {
	var out []string
	for _, n := range st.Notes {
		var r struct{ Type string }
		json.Unmarshal(n.Report, &r)
		out = append(out, r.Type+"@"+string(rune('0'+n.Ply)))
	}
	return out
}

// A touch-move violation under Sarratt (g1 touched, then e2-e4 played),
// followed over HTTP and the event stream: the options and their LEDs, the
// offended player's choice, the take-back with its LEDs, and the move the
// law then obliges.
func TestTouchMoveOverHTTP(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808"})
	s := r.stream(t)
	s.waitState(t, "the initial state", func(st State) bool { return st.Laws.ID == "sarratt1808" && st.Turn == "white" })

	r.input(t, `{"lift":"g1"}`)
	hold()
	r.input(t, `{"place":"g1"}`)
	r.input(t, `{"lift":"e2"}`)
	r.input(t, `{"place":"e4"}`)
	st := s.waitState(t, "the touch-move irregularity", func(st State) bool { return st.Pending != nil })
	p := st.Pending
	if p.Kind != "touch-move" || p.Law != "sarratt1808:7" || p.Offender != "white" || p.Chooser != "black" || optionIDs(p) != "[stand move-touched]" {
		t.Fatalf("pending %+v, want touch-move by white, black choosing stand or move-touched", p)
	}
	leds := ledRoles(st)
	if leds["e4"] != "option-1/slow" || leds["f3"] != "option-2/slow" || leds["h3"] != "option-2/slow" {
		t.Errorf("option LEDs %v", leds)
	}
	if st.Men["e4"] != "P" || st.Men["e2"] != "" {
		t.Errorf("men e4=%q e2=%q, want the pawn shown on e4", st.Men["e4"], st.Men["e2"])
	}
	if got := noteTypes(st); !slices.Equal(got, []string{"irregularity@0"}) {
		t.Errorf("notes %v, want the irregularity before the first move", got)
	}

	// White may not choose; a spectator may not rule; Black chooses.
	if status, out := r.post(t, "input", `{"choose":"stand","side":"white"}`, nil); status != http.StatusConflict || !strings.Contains(out["error"].(string), "white may not choose") {
		t.Errorf("white choosing: %d %v, want 409", status, out)
	}
	if status, _ := r.post(t, "arbiter", `{"action":"choose","option":"stand"}`, nil); status != http.StatusUnauthorized {
		t.Errorf("spectator ruling: %d, want 401", status)
	}
	r.input(t, `{"choose":"move-touched","side":"black"}`)
	st = s.waitState(t, "the take-back", func(st State) bool { return st.Pending == nil && st.Syncing })
	if !slices.Equal(st.Missing, []string{"e2"}) || !slices.Equal(st.Extra, []string{"e4"}) || st.Mismatch {
		t.Errorf("take-back missing %v extra %v mismatch %v, want e2 to fill and e4 to clear", st.Missing, st.Extra, st.Mismatch)
	}
	if leds := ledRoles(st); leds["e2"] != "guide/slow" || leds["e4"] != "extra/fast" {
		t.Errorf("take-back LEDs %v", leds)
	}
	if st.Lifted["e2"] != "P" || st.Men["e4"] != "P" {
		t.Errorf("lifted %v men e4 %q", st.Lifted, st.Men["e4"])
	}

	r.input(t, `{"lift":"e4"}`)
	r.input(t, `{"place":"e2"}`)
	st = s.waitState(t, "the knight obliged", func(st State) bool { return !st.Syncing && ledRoles(st)["g1"] == "must-move/steady" })
	if leds := ledRoles(st); leds["f3"] != "destination/slow" || leds["h3"] != "destination/slow" {
		t.Errorf("obligation LEDs %v", leds)
	}
	r.input(t, `{"lift":"g1"}`)
	r.input(t, `{"place":"f3"}`)
	st = s.waitState(t, "Nf3", hasMoves("Nf3"))
	if got := noteTypes(st); !slices.Equal(got, []string{"irregularity@0", "ruling@0", "synced@0"}) {
		t.Errorf("notes %v", got)
	}
}

// A mismatch: two men moved at once is no move; the board is out of step
// until both go back.
func TestMismatchOverHTTP(t *testing.T) {
	r := newRig(t, rigOptions{})
	s := r.stream(t)
	r.input(t, `{"lift":"e2"}`)
	r.input(t, `{"lift":"d2"}`)
	r.input(t, `{"place":"e4"}`)
	r.input(t, `{"place":"d4"}`)
	st := s.waitState(t, "the mismatch", func(st State) bool { return st.Mismatch })
	if !st.Syncing || !slices.Equal(st.Missing, []string{"d2", "e2"}) || !slices.Equal(st.Extra, []string{"d4", "e4"}) {
		t.Errorf("syncing %v missing %v extra %v", st.Syncing, st.Missing, st.Extra)
	}
	if leds := ledRoles(st); leds["d2"] != "missing/steady" || leds["e4"] != "extra/fast" {
		t.Errorf("mismatch LEDs %v", leds)
	}
	if sans(st) != "" || !slices.Equal(noteTypes(st), []string{"mismatch@0"}) {
		t.Errorf("moves %q notes %v, want no move and the mismatch", sans(st), noteTypes(st))
	}
	r.input(t, `{"lift":"e4"}`)
	r.input(t, `{"place":"e2"}`)
	r.input(t, `{"lift":"d4"}`)
	r.input(t, `{"place":"d2"}`)
	st = s.waitState(t, "the board matching again", func(st State) bool { return !st.Syncing })
	if st.Turn != "white" || len(st.Occupied) != 32 || !slices.Equal(noteTypes(st), []string{"mismatch@0", "synced@0"}) {
		t.Errorf("turn %s, %d men, notes %v", st.Turn, len(st.Occupied), noteTypes(st))
	}
}

// Reports reach the stream as report events, in order.
func TestReportEvents(t *testing.T) {
	r := newRig(t, rigOptions{})
	s := r.stream(t)
	r.input(t, `{"lift":"e2"}`)
	touch := s.waitReport(t, "touch")
	if touch["square"] != "e2" || touch["side"] != "white" {
		t.Errorf("touch report %v", touch)
	}
	r.input(t, `{"place":"e4"}`)
	move := s.waitReport(t, "move")
	if move["san"] != "e4" || move["uci"] != "e2e4" {
		t.Errorf("move report %v", move)
	}
}

// The men shown while the board is out of step follow the hands: in a
// capture the man set down is the capturer, though the game still has the
// captured man there. A virtual clock holds the move unsettled.
func TestMenFollowTheHands(t *testing.T) {
	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := &timing.Virtual{}
	runner := game.NewRunner(p, clock)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	defer func() { cancel(); <-done }()
	l, err := NewLocal(runner, LocalOptions{ID: "v", Simulated: true, Poll: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	now := time.Duration(0)
	play := func(lines ...string) {
		t.Helper()
		for _, text := range lines {
			now += 100 * time.Millisecond
			clock.Set(now)
			in, err := trace.Parse([]byte(`{"t":0,` + text + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Submit(ctx, in); err != nil {
				t.Fatalf("%s: %v", text, err)
			}
		}
	}
	settle := func() State {
		t.Helper()
		now += 2 * time.Second
		clock.Set(now)
		st, err := l.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	play(`"lift":"e2"`, `"place":"e4"`)
	st, _ := l.State(ctx)
	if st.Men["e4"] != "P" || st.Lifted["e2"] != "P" || len(st.Moves) != 0 {
		t.Fatalf("before settling: e4 %q, lifted %v, %d moves", st.Men["e4"], st.Lifted, len(st.Moves))
	}
	if st = settle(); sans(st) != "e4" {
		t.Fatalf("moves %q", sans(st))
	}
	play(`"lift":"d7"`, `"place":"d5"`)
	settle()
	play(`"lift":"d5"`, `"lift":"e4"`, `"place":"d5"`)
	st, _ = l.State(ctx)
	if st.Men["d5"] != "P" || st.Lifted["e4"] != "P" {
		t.Errorf("mid-capture: d5 %q (want the white pawn set down), lifted %v", st.Men["d5"], st.Lifted)
	}
	if st = settle(); sans(st) != "e4 d5 exd5" || st.Men["d5"] != "P" || len(st.Lifted) != 0 {
		t.Errorf("after the capture: moves %q, d5 %q, lifted %v", sans(st), st.Men["d5"], st.Lifted)
	}
	// The taker lifted first, then the man taken: the taker is set down,
	// the man taken stays in hand.
	play(`"lift":"g8"`, `"place":"f6"`)
	settle()
	play(`"lift":"c2"`, `"place":"c4"`)
	settle()
	play(`"lift":"f6"`, `"lift":"d5"`)
	st, _ = l.State(ctx)
	if got := fmt.Sprint(st.Hand); got != "[{n f6} {P d5}]" {
		t.Errorf("in hand %s, want the knight from f6 and the pawn from d5", got)
	}
	play(`"place":"d5"`)
	st, _ = l.State(ctx)
	if st.Men["d5"] != "n" || fmt.Sprint(st.Hand) != "[{P d5}]" {
		t.Errorf("mid-capture: d5 %q (want the black knight set down), in hand %v", st.Men["d5"], st.Hand)
	}
	if st = settle(); sans(st) != "e4 d5 exd5 Nf6 c4 Nxd5" || st.Men["d5"] != "n" || len(st.Hand) != 0 {
		t.Errorf("after the capture: moves %q, d5 %q, in hand %v", sans(st), st.Men["d5"], st.Hand)
	}
	// A raw frame makes the hands unknown: the game's men are shown.
	if err := l.Submit(ctx, trace.Line{Kind: trace.Frame, Occupancy: 0}); err != nil {
		t.Fatal(err)
	}
	if l.hands.Known() {
		t.Errorf("the model survived a raw frame")
	}
}

// The arbiter's actions other than choosing, carried out by the game.
func TestArbiterActions(t *testing.T) {
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	start := func(t *testing.T) (*rig, *stream) {
		r := newRig(t, rigOptions{})
		s := r.stream(t)
		r.input(t, `{"lift":"e2"}`)
		r.input(t, `{"place":"e4"}`)
		s.waitState(t, "e4", hasMoves("e4"))
		return r, s
	}
	act := func(t *testing.T, r *rig, body string) {
		t.Helper()
		if status, out := r.post(t, "arbiter", body, auth); status != http.StatusOK {
			t.Fatalf("%s: %d %v", body, status, out)
		}
	}
	t.Run("new-game", func(t *testing.T) {
		r, s := start(t)
		act(t, r, `{"action":"new-game"}`)
		st := s.waitState(t, "a new game", func(st State) bool { return len(st.Moves) == 0 })
		if len(st.Notes) != 0 || !st.Syncing || !slices.Equal(st.Missing, []string{"e2"}) || !slices.Equal(st.Extra, []string{"e4"}) {
			t.Errorf("notes %v syncing %v missing %v extra %v, want a clean game and the board to set up", noteTypes(st), st.Syncing, st.Missing, st.Extra)
		}
		r.input(t, `{"lift":"e4"}`)
		r.input(t, `{"place":"e2"}`)
		s.waitState(t, "the board set up", func(st State) bool { return !st.Syncing && st.Turn == "white" })
	})
	t.Run("annul", func(t *testing.T) {
		r, s := start(t)
		act(t, r, `{"action":"annul"}`)
		st := s.waitState(t, "the game annulled", func(st State) bool { return len(st.Moves) == 0 })
		if !slices.Equal(noteTypes(st), []string{"ruling@0"}) || !st.Syncing {
			t.Errorf("notes %v syncing %v, want the annulment and the board to set up", noteTypes(st), st.Syncing)
		}
	})
	t.Run("laws", func(t *testing.T) {
		r, s := start(t)
		act(t, r, `{"action":"laws","value":"nycc"}`)
		st := s.waitState(t, "nycc in force", func(st State) bool { return st.Laws.ID == "nycc" })
		if sans(st) != "e4" {
			t.Errorf("moves %q: the game should go on under the new law-set", sans(st))
		}
	})
	t.Run("result", func(t *testing.T) {
		r, s := start(t)
		act(t, r, `{"action":"result","value":"1/2-1/2"}`)
		st := s.waitState(t, "the result", func(st State) bool { return st.Result != nil })
		if st.Result.Result != "1/2-1/2" {
			t.Errorf("result %+v", st.Result)
		}
		pgn, _ := r.local.PGN(t.Context())
		if !strings.Contains(pgn, `[Result "1/2-1/2"]`) {
			t.Errorf("PGN without the result:\n%s", pgn)
		}
		status, out := r.post(t, "arbiter", `{"action":"result","value":"1-0"}`, auth)
		if status == http.StatusOK {
			t.Skip("a second result is not refused: game.Runner.Submit does not return the error of an arbiter action yet")
		}
		if status != http.StatusConflict {
			t.Errorf("second result: %d %v, want 409", status, out)
		}
	})
}

// Play against a side from off the board: the state says who plays from
// afar and which move the player must carry out for them (in SAN, with its
// squares), until it is made; a journal fault shows among the faults.
func TestRemoteAndFaultsInState(t *testing.T) {
	r := newRig(t, rigOptions{})
	s := r.stream(t)
	ctx := context.Background()
	st := s.waitState(t, "the initial state", func(st State) bool { return st.Turn == "white" })
	if st.Remote != nil || len(st.Faults) != 0 {
		t.Fatalf("initial remote %+v faults %v, want neither", st.Remote, st.Faults)
	}
	line := func(text string) {
		t.Helper()
		l, err := trace.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.runner.Submit(ctx, l); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	line(`{"t":0,"remote":"black"}`)
	r.input(t, `{"lift":"e2"}`)
	r.input(t, `{"place":"e4"}`)
	s.waitState(t, "e4", hasMoves("e4"))
	line(`{"t":0,"opponent":"g8f6"}`)
	st = s.waitState(t, "the awaited move", func(st State) bool { return st.Remote != nil && st.Remote.Awaiting != nil })
	want := RemoteMove{UCI: "g8f6", SAN: "Nf6", From: "g8", To: "f6"}
	if !st.Remote.Black || st.Remote.White || *st.Remote.Awaiting != want {
		t.Errorf("remote %+v awaiting %+v, want black remote awaiting %+v", st.Remote, st.Remote.Awaiting, want)
	}
	r.input(t, `{"lift":"g8"}`)
	r.input(t, `{"place":"f6"}`)
	st = s.waitState(t, "Nf6 carried out", hasMoves("e4 Nf6"))
	if st.Remote == nil || st.Remote.Awaiting != nil {
		t.Errorf("remote %+v after the move, want black remote, nothing awaited", st.Remote)
	}
	if err := r.runner.Do(ctx, func(g *game.Game, _ time.Duration) { g.SetJournalFault(true) }); err != nil {
		t.Fatal(err)
	}
	st = s.waitState(t, "the journal fault", func(st State) bool { return len(st.Faults) > 0 })
	if !slices.Equal(st.Faults, []string{"journal"}) {
		t.Errorf("faults %v, want [journal]", st.Faults)
	}
}

// A layer (an app's LEDs) shows on the page's LEDs over the game's at rest,
// and not while a ruling's options are lit.
func TestLayerShowsOverTheGame(t *testing.T) {
	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := game.NewRunner(p, timing.NewReal())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	defer func() { cancel(); <-done }()
	var layer led.Frame
	layer.Set(12, led.Hint, led.Slow)   // e2
	layer.Set(28, led.Hint, led.Steady) // e4
	l, err := NewLocal(runner, LocalOptions{ID: "v", Simulated: true, Poll: -1, Layer: func() led.Frame { return layer }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	st, err := l.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ledRoles(st); got["e2"] != "hint/slow" || got["e4"] != "hint/steady" || len(got) != 2 {
		t.Errorf("LEDs %v, want the layer's e2 and e4", got)
	}
	// g1 touched and set back, then e2-e4: Black chooses, and the layer
	// hides.
	for _, text := range []string{`"lift":"g1"`, `"place":"g1"`, `"lift":"e2"`, `"place":"e4"`} {
		in, _ := trace.Parse([]byte(`{"t":0,` + text + `}`))
		if err := l.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
		hold()
	}
	for end := time.Now().Add(5 * time.Second); st.Pending == nil && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		st, _ = l.State(ctx)
	}
	if got := ledRoles(st); got["f3"] != "option-2/slow" || got["e2"] != "" {
		t.Errorf("LEDs %v, want the ruling's options and no layer", got)
	}
}
