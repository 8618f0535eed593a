// Judging a completed man-move: who moved, whether the rules of movement
// allow it, and which ruling follows (a legal move, a false move, a move the
// law lets stand unruled).

package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

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
	if p := g.pending; p != nil {
		switch {
		case p.lapseByOffender:
			if rd.Mover == p.offender {
				g.lapse(t)
			}
		case p.pre && rd.Mover == p.offender:
			// The offender moved before the offended chose: the obligation
			// in force decides (see checkObligations).
			g.pending = nil
		case !p.pre && rd.Mover == p.offender.Other():
			if g.exactOnLapse(t, p) {
				if g.exp.Mode != gesture.Play || g.result != nil {
					// The penalty takes the board back: the offended
					// player's move is undone with the offending one.
					g.touched = g.touched[:0]
					return
				}
				// The penalty left the position as it stands (a
				// promotion named): the move is judged from it.
				break
			}
			g.lapse(t)
		case !p.pre && rd.Mover == p.offender:
			// The offender moved again before the choice: the choice stays
			// open and this move is judged from the position as it stands.
		}
		if g.result != nil {
			// The lapse let a move stand that ended the game (a mate):
			// nothing is played after it.
			g.touched = g.touched[:0]
			return
		}
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
	m := rd.Move
	if a.Position.IsPromotion(m) && m.Promo == board.NoKind {
		switch g.laws.UnnamedPromotion {
		case lawset.PromoteIncomplete:
			r, _ := g.laws.Rule(report.KindBadPromotion)
			// Until it is named the man on the last rank is taken for a
			// queen, so the board is expected to stand as it does.
			asQueen := m
			asQueen.Promo = board.Queen
			prov, err := g.analyses.Analyse(a.Position.Apply(asQueen))
			if err != nil {
				prov = a
			}
			rd.Move = asQueen
			d := &decision{kind: report.KindBadPromotion, law: r.Law, offender: rd.Mover, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: m.From}
			for _, id := range r.Options {
				d.options = append(d.options, report.Option{ID: id, Squares: []string{m.To.String()}})
			}
			g.pending = d
			g.emit(report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: d.offender.String(), Chooser: g.chooserName(d), Options: d.options, Reason: "the promotion piece was not named"})
			g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: prov}
			return
		case lawset.PromoteQueenIllegal:
			if g.opts.Clocked && rd.CompletedBy != gesture.ByClock {
				// The promotion was made when the hand left it (fide2023:4.7,
				// 6.2.1); 7.5.2 punishes only the clock pressed with the
				// pawn unreplaced, and no press came before this.
				m.Promo = board.Queen
				rd.Move = m
				break
			}
			m.Promo = board.Queen
			rd.Move = m
			g.record(t, rd, a, true)
			g.emit(report.Report{Type: report.Irregularity, T: t, Kind: report.KindBadPromotion, Law: g.laws.PromotionLaw, Offender: rd.Mover.String(), Chooser: report.Arbiter, Options: []report.Option{{ID: report.OptStand, Squares: []string{m.To.String()}}}, Reason: "the promotion piece was not named: the pawn becomes a queen"})
			g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptStand, By: report.Arbiter, Law: g.laws.PromotionLaw})
			g.comment(fmt.Sprintf("%s, %s: promotion not named, queen", report.KindBadPromotion, g.laws.PromotionLaw))
			g.countIllegal(t, rd.Mover)
			g.afterMove(t)
			return
		default:
			m.Promo = board.Queen
			rd.Move = m
		}
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
