// Touch-move: the move checked against the men its player touched, and
// against an obligation a penalty imposed. The law-set says which touched
// men bind: the first (touch_first.go) or every one (touch_every.go).

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// touchMoveViolation checks the move against the men the mover touched and
// any obligation a penalty imposed. It returns the irregularity, or nil.
func (g *Game) touchMoveViolation(rd *gesture.Reading) *decision {
	a := g.cur
	pos := &a.Position
	side := rd.Mover
	m := rd.Move
	honoured := func(sq board.Square) bool {
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
	newDecision := func(law report.Law, touched, adverse board.Square, ids []report.OptionID) *decision {
		next := pos.Apply(m)
		prov, err := g.analyses.Analyse(next)
		if err != nil {
			prov = a
		}
		r, _ := g.laws.Rule(report.KindTouchMove)
		if law == "" {
			law = r.Law
		}
		d := &decision{kind: report.KindTouchMove, law: law, offender: side, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: touched, adverse: adverse}
		d.options = g.feasible(d, g.filter(ids))
		return d
	}
	// An obligation imposed by an earlier ruling.
	if ob := g.imposed; ob != nil && ob.side == side {
		ok := true
		switch ob.what {
		case report.OptKing:
			ok = pos.Men[m.From].Kind() == board.King && !(ob.noCastle && pos.IsCastling(m))
		case report.OptMoveTouched, report.OptMoveTaken, report.OptRook:
			ok = m.From == ob.square
		case report.OptTakeTouched:
			ok = m.To == ob.square || (pos.IsEnPassant(m) && board.EnPassantVictim(m) == ob.square)
		case report.OptCastle:
			ok = pos.IsCastling(m)
		}
		if !ok {
			return newDecision(ob.law, ob.square, ob.square, []report.OptionID{report.OptStand, ob.what})
		}
		return nil
	}
	var orderBuf, ownBuf, adverseBuf [64]board.Square
	order, own, adverse := touchedMen(rd, orderBuf[:0], ownBuf[:0], adverseBuf[:0])
	if len(order) == 0 || g.checkExempt() || g.misledByFalseCheck(side) {
		return nil
	}
	canMove := func(sq board.Square) bool { return len(a.MovesFrom(sq)) > 0 }
	if g.laws.FirstTouchedBinds {
		// fide2023:4.4.1: the king touched, then a rook of its own: the
		// player must castle on that side if it is legal.
		if k := pos.KingSquare(side); len(order) >= 2 && order[0] == k {
			for _, sq := range order[1:] {
				if pos.Men[sq] != board.NewMan(side, board.Rook) {
					continue
				}
				for _, lm := range a.MovesFrom(k) {
					if !pos.IsCastling(lm) {
						continue
					}
					if rf, _ := board.CastlingRook(lm.From, lm.To); rf == sq && m != lm {
						return newDecision(g.laws.FirstTouched.KingThenRook, k, board.NoSquare, []report.OptionID{report.OptStand, report.OptCastle})
					}
				}
			}
		}
		// fide2023:4.4.2: rook touched before the king: no castling that side.
		if pos.IsCastling(m) {
			rf, _ := board.CastlingRook(m.From, m.To)
			for _, sq := range order {
				if sq == m.From {
					break
				}
				if sq == rf {
					return newDecision(g.laws.FirstTouched.RookFirst, rf, board.NoSquare, []report.OptionID{report.OptStand, report.OptRook})
				}
			}
		}
		// fide2023:4.3.3: men of both colours touched: the first touched
		// adverse man must be taken with the first touched own man, if that
		// is legal; otherwise the first touched man that can be moved or
		// taken binds, as below.
		if len(own) > 0 && len(adverse) > 0 {
			for _, lm := range a.Moves {
				if lm.From == own[0] && (lm.To == adverse[0] || pos.IsEnPassant(lm) && board.EnPassantVictim(lm) == adverse[0]) {
					if m.From == own[0] && honoured(adverse[0]) {
						return nil
					}
					return newDecision(g.laws.FirstTouched.Both, own[0], adverse[0], []report.OptionID{report.OptStand, report.OptTakeTouched})
				}
			}
		}
		for _, sq := range order {
			isOwn := contains(own, sq)
			if isOwn && canMove(sq) || !isOwn && capturable(a, sq) {
				if honoured(sq) {
					return nil
				}
				if isOwn {
					return newDecision(g.laws.FirstTouched.Own, sq, board.NoSquare, []report.OptionID{report.OptStand, report.OptMoveTouched})
				}
				return newDecision(g.laws.FirstTouched.Adverse, sq, sq, []report.OptionID{report.OptStand, report.OptTakeTouched})
			}
		}
		return nil // fide2023:4.5: nothing touched can be moved or taken
	}
	// The historical codes: every touched man binds; the adversary elects.
	// Only nycc:XI lets him require a king move instead when several men
	// were touched.
	plural := len(order) > 1 && g.laws.KingForSeveralTouched
	var unhonoured []board.Square
	for _, sq := range own {
		if canMove(sq) && !honoured(sq) {
			unhonoured = append(unhonoured, sq)
		}
	}
	if len(unhonoured) > 0 {
		ids := []report.OptionID{report.OptStand, report.OptMoveTouched}
		if plural {
			ids = append(ids, report.OptKing)
		}
		d := newDecision("", unhonoured[0], board.NoSquare, ids)
		// Several men bind: the adversary elects which must move
		// (nycc:XI, hastings1895:IV), one option for each.
		for _, sq := range unhonoured[1:] {
			if sqs, ok := g.manSquares(a, side, sq); ok {
				d.options = append(d.options, report.Option{ID: report.MoveTouchedOn(sq.String()), Squares: squareNames(sqs)})
			}
		}
		return d
	}
	for _, sq := range adverse {
		if capturable(a, sq) && !(m.To == sq || honoured(sq) && sq != m.From) {
			ids := []report.OptionID{report.OptStand, report.OptTakeTouched}
			if plural {
				ids = append(ids, report.OptKing)
			}
			return newDecision(g.laws.AdverseTouchLaw, board.NoSquare, sq, ids)
		}
	}
	return nil
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

func contains(sqs []board.Square, sq board.Square) bool {
	for _, s := range sqs {
		if s == sq {
			return true
		}
	}
	return false
}
