// The obligation imposed: a penalty that names the offender's next move (a
// man that must move, a man that must be taken, the king, castling), held
// until he makes it.

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// obligationBroken checks a move against the obligation ob an earlier
// ruling put on its player: the man touched or moved must move
// (sarratt1808:7, nycc:X, philidor1825:V, and fide2023:4.3.1 for the move
// that replaces an illegal one, 7.5.1), the adverse man must be taken
// (sarratt1808:9, nycc:X, fide2023:4.3.2), the king must move
// (sarratt1808:17, philidor1825:VI, nycc:XI, hastings1895:IV), the rook
// must move or the king castle (sarratt1808:16, nycc:XII, fide2023:4.4.1).
// A move that does otherwise is a touch-move irregularity under the
// obligation's law; it returns nil when the move keeps it.
func (g *Game) obligationBroken(rd *gesture.Reading, ob *obligation) *decision {
	if obligationKept(&g.cur.Position, ob, rd.Move) {
		return nil
	}
	return g.touchMoveDecisionBy(rd, ob.law, ob.square, ob.square, ob.bound, []report.OptionID{report.OptStand, ob.what})
}

// obligationKept reports whether move m, made in pos, does what ob
// requires. A king that must move may not castle when ob says so
// (nycc:XI, hastings1895:IV: the king's move is a move of the king alone).
func obligationKept(pos *board.Position, ob *obligation, m board.Move) bool {
	switch ob.what {
	case report.OptKing:
		return pos.Men[m.From].Kind() == board.King && !(ob.noCastle && pos.IsCastling(m))
	case report.OptMoveTouched, report.OptMoveTaken, report.OptRook:
		return m.From == ob.square
	case report.OptTakeTouched:
		if ob.bound != 0 && !ob.bound.Has(m.From) {
			return false
		}
		return m.To == ob.square || (pos.IsEnPassant(m) && board.EnPassantVictim(m) == ob.square)
	case report.OptCastle:
		if !pos.IsCastling(m) {
			return false
		}
		rf, _ := board.CastlingRook(m.From, m.To)
		return ob.bound == 0 || ob.bound.Has(rf)
	}
	return true
}
