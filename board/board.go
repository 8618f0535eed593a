// Package board models what stands on the 64 squares: squares, colours, men,
// occupancy bitsets and chess positions with their legal moves, FEN and SAN.
//
// It is the shared vocabulary of the game. Legal-move generation, FEN
// parsing and SAN come from github.com/corentings/chess/v2; this package adds
// the plain value types the per-frame path needs (a Position is a comparable
// array, an Occupancy one machine word) and the things a rules library does not
// do: applying a false move that a ruling lets stand, and classifying why a
// move is false. It knows nothing of sensors, gestures, law-sets or LEDs.
package board

import (
	"fmt"
	"math/bits"
)

// Square is one of the 64 squares: a1 = 0, b1 = 1 ... h1 = 7, a2 = 8 ... h8 = 63.
type Square int8

// NoSquare marks the absence of a square (no en passant target, for instance).
const NoSquare Square = -1

// NewSquare returns the square on file f (0 = a) and rank r (0 = rank 1).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the square's file, 0 for a through 7 for h.
func (s Square) File() int { return int(s) & 7 }

// Rank returns the square's rank, 0 for rank 1 through 7 for rank 8.
func (s Square) Rank() int { return int(s) >> 3 }

// Valid reports whether s names one of the 64 squares.
func (s Square) Valid() bool { return s >= 0 && s < 64 }

// String returns the square in lowercase algebraic form, such as "e4".
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square written as "e4" (case-insensitive).
func ParseSquare(text string) (Square, error) {
	if len(text) != 2 {
		return NoSquare, fmt.Errorf("board: square %q: want a file a-h and a rank 1-8", text)
	}
	f := text[0] | 0x20
	r := text[1]
	if f < 'a' || f > 'h' || r < '1' || r > '8' {
		return NoSquare, fmt.Errorf("board: square %q: want a file a-h and a rank 1-8", text)
	}
	return NewSquare(int(f-'a'), int(r-'1')), nil
}

// Occupancy is a set of squares, bit i standing for square i.
type Occupancy uint64

// Has reports whether square s is in the set.
func (o Occupancy) Has(s Square) bool { return o&(1<<uint(s)) != 0 }

// With returns the set with s added.
func (o Occupancy) With(s Square) Occupancy { return o | 1<<uint(s) }

// Without returns the set with s removed.
func (o Occupancy) Without(s Square) Occupancy { return o &^ (1 << uint(s)) }

// Count returns how many squares are in the set.
func (o Occupancy) Count() int { return bits.OnesCount64(uint64(o)) }

// Squares lists the squares of the set from a1 to h8.
func (o Occupancy) Squares() []Square {
	out := make([]Square, 0, o.Count())
	for v := uint64(o); v != 0; v &= v - 1 {
		out = append(out, Square(bits.TrailingZeros64(v)))
	}
	return out
}

// SquareNames lists the squares of the set as lowercase names, a1 first.
func (o Occupancy) SquareNames() []string {
	out := make([]string, 0, o.Count())
	for v := uint64(o); v != 0; v &= v - 1 {
		out = append(out, Square(bits.TrailingZeros64(v)).String())
	}
	return out
}

// Hex returns the occupancy as 16 hex digits, most significant first, as the
// trace format writes frames.
func (o Occupancy) Hex() string { return fmt.Sprintf("%016x", uint64(o)) }

// Color is the side a man belongs to.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black", the spelling used in traces and output.
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// ParseColor reads "white" or "black".
func ParseColor(text string) (Color, error) {
	switch text {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return White, fmt.Errorf("board: side %q: want white or black", text)
}

// Kind is what sort of man stands on a square.
type Kind uint8

// The kinds of men; NoKind is an empty square or an unnamed promotion.
const (
	NoKind Kind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

var kindLetters = [...]byte{'-', 'p', 'n', 'b', 'r', 'q', 'k'}

// Letter returns the lowercase FEN letter of the kind, such as 'n'.
func (k Kind) Letter() byte {
	if int(k) < len(kindLetters) {
		return kindLetters[k]
	}
	return '?'
}

// String returns the kind's English name, such as "knight".
func (k Kind) String() string {
	switch k {
	case Pawn:
		return "pawn"
	case Knight:
		return "knight"
	case Bishop:
		return "bishop"
	case Rook:
		return "rook"
	case Queen:
		return "queen"
	case King:
		return "king"
	}
	return "none"
}

// ParsePromotion reads a promotion piece letter: q, r, b or n (either case).
func ParsePromotion(text string) (Kind, error) {
	if len(text) == 1 {
		switch text[0] | 0x20 {
		case 'q':
			return Queen, nil
		case 'r':
			return Rook, nil
		case 'b':
			return Bishop, nil
		case 'n':
			return Knight, nil
		}
	}
	return NoKind, fmt.Errorf("board: promotion piece %q: want q, r, b or n", text)
}

// Man is a chessman of a colour, or NoMan for an empty square. The zero value
// is an empty square.
type Man uint8

// NoMan is an empty square.
const NoMan Man = 0

// NewMan returns the man of kind k and colour c.
func NewMan(c Color, k Kind) Man { return Man(uint8(k) | uint8(c)<<3) }

// Kind returns the man's kind.
func (m Man) Kind() Kind { return Kind(m & 7) }

// Color returns the man's side (meaningless for NoMan).
func (m Man) Color() Color { return Color(m >> 3 & 1) }

// FEN returns the man's FEN letter: uppercase for White, lowercase for Black.
func (m Man) FEN() byte {
	l := m.Kind().Letter()
	if m.Color() == White {
		return l - 0x20
	}
	return l
}

// String returns a readable name such as "white knight".
func (m Man) String() string {
	if m == NoMan {
		return "none"
	}
	return m.Color().String() + " " + m.Kind().String()
}

// ManFromFEN returns the man for a FEN letter such as 'N' or 'p'.
func ManFromFEN(letter byte) (Man, bool) {
	c := White
	if letter >= 'a' {
		c = Black
	}
	for k := Pawn; k <= King; k++ {
		if kindLetters[k] == letter|0x20 {
			return NewMan(c, k), true
		}
	}
	return NoMan, false
}
