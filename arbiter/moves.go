// Judging a completed man-move: who moved, whether the rules of movement
// allow it, and which ruling follows (a legal move, a false move, a move the
// law lets stand unruled).

package arbiter

import (
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// onMove judges a completed man-move once the choice pending, if any, is
// settled (settlePendingBeforeMove): the remote side's move carried out at
// the board (carried), a legal move checked against touch-move (legalMove),
// a move leaving the king in a check nobody called where the law lets it
// stand (philidor1825:XIII, sarratt1808:18, nycc:IV: recordPhysical), or
// an irregular one (falseMove).
func (g *Game) onMove(gs gesture.Gesture) {
	rd := gs.Reading
	t := gs.T
	if g.result != nil {
		return
	}
	if ic := g.intended; ic != nil && ic.side == rd.Mover {
		// The move the claim rested on: decided once the move is judged.
		g.intended = nil
		defer g.decideIntended(t, ic, len(g.moves))
	}
	if g.pending != nil && g.settlePendingBeforeMove(t, rd) {
		g.touched = g.touched[:0]
		return
	}
	if g.remote[rd.Mover] && !g.remote[g.cur.Position.Turn] && rd.Mover != g.cur.Position.Turn {
		// A man of the remote side moved while the player at the board
		// is on move: the remote side has no hand at the board, so this
		// is the player's own handling of an adverse man, never the
		// remote side's second move.
		rd = byPlayerAtBoard(rd, g.cur.Position.Turn)
	}
	if g.remote[g.cur.Position.Turn] && (rd.Mover == g.cur.Position.Turn || rd.AdverseMan) {
		// The remote side's move, carried out by the player.
		g.touched = g.touched[:0]
		g.carried(t, rd)
		return
	}
	if to := g.cur.Position.Men[rd.Move.To]; to.Kind() == board.King && to.Color() != rd.Mover && rd.False != report.KindMovedAdverse {
		// A king left in a check nobody called (a code that lets it be
		// ignored), or next to the other after a false move let stand, can
		// stand en prise, and the rules library then offers its capture as
		// a move (or the capture reads as a move into a check that may be
		// ignored): a king is never taken.
		rd.Legal, rd.False = false, report.KindFalseMove
	}
	if rd.Legal {
		g.legalMove(t, rd)
	} else if g.mayIgnoreCheck(rd) {
		// The king may stay in a check nobody announced.
		g.recordPhysical(t, rd)
		g.afterMove(t)
	} else {
		g.falseMove(t, rd)
	}
	g.touched = g.touched[:0]
	if g.pending == nil && g.result == nil {
		g.afterFalseCheck(t, rd.Mover)
	}
}

// settlePendingBeforeMove settles the choice pending when a move is made
// before it was made: the offender acting ends a right that lapses by him
// (a false check); the offender's move ends an irregularity reported before
// any move; the offended player's move lets the right lapse, or the penalty
// is exacted where the law does not let it lapse (exactOnLapse). It reports
// whether the move is not to be judged: the penalty took the board back, or
// the game ended.
func (g *Game) settlePendingBeforeMove(t time.Duration, rd *gesture.Reading) bool {
	p := g.pending
	switch {
	case p.lapseByOffender:
		if rd.Mover == p.offender {
			g.lapse(t)
		}
	case p.kind == report.KindBadPromotion && p.chooser == lawset.Offender && rd.Mover == p.offender.Other():
		// A promotion not yet named is not a complete move
		// (hastings1895:X): the adversary cannot reply to it, and the
		// choice is the promoter's, so nothing lapses. His man goes back,
		// and the promoter names the piece.
		g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: p.provisional}
		return true
	case p.pre && rd.Mover == p.offender:
		// The offender moved before the offended chose: the obligation
		// in force decides (see obligationBroken).
		g.pending = nil
	case !p.pre && rd.Mover == p.offender.Other():
		if !g.exactOnLapse(t, p) {
			g.lapse(t)
			break
		}
		if g.exp.Mode != gesture.Play {
			// The penalty takes the board back: the offended player's
			// move is undone with the offending one.
			return true
		}
		// The penalty left the position as it stands (a promotion
		// named): the move is judged from it, unless it ended the game.
	case !p.pre && rd.Mover == p.offender:
		// The offender moved again before the choice: the choice stays
		// open and this move is judged from the position as it stands.
	}
	// A lapse that let a move stand that ended the game (a mate): nothing
	// is played after it.
	return g.result != nil
}

// recordPhysical records a move the rules of movement forbid but the law-set
// lets stand without a ruling, with the men as they physically stand.
func (g *Game) recordPhysical(t time.Duration, rd *gesture.Reading) {
	before := g.cur
	p := before.Position
	p.Men = rd.After
	p.Turn = rd.Mover.Other()
	p.EnPassant = board.NoSquare
	p.HalfMoves++
	if rd.Mover == board.Black {
		p.FullMove++
	}
	p.Castling &= castlingStillPossible(&p)
	a, err := g.analyses.Analyse(p)
	if err != nil {
		a = before
	}
	d := &decision{reading: rd, before: before, provisional: a}
	g.recordStanding(t, d)
}

// legalMove judges a move the rules of movement allow.
func (g *Game) legalMove(t time.Duration, rd *gesture.Reading) {
	a := g.cur
	if a.Position.IsPromotion(rd.Move) && rd.Move.Promo == board.NoKind && g.unnamedPromotion(t, rd) {
		return
	}
	if d := g.touchMoveViolation(rd); d != nil {
		g.raise(t, d)
		return
	}
	if g.imposed != nil && g.imposed.side == rd.Mover {
		g.imposed = nil // carried out
	}
	g.record(t, rd, a, true)
	g.afterMove(t)
}

// byPlayerAtBoard returns a copy of rd, a move of a man of a remote side
// read as that side moving out of turn, read instead as the player on move
// (side) moving an adverse man: moved-adverse-man, his irregularity under
// the code in force (sarratt1808:10, philidor1825:VI, nycc:XII,
// hastings1895:IV, fide2023:7.5.1).
func byPlayerAtBoard(rd *gesture.Reading, side board.Color) *gesture.Reading {
	out := *rd
	out.Mover = side
	out.Legal = false
	out.False = report.KindMovedAdverse
	out.AdverseMan = true
	return &out
}
