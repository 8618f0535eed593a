// Moves that leave the mover's own king attacked (sarratt1808:17 and 13,
// philidor1825:XV and VIII, nycc:XIII, hastings1895:IV, fide2023:7.5.1).

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// intoCheckRule is the rule for a move that leaves the mover's king
// attacked: under nycc:XIII a man that discovered the check must be moved
// so that it stays covered (its lawful moves are exactly those), the king
// only when it cannot; under sarratt1808 and philidor1825 the
// moved-into-check rule (17, XV) is for a man that could not move without
// exposing its king, and one that could made a false move (13, VIII).
func (g *Game) intoCheckRule(r lawset.Rule, rd *gesture.Reading) lawset.Rule {
	a := g.cur
	from := rd.Move.From
	man := a.Position.Men[from]
	canMove := len(a.MovesFrom(from)) > 0
	if canMove && g.laws.IntoCheckByMovableMan != nil {
		return *g.laws.IntoCheckByMovableMan
	}
	if g.laws.DiscoveredCheckCovered && canMove && man.Kind() != board.King && !a.Position.InCheck(rd.Mover) {
		r.Options = []report.OptionID{report.OptMoveTouched}
	}
	return r
}
