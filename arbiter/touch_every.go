// Touch-move under the old codes: every man touched binds, and the adversary
// elects which must move (sarratt1808:7, philidor1825:V, nycc:X, nycc:XI,
// hastings1895:IV).

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// everyTouchedViolation checks a legal move against the men its player
// touched, under the old codes, where every one binds: each own man touched
// that can move and was not moved (sarratt1808:7, philidor1825:V, nycc:X),
// the adversary electing which must move when there are several (nycc:XI,
// hastings1895:IV), else an adverse man touched that can be taken and was
// not (the law-set's AdverseTouchLaw: sarratt1808:9, philidor1825:VI,
// nycc:X, hastings1895:IV). Under nycc:XI the adversary may require a king
// move instead when several men were touched. It returns the irregularity,
// or nil.
func (g *Game) everyTouchedViolation(rd *gesture.Reading, men touchedSet) *decision {
	a := g.cur
	several := len(men.order) > 1 && g.laws.KingForSeveralTouched
	if unhonoured := unhonouredOwnMen(a, rd.Move, men.own); len(unhonoured) > 0 {
		ids := []report.OptionID{report.OptStand, report.OptMoveTouched}
		// An adverse man touched too, that can be taken and was not,
		// binds as well: taking it is among the options (sarratt1808:9,
		// philidor1825:VI, nycc:X, hastings1895:IV).
		adverse, untaken := untakenAdverseMan(a, rd.Move, men.adverse)
		if untaken {
			ids = append(ids, report.OptTakeTouched)
		} else {
			adverse = board.NoSquare
		}
		if several {
			ids = append(ids, report.OptKing)
		}
		d := g.touchMoveDecision(rd, "", unhonoured[0], adverse, ids)
		// Several men bind: the adversary elects which must move
		// (nycc:XI, hastings1895:IV), one option for each.
		for _, sq := range unhonoured[1:] {
			if sqs, ok := g.manSquares(a, rd.Mover, sq); ok {
				d.options = append(d.options, report.Option{ID: report.MoveTouchedOn(sq.String()), Squares: squareNames(sqs)})
			}
		}
		return withPlayedManElectable(d, men.own)
	}
	if sq, ok := untakenAdverseMan(a, rd.Move, men.adverse); ok {
		ids := []report.OptionID{report.OptStand, report.OptTakeTouched}
		if several {
			ids = append(ids, report.OptKing)
		}
		return g.touchMoveDecision(rd, g.laws.AdverseTouchLaw, board.NoSquare, sq, ids)
	}
	return nil
}

// withPlayedManElectable returns d with stand among its options when the
// man played was itself one of the own men touched: he touched a plurality,
// and the adversary may elect the man played (nycc:XI, hastings1895:IV,
// sarratt1808:7, philidor1825:V), which lets the move stand. Electing it is
// an election among the touched men, not a waiver, so it is offered where
// no penalty may be waived too (hastings1895:arrangements, --tournament),
// after the penalties, so that an election not made exacts a penalty where
// the arbiter exacts the first.
func withPlayedManElectable(d *decision, own []board.Square) *decision {
	if d.reading == nil || !contains(own, d.reading.Move.From) {
		return d
	}
	for _, o := range d.options {
		if o.ID == report.OptStand || o.ID == report.OptRecall {
			return d
		}
	}
	d.options = append(d.options, report.Option{ID: report.OptStand, Squares: squareNames(validSquares(d.reading.Move.From, d.reading.Move.To))})
	return d
}

// unhonouredOwnMen returns, in the order touched, the own men touched (own)
// that can move lawfully and that move m, made in a, does not move.
func unhonouredOwnMen(a *board.Analysis, m board.Move, own []board.Square) []board.Square {
	var out []board.Square
	for _, sq := range own {
		if len(a.MovesFrom(sq)) > 0 && !touchHonoured(&a.Position, m, sq) {
			out = append(out, sq)
		}
	}
	return out
}

// untakenAdverseMan returns the first adverse man touched (adverse) that
// could be taken lawfully and that move m, made in a, does not take (en
// passant included).
func untakenAdverseMan(a *board.Analysis, m board.Move, adverse []board.Square) (board.Square, bool) {
	for _, sq := range adverse {
		if capturable(a, sq) && !(m.To == sq || touchHonoured(&a.Position, m, sq) && sq != m.From) {
			return sq, true
		}
	}
	return board.NoSquare, false
}

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
