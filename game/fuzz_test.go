package game_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// fuzzLaws and fuzzControls are what a fuzzed game is played under: each
// code, with and without a clock.
var (
	fuzzLaws     = []string{"fide2023", "sarratt1808", "philidor1825", "nycc", "hastings1895"}
	fuzzControls = []string{"", "300+2", "60"}
	fuzzButtons  = []string{trace.ButtonClock, trace.ButtonJadoube, trace.ButtonCheck, trace.ButtonClaim}
	fuzzActions  = []string{trace.ActionNewGame, trace.ActionAnnul, trace.ActionLaws, trace.ActionResult}
	fuzzResults  = []string{"1-0", "0-1", "1/2-1/2", "2-0"}
	fuzzRemotes  = []string{trace.SideWhite, trace.SideBlack, trace.SideBoth, "none"}
	fuzzOptions  = []report.OptionID{report.OptStand, report.OptRestore, report.OptMoveTouched, report.OptKing, report.OptTakeBack}
)

// hands turns fuzz bytes into the inputs of one game: mostly what hands can
// do (a man lifted from where one stands, set down where none does, the
// board put right as lit), and the rest anything a trace may hold: frames,
// buttons, choices offered and not, arbiter actions, a side played from off
// the board and its moves, take-backs, long pauses.
type hands struct {
	g    *game.Game
	t    time.Duration
	data []byte
}

func (h *hands) next() byte {
	if len(h.data) == 0 {
		return 0
	}
	b := h.data[0]
	h.data = h.data[1:]
	return b
}

// pick returns the n-th square of set (n taken modulo its size), if any.
func pick(set board.Occupancy, n byte) (board.Square, bool) {
	squares := set.Squares()
	if len(squares) == 0 {
		return 0, false
	}
	return squares[int(n)%len(squares)], true
}

// step returns the next input, or false when the bytes have run out.
func (h *hands) step() (trace.Line, bool) {
	if len(h.data) == 0 {
		return trace.Line{}, false
	}
	op, arg := h.next(), h.next()
	h.t += time.Duration(h.next()%64) * 25 * time.Millisecond
	snap := h.g.Snapshot()
	l := trace.Line{T: h.t}
	side := []string{trace.SideWhite, trace.SideBlack}[arg&1]
	switch op % 16 {
	case 0, 1, 2:
		sq, ok := pick(snap.Occupancy, arg)
		if !ok {
			return h.step()
		}
		l.Kind, l.Square = trace.Lift, sq
	case 3, 4, 5:
		sq, ok := pick(^snap.Occupancy, arg)
		if !ok {
			return h.step()
		}
		l.Kind, l.Square = trace.Place, sq
	case 6: // the board put right where it waits: a square lit to fill or clear
		target := snap.Expected.Occupancy()
		if sq, ok := pick(target&^snap.Occupancy, arg); ok {
			l.Kind, l.Square = trace.Place, sq
		} else if sq, ok := pick(snap.Occupancy&^target, arg); ok {
			l.Kind, l.Square = trace.Lift, sq
		} else {
			l.Kind, l.Button, l.Side = trace.Press, trace.ButtonClock, snap.Position.Turn.String()
		}
	case 7:
		l.Kind, l.Occupancy = trace.Frame, snap.Occupancy^(board.Occupancy(1)<<(arg%64))
	case 8:
		l.Kind, l.Button, l.Side = trace.Press, fuzzButtons[int(arg>>1)%len(fuzzButtons)], side
	case 9:
		l.Kind, l.Piece, l.Side = trace.Promote, []board.Kind{board.Queen, board.Rook, board.Bishop, board.Knight}[int(arg>>1)%4], side
	case 10: // a choice: one offered, or one that is not, by anyone
		l.Kind = trace.Choose
		l.Side = []string{trace.SideWhite, trace.SideBlack, trace.SideArbiter}[int(arg)%3]
		if p := snap.Pending; p != nil && len(p.Options) > 0 && arg&0x80 == 0 {
			l.Option = string(p.Options[int(arg>>2)%len(p.Options)].ID)
		} else {
			l.Option = string(fuzzOptions[int(arg>>2)%len(fuzzOptions)])
		}
	case 11:
		l.Kind, l.Action, l.Side = trace.Arbiter, fuzzActions[int(arg)%len(fuzzActions)], trace.SideArbiter
		switch l.Action {
		case trace.ActionLaws:
			l.Value = fuzzLaws[int(arg>>2)%len(fuzzLaws)]
		case trace.ActionResult:
			l.Value = fuzzResults[int(arg>>2)%len(fuzzResults)]
		case trace.ActionNewGame:
			if arg&0x80 != 0 {
				l.Value = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
			}
		}
	case 12:
		l.Kind, l.Side = trace.Remote, fuzzRemotes[int(arg)%len(fuzzRemotes)]
	case 13: // the remote side's move: a legal one, or any
		l.Kind = trace.Opponent
		an, err := board.Analyse(snap.Position)
		if err == nil && len(an.Moves) > 0 && arg&0x80 == 0 {
			l.Move = an.Moves[int(arg)%len(an.Moves)]
		} else {
			l.Move = board.Move{From: board.Square(arg % 64), To: board.Square(h.next() % 64)}
		}
	case 14:
		l.Kind, l.Plies, l.Side = trace.TakeBack, 1+int(arg>>1)%3, side
	case 15: // a long pause: every timer due fires
		h.t += time.Duration(arg) * time.Second
		h.g.Advance(h.t)
		return h.step()
	}
	return l, true
}

// FuzzGame plays arbitrary inputs through the game's door under every code,
// with and without a clock: nothing panics, the snapshot and its LEDs can
// always be drawn, the PGN always written, and a game with a result takes
// no further move.
func FuzzGame(f *testing.F) {
	f.Add([]byte{0, 0, 0, 12, 0, 8, 3, 28, 8, 6, 0, 40})
	f.Add([]byte{1, 2, 0, 0, 12, 4, 3, 28, 4, 0, 51, 4, 3, 35, 4, 10, 1, 0, 15, 200, 0})
	f.Add([]byte{2, 1, 12, 1, 0, 0, 12, 4, 3, 28, 4, 13, 4, 0, 6, 0, 4, 6, 1, 4, 14, 2, 0, 6, 0, 4, 6, 1, 4})
	f.Add([]byte{4, 0, 11, 2, 0, 11, 128, 0, 0, 0, 4, 3, 0, 4, 8, 0, 2, 15, 255, 0})
	f.Add([]byte("\x03\x02\x00\x04\x05\x03\x24\x05\x0a\x00\x05\x0b\x03\x05\x0f\x10\x00\x08\x01\x05"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 || len(data) > 4096 {
			return
		}
		opts := game.Options{Laws: fuzzLaws[int(data[0])%len(fuzzLaws)], TimeControl: fuzzControls[int(data[1])%len(fuzzControls)]}
		var results int
		var after []report.Report
		g, err := game.New(opts, func(r report.Report) {
			switch {
			case r.Type == report.Result:
				results++
			case r.Type == report.Move && results > 0:
				after = append(after, r)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		h := &hands{g: g, data: data[2:]}
		for {
			l, ok := h.step()
			if !ok {
				break
			}
			if l.Kind == trace.Arbiter && (l.Action == trace.ActionNewGame || l.Action == trace.ActionAnnul) {
				results, after = 0, nil // a new game may be played after a result
			}
			if err := g.Input(l); err != nil {
				t.Fatalf("input %+v: %v", l, err)
			}
			snap := g.Snapshot()
			lighting.Compose(snap)
			if snap.Result != nil && snap.Pending != nil {
				t.Fatalf("a ruling pending after the result %+v: %+v", snap.Result, snap.Pending)
			}
		}
		g.Finish(h.t + time.Minute)
		if pgn := g.PGN(); !strings.Contains(pgn, "[Result ") {
			t.Fatalf("PGN without a result tag:\n%s", pgn)
		}
		if len(after) > 0 {
			t.Fatalf("moves recorded after the result: %+v", after)
		}
	})
}
