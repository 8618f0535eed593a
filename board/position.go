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

// ParseFEN reads a position in Forsyth-Edwards Notation. The chess library
// validates the text; the position need not be reachable. Missing move
// counters default to "0 1".
func ParseFEN(fen string) (Position, error) {
	fields := strings.Fields(fen)
	if len(fields) == 4 {
		fields = append(fields, "0", "1")
	}
	if len(fields) != 6 {
		return Position{}, fmt.Errorf("board: FEN %q: want 6 fields, found %d", fen, len(fields))
	}
	var lib chess.Position
	if err := lib.UnmarshalText([]byte(strings.Join(fields, " "))); err != nil {
		return Position{}, fmt.Errorf("board: FEN %q: %w", fen, err)
	}
	p := fromLibrary(&lib)
	var kings [2]int
	for _, m := range p.Men {
		if m.Kind() == King {
			kings[m.Color()]++
		}
	}
	if kings[White] != 1 || kings[Black] != 1 {
		return Position{}, fmt.Errorf("board: FEN %q: want one king a side, found %d white and %d black", fen, kings[White], kings[Black])
	}
	return p, nil
}

// fromLibrary copies a library position into a Position.
func fromLibrary(lib *chess.Position) Position {
	var p Position
	b := lib.Board()
	for sq := 0; sq < 64; sq++ {
		p.Men[sq] = manFromLibrary(b.Piece(chess.Square(sq)))
	}
	if lib.Turn() == chess.Black {
		p.Turn = Black
	}
	cr := lib.CastleRights()
	for i, pair := range []struct {
		c    chess.Color
		side chess.Side
	}{{chess.White, chess.KingSide}, {chess.White, chess.QueenSide}, {chess.Black, chess.KingSide}, {chess.Black, chess.QueenSide}} {
		if cr.CanCastle(pair.c, pair.side) {
			p.Castling |= 1 << i
		}
	}
	p.EnPassant = NoSquare
	if ep := lib.EnPassantSquare(); ep != chess.NoSquare {
		p.EnPassant = Square(ep)
	}
	p.HalfMoves = lib.HalfMoveClock()
	// The library keeps the full-move number unexported but writes it in FEN.
	if f := strings.Fields(lib.String()); len(f) == 6 {
		p.FullMove, _ = strconv.Atoi(f[5])
	}
	if p.FullMove < 1 {
		p.FullMove = 1
	}
	return p
}

var libKinds = [...]chess.PieceType{NoKind: chess.NoPieceType, Pawn: chess.Pawn, Knight: chess.Knight, Bishop: chess.Bishop, Rook: chess.Rook, Queen: chess.Queen, King: chess.King}

func manFromLibrary(pc chess.Piece) Man {
	if pc == chess.NoPiece {
		return NoMan
	}
	c := White
	if pc.Color() == chess.Black {
		c = Black
	}
	for k, lk := range libKinds {
		if lk == pc.Type() && k != int(NoKind) {
			return NewMan(c, Kind(k))
		}
	}
	return NoMan
}

func kindFromLibrary(t chess.PieceType) Kind {
	for k, lk := range libKinds {
		if lk == t {
			return Kind(k)
		}
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
