package placement

import (
	"math/bits"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
)

// Tracker names the men of a presence-only board from the game's
// successive snapshots (game.Runner's OnChange): the squares that emptied
// since the snapshot before are lifts, those that filled are placements
// (lifts first, each in square order), and whenever the board reads as the
// game expects it to, the game's men stand where it expects them (or where
// its position has them: a game over expects the board set up anew while
// it still shows the last move). It keeps
// no more than the last occupancy and the men in hand, and allocates
// nothing once the hands have held their most. The zero value is ready; it
// is not safe for concurrent use.
type Tracker struct {
	hands Hands
	occ   board.Occupancy
	begun bool
}

// Update reads the game's next snapshot and returns the placement it
// shows: every occupied square with its man, named as Name names them; a
// pawn set down on its last rank as the piece its side has named
// (s.Promotion), else a queen, for that is what stands there when the move
// is done; and a square nobody can name (a man brought from off the board
// where the game expects none) as empty.
func (t *Tracker) Update(s *game.Snapshot) [64]board.Man {
	expected := &s.Expected.Men
	occ := s.Occupancy
	switch {
	case occ == s.Expected.Occupancy():
		t.hands.Agree(expected)
	case occ == s.Position.Occupancy():
		t.hands.Agree(&s.Position.Men)
	case !t.begun:
		t.hands.Forget() // begun mid-move (a journal replayed): nobody to follow
	default:
		for o := uint64(t.occ &^ occ); o != 0; o &= o - 1 {
			t.hands.Lift(board.Square(bits.TrailingZeros64(o)))
		}
		for o := uint64(occ &^ t.occ); o != 0; o &= o - 1 {
			t.hands.Place(board.Square(bits.TrailingZeros64(o)))
		}
	}
	t.occ, t.begun = occ, true
	men, _ := Name(&t.hands, expected, occ)
	for _, rank := range [2]int{0, 7} {
		for f := range 8 {
			sq := board.NewSquare(f, rank)
			m := men[sq]
			if m.Kind() != board.Pawn || rank != homeRank(m.Color().Other()) {
				continue
			}
			k := s.Promotion[m.Color()&1]
			if k == board.NoKind {
				k = board.Queen
			}
			men[sq] = board.NewMan(m.Color(), k)
		}
	}
	return men
}

// Hands returns the hands the tracker follows (read only).
func (t *Tracker) Hands() *Hands { return &t.hands }
