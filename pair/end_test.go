package pair

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// A resignation, a draw agreed or a result the arbiter declared on one
// paired board ends the game on the other too (the end goes in the game
// sent), whichever board it was made on.
func TestEndGoesToTheOtherBoard(t *testing.T) {
	for _, c := range []struct {
		name   string
		on     int // the board the game ends on: 0 White's, 1 Black's
		line   trace.Line
		result string
		reason string
	}{
		{"White resigns at his board", 0, trace.Line{Kind: trace.Arbiter, Action: game.ActionResign, Value: "white", Side: trace.SideArbiter}, "0-1", "white resigns"},
		{"Black resigns at his board", 1, trace.Line{Kind: trace.Arbiter, Action: game.ActionResign, Value: "black", Side: trace.SideArbiter}, "1-0", "black resigns"},
		{"a draw agreed on White's board", 0, trace.Line{Kind: trace.Arbiter, Action: game.ActionAgreeDraw, Side: trace.SideArbiter}, "1/2-1/2", "draw agreed"},
		{"a draw agreed on Black's board", 1, trace.Line{Kind: trace.Arbiter, Action: game.ActionAgreeDraw, Side: trace.SideArbiter}, "1/2-1/2", "draw agreed"},
		{"a draw declared by the arbiter on Black's board", 1, trace.Line{Kind: trace.Arbiter, Action: trace.ActionResult, Value: "1/2-1/2", Side: trace.SideArbiter}, "1/2-1/2", "declared by the arbiter"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			la, lb := Pipe()
			var wg sync.WaitGroup
			defer wg.Wait()
			defer cancel()
			var runners [2]*game.Runner
			var players [2]*Player
			for i, l := range []Link{la, lb} {
				g, err := game.New(game.Options{Laws: "fide2023"}, nil)
				if err != nil {
					t.Fatal(err)
				}
				runners[i] = game.NewRunner(g, &timing.Virtual{})
				players[i] = NewPlayer(l, "the other board", runners[i], board.Color(i))
				for _, run := range []func(context.Context) error{runners[i].Run, players[i].Run} {
					wg.Add(1)
					go func() { defer wg.Done(); _ = run(ctx) }()
				}
			}
			if err := runners[c.on].Submit(ctx, c.line); err != nil {
				t.Fatal(err)
			}
			for i, r := range runners {
				waitFor(t, ctx, "the result on both boards", func() bool {
					s, err := r.Snapshot(ctx)
					return err == nil && s.Result != nil
				})
				s, _ := r.Snapshot(ctx)
				if string(s.Result.Result) != c.result || s.Result.Reason != c.reason {
					t.Errorf("board %d: result %+v, want %s (%s)", i, s.Result, c.result, c.reason)
				}
			}
		})
	}
}
