package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// Obligation is what the side to move must do with its next move because
// of a ruling or a touch, with the squares the LEDs light for it.
type Obligation struct {
	Side board.Color
	// What names the duty: report.OptKing, OptTakeTouched, OptCastle, or the
	// man that must move (OptMoveTouched, OptMoveTaken, OptRook).
	What report.OptionID
	// Square is the man that must move (the king for OptKing and
	// OptCastle), or the adverse man that must be taken.
	Square board.Square
	// Destinations are where that man may go; for OptTakeTouched, the men
	// that can take.
	Destinations board.Occupancy
	Law          report.Law
}

// Obligation returns the duty in force for the side to move, if any.
func (g *Game) Obligation() (Obligation, bool) {
	ob := g.imposed
	if ob == nil {
		return Obligation{}, false
	}
	a := g.cur
	o := Obligation{Side: ob.side, What: ob.what, Square: ob.square, Law: ob.law}
	switch ob.what {
	case report.OptKing:
		o.Square = a.Position.KingSquare(ob.side)
		for _, sq := range g.kingMoves(a, ob.side) {
			o.Destinations = o.Destinations.With(sq)
		}
	case report.OptTakeTouched:
		for _, m := range a.Moves {
			if m.To == ob.square {
				o.Destinations = o.Destinations.With(m.From)
			}
		}
	case report.OptCastle:
		o.Square = a.Position.KingSquare(ob.side)
		for _, m := range a.MovesFrom(o.Square) {
			if a.Position.IsCastling(m) {
				o.Destinations = o.Destinations.With(m.To)
			}
		}
	default:
		for _, m := range a.MovesFrom(ob.square) {
			o.Destinations = o.Destinations.With(m.To)
		}
	}
	return o, true
}

// LastMove returns the last move recorded, if any since the game (or the
// position restored) began.
func (g *Game) LastMove() (board.Move, bool) { return g.lastMove, g.hasLast }

// Pending returns the irregularity waiting for a choice, as reported, or nil.
func (g *Game) Pending() *report.Report {
	if g.pending == nil {
		return nil
	}
	return &report.Report{Type: report.Irregularity, Kind: g.pending.kind, Law: g.pending.law, Offender: g.pending.offender.String(), Chooser: g.chooserName(g.pending), Options: g.pending.options, Offending: offending(g.pending)}
}
