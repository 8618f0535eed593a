// Castling: which rights survive a false move, and the squares of the
// castling and rook penalties.

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

func (g *Game) castleSquares(a *board.Analysis, side board.Color, d *decision) ([]board.Square, bool) {
	k := a.Position.KingSquare(side)
	out := []board.Square{k}
	for _, m := range a.MovesFrom(k) {
		if a.Position.IsCastling(m) {
			out = append(out, m.To)
		}
	}
	return out, len(out) > 1
}
