package computer

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/boardd/boardd/board"
	"github.com/corentings/chess/v2"
)

// Book is an opening book in Polyglot format, read by the rules library.
//
// A Polyglot book is a file of 16-byte entries sorted by key, every field
// big-endian: the position's key (8 bytes, the Polyglot Zobrist hash of the
// men, castling rights, the en passant file where a pawn of the side to move
// could take, and the side to move), the move (2 bytes: to-file in bits
// 0-2, to-rank in 3-5, from-file in 6-8, from-rank in 9-11, promotion piece
// in 12-14 with 1 knight, 2 bishop, 3 rook, 4 queen; castling is written as
// the king taking its own rook, e1h1), the move's weight (2 bytes) and a
// learning field (4 bytes) that the player ignores. A position's moves are
// played with a chance proportional to their weights; a move of weight 0 is
// in the book but never played.
type Book struct {
	name string
	lib  *chess.PolyglotBook
}

// BookMove is one of a position's moves in the book, with its weight.
type BookMove struct {
	Move   board.Move
	Weight int
}

// OpenBook reads the Polyglot book at path.
func OpenBook(path string) (*Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("computer: book: %w", err)
	}
	defer f.Close()
	return ReadBook(f, path)
}

// ReadBook reads a Polyglot book from r; name says where it came from, for
// error messages.
func ReadBook(r io.Reader, name string) (*Book, error) {
	lib, err := chess.LoadFromReader(r)
	if err != nil {
		return nil, fmt.Errorf("computer: book %s: %w (a Polyglot book is a whole number of 16-byte entries)", name, err)
	}
	return &Book{name: name, lib: lib}, nil
}

// Key returns the Polyglot key of p, as the rules library's Zobrist hasher
// computes it from p's FEN.
func Key(p board.Position) (uint64, error) {
	hex, err := chess.NewZobristHasher().HashPosition(p.FEN())
	if err != nil {
		return 0, fmt.Errorf("computer: polyglot key of %s: %w", p.FEN(), err)
	}
	return chess.ZobristHashToUint64(hex), nil
}

// Moves lists the book's legal moves for p, heaviest first. Entries whose
// move is not legal in p (a key collision, a damaged book) are left out.
func (b *Book) Moves(p board.Position) ([]BookMove, error) {
	a, err := board.Analyse(p)
	if err != nil {
		return nil, fmt.Errorf("computer: book %s: %w", b.name, err)
	}
	return b.moves(a), nil
}

func (b *Book) moves(a *board.Analysis) []BookMove {
	key, err := Key(a.Position)
	if err != nil {
		return nil
	}
	var out []BookMove
	for _, e := range b.lib.FindMoves(key) {
		m := fromPolyglot(&a.Position, chess.DecodeMove(e.Move))
		if a.IsLegal(m) {
			out = append(out, BookMove{Move: m, Weight: int(e.Weight)})
		}
	}
	return out
}

// fromPolyglot turns a decoded book move into a move of p. Castling, which
// Polyglot writes as the king taking its own rook, becomes the king's
// two-square step; the library's own conversion decides castling from the
// squares alone, so that a queen going from e1 to h1 would become O-O.
func fromPolyglot(p *board.Position, pm chess.PolyglotMove) board.Move {
	m := board.Move{From: board.NewSquare(pm.FromFile, pm.FromRank), To: board.NewSquare(pm.ToFile, pm.ToRank)}
	if king := p.Men[m.From]; king.Kind() == board.King && p.Men[m.To] == board.NewMan(king.Color(), board.Rook) && m.From.Rank() == m.To.Rank() {
		if m.To.File() > m.From.File() {
			m.To = board.NewSquare(6, m.From.Rank())
		} else {
			m.To = board.NewSquare(2, m.From.Rank())
		}
	}
	switch pm.Promotion {
	case 1:
		m.Promo = board.Knight
	case 2:
		m.Promo = board.Bishop
	case 3:
		m.Promo = board.Rook
	case 4:
		m.Promo = board.Queen
	}
	return m
}

// Pick draws one of the book's moves for p with a chance proportional to its
// weight, using rng; false when the book has no move of weight above 0 for p.
func (b *Book) Pick(p board.Position, rng *rand.Rand) (board.Move, bool, error) {
	a, err := board.Analyse(p)
	if err != nil {
		return board.Move{}, false, fmt.Errorf("computer: book %s: %w", b.name, err)
	}
	m, ok := b.pick(a, rng)
	return m, ok, nil
}

func (b *Book) pick(a *board.Analysis, rng *rand.Rand) (board.Move, bool) {
	moves := b.moves(a)
	total := 0
	for _, bm := range moves {
		total += bm.Weight
	}
	if total == 0 {
		return board.Move{}, false
	}
	r := rng.IntN(total)
	for _, bm := range moves {
		if r < bm.Weight {
			return bm.Move, true
		}
		r -= bm.Weight
	}
	return board.Move{}, false
}
