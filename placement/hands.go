// Package placement names the men on a board whose sensors see only which
// squares are occupied. The game knows where every man should stand; while
// hands are at work the board differs from it, and who stands on a square
// just filled follows from the order in which squares emptied and filled.
//
// Hands is that reasoning on lifts and placements: the man set down is the
// last one lifted, except where a capture is being made (the taker goes
// where the man taken stood), where a king or a rook is castling (each goes
// to its castling square), and where the last man lifted could not go there
// while an earlier one could. The console follows a simulated board's
// clicks with it. Tracker feeds Hands from the game's successive snapshots
// (the squares that emptied and filled between two) and names every
// occupied square, as the ChessLink emulation reports the board to apps.
// Neither generates legal moves: the cost is a few passes over 64 squares.
package placement

import (
	"math/bits"
	"slices"

	"github.com/boardd/boardd/board"
)

// Held is a man in hand and the square he left.
type Held struct {
	Man  board.Man
	From board.Square
}

// Hands follows which man stands where from the lifts and placements it is
// told, starting from a placement the board and the game agreed on (Agree).
// Once something happens that it cannot follow (a lift from a square it
// thinks empty, a man set down with none in hand), it knows nothing until
// the next Agree. The zero value knows nothing.
type Hands struct {
	known bool
	men   [64]board.Man
	held  []Held
}

// Agree says the board shows men, square for square (it agrees with the
// game): nothing is in hand.
func (h *Hands) Agree(men *[64]board.Man) {
	h.known, h.men, h.held = true, *men, h.held[:0]
}

// Forget says the board changed in a way the hands cannot follow (a raw
// scan, a set-up, an arbiter's action): nothing is known until the next
// Agree.
func (h *Hands) Forget() {
	h.known, h.held = false, h.held[:0]
}

// Known reports whether the hands know who stands where.
func (h *Hands) Known() bool { return h.known }

// At returns the man on sq, NoMan for an empty square or when nothing is
// known.
func (h *Hands) At(sq board.Square) board.Man {
	if !h.known || !sq.Valid() {
		return board.NoMan
	}
	return h.men[sq]
}

// Held returns the men in hand, the first lifted first. The slice is the
// hands' own: read it before the next change, and do not modify it.
func (h *Hands) Held() []Held {
	if !h.known {
		return nil
	}
	return h.held
}

// Lift says the man on sq was lifted.
func (h *Hands) Lift(sq board.Square) {
	if !h.known {
		return
	}
	if !sq.Valid() || h.men[sq] == board.NoMan {
		h.Forget()
		return
	}
	h.held = append(h.held, Held{Man: h.men[sq], From: sq})
	h.men[sq] = board.NoMan
}

// Place says a man was set down on sq: one of the men in hand (see Set).
func (h *Hands) Place(sq board.Square) {
	if !h.known {
		return
	}
	if !sq.Valid() || h.men[sq] != board.NoMan || len(h.held) == 0 {
		h.Forget()
		return
	}
	i := SetDown(h.held, sq)
	h.men[sq] = h.held[i].Man
	h.held = slices.Delete(h.held, i, i+1)
}

// SetDown returns which of the men in hand (held, the first lifted first;
// not empty) is the one set down on sq:
//
//   - a capture: when the last man lifted left sq, is no king (kings are
//     never taken) and an earlier one is of the other side, the latest such
//     earlier man (the taker lifted first, then the man taken; the taker
//     goes where he stood);
//   - castling: a king that left its home square set down two files over on
//     its rank, or a rook that left its corner set down on its castling
//     square (the king's side of the king's file), while its king is in hand
//     too or stands two files from home;
//   - otherwise the latest man lifted who could reach sq by his kind's move
//     (ignoring men in the way), or who left sq;
//   - otherwise the last man lifted.
func SetDown(held []Held, sq board.Square) int {
	last := len(held) - 1
	if held[last].From == sq && held[last].Man.Kind() != board.King {
		for i := last - 1; i >= 0; i-- {
			if held[i].Man.Color() != held[last].Man.Color() {
				return i
			}
		}
	}
	for i := last; i >= 0; i-- {
		if castles(held, i, sq) {
			return i
		}
	}
	for i := last; i >= 0; i-- {
		if held[i].From == sq || reaches(held[i].Man, held[i].From, sq) {
			return i
		}
	}
	return last
}

// homeRank is the rank a side's king and rooks start on.
func homeRank(c board.Color) int {
	if c == board.White {
		return 0
	}
	return 7
}

// castles reports whether held[i] set down on sq is a castling king or
// rook.
func castles(held []Held, i int, sq board.Square) bool {
	m, from := held[i].Man, held[i].From
	rank := homeRank(m.Color())
	if from.Rank() != rank || sq.Rank() != rank {
		return false
	}
	switch m.Kind() {
	case board.King:
		return from.File() == 4 && (sq.File() == 6 || sq.File() == 2)
	case board.Rook:
		if (from.File() != 7 || sq.File() != 5) && (from.File() != 0 || sq.File() != 3) {
			return false
		}
		king := board.NewMan(m.Color(), board.King)
		for _, h := range held {
			if h.Man == king && h.From == board.NewSquare(4, rank) {
				return true
			}
		}
		return false
	}
	return false
}

// reaches reports whether man m could go from one square to another by his
// kind's move, ignoring what stands between (a pawn's step, double step or
// capture forward; a king's step or castling step).
func reaches(m board.Man, from, to board.Square) bool {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	af, ar := abs(df), abs(dr)
	switch m.Kind() {
	case board.Pawn:
		fwd, start := 1, 1
		if m.Color() == board.Black {
			fwd, start = -1, 6
		}
		return (dr == fwd && af <= 1) || (df == 0 && dr == 2*fwd && from.Rank() == start)
	case board.Knight:
		return af*ar == 2
	case board.Bishop:
		return af == ar && af > 0
	case board.Rook:
		return (af == 0) != (ar == 0)
	case board.Queen:
		return (af == ar && af > 0) || (af == 0) != (ar == 0)
	case board.King:
		return (af <= 1 && ar <= 1 && af+ar > 0) || (ar == 0 && af == 2 && from.File() == 4 && from.Rank() == homeRank(m.Color()))
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Name returns the man standing on each square occ reads as occupied, and
// the occupied squares nobody can name. A square's man is the one the hands
// set down there (when they know); else the man the game expects there;
// else, when the men of the expected position off their squares are all
// alike (one kind, one side), that man; else nobody can tell.
func Name(h *Hands, expected *[64]board.Man, occ board.Occupancy) (men [64]board.Man, unknown board.Occupancy) {
	var off board.Man
	alike := true
	for sq, m := range expected {
		if m == board.NoMan || occ.Has(board.Square(sq)) {
			continue
		}
		if off != board.NoMan && m != off {
			alike = false
		}
		off = m
	}
	if !alike {
		off = board.NoMan
	}
	for o := uint64(occ); o != 0; o &= o - 1 {
		sq := board.Square(bits.TrailingZeros64(o))
		man := h.At(sq)
		if man == board.NoMan {
			man = expected[sq]
		}
		if man == board.NoMan {
			man = off
		}
		if man == board.NoMan {
			unknown = unknown.With(sq)
		}
		men[sq] = man
	}
	return men, unknown
}
