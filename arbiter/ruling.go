// Rulings: an option chosen, and the board taken back (or the move let
// stand) as it says.

package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// Choose applies an option chosen by side ("white", "black" or "arbiter").
func (g *Game) Choose(t time.Duration, option report.OptionID, side report.Party) error {
	d := g.pending
	if d == nil {
		return fmt.Errorf("no choice is pending")
	}
	found := false
	for _, o := range d.options {
		if o.ID == option {
			found = true
		}
	}
	if !found {
		ids := make([]report.OptionID, len(d.options))
		for i, o := range d.options {
			ids[i] = o.ID
		}
		return fmt.Errorf("option %q is not offered (offered: %v)", option, ids)
	}
	if side != report.Arbiter && side != g.chooserName(d) {
		return fmt.Errorf("%s may not choose: the chooser is %s", side, g.chooserName(d))
	}
	g.apply(t, option, side)
	return nil
}

// apply carries out a chosen option.
func (g *Game) apply(t time.Duration, option report.OptionID, by report.Party) {
	d := g.pending
	g.pending = nil
	g.emit(report.Report{Type: report.Ruling, T: t, Option: option, By: by, Law: d.law})
	if d.pre {
		g.comment(g.takenBackNote(d, option, by))
		if option == report.OptStand {
			g.imposed = nil
		}
		return
	}
	side := d.offender
	if d.recorded {
		switch option {
		case report.OptStand:
			g.comment(fmt.Sprintf("%s, %s: %s by %s", d.kind, d.law, report.OptStand, by))
		case report.OptPlaceForgotten:
			placed := g.placeForgotten()
			g.comment(fmt.Sprintf("%s, %s: the forgotten man set in its place by %s; position %s", d.kind, d.law, by, placed.Position.FEN()))
			// No move leads there: the PGN goes on from the position.
			resume := placed.Position
			if n := len(g.moves); n > 0 {
				g.moves[n-1].resume = &resume
			} else {
				g.startResume = &resume
			}
			g.restoreTo(t, placed, nil)
		case report.OptAnnul:
			g.annulled++
			g.startAt = d.restart
			g.annul(d.restart, fmt.Sprintf("%s, %s: game annulled by %s", d.kind, d.law, by))
			g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: d.restart}
		case report.OptRecall:
			keep := d.recallTo
			recalled := len(g.moves) - keep
			g.dropMoves(keep)
			// The note goes on the move that stays: the one the recall
			// returns to.
			g.comment(fmt.Sprintf("%s, %s: %d %s recalled by %s", d.kind, d.law, recalled, plural(recalled, "move", "moves"), by))
			g.seen.truncate(keep + 1)
			g.restoreTo(t, d.before, nil)
		}
		return
	}
	switch option {
	case report.OptStand, report.OptKeepAll:
		g.stand(t, d, by)
		return
	case report.OptKeepSecond:
		g.keepSecond(t, d, by)
		return
	case report.OptPromoteQ, report.OptPromoteR, report.OptPromoteB, report.OptPromoteN:
		rd := *d.reading
		rd.Move.Promo, _ = board.ParsePromotion(string(option[len(option)-1:]))
		g.record(t, &rd, d.before, true)
		g.comment(fmt.Sprintf("%s, %s: promotion named %s", d.kind, d.law, rd.Move.Promo))
		g.afterMove(t)
		return
	case report.OptAnnul:
		g.annulled++
		note := g.annulNote(fmt.Sprintf("%s, %s: game annulled by %s", d.kind, d.law, by))
		g.restoreTo(t, g.startAt, nil)
		g.moves = nil
		g.notes, g.startResume = []string{note}, nil
		g.seen.reset(g.startAt.Position.Key())
		return
	}
	target := d.before
	_, elected := option.TouchedSquare()
	if (option == report.OptRecall || option == report.OptKing || elected) && d.recallsBoth() {
		target = d.beforeFirst
		g.dropMoves(len(g.moves) - 1)
		g.seen.truncate(g.seen.len() - 1)
	}
	// The offending move does not stand: the note goes on the move kept
	// last, or before the first move.
	g.comment(g.takenBackNote(d, option, by))
	var ob *obligation
	if name, ok := option.TouchedSquare(); ok {
		if sq, err := board.ParseSquare(name); err == nil {
			ob = &obligation{side: side, what: report.OptMoveTouched, square: sq, law: d.law}
		}
	}
	switch option {
	case report.OptMoveTouched:
		ob = &obligation{side: side, what: report.OptMoveTouched, square: d.touched, law: d.law}
	case report.OptMoveTaken:
		ob = &obligation{side: side, what: report.OptMoveTouched, square: d.taken, law: d.law}
	case report.OptTakeTouched:
		ob = &obligation{side: side, what: report.OptTakeTouched, square: d.adverse, law: d.law}
	case report.OptKing:
		ob = &obligation{side: side, what: report.OptKing, noCastle: g.laws.KingPenaltyNoCastling, law: d.law, square: target.Position.KingSquare(side)}
	case report.OptRook:
		sqs, _ := g.rookSquares(target, side, d)
		if len(sqs) > 0 {
			ob = &obligation{side: side, what: report.OptMoveTouched, square: sqs[0], law: d.law}
		}
	case report.OptCastle:
		ob = &obligation{side: side, what: report.OptCastle, law: d.law, square: target.Position.KingSquare(side)}
	case report.OptRestore:
		// fide2023:7.5.1: the replacement move is bound by 4.3 and 4.7: the
		// man moved must be moved (the king, after a false castling: 4.4.3).
		sq := d.touched
		if d.kind == report.KindFalseCastling {
			sq = target.Position.KingSquare(side)
		}
		switch {
		case d.kind == report.KindMovedAdverse && target.Position.Turn == side && capturable(target, d.adverse):
			ob = &obligation{side: side, what: report.OptTakeTouched, square: d.adverse, law: g.laws.FirstTouched.Adverse}
		case d.kind == report.KindFalseCastling && target.Position.Turn == side && len(target.MovesFrom(sq)) > 0:
			ob = &obligation{side: side, what: report.OptMoveTouched, square: sq, law: g.laws.FirstTouched.Own}
		case d.kind != report.KindSuccessive && d.kind != report.KindMovedAdverse && d.kind != report.KindFalseCastling && target.Position.Turn == side:
			ob = g.firstTouchedBinding(d, target)
		}
	}
	g.restoreTo(t, target, ob)
}

// stand lets the offending move remain.
func (g *Game) stand(t time.Duration, d *decision, by report.Party) {
	g.recordStanding(t, d)
	g.comment(fmt.Sprintf("%s, %s: %s by %s", d.kind, d.law, report.OptStand, by))
	g.imposed = nil
	g.afterMove(t)
}

// restoreTo takes the board back to an earlier position; once it matches,
// play resumes with the obligation in force.
func (g *Game) restoreTo(t time.Duration, target *board.Analysis, ob *obligation) {
	g.cur = target
	g.intended = nil // the position it was made in is gone
	g.restored = &restoreState{then: target, imposed: ob}
	g.imposed = nil
	g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: target}
}

func (g *Game) onSynced(t time.Duration) {
	g.emit(report.Report{Type: report.Synced, T: t})
	switch {
	case g.restored != nil:
		rs := g.restored
		g.restored = nil
		g.imposed = rs.imposed
		g.cur = rs.then
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: rs.then}
	case g.exp.Mode == gesture.AwaitNewGame:
		g.begin(g.startAt)
	default:
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: g.cur}
	}
}
