// A man touched that can neither be moved nor taken: the king is owed
// instead (the old codes; fide2023:4.5 gives no penalty).

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// pinned reports whether the man on sq could move by its own powers but
// for exposing its king: some square it reaches, not held by its own side,
// that no legal move goes to.
func pinned(p *board.Position, sq board.Square) bool {
	man := p.Men[sq]
	for to := board.Square(0); to < 64; to++ {
		if to == sq {
			continue
		}
		if t := p.Men[to]; t != board.NoMan && t.Color() == man.Color() {
			continue
		}
		if p.Geometric(board.Move{From: sq, To: to}) {
			return true
		}
	}
	return false
}

// touchMayBind reports whether a man set back unannounced by the side to
// move may oblige it to anything: the game goes on, nothing else is
// pending or imposed, the side plays at the board, its law-set gives a
// penalty for a man that cannot move (UnmovableKingPenalty), and no
// uncalled or false check frees it from touch-move (nycc:IV,
// hastings1895:VI).
func (g *Game) touchMayBind(gs gesture.Gesture) bool {
	if g.result != nil || gs.Announced || gs.Side != g.cur.Position.Turn || g.pending != nil || g.imposed != nil || g.remote[gs.Side] {
		return false
	}
	return g.laws.UnmovableKingPenalty && !g.checkExempt() && !g.misledByFalseCheck(gs.Side)
}

// unmovableTouched applies the laws on a man touched and let go that can
// neither be moved nor, if the adversary's, taken: the king must move
// instead, when it can (sarratt1808:17 and 9, philidor1825:XV and VI,
// nycc:XI, hastings1895:IV). The obligation is imposed at once; the
// offended player may waive it where the law lets him.
func (g *Game) unmovableTouched(gs gesture.Gesture) {
	a := g.cur
	side := a.Position.Turn
	kind, owed := unmovableKind(a, side, gs.Square, gs.Man, g.laws.UnmovableOnlyWhenPinned)
	if !owed {
		return
	}
	kingSq := a.Position.KingSquare(side)
	kingMoves := g.kingMoves(a, side)
	if len(kingMoves) == 0 {
		return // the king cannot move either: no penalty
	}
	r, ok := g.laws.Rule(kind)
	if !ok {
		return
	}
	d := &decision{kind: kind, law: r.Law, offender: side, chooser: r.Chooser, pre: true, touched: gs.Square, before: a, provisional: a}
	for _, id := range g.filter(r.Options) {
		switch id {
		case report.OptKing:
			d.options = append(d.options, report.Option{ID: report.OptKing, Squares: squareNames(append([]board.Square{kingSq}, kingMoves...))})
		case report.OptStand:
			d.options = append(d.options, report.Option{ID: report.OptStand, Squares: []string{gs.Square.String()}})
		}
	}
	g.imposed = &obligation{side: side, what: report.OptKing, noCastle: g.laws.KingPenaltyNoCastling, law: r.Law, square: kingSq}
	g.raise(gs.T, d)
}

// unmovableKind returns the irregularity a man touched on sq by side makes
// in a when it can neither be moved (KindUnmovable) nor, if the
// adversary's, taken (KindUncapturable), and whether a penalty is owed for
// it. Where onlyWhenPinned, an own man binds only if it could move but for
// exposing its king (sarratt1808:17, philidor1825:XV): one merely hemmed
// in binds nobody.
func unmovableKind(a *board.Analysis, side board.Color, sq board.Square, man board.Man, onlyWhenPinned bool) (report.Kind, bool) {
	own := man.Color() == side
	switch {
	case own && len(a.MovesFrom(sq)) > 0:
		return "", false
	case own && onlyWhenPinned && !pinned(&a.Position, sq):
		return "", false // hemmed in by its own men: no law gives a penalty
	case own:
		return report.KindUnmovable, true
	case capturable(a, sq):
		return "", false
	}
	return report.KindUncapturable, true
}
