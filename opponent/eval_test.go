package opponent_test

import (
	"context"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/opponent/opponenttest"
)

// sign is the sign of an evaluation from White's point of view: 1 when
// White stands better by more than a minor piece or mates, -1 when Black
// does, 0 between.
func sign(e *opponent.Eval) int {
	w := e.White
	switch {
	case w.Mate > 0 || (w.Mate == 0 && w.Centipawns > 250):
		return 1
	case w.Mate < 0 || (w.Mate == 0 && w.Centipawns < -250):
		return -1
	}
	return 0
}

// evalAt waits for the match's evaluation of the position after ply moves
// and returns it; the game must still stand there.
func evalAt(t *testing.T, m *opponent.Match, b *testBoard, ply int) *opponent.Eval {
	t.Helper()
	var e *opponent.Eval
	eventually(t, "the evaluation of the position after move "+string(rune('0'+ply)), func() bool {
		e = m.State().Eval
		return e != nil && e.Ply == ply
	})
	if s := snap(t, b); s.Moves != ply {
		t.Fatalf("the evaluation is for ply %d, the game stands at %d", ply, s.Moves)
	}
	return e
}

// The evaluation follows the game from White's point of view, after every
// move, the player's and the engine's: it says which position it is for,
// a blunder flips its sign at once, and a take-back clears the taken-back
// line's figure until the position the board goes back to is evaluated.
// Against the real Stockfish at a small depth.
func TestEvaluationFollowsTheGame(t *testing.T) {
	p, err := computer.Start(context.Background(), computer.Options{
		Path:     stockfish(t),
		Level:    computer.Level{Strength: computer.StrengthFull, Limit: computer.Limit{Depth: 6}},
		Evaluate: computer.Limit{Depth: 6},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	// White has a queen for a rook and mates on d8; Qd7?? gives the queen
	// away for nothing.
	const fen = "3r2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
	b := newBoard(t, game.Options{Setup: fen})
	m := startMatch(t, b, opponent.Options{Player: opponent.NewEngine(p), Side: opponent.Black, Evaluate: true})
	h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("d1d7")}

	steps := []struct {
		name string
		ply  int
		act  func()
		want int // the sign of White's score
	}{
		{"the start, White to move (nobody has moved: the engine evaluates)", 0, func() {}, 1},
		{"after the blunder Qd7?? (the engine's own search)", 1, func() {
			play(t, h, func(s *game.Snapshot) bool { return s.Moves == 1 })
		}, -1},
		{"after Rxd7 carried out (the engine evaluates the player's position)", 2, func() {
			h.Choose = nil
			play(t, h, func(s *game.Snapshot) bool { return s.Moves == 2 })
		}, -1},
		{"after taking both back", 0, func() {
			if err := m.TakeBack(context.Background(), 0); err != nil {
				t.Fatal(err)
			}
			if e := m.State().Eval; e != nil && e.Ply != 0 {
				t.Errorf("just after the take-back the evaluation of ply %d (%v) is still shown", e.Ply, e)
			}
		}, 1},
	}
	for _, st := range steps {
		st.act()
		e := evalAt(t, m, b, st.ply)
		if got := sign(e); got != st.want {
			t.Errorf("%s: White's score %v at ply %d, want the sign %+d", st.name, e, e.Ply, st.want)
		}
	}
}
