// Touch-move under fide2023: the first man touched that can be moved or
// taken binds (4.3), with the castling rules of 4.4.

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// firstTouchedBinding returns the obligation fide2023:4.3 puts on the move
// that replaces an illegal one (7.5.1): the first man the player touched
// that can be moved, or taken if it is the adversary's. The man moved
// counts as touched. It returns nil when none can.
func (g *Game) firstTouchedBinding(d *decision, target *board.Analysis) *obligation {
	side := d.offender
	order := []board.Square{d.touched}
	if d.reading != nil {
		var orderBuf, ownBuf, adverseBuf [64]board.Square
		if touched, _, _ := touchedMen(d.reading, orderBuf[:0], ownBuf[:0], adverseBuf[:0]); len(touched) > 0 {
			order = touched
		}
	}
	for _, sq := range order {
		man := target.Position.Men[sq]
		switch {
		case man == board.NoMan:
		case man.Color() == side && len(target.MovesFrom(sq)) > 0:
			return &obligation{side: side, what: report.OptMoveTouched, square: sq, law: g.laws.FirstTouched.Own}
		case man.Color() != side && capturable(target, sq):
			return &obligation{side: side, what: report.OptTakeTouched, square: sq, law: g.laws.FirstTouched.Adverse}
		}
	}
	return nil
}
