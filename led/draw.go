package led

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
)

// Compose says what the LEDs say about a game as it stands: the squares to
// fix while the board is out of step, the chooser's options while a ruling
// waits, the man that must move and where it may go, the result at the end,
// otherwise the last move and the men in hand; and the four corners blinking
// fast while the sensors cannot be trusted or the game is not being saved
// (the journal cannot be written).
func Compose(s *game.Snapshot) Frame {
	f := draw(s)
	if s.Fault || s.JournalFault {
		for _, sq := range [...]board.Square{0, 7, 56, 63} { // the four corners
			f.Set(sq, Fault, Fast)
		}
	}
	return f
}

func draw(s *game.Snapshot) Frame {
	var f Frame
	if s.Syncing {
		if s.Mode == game.AwaitNewGame && s.Result != nil { // show the result until the board is reset
			drawResult(&f, s)
			return f
		}
		target := s.Expected.Occupancy()
		missing, extra := target&^s.Occupancy, s.Occupancy&^target
		if s.Mismatch {
			f.SetAll(missing, Missing, Steady)
		} else {
			f.SetAll(missing, Guide, Slow)
		}
		f.SetAll(extra, Extra, Fast)
		return f
	}
	if s.Result != nil {
		drawResult(&f, s)
		return f
	}
	if s.HasLastMove {
		f.Set(s.LastMove.From, LastMove, Steady)
		f.Set(s.LastMove.To, LastMove, Steady)
	}
	if p := s.Pending; p != nil {
		for i, o := range p.Options {
			for _, name := range o.Squares {
				if sq, err := board.ParseSquare(name); err == nil {
					f.Set(sq, OptionRole(i), Slow)
				}
			}
		}
		return f
	}
	if s.HasAwaiting {
		drawCarry(&f, s)
		return f
	}
	if ob := s.Obligation; ob != nil {
		blink := Steady
		if ob.What == report.OptTakeTouched {
			blink = Fast // the adverse man to be taken
		}
		f.Set(ob.Square, MustMove, blink)
		f.SetAll(ob.Destinations, Destination, Slow)
	}
	if s.HasHint {
		f.Set(s.Hint.From, Hint, Slow)
		f.Set(s.Hint.To, Hint, Steady)
	}
	f.SetAll(s.InHand, Touched, Steady)
	if s.HasLanding {
		drawLanding(&f, s)
	}
	return f
}

// drawLanding shows a move the hands appear to have made while the hand may
// still carry the man on: its two squares lit, and what it still needs: a
// castling begun with the king guides its rook (the rook's square blinks,
// the square it goes to is lit), an en passant capture blinks the pawn to
// take off, a promotion blinks its square until the piece is named.
func drawLanding(f *Frame, s *game.Snapshot) {
	m := s.Landing
	f.Set(m.From, Landing, Steady)
	f.Set(m.To, Landing, Steady)
	switch s.LandingNeeds {
	case "rook":
		rf, rt := board.CastlingRook(m.From, m.To)
		f.Set(rf, Guide, Slow)
		f.Set(rt, Guide, Steady)
	case "victim":
		f.Set(board.EnPassantVictim(m), Extra, Fast)
	case "piece":
		f.Set(m.To, Landing, Fast)
	}
}

// drawCarry shows the move of a side played from off the board, for the
// player to carry out: the man to move blinks, its square to go to is lit,
// the rook of a castling likewise, a man taken en passant blinks fast to be
// taken off, and a promotion's square blinks fast (the console names the
// piece). Squares the move is done with go dark as the men are moved.
func drawCarry(f *Frame, s *game.Snapshot) {
	m := s.Awaiting
	p := &s.Position
	from, to := m.From, m.To
	if s.Occupancy.Has(from) {
		f.Set(from, Carry, Slow)
	}
	blink := Steady
	if m.Promo != board.NoKind {
		blink = Fast
	}
	f.Set(to, Carry, blink)
	if p.IsCastling(m) {
		rf, rt := board.CastlingRook(from, to)
		if s.Occupancy.Has(rf) {
			f.Set(rf, Carry, Slow)
		}
		f.Set(rt, Carry, Steady)
	}
	if p.IsEnPassant(m) {
		if v := board.EnPassantVictim(m); s.Occupancy.Has(v) {
			f.Set(v, Extra, Fast)
		}
	}
}

func drawResult(f *Frame, s *game.Snapshot) {
	wk, bk := s.Position.KingSquare(board.White), s.Position.KingSquare(board.Black)
	switch s.Result.Result {
	case report.WhiteWins:
		f.Set(wk, Winner, Steady)
		f.Set(bk, Loser, Steady)
	case report.BlackWins:
		f.Set(bk, Winner, Steady)
		f.Set(wk, Loser, Steady)
	default:
		f.Set(wk, Draw, Steady)
		f.Set(bk, Draw, Steady)
	}
}
