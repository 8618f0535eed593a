package game

import (
	"testing"

	"github.com/boardd/boardd/board"
)

// The promotion piece a side names shows in the snapshot (a new version of
// it) until the promotion is made; then it is spent.
func TestSnapshotPromotionNamed(t *testing.T) {
	g, err := New(Options{Laws: "fide2023", Setup: "7k/P7/8/8/8/8/8/K7 w - - 0 1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Snapshot(); s.Promotion != [2]board.Kind{} {
		t.Fatalf("promotion %v before any was named", s.Promotion)
	}
	v := g.Version()
	play(t, g, `{"t":100,"promote":"n","side":"white"}`)
	if g.Version() == v {
		t.Error("naming a promotion piece made no new snapshot")
	}
	if s := g.Snapshot(); s.Promotion != [2]board.Kind{board.Knight, board.NoKind} {
		t.Errorf("promotion %v, want White's knight", s.Promotion)
	}
	play(t, g, `{"t":1000,"lift":"a7"}
{"t":1200,"place":"a8"}`)
	g.Advance(3000e6)
	s := g.Snapshot()
	if got := s.Position.Men[board.NewSquare(0, 7)]; got != board.NewMan(board.White, board.Knight) {
		t.Fatalf("a8 holds %v after the promotion", got)
	}
	if s.Promotion != [2]board.Kind{} {
		t.Errorf("promotion %v after it was made, want none", s.Promotion)
	}
}
