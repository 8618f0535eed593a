package arbiter

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/led"
)

// BoardView is what the LED frame needs to know of the physical board.
type BoardView struct {
	Occupancy board.Occupancy // the board as it reads now
	InHand    board.Occupancy // men of the position lifted and not back
	Syncing   bool            // waiting for the board to match the game
	Mismatch  bool            // ... because of a reported mismatch (else a take-back)
}

// Frame composes what the LEDs say: the squares to fix while the board is
// out of step, the chooser's options while a ruling waits, the man that must
// move and where it may go, the result at the end, and otherwise the last
// move.
func (g *Game) Frame(v BoardView) led.Frame {
	var f led.Frame
	if v.Syncing {
		target := g.exp.Analysis.Position.Occupancy()
		if g.exp.Mode == gesture.AwaitNewGame && g.result != nil { // show the result until the board is reset
			g.resultFrame(&f)
			return f
		}
		missing, extra := target&^v.Occupancy, v.Occupancy&^target
		if v.Mismatch {
			f.SetAll(missing, led.Missing, led.Steady)
		} else {
			f.SetAll(missing, led.Guide, led.Slow)
		}
		f.SetAll(extra, led.Extra, led.Fast)
		return f
	}
	if g.result != nil {
		g.resultFrame(&f)
		return f
	}
	if g.hasLast {
		f.Set(g.lastMove.From, led.LastMove, led.Steady)
		f.Set(g.lastMove.To, led.LastMove, led.Steady)
	}
	if d := g.pending; d != nil {
		for i, o := range d.options {
			for _, name := range o.Squares {
				if sq, err := board.ParseSquare(name); err == nil {
					f.Set(sq, led.OptionRole(i), led.Slow)
				}
			}
		}
		return f
	}
	if ob := g.imposed; ob != nil {
		g.obligationFrame(&f, ob)
	}
	f.SetAll(v.InHand, led.Touched, led.Steady)
	return f
}

func (g *Game) obligationFrame(f *led.Frame, ob *obligation) {
	a := g.cur
	switch ob.what {
	case OptKing:
		k := a.Position.KingSquare(ob.side)
		f.Set(k, led.MustMove, led.Steady)
		for _, sq := range g.kingMoves(a, ob.side) {
			f.Set(sq, led.Destination, led.Slow)
		}
	case OptTakeTouched:
		f.Set(ob.square, led.MustMove, led.Fast)
		for _, m := range a.Moves {
			if m.To == ob.square {
				f.Set(m.From, led.Destination, led.Slow)
			}
		}
	case OptCastle:
		k := a.Position.KingSquare(ob.side)
		f.Set(k, led.MustMove, led.Steady)
		for _, m := range a.MovesFrom(k) {
			if a.Position.IsCastling(m) {
				f.Set(m.To, led.Destination, led.Slow)
			}
		}
	default:
		f.Set(ob.square, led.MustMove, led.Steady)
		for _, m := range a.MovesFrom(ob.square) {
			f.Set(m.To, led.Destination, led.Slow)
		}
	}
}

func (g *Game) resultFrame(f *led.Frame) {
	pos := &g.cur.Position
	wk, bk := pos.KingSquare(board.White), pos.KingSquare(board.Black)
	switch g.result.Result {
	case "1-0":
		f.Set(wk, led.Winner, led.Steady)
		f.Set(bk, led.Loser, led.Steady)
	case "0-1":
		f.Set(bk, led.Winner, led.Steady)
		f.Set(wk, led.Loser, led.Steady)
	default:
		f.Set(wk, led.Draw, led.Steady)
		f.Set(bk, led.Draw, led.Steady)
	}
}
