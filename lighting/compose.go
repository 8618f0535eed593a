// Package lighting is the LED language spoken about a board's game: what the
// light under each square says about the game as it stands (Compose), and a
// Driver kept showing it as the game changes (Follow).
//
// It sits above both led and game: led knows LEDs, squares, roles, blinks and
// the hardware that shows them, and nothing of the game; game knows the game,
// and nothing of LEDs. What each square must say follows from the game's
// snapshot, never from the laws themselves. docs/leds.md pictures each state
// (TestLEDDocs keeps it in step).
package lighting

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/report"
)

// Compose says what the LEDs say about a game as it stands: the squares to
// fix while the board is out of step, the chooser's options while a ruling
// waits, the man that must move and where it may go, the men a warn-only
// warning names (drawWarning), the result at the end,
// otherwise the last move and the men in hand; and the four corners blinking
// fast while the sensors cannot be trusted or the game is not being saved
// (the journal cannot be written).
func Compose(s *game.Snapshot) led.Frame {
	f := draw(s)
	if s.Fault || s.JournalFault {
		for _, sq := range [...]board.Square{0, 7, 56, 63} { // the four corners
			f.Set(sq, led.Fault, led.Fast)
		}
	}
	return f
}

func draw(s *game.Snapshot) led.Frame {
	var f led.Frame
	if s.Syncing {
		if s.Mode == game.AwaitNewGame && s.Result != nil { // show the result until the board is reset
			drawResult(&f, s)
			return f
		}
		target := s.Expected.Occupancy()
		missing, extra := target&^s.Occupancy, s.Occupancy&^target
		if s.Mismatch {
			f.SetAll(missing, led.Missing, led.Steady)
		} else {
			f.SetAll(missing, led.Guide, led.Slow)
		}
		f.SetAll(extra, led.Extra, led.Fast)
		return f
	}
	if s.Result != nil {
		drawResult(&f, s)
		return f
	}
	if s.HasLastMove {
		f.Set(s.LastMove.From, led.LastMove, led.Steady)
		f.Set(s.LastMove.To, led.LastMove, led.Steady)
	}
	if p := s.Pending; p != nil {
		for i, o := range p.Options {
			for _, name := range o.Squares {
				if sq, err := board.ParseSquare(name); err == nil {
					f.Set(sq, led.OptionRole(i), led.Slow)
				}
			}
		}
		return f
	}
	if s.HasAwaiting {
		drawCarry(&f, s)
		return f
	}
	if w := s.Warning; w != nil {
		drawWarning(&f, w)
	}
	if ob := s.Obligation; ob != nil {
		blink := led.Steady
		if ob.What == report.OptTakeTouched {
			blink = led.Fast // the adverse man to be taken
		}
		f.Set(ob.Square, led.MustMove, blink)
		f.SetAll(ob.Destinations, led.Destination, led.Slow)
	}
	if s.HasHint {
		f.Set(s.Hint.From, led.Hint, led.Slow)
		f.Set(s.Hint.To, led.Hint, led.Steady)
	}
	f.SetAll(s.InHand, led.Touched, led.Steady)
	if s.HasLanding {
		drawLanding(&f, s)
	}
	return f
}

// drawWarning shows a warn-only warning until the next move: the man each
// penalty the law would have exacted binds (its option's first square)
// blinks slowly in that option's colour, as a choice would light it; the
// console says the words. Nothing is waited for.
func drawWarning(f *led.Frame, w *report.Report) {
	for i, o := range w.Options {
		if len(o.Squares) == 0 {
			continue
		}
		if sq, err := board.ParseSquare(o.Squares[0]); err == nil {
			f.Set(sq, led.OptionRole(i), led.Slow)
		}
	}
}

// drawLanding shows a move the hands appear to have made while the hand may
// still carry the man on: its two squares lit, and what it still needs: a
// castling begun with the king guides its rook (the rook's square blinks,
// the square it goes to is lit), an en passant capture blinks the pawn to
// take off, a promotion blinks its square until the piece is named.
func drawLanding(f *led.Frame, s *game.Snapshot) {
	m := s.Landing
	f.Set(m.From, led.Landing, led.Steady)
	f.Set(m.To, led.Landing, led.Steady)
	switch s.LandingNeeds {
	case "rook":
		rf, rt := board.CastlingRook(m.From, m.To)
		f.Set(rf, led.Guide, led.Slow)
		f.Set(rt, led.Guide, led.Steady)
	case "victim":
		f.Set(board.EnPassantVictim(m), led.Extra, led.Fast)
	case "piece":
		f.Set(m.To, led.Landing, led.Fast)
	}
}

// drawCarry shows the move of a side played from off the board, for the
// player to carry out: the man to move blinks, its square to go to is lit,
// the rook of a castling likewise, a man taken en passant blinks fast to be
// taken off, and a promotion's square blinks fast (the console names the
// piece). Squares the move is done with go dark as the men are moved.
func drawCarry(f *led.Frame, s *game.Snapshot) {
	m := s.Awaiting
	p := &s.Position
	from, to := m.From, m.To
	if s.Occupancy.Has(from) {
		f.Set(from, led.Carry, led.Slow)
	}
	blink := led.Steady
	if m.Promo != board.NoKind {
		blink = led.Fast
	}
	f.Set(to, led.Carry, blink)
	if p.IsCastling(m) {
		rf, rt := board.CastlingRook(from, to)
		if s.Occupancy.Has(rf) {
			f.Set(rf, led.Carry, led.Slow)
		}
		f.Set(rt, led.Carry, led.Steady)
	}
	if p.IsEnPassant(m) {
		if v := board.EnPassantVictim(m); s.Occupancy.Has(v) {
			f.Set(v, led.Extra, led.Fast)
		}
	}
}

func drawResult(f *led.Frame, s *game.Snapshot) {
	wk, bk := s.Position.KingSquare(board.White), s.Position.KingSquare(board.Black)
	switch s.Result.Result {
	case report.WhiteWins:
		f.Set(wk, led.Winner, led.Steady)
		f.Set(bk, led.Loser, led.Steady)
	case report.BlackWins:
		f.Set(bk, led.Winner, led.Steady)
		f.Set(wk, led.Loser, led.Steady)
	default:
		f.Set(wk, led.Draw, led.Steady)
		f.Set(bk, led.Draw, led.Steady)
	}
}
