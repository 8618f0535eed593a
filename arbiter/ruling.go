// Rulings: an option chosen, and the board taken back (or the move let
// stand) as it says.

package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
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

// apply carries out a chosen option: on an irregularity reported before
// any move (applyBeforeMove), on moves already recorded (applyToRecorded),
// or on the offending move just made (applyToMove).
func (g *Game) apply(t time.Duration, option report.OptionID, by report.Party) {
	d := g.pending
	g.pending = nil
	g.emit(report.Report{Type: report.Ruling, T: t, Option: option, By: by, Law: d.law})
	switch {
	case d.pre:
		g.applyBeforeMove(d, option, by)
	case d.recorded:
		g.applyToRecorded(t, d, option, by)
	default:
		g.applyToMove(t, d, option, by)
	}
}

// applyBeforeMove rules on an irregularity reported before any move (a man
// touched that can neither move nor be taken: sarratt1808:17, nycc:XI,
// hastings1895:IV; the clock pressed without a move): the note goes in the
// PGN, and the obligation imposed with the report stays unless the penalty
// is waived.
func (g *Game) applyBeforeMove(d *decision, option report.OptionID, by report.Party) {
	g.comment(g.takenBackNote(d, option, by))
	if option == report.OptStand {
		g.imposed = nil
	}
}

// applyToRecorded rules on moves already recorded when the irregularity
// came to light (a check announced late or falsely, a man forgotten, a
// set-up found wrong): they stand, the forgotten man is set in its place
// (sarratt1808:3, philidor1825:III), the game is annulled (sarratt1808:2,
// nycc:IX), or moves are recalled (nycc:IV).
func (g *Game) applyToRecorded(t time.Duration, d *decision, option report.OptionID, by report.Party) {
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
}

// applyToMove rules on the offending move just made: it stands, the second
// of two moves made running stands alone (nycc:XIV), the promotion is
// named (hastings1895:X), the game is annulled, or the move is taken back
// with a penalty (takeBack).
func (g *Game) applyToMove(t time.Duration, d *decision, option report.OptionID, by report.Party) {
	switch option {
	case report.OptStand, report.OptKeepAll:
		g.stand(t, d, by)
	case report.OptKeepSecond:
		g.keepSecond(t, d, by)
	case report.OptPromoteQ, report.OptPromoteR, report.OptPromoteB, report.OptPromoteN:
		g.namePromotion(t, d, option)
	case report.OptAnnul:
		g.annulAfterMove(t, d, by)
	default:
		g.takeBack(t, d, option, by)
	}
}

// annulAfterMove annuls the game on the offending move: the board is
// guided back to the position the game started from, and the note, with
// the moves it voids, goes before the first move.
func (g *Game) annulAfterMove(t time.Duration, d *decision, by report.Party) {
	g.annulled++
	note := g.annulNote(fmt.Sprintf("%s, %s: game annulled by %s", d.kind, d.law, by))
	g.restoreTo(t, g.startAt, nil)
	g.moves = nil
	g.notes, g.startResume = []string{note}, nil
	g.seen.reset(g.startAt.Position.Key())
}

// takeBack takes the offending move back (with the first of two moves made
// running where the penalty recalls both: nycc:XIV) and guides the board
// to the position before it, where the option's penalty binds the
// offender's next move (penaltyObligation).
func (g *Game) takeBack(t time.Duration, d *decision, option report.OptionID, by report.Party) {
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
	g.restoreTo(t, target, g.penaltyObligation(d, option, target))
}

// penaltyObligation is what option, the move taken back to target, obliges
// the offender to do with his next move: move the man touched or moved
// (sarratt1808:13, nycc:XII), one the adversary elected (nycc:XI,
// hastings1895:IV), or the own man taken (sarratt1808:12); take the adverse
// man (sarratt1808:10); move the king (sarratt1808:17, philidor1825:VI) or
// the rook (sarratt1808:16); castle (nycc:XII); or, after an illegal move,
// replace it as fide2023:7.5.1 says (replacementObligation). It is nil
// where the option obliges nothing.
func (g *Game) penaltyObligation(d *decision, option report.OptionID, target *board.Analysis) *obligation {
	side := d.offender
	switch option {
	case report.OptMoveTouched:
		return &obligation{side: side, what: report.OptMoveTouched, square: d.touched, law: d.law}
	case report.OptMoveTaken:
		return &obligation{side: side, what: report.OptMoveTouched, square: d.taken, law: d.law}
	case report.OptTakeTouched:
		return &obligation{side: side, what: report.OptTakeTouched, square: d.adverse, bound: d.bound, law: d.law}
	case report.OptKing:
		return &obligation{side: side, what: report.OptKing, noCastle: g.laws.KingPenaltyNoCastling, law: d.law, square: target.Position.KingSquare(side)}
	case report.OptRook:
		if sqs, _ := g.rookSquares(target, side, d); len(sqs) > 0 {
			return &obligation{side: side, what: report.OptMoveTouched, square: sqs[0], law: d.law}
		}
		return nil
	case report.OptCastle:
		return &obligation{side: side, what: report.OptCastle, bound: d.bound, law: d.law, square: target.Position.KingSquare(side)}
	case report.OptRestore:
		return g.replacementObligation(d, target)
	}
	if name, ok := option.TouchedSquare(); ok {
		if sq, err := board.ParseSquare(name); err == nil {
			return &obligation{side: side, what: report.OptMoveTouched, square: sq, law: d.law}
		}
	}
	return nil
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

// onSynced takes the board matching the position expected: play resumes
// after a restore with the obligation the ruling imposed, a new game
// begins, or play simply goes on.
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
	case g.pending != nil && g.pending.kind == report.KindBadPromotion && g.pending.chooser == lawset.Offender:
		// A man the adversary moved while the promotion awaited its name
		// is back: the board stands as the promotion left it
		// (hastings1895:X).
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: g.pending.provisional}
	default:
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: g.cur}
	}
}
