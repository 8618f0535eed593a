// Penalties: which of the options the law names can be carried out in the
// position, and the squares each one lights.

package arbiter

import (
	"slices"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// feasible keeps the options that can be carried out in the position before
// the offending move, each with its squares; it never returns none: where
// none can, the move is recalled.
func (g *Game) feasible(d *decision, ids []report.OptionID) []report.Option {
	out := g.feasibleOptions(d, ids)
	if len(out) == 0 {
		out = []report.Option{recallOption(d)}
	}
	return out
}

// recallOption is the option that takes the offending move back without
// penalty.
func recallOption(d *decision) report.Option {
	return report.Option{ID: report.OptRecall, Squares: squareNames(offendingSquares(d))}
}

// offendingSquares is what an option that takes the offending move back
// names: the man touched or moved, else the squares the move was made
// from and to. It names no placeholder for a man not known.
func offendingSquares(d *decision) []board.Square {
	if d.touched.Valid() || d.reading == nil {
		return validSquares(d.touched)
	}
	return validSquares(d.reading.Move.From, d.reading.Move.To)
}

// feasibleOptions keeps the options that can be carried out in the position
// before the offending move, each with its squares; it may return none.
func (g *Game) feasibleOptions(d *decision, ids []report.OptionID) []report.Option {
	side := d.offender
	var out []report.Option
	for _, id := range ids {
		a := d.before
		if d.kind == report.KindSuccessive && d.beforeFirst != nil && id != report.OptKeepFirst {
			if d.secondOnly {
				// The second move alone is revoked (philidor1825:VIII):
				// the penalty falls on the offender's next turn, in the
				// position his first move made.
				a = g.withOffenderToMove(d.before, side)
			} else {
				// Recalling both moves gives the offender his turn back.
				a = d.beforeFirst
			}
		}
		var sqs []board.Square
		ok := true
		switch id {
		case report.OptStand, report.OptKeepAll:
			sqs = validSquares(d.touched, d.reading.Move.To)
		case report.OptRecall, report.OptReplace, report.OptRestore, report.OptKeepFirst, report.OptAnnul:
			sqs = offendingSquares(d)
		case report.OptKeepSecond:
			sqs, ok = g.keepSecondSquares(d)
		case report.OptMoveTouched:
			if d.recallsBoth() {
				out = append(out, g.successiveMen(d, slices.Contains(ids, report.OptKing))...)
				continue
			}
			sqs, ok = g.manSquares(a, side, d.touched)
		case report.OptMoveTaken:
			sqs, ok = g.manSquares(a, side, d.taken)
		case report.OptTakeTouched:
			sqs, ok = g.takeSquares(a, side, d.adverse, d.bound)
		case report.OptKing:
			k := a.Position.KingSquare(side)
			moves := g.kingMoves(a, side)
			ok = len(moves) > 0
			sqs = append([]board.Square{k}, moves...)
		case report.OptRook:
			sqs, ok = g.rookSquares(a, side, d)
		case report.OptCastle:
			sqs, ok = g.castleSquares(a, side, d)
		}
		if ok {
			out = append(out, report.Option{ID: id, Squares: squareNames(sqs)})
		}
	}
	// Moving the touched man and moving the king are one penalty when the
	// touched man is the king.
	if d.touched.Valid() && d.before.Position.Men[d.touched].Kind() == board.King {
		var kept []report.Option
		hasMoveTouched := false
		for _, o := range out {
			hasMoveTouched = hasMoveTouched || o.ID == report.OptMoveTouched
		}
		for _, o := range out {
			if o.ID == report.OptKing && hasMoveTouched {
				continue
			}
			kept = append(kept, o)
		}
		out = kept
	}
	return out
}

// validSquares returns the squares of sqs that are squares of the board.
func validSquares(sqs ...board.Square) []board.Square {
	var out []board.Square
	for _, s := range sqs {
		if s.Valid() {
			out = append(out, s)
		}
	}
	return out
}

// manSquares returns the squares of a penalty that makes side move the man
// on sq (move-touched): its own, then where it can go in a; false when it is
// not side's turn, the man is not side's, or it cannot move.
func (g *Game) manSquares(a *board.Analysis, side board.Color, sq board.Square) ([]board.Square, bool) {
	if side != a.Position.Turn || !sq.Valid() || a.Position.Men[sq] == board.NoMan || a.Position.Men[sq].Color() != side {
		return nil, false
	}
	out := []board.Square{sq}
	for _, m := range a.MovesFrom(sq) {
		out = append(out, m.To)
	}
	return out, len(out) > 1
}

// takeSquares returns the squares of a penalty that makes side take the
// man on sq (take-touched): its own, then those of the men that can take
// it in a (en passant included), of bound only where bound is not empty
// (fide2023:4.3.3); false when it is not side's turn or none can.
func (g *Game) takeSquares(a *board.Analysis, side board.Color, sq board.Square, bound board.Occupancy) ([]board.Square, bool) {
	if side != a.Position.Turn || !sq.Valid() {
		return nil, false
	}
	out := []board.Square{sq}
	for _, m := range a.Moves {
		if bound != 0 && !bound.Has(m.From) || contains(out[1:], m.From) {
			continue
		}
		if m.To == sq || a.Position.IsEnPassant(m) && board.EnPassantVictim(m) == sq {
			out = append(out, m.From)
		}
	}
	return out, len(out) > 1
}

// withOffenderToMove returns a with side to move: the position in which a
// penalty falling on side's next turn is judged when the adversary is to
// reply first (the king to be played after two moves running,
// philidor1825:VIII), his reply not yet known. It returns a itself when
// side is to move, or when the position cannot stand with side to move
// (the adversary's king in check).
func (g *Game) withOffenderToMove(a *board.Analysis, side board.Color) *board.Analysis {
	if a.Position.Turn == side || a.Position.InCheck(side.Other()) {
		return a
	}
	p := a.Position
	p.Turn = side
	p.EnPassant = board.NoSquare
	return g.analysed(p)
}
