// Castling: which rights survive a false move, and the squares of the
// penalties for a false castling (sarratt1808:16, philidor1825:XII,
// nycc:XII, hastings1895:IX: the king or the rook must move; nycc:XII: or
// castle; fide2023:4.4.3 binds the king).

package arbiter

import "github.com/boardd/boardd/board"

// castlingStillPossible keeps only the rights whose king and rook still stand
// at home.
func castlingStillPossible(p *board.Position) board.Castling {
	var keep board.Castling
	for _, c := range [2]board.Color{board.White, board.Black} {
		home := 0
		if c == board.Black {
			home = 7
		}
		if p.Men[board.NewSquare(4, home)] != board.NewMan(c, board.King) {
			continue
		}
		if p.Men[board.NewSquare(7, home)] == board.NewMan(c, board.Rook) {
			keep |= board.Right(c, true)
		}
		if p.Men[board.NewSquare(0, home)] == board.NewMan(c, board.Rook) {
			keep |= board.Right(c, false)
		}
	}
	return keep
}

// rookSquares returns the squares of the rook penalty (sarratt1808:16,
// philidor1825:XII, nycc:XII, hastings1895:IX): the rook of the castling
// attempted, or the rook moved, then where it can go in a; false when
// there is none or it cannot move.
func (g *Game) rookSquares(a *board.Analysis, side board.Color, d *decision) ([]board.Square, bool) {
	rook := board.NoSquare
	if d.castleKing.From.Valid() && (d.castleKing != board.Move{}) {
		rook, _ = board.CastlingRook(d.castleKing.From, d.castleKing.To)
	} else if a.Position.Men[d.touched].Kind() == board.Rook {
		rook = d.touched
	}
	if rook == board.NoSquare {
		return nil, false
	}
	return g.manSquares(a, side, rook)
}

// castleSquares returns the squares of the castle penalty (nycc:XII): the
// king's, then those it can castle to in a; false when it cannot castle.
func (g *Game) castleSquares(a *board.Analysis, side board.Color, d *decision) ([]board.Square, bool) {
	k := a.Position.KingSquare(side)
	out := []board.Square{k}
	for _, m := range a.MovesFrom(k) {
		if !a.Position.IsCastling(m) {
			continue
		}
		if rf, _ := board.CastlingRook(m.From, m.To); d.bound == 0 || d.bound.Has(rf) {
			out = append(out, m.To)
		}
	}
	return out, len(out) > 1
}
