// Touch-move: the move checked against the men its player touched, and
// against an obligation a penalty imposed. The law-set says which touched
// men bind: the first (touch_first.go) or every one (touch_every.go).

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// touchMoveViolation checks a legal move against what binds its player:
// an obligation an earlier ruling imposed (obligationBroken), else the men
// he touched this turn, of which fide2023 binds the first that can be moved
// or taken (4.3.1-4.3.3, 4.4.1, 4.4.2: firstTouchedViolation) and the old
// codes every one (sarratt1808:7, philidor1825:V, nycc:X, nycc:XI,
// hastings1895:IV: everyTouchedViolation). Touches do not bind while the
// mover is exempt from touch-move (checkExempt) or misled by a false check.
// It returns the irregularity, or nil.
func (g *Game) touchMoveViolation(rd *gesture.Reading) *decision {
	if ob := g.imposed; ob != nil && ob.side == rd.Mover {
		return g.obligationBroken(rd, ob)
	}
	var orderBuf, ownBuf, adverseBuf [64]board.Square
	order, own, adverse := touchedMen(rd, orderBuf[:0], ownBuf[:0], adverseBuf[:0])
	if len(order) == 0 || g.checkExempt() || g.misledByFalseCheck(rd.Mover) {
		return nil
	}
	men := touchedSet{order: order, own: own, adverse: adverse}
	if g.laws.FirstTouchedBinds {
		return g.firstTouchedViolation(rd, men)
	}
	return g.everyTouchedViolation(rd, men)
}

// touchedSet is the men a player touched this turn, each once (see
// touchedMen): all of them in the order touched, his own, and the
// adversary's.
type touchedSet struct {
	order, own, adverse []board.Square
}

// touchHonoured reports whether move m, made in pos, honours the touch of
// the man on sq: it moves that man, takes it (en passant included), or,
// castling, moves the rook it castles with.
func touchHonoured(pos *board.Position, m board.Move, sq board.Square) bool {
	if sq == m.From || sq == m.To {
		return true
	}
	if pos.IsEnPassant(m) && sq == board.EnPassantVictim(m) {
		return true
	}
	if pos.IsCastling(m) {
		rf, _ := board.CastlingRook(m.From, m.To)
		return sq == rf
	}
	return false
}

// touchMoveDecision is the touch-move irregularity of the move read as rd,
// under law (the law-set's touch-move law when empty), with the man touched
// or the adverse man to take, and those of the options ids that can be
// carried out in the position before the move.
func (g *Game) touchMoveDecision(rd *gesture.Reading, law report.Law, touched, adverse board.Square, ids []report.OptionID) *decision {
	return g.touchMoveDecisionBy(rd, law, touched, adverse, 0, ids)
}

// touchMoveDecisionBy is touchMoveDecision with the own men its penalty is
// bound to: the adverse man must be taken by one of bound (fide2023:4.3.3:
// the own man touched), or the king castle with the rook in bound
// (fide2023:4.4.1); bound empty, any man, or either side.
func (g *Game) touchMoveDecisionBy(rd *gesture.Reading, law report.Law, touched, adverse board.Square, bound board.Occupancy, ids []report.OptionID) *decision {
	a := g.cur
	next := a.Position.Apply(rd.Move)
	prov, err := g.analyses.Analyse(next)
	if err != nil {
		prov = a
	}
	r, _ := g.laws.Rule(report.KindTouchMove)
	if law == "" {
		law = r.Law
	}
	d := &decision{kind: report.KindTouchMove, law: law, offender: rd.Mover, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: touched, adverse: adverse, bound: bound}
	d.options = g.feasible(d, g.filter(ids))
	return d
}

// touchedMen appends to order, own and adverse the men the mover touched
// this turn, in order and without repeats: all of them, his own and the
// adversary's. A touch announced by j'adoube, a bump and a nudge do not
// count. Given slices of capacity 64 (a square is touched once), it does not
// allocate.
func touchedMen(rd *gesture.Reading, order, own, adverse []board.Square) ([]board.Square, []board.Square, []board.Square) {
	seen := board.Occupancy(0)
	for _, tm := range rd.Touches {
		if tm.Announced || tm.Bump || !tm.Square.Valid() || seen.Has(tm.Square) || tm.Man == board.NoMan {
			continue
		}
		seen = seen.With(tm.Square)
		order = append(order, tm.Square)
		if tm.Man.Color() == rd.Mover {
			own = append(own, tm.Square)
		} else {
			adverse = append(adverse, tm.Square)
		}
	}
	return order, own, adverse
}

// contains reports whether sq is one of sqs.
func contains(sqs []board.Square, sq board.Square) bool {
	for _, s := range sqs {
		if s == sq {
			return true
		}
	}
	return false
}
