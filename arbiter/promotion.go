// Promotion: a pawn promoted without naming the new man, or on a wrong
// square.

package arbiter

import (
	"fmt"
	"time"

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
