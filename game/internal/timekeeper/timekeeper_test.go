package timekeeper

import (
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/lawset"
)

const (
	white = board.White
	black = board.Black
	mins  = time.Minute
)

func s(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }

func lawsOf(t *testing.T, id string) *lawset.LawSet {
	t.Helper()
	ls, err := lawset.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

func newTK(t *testing.T, laws, tc string) *Timekeeper {
	t.Helper()
	c, err := clock.Parse(tc)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := New(lawsOf(t, laws), c, board.White)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func wantTK(t *testing.T, tk *Timekeeper, at time.Duration, w, b string) {
	t.Helper()
	gw, gb := tk.Times(at)
	if gw != w || gb != b {
		t.Errorf("at %v: %s / %s, want %s / %s", at, gw, gb, w, b)
	}
}

func TestTimekeeperRefuses(t *testing.T) {
	c, _ := clock.Preset("fide-rapid")
	if _, err := New(nil, c, board.White); err == nil {
		t.Error("no law-set accepted")
	}
	if _, err := New(lawsOf(t, "fide2023"), clock.Control{}, board.White); err == nil {
		t.Error("invalid control accepted")
	}
}

// The run-mode start: Black's press starts White's clock; later presses are
// the law-set's business (moves arrive as Move).
func TestTimekeeperPressStarts(t *testing.T) {
	tk := newTK(t, "fide2023", "fide-rapid")
	if o := tk.Press(s(1), white); o != clock.Ignored {
		t.Errorf("White's press before the start: %v", o)
	}
	if o := tk.Press(s(2), black); o != clock.Started {
		t.Errorf("Black's press: %v", o)
	}
	if o := tk.Press(s(10), white); o != clock.Ignored {
		t.Errorf("a press while running: %v (moves come through Move)", o)
	}
	if o := tk.Move(s(10), white); o != clock.Completed {
		t.Errorf("Move: %v", o)
	}
	wantTK(t, tk, s(10), "0:15:02", "0:15:10")
	if tk.Tag() != "900+10" || tk.Laws().ID != "fide2023" || tk.Clk(s(10), white) != "[%clk 0:15:02]" {
		t.Errorf("tag %q laws %q clk %q", tk.Tag(), tk.Laws().ID, tk.Clk(s(10), white))
	}
}

// hastings1895: a false move, the offended player's time runs while he
// considers (IV N.B.), the offender moves again after the ruling.
func TestTimekeeperHastingsPenalty(t *testing.T) {
	tk := newTK(t, "hastings1895", "hastings1895")
	tk.Begin(0)
	if law := tk.Irregularity(s(100), "black"); law != "hastings1895:IV" {
		t.Errorf("law %q", law)
	}
	wantTK(t, tk, s(160), "1:58:20", "1:59:00")
	tk.Resume(s(160), white) // move-touched: White must move again
	tk.Move(s(200), white)
	wantTK(t, tk, s(200), "1:57:40", "1:59:00")
	if tk.Clock().Moves(white) != 1 {
		t.Errorf("White's moves %d", tk.Clock().Moves(white))
	}
	// A choice the arbiter makes alone changes nothing.
	if law := tk.Irregularity(s(210), "arbiter"); law != "" {
		t.Errorf("arbiter's choice: %q", law)
	}
	if side, _ := tk.Clock().Running(); side != black {
		t.Errorf("running %v", side)
	}
}

// fide2023: an illegal move held, two minutes to the opponent, the
// offender's clock runs again after the position is restored.
func TestTimekeeperFIDEIllegal(t *testing.T) {
	tk := newTK(t, "fide2023", "fide-classical")
	tk.Begin(0)
	tk.Move(s(30), white)
	// Black's illegal move, completed at 50 s: the arbiter stops the clocks.
	if law := tk.Irregularity(s(50), "arbiter"); law != "fide2023:6.11" {
		t.Errorf("law %q", law)
	}
	p, ok := tk.Illegal(black)
	if !ok || p.Time != 2*mins {
		t.Errorf("penalty %+v %v", p, ok)
	}
	// Held: White 5400 + 30 − 30 + 120, Black 5400 + 30 − 20.
	wantTK(t, tk, s(90), "1:32:00", "1:30:10")
	tk.Resume(s(90), black) // restored: Black moves again
	tk.Move(s(100), black)
	// Black 5410 − 10; White's next move's 30 s shows at once.
	wantTK(t, tk, s(100), "1:32:30", "1:30:00")
	if p, ok := tk.IncorrectClaim(white); !ok || p.Time != 2*mins {
		t.Errorf("claim penalty %+v %v", p, ok)
	}
	wantTK(t, tk, s(100), "1:32:30", "1:32:00")
	tk2 := newTK(t, "nycc", "300")
	if _, ok := tk2.Illegal(white); ok {
		t.Error("nycc time penalty")
	}
	if law := tk2.Irregularity(0, "black"); law != "" {
		t.Errorf("nycc during a choice: %q", law)
	}
}

// A false move let stand: the ruling resumes the chooser's clock and the
// move report counts the move.
func TestTimekeeperStand(t *testing.T) {
	tk := newTK(t, "philidor1825", "600")
	tk.Begin(0)
	tk.Irregularity(s(20), "black") // philidor: the clock stands as it is
	tk.Resume(s(50), black)         // the ruling: Black is to move
	if o := tk.Move(s(50), white); o != clock.Completed {
		t.Errorf("standing move: %v", o)
	}
	wantTK(t, tk, s(60), "0:09:10", "0:09:50")
	if tk.Clock().Moves(white) != 1 {
		t.Errorf("moves %d", tk.Clock().Moves(white))
	}
}

func TestTimekeeperReconcile(t *testing.T) {
	tk := newTK(t, "nycc", "2/100:50")
	tk.Begin(0)
	for i, side := range []board.Color{white, black, white, black} {
		tk.Move(s(float64(10*(i+1))), side)
	}
	if n := tk.Reconcile(4); n != 0 {
		t.Errorf("nothing to reconcile: %d", n)
	}
	if n := tk.Reconcile(2); n != 2 || tk.Clock().Moves(white) != 1 || tk.Clock().Moves(black) != 1 {
		t.Errorf("reconcile to 2: %d retracted, moves %d/%d", n, tk.Clock().Moves(white), tk.Clock().Moves(black))
	}
	// Both second moves' stage time is taken back: 100 − 20 and 100 − 20.
	wantTK(t, tk, s(40), "0:01:20", "0:01:20")
}

func TestTimekeeperFlag(t *testing.T) {
	tk := newTK(t, "fide2023", "60")
	tk.Begin(0)
	if d := tk.Deadline(); d != s(60) {
		t.Fatalf("deadline %v", d)
	}
	f, ok := tk.Flag(s(60))
	if !ok {
		t.Fatal("no flag")
	}
	if r := tk.Rule(f, false); r.Result != "1/2-1/2" || r.Law != "fide2023:6.9" {
		t.Errorf("ruling %+v", r)
	}
	tk.End(s(70))
	wantTK(t, tk, s(70), "0:00:00", "0:01:00")
}
