package online

import (
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
)

// TestToSend checks the one rule for handing lichess the board's move: the
// board one move ahead of lichess and agreeing on the rest, the move
// settled on the board or ending its game.
func TestToSend(t *testing.T) {
	play := func(pos board.Position, uci string) board.Position {
		m, err := board.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		return pos.Apply(m)
	}
	afterE4 := play(board.Start(), "e2e4")
	afterE5 := play(afterE4, "e7e5")
	over := &report.Report{}
	cases := []struct {
		name   string
		side   board.Color
		moves  []string
		theirs []string
		snap   game.Snapshot
		want   string
	}{
		{name: "the board's move, settled", side: board.White, moves: []string{"e2e4"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4}, want: "e2e4"},
		{name: "the board's second move", side: board.White, moves: []string{"e2e4", "e7e5", "g1f3"}, theirs: []string{"e2e4", "e7e5"}, snap: game.Snapshot{Mode: game.Play, Position: play(afterE5, "g1f3")}, want: "g1f3"},
		{name: "lichess has it", side: board.White, moves: []string{"e2e4"}, theirs: []string{"e2e4"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4}},
		{name: "lichess is ahead", side: board.White, moves: []string{"e2e4"}, theirs: []string{"e2e4", "e7e5"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4}},
		{name: "two moves ahead", side: board.White, moves: []string{"e2e4", "e7e5"}, snap: game.Snapshot{Mode: game.Play, Position: afterE5}},
		{name: "another game", side: board.White, moves: []string{"d2d4", "e7e5", "g1f3"}, theirs: []string{"e2e4", "e7e5"}, snap: game.Snapshot{Mode: game.Play, Position: afterE5}},
		{name: "a choice waits", side: board.White, moves: []string{"e2e4"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4, Pending: &report.Report{}}},
		{name: "a move awaited", side: board.White, moves: []string{"e2e4"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4, HasAwaiting: true}},
		{name: "a new game awaited", side: board.White, moves: []string{"e2e4"}, snap: game.Snapshot{Mode: game.AwaitNewGame, Position: afterE4}},
		{name: "the board's side to move", side: board.Black, moves: []string{"e2e4"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4}},
		{name: "the move that ended the game", side: board.White, moves: []string{"e2e4"}, snap: game.Snapshot{Mode: game.Play, Position: afterE4, Pending: &report.Report{}, Result: over}, want: "e2e4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			snap := c.snap
			got, ok := toSend(view{moves: c.moves, snap: &snap, theirs: c.theirs}, c.side)
			if got != c.want || ok != (c.want != "") {
				t.Errorf("toSend = %q, %v; want %q", got, ok, c.want)
			}
		})
	}
}
