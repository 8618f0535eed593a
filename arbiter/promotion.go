// Promotion: a pawn promoted without naming the new man, or on a wrong
// square.

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
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

func (g *Game) onPromote(gs gesture.Gesture) {
	if d := g.pending; d != nil && d.kind == report.KindBadPromotion && gs.Side == d.offender {
		g.apply(gs.T, report.OptionID("promote-"+string(gs.Piece.Letter())), party(gs.Side))
	}
}
