package gesture

import (
	"testing"

	"github.com/boardd/boardd/board"
)

// TestLawfulForItsSide checks which moves of a man of the side not on move
// read as that side moving again: only those it could lawfully make were it
// on move, so that an impossible one is the mover's handling of an adverse
// man and is never recorded as a move.
func TestLawfulForItsSide(t *testing.T) {
	cases := []struct {
		name string
		fen  string // White to move throughout
		move string // a move of a black man
		want bool
	}{
		{"pawn one step", "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "d5d4", true},
		{"pawn two steps from its home rank", "4k3/3p4/8/8/8/8/4P3/4K3 w - - 0 1", "d7d5", true},
		{"pawn two steps off its home rank", "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "d5d3", false},
		{"pawn backwards", "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "d5d6", false},
		{"pawn diagonally onto an empty square", "4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", "d5e4", false},
		{"pawn takes", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "d5e4", true},
		{"bishop through a man", "4k3/8/2b5/3p4/8/8/8/4K3 w - - 0 1", "c6e4", false},
		{"bishop onto its own man", "4k3/8/2b5/3p4/8/8/8/4K3 w - - 0 1", "c6d5", false},
		{"pinned knight", "4k3/4n3/8/8/8/8/8/4RK2 w - - 0 1", "e7c6", false},
		{"king's two steps after its rook moved first", "4kr2/8/8/8/8/8/8/4K3 w - - 0 1", "e8g8", true},
		{"white king in check: the man's way decides", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "d2d1", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pos, err := board.ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := board.ParseUCI(c.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := lawfulForItsSide(&pos, m); got != c.want {
				t.Errorf("lawfulForItsSide(%s, %s) = %v, want %v", c.fen, c.move, got, c.want)
			}
		})
	}
}
