package game

import (
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
)

// TestHoldClocks: two paired boards that differ stop the clocks
// (fide2023:D.2.7): in virtual time, no one's time runs while they are
// held, and the side to move's runs again once they are released. Saying
// the same twice changes nothing, and idle clocks stay idle.
func TestHoldClocks(t *testing.T) {
	const e4 = `{"t":0,"lift":"e2"}
{"t":300,"place":"e4"}
`
	for _, c := range []struct {
		name    string
		trace   string
		holds   []bool // at 5 s, 6 s, ...: HoldClocks(t, holds[i])
		held    bool   // the clocks stand between the holds and 65 s
		running bool   // Black's clock runs after the last call
	}{
		{"held then released", e4, []bool{true, false}, false, true},
		{"held", e4, []bool{true}, true, false},
		{"held twice, released once", e4, []bool{true, true, false}, false, true},
		{"released without a hold", e4, []bool{false}, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := New(Options{Laws: "fide2023", TimeControl: "5400", ClockAtFirstInput: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			play(t, g, c.trace)
			at := 5 * time.Second
			g.Advance(at)
			if k := g.Snapshot().Clocks; k.Status != clock.Running || k.Running != board.Black {
				t.Fatalf("before the holds: %+v, want Black's clock running", k)
			}
			for _, h := range c.holds {
				g.HoldClocks(at, h)
				at += time.Second
			}
			// The last call was at at-1s: from then to 65 s, then 10 s more.
			before := g.Snapshot().Clocks
			from := before.BlackLeft
			g.Advance(65 * time.Second)
			mid := g.Snapshot().Clocks
			if c.held {
				if mid.Status != clock.Held || mid.BlackLeft != from || mid.WhiteLeft != before.WhiteLeft {
					t.Errorf("held: %+v; want both clocks standing, Black at %v", mid, from)
				}
				g.HoldClocks(65*time.Second, false)
			}
			g.Advance(75 * time.Second)
			end := g.Snapshot().Clocks
			if end.Status != clock.Running || end.Running != board.Black {
				t.Fatalf("after: %+v, want Black's clock running", end)
			}
			used := from - end.BlackLeft
			want := 75*time.Second - (at - time.Second)
			if c.held {
				want = 10 * time.Second
			}
			if used != want {
				t.Errorf("Black used %v from the last call, want %v", used, want)
			}
		})
	}
	t.Run("no clocks", func(t *testing.T) {
		g, err := New(Options{Laws: "fide2023"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		g.HoldClocks(time.Second, true)
		g.HoldClocks(2*time.Second, false)
		if g.Snapshot().Clocks != nil {
			t.Error("a game without clocks shows clocks after a hold")
		}
	})
}
