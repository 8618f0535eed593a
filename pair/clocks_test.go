package pair

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// TestDifferenceStopsTheClocks (fide2023:D.2.7), in virtual time: White
// plays e2e4 here, and Black's clock runs; the other board sends a game
// that differs, and this board's clocks stand (Black's time does not run
// for a minute) with the difference in its state since the time it was
// found; the other board's game put right, Black's clock runs again.
func TestDifferenceStopsTheClocks(t *testing.T) {
	for _, c := range []struct {
		name   string
		differ Game
		why    string
		move   int
	}{
		{"a move differs", Game{Start: board.StartFEN, Moves: []string{"d2d4", "d7d5"}, Side: "black"}, "move 1 is e2e4 here, d2d4 there", 1},
		{"both play White", Game{Start: board.StartFEN, Moves: []string{"e2e4"}, Side: "white"}, "both boards play white: whose move it is is in doubt", 0},
		{"another start", Game{Start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", Side: "black"}, "they began from different positions", 0},
		{"two moves ahead", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5", "g1f3"}, Side: "black"}, "the other board is more than a move ahead: whose move it is is in doubt", 0},
		{"an illegal move", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e4"}, Side: "black"}, "e7e4 is no legal move here", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ours, theirs := Pipe()
			g, err := game.New(game.Options{Laws: "fide2023", TimeControl: "300", ClockAtFirstInput: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := &timing.Virtual{}
			r := game.NewRunner(g, v)
			p := NewPlayer(ours, "board-02", r, board.White)
			var wg sync.WaitGroup
			defer wg.Wait()
			defer cancel()
			for _, run := range []func(context.Context) error{r.Run, p.Run} {
				wg.Add(1)
				go func() { defer wg.Done(); _ = run(ctx) }()
			}
			at := func(d time.Duration, l trace.Line) {
				t.Helper()
				v.Set(d)
				if err := r.Submit(ctx, l); err != nil {
					t.Fatal(err)
				}
			}
			at(0, trace.Line{Kind: trace.Lift, Square: sq(t, "e2")})
			at(300*time.Millisecond, trace.Line{Kind: trace.Place, Square: sq(t, "e4")})
			v.Set(time.Second)
			if got := <-theirs.Receive(); !sameGame(got, Game{Start: board.StartFEN, Moves: []string{"e2e4"}, Side: "white"}) {
				t.Fatalf("this board sent %+v, want its e2e4", got)
			}
			clocks := func() *game.Clocks {
				t.Helper()
				s, err := r.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return s.Clocks
			}
			v.Set(2 * time.Second)
			if k := clocks(); k.Status != clock.Running || k.Running != board.Black {
				t.Fatalf("after e2e4: %+v, want Black's clock running", k)
			}
			if err := theirs.Send(ctx, c.differ); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the difference found", func() bool { return p.State().Difference != nil })
			st := p.State()
			if st.Difference.Why != c.why || st.Difference.Move() != c.move || st.Since != 2*time.Second || st.Other != "board-02" {
				t.Errorf("state %+v (why %q, move %d), want %q at move %d since 2s", st, st.Difference.Why, st.Difference.Move(), c.why, c.move)
			}
			held := clocks()
			v.Set(62 * time.Second)
			if k := clocks(); k.Status != clock.Held || k.BlackLeft != held.BlackLeft || k.WhiteLeft != held.WhiteLeft {
				t.Errorf("a minute into the difference: %+v, want both clocks standing at %v and %v", k, held.WhiteLeft, held.BlackLeft)
			}
			if err := theirs.Send(ctx, Game{Start: board.StartFEN, Moves: []string{"e2e4"}, Side: "black"}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the boards agreeing", func() bool { return p.State().Difference == nil })
			v.Set(72 * time.Second)
			k := clocks()
			if k.Status != clock.Running || k.Running != board.Black || held.BlackLeft-k.BlackLeft != 10*time.Second {
				t.Errorf("10 s after the boards agree: %+v; want Black's clock running, 10 s used since %v", k, held.BlackLeft)
			}
			if st := p.State(); st.Since != 0 {
				t.Errorf("agreed, the state still has a difference since %v", st.Since)
			}
		})
	}
}

// sq reads a square's name.
func sq(t *testing.T, name string) board.Square {
	t.Helper()
	s, err := board.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
