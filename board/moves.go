package board

import (
	"encoding/binary"
	"fmt"

	"github.com/corentings/chess/v2"
)

// Move is a move of one man from From to To, with the piece a pawn becomes on
// the last rank (NoKind when none is named). Castling is written as the king's
// move (e1g1), en passant as the capturing pawn's.
type Move struct {
	From, To Square
	Promo    Kind
}

// UCI returns the move in UCI notation: e2e4, e1g1, e7e8q.
func (m Move) UCI() string {
	b := []byte(m.From.String() + m.To.String())
	if m.Promo != NoKind {
		b = append(b, m.Promo.Letter())
	}
	return string(b)
}

// String is the move's UCI text.
func (m Move) String() string { return m.UCI() }

// ParseUCI reads a move in UCI notation.
func ParseUCI(text string) (Move, error) {
	if len(text) != 4 && len(text) != 5 {
		return Move{}, fmt.Errorf("board: move %q: want UCI such as e2e4 or e7e8q", text)
	}
	from, err := ParseSquare(text[0:2])
	if err != nil {
		return Move{}, fmt.Errorf("board: move %q: %w", text, err)
	}
	to, err := ParseSquare(text[2:4])
	if err != nil {
		return Move{}, fmt.Errorf("board: move %q: %w", text, err)
	}
	m := Move{From: from, To: to}
	if len(text) == 5 {
		if m.Promo, err = ParsePromotion(text[4:]); err != nil {
			return Move{}, fmt.Errorf("board: move %q: %w", text, err)
		}
	}
	return m, nil
}

// IsCastling reports whether m, played in p, is a king stepping two files:
// castling when legal, a false castling otherwise.
func (p *Position) IsCastling(m Move) bool {
	man := p.Men[m.From]
	if man.Kind() != King || m.From.Rank() != m.To.Rank() {
		return false
	}
	d := m.To.File() - m.From.File()
	return d == 2 || d == -2
}

// CastlingRook returns the squares the rook leaves and reaches when the king
// castles from `from` to `to` (the king's squares).
func CastlingRook(from, to Square) (rookFrom, rookTo Square) {
	r := from.Rank()
	if to.File() > from.File() {
		return NewSquare(7, r), NewSquare(5, r)
	}
	return NewSquare(0, r), NewSquare(3, r)
}

// IsEnPassant reports whether m, played in p, is a pawn taking en passant.
func (p *Position) IsEnPassant(m Move) bool {
	man := p.Men[m.From]
	return man.Kind() == Pawn && m.To == p.EnPassant && m.From.File() != m.To.File() && p.Men[m.To] == NoMan
}

// EnPassantVictim returns the square of the pawn taken by an en passant move.
func EnPassantVictim(m Move) Square { return NewSquare(m.To.File(), m.From.Rank()) }

// IsPromotion reports whether m, played in p, brings a pawn to its last rank.
func (p *Position) IsPromotion(m Move) bool {
	man := p.Men[m.From]
	if man.Kind() != Pawn {
		return false
	}
	return (man.Color() == White && m.To.Rank() == 7) || (man.Color() == Black && m.To.Rank() == 0)
}

// Apply returns the position after m, legal or not: the man on From goes to To
// (taking whatever stood there), a king stepping two files takes its rook
// along, a pawn moving diagonally onto the en passant square takes the passed
// pawn, and a pawn reaching the last rank becomes m.Promo when one is named.
// Castling rights, the en passant target, the counters and the turn follow.
func (p Position) Apply(m Move) Position {
	man := p.Men[m.From]
	captured := p.Men[m.To]
	q := p
	if p.IsEnPassant(m) {
		victim := EnPassantVictim(m)
		captured = q.Men[victim]
		q.Men[victim] = NoMan
	}
	if p.IsCastling(m) {
		rf, rt := CastlingRook(m.From, m.To)
		if q.Men[rf] == NewMan(man.Color(), Rook) && q.Men[rt] == NoMan {
			q.Men[rt] = q.Men[rf]
			q.Men[rf] = NoMan
		}
	}
	q.Men[m.From] = NoMan
	placed := man
	if p.IsPromotion(m) && m.Promo != NoKind {
		placed = NewMan(man.Color(), m.Promo)
	}
	q.Men[m.To] = placed
	q.Castling &^= rightsTouching(m.From) | rightsTouching(m.To)
	if man.Kind() == King {
		q.Castling &^= Right(man.Color(), true) | Right(man.Color(), false)
	}
	q.EnPassant = NoSquare
	if man.Kind() == Pawn && (m.To.Rank()-m.From.Rank() == 2 || m.From.Rank()-m.To.Rank() == 2) && m.From.File() == m.To.File() {
		q.EnPassant = NewSquare(m.From.File(), (m.From.Rank()+m.To.Rank())/2)
	}
	if man.Kind() == Pawn || captured != NoMan {
		q.HalfMoves = 0
	} else {
		q.HalfMoves++
	}
	if p.Turn == Black {
		q.FullMove++
	}
	q.Turn = p.Turn.Other()
	return q
}

func rightsTouching(sq Square) Castling {
	switch sq {
	case 4:
		return WhiteKingside | WhiteQueenside
	case 60:
		return BlackKingside | BlackQueenside
	case 7:
		return WhiteKingside
	case 0:
		return WhiteQueenside
	case 63:
		return BlackKingside
	case 56:
		return BlackQueenside
	}
	return 0
}

// Analysis is what the rules library says of one position: its legal moves,
// whether the side to move is in check, and SAN for its moves. Computing it
// allocates (the library generates moves), so the game does it once per
// position, never per scan frame.
type Analysis struct {
	Position Position
	Moves    []Move // every legal move, promotions once per piece
	InCheck  bool
	lib      chess.Position
	libMoves []chess.Move
}

// Analyse asks the rules library for the legal moves of p.
func Analyse(p Position) (*Analysis, error) {
	a := &Analysis{Position: p}
	bin := p.libraryBinary()
	if err := a.lib.UnmarshalBinary(bin[:]); err != nil {
		return nil, fmt.Errorf("board: analyse %s: %w", p.FEN(), err)
	}
	a.libMoves = a.lib.ValidMoves()
	a.Moves = make([]Move, len(a.libMoves))
	for i := range a.libMoves {
		lm := &a.libMoves[i]
		a.Moves[i] = Move{From: Square(lm.S1()), To: Square(lm.S2()), Promo: kindFromLibrary(lm.Promo())}
	}
	a.InCheck = p.InCheck(p.Turn)
	return a, nil
}

// libraryBinary encodes p in the rules library's binary position format: twelve
// big-endian bitboards (white king, queen, rook, bishop, knight, pawn, then
// black's), with square s at bit 63-s, then the half-move clock, the move
// number, the en passant square and a flags byte. It is several times cheaper
// for the library to read than FEN.
func (p *Position) libraryBinary() [101]byte {
	var out [101]byte
	order := [6]Kind{King, Queen, Rook, Bishop, Knight, Pawn}
	var bbs [12]uint64
	for sq, m := range p.Men {
		if m == NoMan {
			continue
		}
		for i, k := range order {
			if m.Kind() == k {
				bbs[int(m.Color())*6+i] |= 1 << uint(63-sq)
			}
		}
	}
	for i, bb := range bbs {
		binary.BigEndian.PutUint64(out[i*8:], bb)
	}
	half := p.HalfMoves
	if half > 255 {
		half = 255
	}
	out[96] = byte(half)
	binary.BigEndian.PutUint16(out[97:], uint16(p.FullMove))
	out[99] = byte(p.EnPassant)
	var flags byte
	for i := 0; i < 4; i++ {
		if p.Castling&(1<<i) != 0 {
			flags |= 1 << i
		}
	}
	if p.Turn == Black {
		flags |= 1 << 4
	}
	if p.EnPassant != NoSquare {
		flags |= 1 << 5
	}
	out[100] = flags
	return out
}

// IsLegal reports whether m is one of the position's legal moves. A promotion
// must name its piece.
func (a *Analysis) IsLegal(m Move) bool {
	for _, lm := range a.Moves {
		if lm == m {
			return true
		}
	}
	return false
}

// MovesFrom lists the legal moves of the man on sq.
func (a *Analysis) MovesFrom(sq Square) []Move {
	var out []Move
	for _, m := range a.Moves {
		if m.From == sq {
			out = append(out, m)
		}
	}
	return out
}

// Checkmate reports whether the side to move is mated.
func (a *Analysis) Checkmate() bool { return a.InCheck && len(a.Moves) == 0 }

// Stalemate reports whether the side to move has no legal move and is not in
// check.
func (a *Analysis) Stalemate() bool { return !a.InCheck && len(a.Moves) == 0 }

// SAN returns the move in Standard Algebraic Notation with its check or mate
// sign. A move that is not legal here is written from its geometry (with a
// capture sign where it lands on a man), so that a false move left standing by
// a ruling can still be recorded.
func (a *Analysis) SAN(m Move) string {
	for i := range a.libMoves {
		lm := &a.libMoves[i]
		if Square(lm.S1()) == m.From && Square(lm.S2()) == m.To && kindFromLibrary(lm.Promo()) == m.Promo {
			return chess.AlgebraicNotation{}.Encode(&a.lib, lm)
		}
	}
	return a.Position.RoughSAN(m)
}

// SANAfter writes a legal move in Standard Algebraic Notation, given the
// analysis of the position it leads to (for the check and mate signs). It is
// the library's notation, computed from the legal moves already at hand: the
// library's encoder generates the moves of both positions again for every
// move, which made SAN a quarter of the cost of a replay. Tests check the two
// agree on every move of a perft walk.
func (a *Analysis) SANAfter(m Move, next *Analysis) string {
	p := &a.Position
	var b []byte
	switch {
	case p.IsCastling(m) && m.To.File() > m.From.File():
		b = append(b, "O-O"...)
	case p.IsCastling(m):
		b = append(b, "O-O-O"...)
	default:
		man := p.Men[m.From]
		capture := p.Men[m.To] != NoMan || p.IsEnPassant(m)
		if man.Kind() == Pawn {
			if capture {
				b = append(b, byte('a'+m.From.File()))
			}
		} else {
			b = append(b, man.Kind().Letter()-0x20)
			ambiguous, sameFile, sameRank := false, false, false
			for _, o := range a.Moves {
				if o.To != m.To || o.From == m.From || p.Men[o.From] != man || o.Promo != m.Promo {
					continue
				}
				ambiguous = true
				if o.From.File() == m.From.File() {
					sameFile = true
				}
				if o.From.Rank() == m.From.Rank() {
					sameRank = true
				}
			}
			if sameRank || ambiguous && !sameFile {
				b = append(b, byte('a'+m.From.File()))
			}
			if sameFile {
				b = append(b, byte('1'+m.From.Rank()))
			}
		}
		if capture {
			b = append(b, 'x')
		}
		b = append(b, byte('a'+m.To.File()), byte('1'+m.To.Rank()))
		if m.Promo != NoKind {
			b = append(b, '=', m.Promo.Letter()-0x20)
		}
	}
	if next != nil && next.InCheck {
		if len(next.Moves) == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	return string(b)
}

// RoughSAN writes any move in SAN form from its geometry alone, without
// disambiguation or check signs.
func (p *Position) RoughSAN(m Move) string {
	man := p.Men[m.From]
	if p.IsCastling(m) {
		if m.To.File() > m.From.File() {
			return "O-O"
		}
		return "O-O-O"
	}
	var b []byte
	capture := p.Men[m.To] != NoMan || p.IsEnPassant(m)
	if man.Kind() == Pawn || man == NoMan {
		if capture {
			b = append(b, byte('a'+m.From.File()))
		}
	} else {
		b = append(b, man.Kind().Letter()-0x20)
		b = append(b, m.From.String()...)
	}
	if capture {
		b = append(b, 'x')
	}
	b = append(b, m.To.String()...)
	if m.Promo != NoKind {
		b = append(b, '=', m.Promo.Letter()-0x20)
	}
	return string(b)
}
