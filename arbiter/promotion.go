// Promotion: a pawn promoted without naming the new man, or on a wrong
// square.

package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// promotesOffTarget reports whether m plays a pawn of the side to move from
// its seventh rank to its last rank on a square no pawn move reaches: a
// promotion whose new man was set on a wrong square.
func promotesOffTarget(p *board.Position, m board.Move) bool {
	man := p.Men[m.From]
	if man.Kind() != board.Pawn || man.Color() != p.Turn {
		return false
	}
	seventh, last := 6, 7
	if man.Color() == board.Black {
		seventh, last = 1, 0
	}
	return m.From.Rank() == seventh && m.To.Rank() == last && !p.Geometric(m)
}

// onPromote takes the man named with the promote button for a pawn awaiting
// its name (hastings1895:X).
func (g *Game) onPromote(gs gesture.Gesture) {
	if d := g.pending; d != nil && d.kind == report.KindBadPromotion && gs.Side == d.offender {
		g.apply(gs.T, report.OptionID("promote-"+string(gs.Piece.Letter())), party(gs.Side))
	}
}

// namePromotion records the promotion the offender named for a pawn set on
// the last rank without its new man (hastings1895:X: the move is not
// complete until it is named).
func (g *Game) namePromotion(t time.Duration, d *decision, option report.OptionID) {
	rd := *d.reading
	rd.Move.Promo, _ = board.ParsePromotion(string(option[len(option)-1:]))
	g.record(t, &rd, d.before, true)
	g.comment(fmt.Sprintf("%s, %s: promotion named %s", d.kind, d.law, rd.Move.Promo))
	g.afterMove(t)
}

// unnamedPromotion judges a pawn moved to the last rank without its new man
// named, as the law-set says: the move is not complete until it is named
// (hastings1895:X, awaitPromotionName); the pawn becomes a queen and the
// move is illegal (fide2023:7.5.2, queenByArbiter), unless a clock runs and
// no press has completed the move yet; or the pawn simply becomes a queen
// (sarratt1808:22, philidor1825:IX, nycc:III). It reports whether it judged
// the move; when it did not, rd names the queen and the move is judged as
// any legal one.
func (g *Game) unnamedPromotion(t time.Duration, rd *gesture.Reading) bool {
	switch g.laws.UnnamedPromotion {
	case lawset.PromoteIncomplete:
		g.awaitPromotionName(t, rd)
		return true
	case lawset.PromoteQueenIllegal:
		rd.Move.Promo = board.Queen
		if g.opts.Clocked && rd.CompletedBy != gesture.ByClock {
			// The promotion was made when the hand left it (fide2023:4.7,
			// 6.2.1); 7.5.2 punishes only the clock pressed with the
			// pawn unreplaced, and no press came before this.
			return false
		}
		g.queenByArbiter(t, rd)
		return true
	}
	rd.Move.Promo = board.Queen
	return false
}

// awaitPromotionName raises a promotion whose new man is not named yet, for
// its player to name (hastings1895:X). Until it is named the man on the
// last rank is taken for a queen, so the board is expected to stand as it
// does.
func (g *Game) awaitPromotionName(t time.Duration, rd *gesture.Reading) {
	a := g.cur
	m := rd.Move
	r, _ := g.laws.Rule(report.KindBadPromotion)
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
	g.emit(report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: d.offender.String(), Chooser: g.chooserName(d), Options: d.options, Reason: "the promotion piece was not named", Offending: offending(d)})
	g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: prov}
}

// queenByArbiter records a promotion completed without its new man named
// as a queen, and rules it an illegal move that stands (fide2023:7.5.2),
// counted under fide2023:7.5.5.
func (g *Game) queenByArbiter(t time.Duration, rd *gesture.Reading) {
	to := rd.Move.To.String()
	g.record(t, rd, g.cur, true)
	if g.opts.WarnOnly {
		// The pawn must become something: a queen is the board's
		// necessity, the count of 7.5.5 the penalty left unexacted.
		words := fmt.Sprintf("Under %s the promotion piece must be named: the pawn becomes a queen, and the move counts as an illegal move (%s); warn-only: play on, not counted", g.laws.PromotionLaw, g.laws.IllegalMoveLaw)
		g.emit(report.Report{Type: report.Irregularity, T: t, Kind: report.KindBadPromotion, Law: g.laws.PromotionLaw, Offender: rd.Mover.String(), Chooser: report.WarnOnly, Reason: words, Offending: rd.Move.UCI()})
		g.comment(fmt.Sprintf("warning (warn-only), %s, %s: promotion not named, queen; not counted", report.KindBadPromotion, g.laws.PromotionLaw))
		g.afterMove(t)
		return
	}
	g.emit(report.Report{Type: report.Irregularity, T: t, Kind: report.KindBadPromotion, Law: g.laws.PromotionLaw, Offender: rd.Mover.String(), Chooser: report.Arbiter, Options: []report.Option{{ID: report.OptStand, Squares: []string{to}}}, Reason: "the promotion piece was not named: the pawn becomes a queen", Offending: rd.Move.UCI()})
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptStand, By: report.Arbiter, Law: g.laws.PromotionLaw})
	g.comment(fmt.Sprintf("%s, %s: promotion not named, queen", report.KindBadPromotion, g.laws.PromotionLaw))
	g.countIllegal(t, rd.Mover)
	g.afterMove(t)
}
