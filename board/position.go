package board

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/corentings/chess/v2"
)

// Castling holds the castling rights still alive, one bit a side and wing.
type Castling uint8

// The four castling rights.
const (
	WhiteKingside Castling = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
)

// Right returns the castling right of colour c on the king's wing (kingside
// true) or the queen's.
func Right(c Color, kingside bool) Castling {
	r := WhiteKingside
	if !kingside {
		r = WhiteQueenside
	}
	if c == Black {
		r <<= 2
	}
	return r
}

// String returns the rights as FEN writes them ("KQkq", or "-" for none).
func (c Castling) String() string {
	var b strings.Builder
	for i, l := range "KQkq" {
		if c&(1<<i) != 0 {
			b.WriteRune(l)
		}
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

// Position is a complete chess position: the men on the squares, the side to
// move, castling rights, the en passant target (set after every double pawn
// step, as FEN writes it) and the move counters. It is a plain comparable value;
// copying it copies the position.
type Position struct {
	Men       [64]Man
	Turn      Color
	Castling  Castling
	EnPassant Square
	HalfMoves int // plies since the last capture or pawn move
	FullMove  int // the number of the move being played, from 1
}

// StartFEN is the FEN of the initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Start returns the initial position.
func Start() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("board: the initial position does not parse: " + err.Error())
	}
	return p
}

// ParseFEN reads a position in Forsyth-Edwards Notation. The position need
// not be reachable, but it must have one king a side. Missing move counters
// default to "0 1".
//
// boardd parses FEN itself rather than through the chess library: the
// library's decoder shares a package-level buffer between calls, a data race
// when several games start at once (the hall, parallel tests).
func ParseFEN(fen string) (Position, error) {
	fields := strings.Fields(fen)
	if len(fields) == 4 {
		fields = append(fields, "0", "1")
	}
	if len(fields) != 6 {
		return Position{}, fmt.Errorf("board: FEN %q: want 6 fields, found %d", fen, len(fields))
	}
	fail := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("board: FEN %q: "+format, append([]any{fen}, args...)...)
	}
	var p Position
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("want 8 ranks in the placement, found %d", len(ranks))
	}
	for i, rank := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(rank); j++ {
			c := rank[j]
			switch {
			case c >= '1' && c <= '8':
				f += int(c - '0')
			default:
				m, ok := ManFromFEN(c)
				if !ok {
					return fail("rank %d: %q is not a man", r+1, c)
				}
				if f > 7 {
					return fail("rank %d: more than 8 squares", r+1)
				}
				p.Men[NewSquare(f, r)] = m
				f++
			}
			if f > 8 {
				return fail("rank %d: more than 8 squares", r+1)
			}
		}
		if f != 8 {
			return fail("rank %d: %d squares, want 8", r+1, f)
		}
	}
	switch fields[1] {
	case "w":
		p.Turn = White
	case "b":
		p.Turn = Black
	default:
		return fail("side to move %q: want w or b", fields[1])
	}
	if fields[2] != "-" {
		for _, c := range fields[2] {
			i := strings.IndexRune("KQkq", c)
			if i < 0 {
				return fail("castling rights %q: want some of KQkq, or -", fields[2])
			}
			p.Castling |= 1 << i
		}
	}
	p.EnPassant = NoSquare
	if fields[3] != "-" {
		sq, err := ParseSquare(fields[3])
		if err != nil || (sq.Rank() != 2 && sq.Rank() != 5) {
			return fail("en passant square %q: want a square on rank 3 or 6, or -", fields[3])
		}
		p.EnPassant = sq
	}
	var err error
	if p.HalfMoves, err = strconv.Atoi(fields[4]); err != nil || p.HalfMoves < 0 {
		return fail("half-move clock %q: want a count from 0", fields[4])
	}
	if p.FullMove, err = strconv.Atoi(fields[5]); err != nil || p.FullMove < 1 {
		return fail("move number %q: want a number from 1", fields[5])
	}
	var kings [2]int
	for _, m := range p.Men {
		if m.Kind() == King {
			kings[m.Color()]++
		}
	}
	if kings[White] != 1 || kings[Black] != 1 {
		return fail("want one king a side, found %d white and %d black", kings[White], kings[Black])
	}
	// Rights whose king or rook has left home cannot be used: drop them.
	p.Castling &= homeRights(&p)
	return p, nil
}

// homeRights returns the castling rights whose king and rook stand at home.
func homeRights(p *Position) Castling {
	var keep Castling
	for _, c := range [2]Color{White, Black} {
		home := 0
		if c == Black {
			home = 7
		}
		if p.Men[NewSquare(4, home)] != NewMan(c, King) {
			continue
		}
		if p.Men[NewSquare(7, home)] == NewMan(c, Rook) {
			keep |= Right(c, true)
		}
		if p.Men[NewSquare(0, home)] == NewMan(c, Rook) {
			keep |= Right(c, false)
		}
	}
	return keep
}

func kindFromLibrary(t chess.PieceType) Kind {
	switch t {
	case chess.Pawn:
		return Pawn
	case chess.Knight:
		return Knight
	case chess.Bishop:
		return Bishop
	case chess.Rook:
		return Rook
	case chess.Queen:
		return Queen
	case chess.King:
		return King
	}
	return NoKind
}

// FEN writes the position in Forsyth-Edwards Notation.
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			m := p.Men[NewSquare(f, r)]
			if m == NoMan {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(m.FEN())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if p.Turn == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(p.Castling.String())
	b.WriteByte(' ')
	b.WriteString(p.EnPassant.String())
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.HalfMoves))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.FullMove))
	return b.String()
}

// Placement returns only the piece-placement field of the FEN.
func (p *Position) Placement() string {
	f := p.FEN()
	return f[:strings.IndexByte(f, ' ')]
}

// Occupancy returns the squares that hold a man.
func (p *Position) Occupancy() Occupancy {
	var o Occupancy
	for sq, m := range p.Men {
		if m != NoMan {
			o |= 1 << uint(sq)
		}
	}
	return o
}

// OccupancyOf returns the squares that hold a man of colour c.
func (p *Position) OccupancyOf(c Color) Occupancy {
	var o Occupancy
	for sq, m := range p.Men {
		if m != NoMan && m.Color() == c {
			o |= 1 << uint(sq)
		}
	}
	return o
}

// KingSquare returns where colour c's king stands, or NoSquare.
func (p *Position) KingSquare(c Color) Square {
	k := NewMan(c, King)
	for sq, m := range p.Men {
		if m == k {
			return Square(sq)
		}
	}
	return NoSquare
}

// RepetitionKey identifies a position for the repetition rules: the same men
// on the same squares, the same side to move, the same castling rights and
// the same en passant capture actually available.
type RepetitionKey struct {
	Men       [64]Man
	Turn      Color
	Castling  Castling
	EnPassant Square
}

// Key returns the position's repetition key. The en passant square counts only
// when a pawn of the side to move could take on it.
func (p *Position) Key() RepetitionKey {
	k := RepetitionKey{Men: p.Men, Turn: p.Turn, Castling: p.Castling, EnPassant: NoSquare}
	if p.EnPassant != NoSquare && p.enPassantCapturable() {
		k.EnPassant = p.EnPassant
	}
	return k
}

func (p *Position) enPassantCapturable() bool {
	ep := p.EnPassant
	dir := -1
	if p.Turn == Black {
		dir = 1
	}
	r := ep.Rank() + dir
	if r < 0 || r > 7 {
		return false
	}
	for _, df := range [2]int{-1, 1} {
		f := ep.File() + df
		if f < 0 || f > 7 {
			continue
		}
		if p.Men[NewSquare(f, r)] == NewMan(p.Turn, Pawn) {
			return true
		}
	}
	return false
}
