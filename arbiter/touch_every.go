// Touch-move under the old codes: every man touched binds, and the adversary
// elects which must move (sarratt1808:7, philidor1825:V, nycc:X, nycc:XI,
// hastings1895:IV).

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// otherTouchedMen returns, for a false move under a code where every
// touched man binds, one move-touched-<square> option for each other own
// man the offender touched that turn and can move once the false move is
// taken back: the adversary may call on any of them (hastings1895:IV "a
// plurality", nycc:X, sarratt1808:7, philidor1825:V), not only on the man
// that made the false move.
func (g *Game) otherTouchedMen(d *decision) []report.Option {
	rd := d.reading
	if rd == nil || d.kind == report.KindSuccessive || (d.castleKing != board.Move{}) || d.before.Position.Turn != d.offender {
		return nil
	}
	if g.checkExempt() || g.misledByFalseCheck(d.offender) {
		return nil
	}
	var orderBuf, ownBuf, adverseBuf [64]board.Square
	_, own, _ := touchedMen(rd, orderBuf[:0], ownBuf[:0], adverseBuf[:0])
	var out []report.Option
	for _, sq := range own {
		if sq == rd.Move.From || sq == rd.Move.To || sq == d.taken || d.before.Position.Men[sq].Color() != d.offender {
			continue
		}
		if sqs, ok := g.manSquares(d.before, d.offender, sq); ok {
			out = append(out, report.Option{ID: report.MoveTouchedOn(sq.String()), Squares: squareNames(sqs)})
		}
	}
	return out
}
