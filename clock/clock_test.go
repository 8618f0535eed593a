package clock

import (
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

const (
	white = board.White
	black = board.Black
)

func s(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }

func mustClock(t *testing.T, tc string) *Clock {
	t.Helper()
	c, err := Parse(tc)
	if err != nil {
		t.Fatal(err)
	}
	k, err := New(c, board.White)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func wantTimes(t *testing.T, k *Clock, at time.Duration, w, b time.Duration) {
	t.Helper()
	gw, gb := k.Times(at)
	if gw != w || gb != b {
		t.Errorf("at %v: white %v black %v, want white %v black %v", at, gw, gb, w, b)
	}
}

// step is one action on a clock and what must hold after it.
type step struct {
	at      time.Duration
	do      string // press, moved, switch, hold, stop, retract, add, flag
	side    board.Color
	d       time.Duration // add: the time given
	outcome Outcome       // press, moved
	w, b    time.Duration // remaining at `at` after the action
}

func run(t *testing.T, k *Clock, steps []step) {
	t.Helper()
	for i, st := range steps {
		switch st.do {
		case "press":
			if o := k.Press(st.at, st.side); o != st.outcome {
				t.Errorf("step %d: Press(%v, %v) = %v, want %v", i, st.at, st.side, o, st.outcome)
			}
		case "moved":
			if o := k.Moved(st.at, st.side); o != st.outcome {
				t.Errorf("step %d: Moved(%v, %v) = %v, want %v", i, st.at, st.side, o, st.outcome)
			}
		case "switch":
			k.Switch(st.at, st.side)
		case "hold":
			k.Hold(st.at)
		case "stop":
			k.Stop(st.at)
		case "retract":
			k.Retract(st.side)
		case "add":
			k.AddTime(st.side, st.d)
		case "look":
		default:
			t.Fatalf("step %d: unknown action %q", i, st.do)
		}
		gw, gb := k.Times(st.at)
		if gw != st.w || gb != st.b {
			t.Errorf("step %d (%s %v at %v): white %v black %v, want white %v black %v", i, st.do, st.side, st.at, gw, gb, st.w, st.b)
		}
	}
}

func TestSuddenDeath(t *testing.T) {
	k := mustClock(t, "300")
	if k.Status() != Idle || k.Deadline() != timing.Never {
		t.Fatalf("new clock: %v, deadline %v", k.Status(), k.Deadline())
	}
	k.Start(0)
	run(t, k, []step{
		{at: s(4), do: "look", w: s(296), b: s(300)},
		{at: s(10), do: "press", side: white, outcome: Completed, w: s(290), b: s(300)},
		{at: s(30), do: "press", side: black, outcome: Completed, w: s(290), b: s(280)},
		{at: s(31), do: "press", side: black, outcome: Ignored, w: s(289), b: s(280)}, // not Black's clock
		{at: s(40), do: "press", side: white, outcome: Completed, w: s(280), b: s(280)},
	})
	if got, want := k.Deadline(), s(40)+s(280); got != want {
		t.Errorf("Deadline = %v, want %v", got, want)
	}
	if k.Moves(white) != 2 || k.Moves(black) != 1 {
		t.Errorf("moves %d/%d, want 2/1", k.Moves(white), k.Moves(black))
	}
}

// The increment is added before each move (the FIDE glossary), so the
// running side's clock shows it at once; after the move the times are those
// lichess writes (time left, minus time used, plus increment).
func TestIncrement(t *testing.T) {
	k := mustClock(t, "180+2")
	k.Start(0)
	run(t, k, []step{
		{at: 0, do: "look", w: s(182), b: s(180)},
		{at: s(10), do: "press", side: white, outcome: Completed, w: s(172), b: s(182)},
		{at: s(15), do: "press", side: black, outcome: Completed, w: s(174), b: s(177)},
		{at: s(15.5), do: "press", side: white, outcome: Completed, w: s(173.5), b: s(179)},
	})
	if got, want := k.Deadline(), s(15.5)+s(179); got != want {
		t.Errorf("Deadline = %v, want %v", got, want)
	}
}

// Simple delay: the clock stands still for the delay, then counts down;
// unused delay is lost.
func TestSimpleDelay(t *testing.T) {
	k := mustClock(t, "300d5")
	k.Start(0)
	if d := k.Deadline(); d != s(305) {
		t.Errorf("first deadline %v, want 305s (5 s delay + 300 s)", d)
	}
	run(t, k, []step{
		{at: s(3), do: "look", w: s(300), b: s(300)},
		{at: s(5), do: "look", w: s(300), b: s(300)},
		{at: s(8), do: "look", w: s(297), b: s(300)},
		{at: s(8), do: "press", side: white, outcome: Completed, w: s(297), b: s(300)},
		{at: s(12), do: "press", side: black, outcome: Completed, w: s(297), b: s(300)}, // 4 s: all delay
		{at: s(30), do: "press", side: white, outcome: Completed, w: s(284), b: s(300)}, // 18 s: 13 s counted
	})
	if d := k.Deadline(); d != s(30)+s(5)+s(300) {
		t.Errorf("deadline %v, want 335s", d)
	}
}

// Bronstein delay: the clock runs down at once and gives back the time
// used, up to the delay.
func TestBronstein(t *testing.T) {
	k := mustClock(t, "300b5")
	k.Start(0)
	run(t, k, []step{
		{at: s(3), do: "look", w: s(297), b: s(300)},
		{at: s(3), do: "press", side: white, outcome: Completed, w: s(300), b: s(300)},  // 3 s given back
		{at: s(11), do: "press", side: black, outcome: Completed, w: s(300), b: s(297)}, // 8 s used, 5 back
	})
	if d := k.Deadline(); d != s(11)+s(300) {
		t.Errorf("deadline %v, want 311s", d)
	}
}

// moveAll plays n moves a side, each taking per, starting at `from`; it
// returns the time after the last press.
func moveAll(t *testing.T, k *Clock, n int, per, from time.Duration) time.Duration {
	t.Helper()
	at := from
	for i := 0; i < n; i++ {
		for _, side := range []board.Color{white, black} {
			at += per
			if o := k.Press(at, side); o != Completed {
				t.Fatalf("move %d %v at %v: %v", i+1, side, at, o)
			}
		}
	}
	return at
}

// fide-classical: 90 minutes for 40 moves, then 30 minutes more; 30 s from
// move 1. The 30 minutes arrive with the 40th move, not the 39th.
func TestStagesFIDEClassical(t *testing.T) {
	k := mustClock(t, "fide-classical")
	k.Start(0)
	at := moveAll(t, k, 39, s(60), 0)
	// 39 moves of 60 s with 30 s each: 5400 + 39×30 − 39×60 = 4230 s, and
	// White's clock, running again, already shows his 40th move's 30 s.
	if got := k.Remaining(at, white); got != s(4230+30) {
		t.Errorf("white after 39 moves: %v, want 4260s", got)
	}
	if k.Stage(white) != 0 {
		t.Errorf("white in stage %d after 39 moves", k.Stage(white))
	}
	at += s(60)
	k.Press(at, white)
	// 40th move: 4230 + 30 − 60, then the second stage's 1800 s.
	if got := k.Remaining(at, white); got != s(4200+1800) {
		t.Errorf("white after 40 moves: %v, want 6000s", got)
	}
	if k.Stage(white) != 1 || k.Stage(black) != 0 {
		t.Errorf("stages %d/%d after White's 40th move, want 1/0", k.Stage(white), k.Stage(black))
	}
	at += s(60)
	k.Press(at, black)
	if got := k.Remaining(at, black); got != s(6000) || k.Stage(black) != 1 {
		t.Errorf("black after 40 moves: %v in stage %d, want 6000s in stage 1", got, k.Stage(black))
	}
	// The last stage has no move count: nothing more is ever added.
	at = moveAll(t, k, 40, s(10), at)
	if got := k.Remaining(at, white); got != s(6000+40*20+30) {
		t.Errorf("white after 80 moves: %v, want %v (with the 81st move's 30 s)", got, s(6830))
	}
}

// hastings1895: 30 moves in two hours, then 15 moves every hour; unused time
// carries over.
func TestStagesHastingsRepeat(t *testing.T) {
	k := mustClock(t, "hastings1895")
	k.Start(0)
	at := moveAll(t, k, 29, s(200), 0)
	if got := k.Remaining(at, white); got != s(7200-29*200) {
		t.Errorf("after 29 moves: %v", got)
	}
	at = moveAll(t, k, 1, s(200), at) // move 30: +1 h
	if got := k.Remaining(at, white); got != s(7200-30*200+3600) {
		t.Errorf("after 30 moves: %v, want %v", got, s(4800))
	}
	at = moveAll(t, k, 14, s(100), at) // moves 31-44
	if got := k.Remaining(at, white); got != s(4800-1400) {
		t.Errorf("after 44 moves: %v, want 3400s", got)
	}
	at = moveAll(t, k, 1, s(100), at) // move 45: +1 h
	if got := k.Remaining(at, white); got != s(3300+3600) {
		t.Errorf("after 45 moves: %v, want 6900s", got)
	}
	at = moveAll(t, k, 15, s(100), at) // move 60: +1 h again
	if got := k.Remaining(at, white); got != s(6900-1500+3600) {
		t.Errorf("after 60 moves: %v, want 9000s", got)
	}
}

// Each law-set's ruling when a flag falls in virtual time.
// The flag falls at the deadline and not before; a press after it is late.
// What the fall means is the law-set's (package lawset).
func TestFlagFalls(t *testing.T) {
	k := mustClock(t, "60")
	k.Start(0)
	k.Press(s(10), white)
	k.Press(s(20), black)
	// White has 50 s from t=20 s: the flag falls at 70 s.
	if d := k.Deadline(); d != s(70) {
		t.Fatalf("deadline %v, want 70s", d)
	}
	if _, ok := k.Flag(s(69.999)); ok {
		t.Fatal("flag fell before the deadline")
	}
	f, ok := k.Flag(s(70))
	if !ok || f.Side != white || f.T != s(70) {
		t.Fatalf("Flag(70s) = %+v, %v", f, ok)
	}
	if k.Status() != Flagged || k.Deadline() != timing.Never {
		t.Errorf("after the fall: %v, deadline %v", k.Status(), k.Deadline())
	}
	if o := k.Press(s(75), white); o != Late {
		t.Errorf("White's press after the fall: %v, want late", o)
	}
	wantTimes(t, k, s(100), 0, s(50))
}

// A press that comes after the flag fell, with no Flag call in between
// (the driver did not wake at the deadline), still finds the flag.
func TestLatePressFindsTheFlag(t *testing.T) {
	k := mustClock(t, "60")
	k.Start(0)
	if o := k.Press(s(60), white); o != Late {
		t.Errorf("press exactly at the deadline: %v, want late (no time left)", o)
	}
	if f, ok := k.Flag(s(61)); !ok || f.T != s(60) || f.Side != white {
		t.Errorf("Flag = %+v, %v", f, ok)
	}
}

// fide2023:7.5.5: a completed illegal move: the arbiter holds the clocks,
// the position is restored, the opponent gets two minutes (one in rapid),
// and the offender's clock runs again for his replacement move, which is
// his first move as far as the stages count.
func TestIllegalMoveBonus(t *testing.T) {
	for _, tc := range []struct {
		control string
		bonus   time.Duration
	}{{"fide-classical", 2 * mins}, {"fide-rapid", mins}, {"fide-blitz", mins}} {
		k := mustClock(t, tc.control)
		ctl := k.Control()
		base := ctl.Stages[0].Time
		inc := ctl.Stages[0].Bonus
		k.Start(0)
		// White's illegal move, completed by the clock press at 10 s: the
		// arbiter holds the clocks (fide2023:6.11) and gives Black the
		// penalty time (fide2023:7.5.5).
		k.Hold(s(10))
		k.AddTime(black, tc.bonus)
		wantTimes(t, k, s(40), base+inc-s(10), base+tc.bonus) // held: nothing runs
		k.Switch(s(40), white)                                // restored: White moves again
		if o := k.Moved(s(45), white); o != Completed {
			t.Fatalf("replacement move: %v", o)
		}
		wantTimes(t, k, s(45), base+inc-s(15), base+tc.bonus+inc)
		if k.Moves(white) != 1 {
			t.Errorf("%s: White's moves %d, want 1", tc.control, k.Moves(white))
		}
	}
}

// hastings1895:IV N.B.: while the offended player considers the penalty his
// own time runs, not the offender's.
func TestHastingsChooserTimeRuns(t *testing.T) {
	k := mustClock(t, "hastings1895")
	k.Start(0)
	run(t, k, []step{
		// White's false move is completed (his hand quits the man) at 100 s:
		// the arbiter reports an irregularity, and Black considers.
		{at: s(100), do: "switch", side: black, w: s(7100), b: s(7200)},
		{at: s(130), do: "look", w: s(7100), b: s(7170)},
		// Black elects the penalty at 160 s: White must move again.
		{at: s(160), do: "switch", side: white, w: s(7100), b: s(7140)},
		{at: s(200), do: "moved", side: white, outcome: Completed, w: s(7060), b: s(7140)},
		{at: s(260), do: "moved", side: black, outcome: Completed, w: s(7060), b: s(7080)},
	})
	if k.Moves(white) != 1 || k.Moves(black) != 1 {
		t.Errorf("moves %d/%d, want 1/1 (the false move does not count)", k.Moves(white), k.Moves(black))
	}
}

// A false move that the offended player lets stand: the move report comes
// at the ruling, while the chooser's clock runs; it counts, and the
// chooser's own move begins (with his increment).
func TestMovedAfterChoiceCredits(t *testing.T) {
	k := mustClock(t, "300+5")
	k.Start(0)
	run(t, k, []step{
		{at: s(10), do: "switch", side: black, w: s(295), b: s(300)},
		{at: s(20), do: "moved", side: white, outcome: Completed, w: s(295), b: s(295)}, // 10 s considering, +5
		{at: s(30), do: "moved", side: black, outcome: Completed, w: s(300), b: s(285)},
	})
	if k.Moves(white) != 1 || k.Moves(black) != 1 {
		t.Errorf("moves %d/%d", k.Moves(white), k.Moves(black))
	}
	// From held clocks the opponent's move starts at the ruling.
	k.Hold(s(40))
	run(t, k, []step{
		{at: s(50), do: "moved", side: white, outcome: Completed, w: s(290), b: s(290)},
		{at: s(52), do: "look", w: s(290), b: s(288)},
	})
	// Nothing moves on a stopped or flagged clock.
	k.Stop(s(60))
	if o := k.Moved(s(61), black); o != Ignored {
		t.Errorf("Moved on stopped clocks: %v", o)
	}
}

func TestIdlePresses(t *testing.T) {
	k := mustClock(t, "300")
	if o := k.Press(s(1), white); o != Ignored || k.Status() != Idle {
		t.Errorf("White's press on idle clocks: %v, %v", o, k.Status())
	}
	if o := k.Press(s(2), black); o != Started {
		t.Errorf("Black's press on idle clocks: %v, want started", o)
	}
	if side, ok := k.Running(); !ok || side != white {
		t.Errorf("running %v %v, want white", side, ok)
	}
	if k.Start(s(3)) {
		t.Error("Start on running clocks")
	}
	wantTimes(t, k, s(12), s(290), s(300))

	// Black to move first (a set-up position): White's press starts Black's clock.
	c, _ := Parse("300")
	k2, _ := New(c, black)
	if o := k2.Press(0, white); o != Started {
		t.Errorf("White's press with Black first: %v", o)
	}
	if side, _ := k2.Running(); side != black {
		t.Errorf("running %v, want black", side)
	}

	// A move made before anyone started the clocks costs nothing.
	k3 := mustClock(t, "300")
	if o := k3.Moved(s(50), white); o != Completed || k3.Moves(white) != 1 {
		t.Errorf("move on idle clocks: %v, %d moves", o, k3.Moves(white))
	}
	wantTimes(t, k3, s(60), s(300), s(290))
}

// At the end of a replay the clocks stop where they stand: running out of
// input is no flag.
func TestStopIsNoFlag(t *testing.T) {
	k := mustClock(t, "hastings1895")
	k.Start(0)
	k.Press(s(600), white)
	k.Stop(s(4000))
	if k.Status() != Stopped || k.Deadline() != timing.Never {
		t.Fatalf("after Stop: %v, deadline %v", k.Status(), k.Deadline())
	}
	if _, ok := k.Flag(100 * time.Hour); ok {
		t.Error("a flag fell on stopped clocks")
	}
	wantTimes(t, k, 100*time.Hour, s(6600), s(3800))
	if k.AddTime(white, mins) || k.Switch(s(5000), white) || k.Hold(s(5000)) {
		t.Error("stopped clocks changed")
	}
	// But a deadline already passed when the input ended is a flag.
	k2 := mustClock(t, "60")
	k2.Start(0)
	k2.Stop(s(61))
	if f, ok := k2.Flag(s(61)); !ok || f.T != s(60) {
		t.Errorf("flag before the end of input: %+v %v", f, ok)
	}
}

// Retract takes back a counted move, and the stage time it earned.
func TestRetract(t *testing.T) {
	k := mustClock(t, "2/100:50")
	k.Start(0)
	k.Press(s(10), white)
	k.Press(s(20), black)
	k.Press(s(30), white) // White's 2nd move: +50 s
	wantTimes(t, k, s(30), s(130), s(90))
	if !k.Retract(white) || k.Moves(white) != 1 {
		t.Fatalf("Retract: %d moves", k.Moves(white))
	}
	wantTimes(t, k, s(30), s(80), s(90))
	k.Switch(s(30), white)
	k.Moved(s(35), white) // the replacement second move earns it again
	wantTimes(t, k, s(35), s(125), s(90))
	if k.Retract(black) && k.Moves(black) != 0 {
		t.Error("Retract of Black's first move")
	}
	if k.Retract(black) {
		t.Error("Retract with no moves")
	}
}

func TestSetAndAddTime(t *testing.T) {
	k := mustClock(t, "300")
	k.Start(0)
	k.Set(s(10), white, s(100))
	wantTimes(t, k, s(10), s(100), s(300))
	wantTimes(t, k, s(20), s(90), s(300))
	k.AddTime(white, -s(95))
	if d := k.Deadline(); d != s(15) {
		t.Errorf("deadline after taking time: %v, want 15s", d)
	}
	if f, ok := k.Flag(s(20)); !ok || f.T != s(15) {
		t.Errorf("flag %+v %v", f, ok)
	}
	if k.Set(s(21), black, s(1)) {
		t.Error("Set on flagged clocks")
	}
}

// A game replayed in virtual time: the [%clk] comment after each move is
// the mover's time, computed here by hand (3+2: each move takes the time
// used and gives 2 s; lichess rounds to whole seconds).
func TestReplayedClkComments(t *testing.T) {
	k := mustClock(t, "fide-blitz")
	k.Start(0)
	presses := []struct {
		at   time.Duration
		side board.Color
		clk  string
	}{
		{s(5), white, "[%clk 0:02:57]"},    // 180 − 5 + 2 = 177
		{s(9), black, "[%clk 0:02:58]"},    // 180 − 4 + 2 = 178
		{s(21.4), white, "[%clk 0:02:47]"}, // 177 − 12.4 + 2 = 166.6
		{s(30), black, "[%clk 0:02:51]"},   // 178 − 8.6 + 2 = 171.4
		{s(30.5), white, "[%clk 0:02:48]"}, // 166.6 − 0.5 + 2 = 168.1
		{s(95.5), black, "[%clk 0:01:48]"}, // 171.4 − 65 + 2 = 108.4
		{s(96), white, "[%clk 0:02:50]"},   // 168.1 − 0.5 + 2 = 169.6
		{s(207), black, "[%clk 0:00:00]"},  // 108.4 + 2 − 111 < 0: the flag fell at 206.4 s
	}
	var got []string
	for _, p := range presses {
		o := k.Moved(p.at, p.side)
		if (o == Late) != (p.at == s(207)) {
			t.Errorf("move at %v: %v", p.at, o)
		}
		got = append(got, Clk(k.Remaining(p.at, p.side)))
	}
	for i, p := range presses {
		if got[i] != p.clk {
			t.Errorf("move %d (%v at %v): %s, want %s", i/2+1, p.side, p.at, got[i], p.clk)
		}
	}
	if f, ok := k.Flag(s(300)); !ok || f.Side != black || f.T != s(96)+s(110.4) {
		t.Errorf("flag %+v %v, want Black's at 206.4s", f, ok)
	}
	if e := Emt(k.LastMoveTime(white)); e != "[%emt 0:00:01]" {
		t.Errorf("White's last move time %s", e)
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{0, "0:00:00"},
		{-s(5), "0:00:00"},
		{s(0.4), "0:00:00"},
		{s(0.5), "0:00:01"},
		{s(180), "0:03:00"},
		{s(59.6), "0:01:00"},
		{s(5397), "1:29:57"},
		{s(5399.5), "1:30:00"},
		{s(7200), "2:00:00"},
		{100*time.Hour + s(61), "100:01:01"},
	}
	for _, c := range cases {
		if got := Format(c.d); got != c.want {
			t.Errorf("Format(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := Clk(s(5397)); got != "[%clk 1:29:57]" {
		t.Errorf("Clk = %q", got)
	}
	if got := Emt(s(5)); got != "[%emt 0:00:05]" {
		t.Errorf("Emt = %q", got)
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Increment.String(), "increment"}, {Mode(9).String(), "mode(9)"},
		{Flagged.String(), "flagged"}, {Status(9).String(), "status(9)"},
		{Late.String(), "late"}, {Outcome(9).String(), "outcome(9)"},
		{Rapid.String(), "rapid"}, {Standard.String(), "standard"}, {Blitz.String(), "blitz"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func BenchmarkPress(b *testing.B) {
	c, _ := Preset("fide-classical")
	k, _ := New(c, board.White)
	k.Start(0)
	side := board.White
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		k.Press(time.Duration(i+1)*time.Millisecond, side)
		side = side.Other()
	}
}

func BenchmarkRemaining(b *testing.B) {
	c, _ := Preset("fide-classical")
	k, _ := New(c, board.White)
	k.Start(0)
	b.ReportAllocs()
	var sink time.Duration
	for i := 0; i < b.N; i++ {
		sink += k.Remaining(time.Duration(i), board.White)
	}
	_ = sink
}

func BenchmarkDeadline(b *testing.B) {
	c, _ := Preset("hastings1895")
	k, _ := New(c, board.White)
	k.Start(0)
	b.ReportAllocs()
	var sink time.Duration
	for i := 0; i < b.N; i++ {
		sink += k.Deadline()
	}
	_ = sink
}

func BenchmarkAppendFormat(b *testing.B) {
	buf := make([]byte, 0, 32)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendFormat(buf[:0], time.Duration(i)*time.Millisecond)
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("40/5400+30:1800+30"); err != nil {
			b.Fatal(err)
		}
	}
}
