// Touch-move under fide2023: the first man touched that can be moved or
// taken binds (4.3), with the castling rules of 4.4.

package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// firstTouchedViolation checks a legal move against the men its player
// touched, under fide2023: the king touched, then a rook of its own, he
// must castle on that side if he can (4.4.1); a rook touched before the
// king, he may not castle with it (4.4.2); men of both colours touched, the
// first adverse man must be taken with the first own one if that is legal
// (4.3.3); else the first man touched that can be moved (4.3.1) or taken
// (4.3.2) binds, and nothing does when none can (4.5). It returns the
// irregularity, or nil.
func (g *Game) firstTouchedViolation(rd *gesture.Reading, men touchedSet) *decision {
	a := g.cur
	pos := &a.Position
	m := rd.Move
	laws := &g.laws.FirstTouched
	if k, rook, owed := castlingOwedAfterKingThenRook(a, rd.Mover, men.order, m); owed {
		// Castling on that side, with that rook, not the other.
		return g.touchMoveDecisionBy(rd, laws.KingThenRook, k, board.NoSquare, board.Occupancy(0).With(rook), []report.OptionID{report.OptStand, report.OptCastle})
	}
	if rook, barred := castlingWithRookTouchedFirst(pos, men.order, m); barred {
		return g.touchMoveDecision(rd, laws.RookFirst, rook, board.NoSquare, []report.OptionID{report.OptStand, report.OptRook})
	}
	if len(men.own) > 0 && len(men.adverse) > 0 && canTakeWith(a, men.own[0], men.adverse[0]) {
		if m.From == men.own[0] && touchHonoured(pos, m, men.adverse[0]) {
			return nil
		}
		// The capture owed is with the own man touched, no other.
		return g.touchMoveDecisionBy(rd, laws.Both, men.own[0], men.adverse[0], board.Occupancy(0).With(men.own[0]), []report.OptionID{report.OptStand, report.OptTakeTouched})
	}
	sq, own, binds := firstBindingMan(a, men)
	ownLaw, adverseLaw := laws.Own, laws.Adverse
	if len(men.adverse) > 0 && ownTouchedBesides(men.own, m.From) {
		// Men of both colours touched (besides the man lifted to make
		// the move): 4.3.3 governs, its fallback binding the first
		// touched that can be moved or taken.
		ownLaw, adverseLaw = laws.Both, laws.Both
	}
	switch {
	case !binds || touchHonoured(pos, m, sq):
		return nil
	case own:
		return g.touchMoveDecision(rd, ownLaw, sq, board.NoSquare, []report.OptionID{report.OptStand, report.OptMoveTouched})
	}
	return g.touchMoveDecision(rd, adverseLaw, sq, sq, []report.OptionID{report.OptStand, report.OptTakeTouched})
}

// ownTouchedBesides reports whether own holds a man other than the one on
// played: an own man touched besides the man the move was made with.
func ownTouchedBesides(own []board.Square, played board.Square) bool {
	for _, sq := range own {
		if sq != played {
			return true
		}
	}
	return false
}

// castlingOwedAfterKingThenRook applies fide2023:4.4.1: when side touched
// its king first and then a rook of its own with which it can castle, and
// m is not that castling, it returns the king's square, the rook's and
// true. Of several such rooks the first touched binds (as 4.3.1 binds the
// first man touched).
func castlingOwedAfterKingThenRook(a *board.Analysis, side board.Color, order []board.Square, m board.Move) (king, rook board.Square, owed bool) {
	pos := &a.Position
	k := pos.KingSquare(side)
	if len(order) < 2 || order[0] != k {
		return board.NoSquare, board.NoSquare, false
	}
	for _, sq := range order[1:] {
		if pos.Men[sq] != board.NewMan(side, board.Rook) {
			continue
		}
		for _, lm := range a.MovesFrom(k) {
			if !pos.IsCastling(lm) {
				continue
			}
			if rf, _ := board.CastlingRook(lm.From, lm.To); rf == sq {
				if m == lm {
					return board.NoSquare, board.NoSquare, false
				}
				return k, sq, true
			}
		}
	}
	return board.NoSquare, board.NoSquare, false
}

// castlingWithRookTouchedFirst applies fide2023:4.4.2: when m castles with
// a rook touched before the king, it returns the rook's square and true.
func castlingWithRookTouchedFirst(pos *board.Position, order []board.Square, m board.Move) (board.Square, bool) {
	if !pos.IsCastling(m) {
		return board.NoSquare, false
	}
	rf, _ := board.CastlingRook(m.From, m.To)
	for _, sq := range order {
		if sq == m.From {
			break
		}
		if sq == rf {
			return rf, true
		}
	}
	return board.NoSquare, false
}

// canTakeWith reports whether the man on from can lawfully take the man
// on victim (en passant included): the capture fide2023:4.3.3 requires.
func canTakeWith(a *board.Analysis, from, victim board.Square) bool {
	for _, lm := range a.Moves {
		if lm.From == from && (lm.To == victim || a.Position.IsEnPassant(lm) && board.EnPassantVictim(lm) == victim) {
			return true
		}
	}
	return false
}

// firstBindingMan returns the first man touched that can be moved, if his
// own (fide2023:4.3.1), or taken, if the adversary's (4.3.2), and whether
// it is his own; binds is false when no man touched can be (4.5).
func firstBindingMan(a *board.Analysis, men touchedSet) (sq board.Square, own, binds bool) {
	for _, sq := range men.order {
		isOwn := contains(men.own, sq)
		if isOwn && len(a.MovesFrom(sq)) > 0 || !isOwn && capturable(a, sq) {
			return sq, isOwn, true
		}
	}
	return board.NoSquare, false, false
}

// replacementObligation is the obligation fide2023:7.5.1 puts on the move
// that replaces an illegal one, by 4.3 and 4.7, when the offender is to
// move in target: after an adverse man moved, that man must be taken if it
// can be (4.3.2); after a false castling, the king must move if it can
// (4.4.3, 4.3.1); after any other illegal move but successive moves, the
// first man touched that can be moved or taken binds
// (firstTouchedBinding). It is nil where nothing binds.
func (g *Game) replacementObligation(d *decision, target *board.Analysis) *obligation {
	side := d.offender
	if target.Position.Turn != side {
		return nil
	}
	switch d.kind {
	case report.KindMovedAdverse:
		if capturable(target, d.adverse) {
			return &obligation{side: side, what: report.OptTakeTouched, square: d.adverse, law: g.laws.FirstTouched.Adverse}
		}
		return nil
	case report.KindFalseCastling:
		if k := target.Position.KingSquare(side); len(target.MovesFrom(k)) > 0 {
			return &obligation{side: side, what: report.OptMoveTouched, square: k, law: g.laws.FirstTouched.Own}
		}
		return nil
	case report.KindSuccessive:
		return nil
	}
	return g.firstTouchedBinding(d, target)
}

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
