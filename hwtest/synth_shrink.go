package hwtest

import (
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
)

// Failure is a trace of clean play that the game does not recover, as
// small as Shrink could make it.
type Failure struct {
	Game  Game         // the moves the trace plays, from their start position
	Lines []trace.Line // the trace: a setup line, then the hands
	Err   error        // what CheckClean says of its replay
}

// Shrink looks for the smallest stretch of g's synthesised trace (seed
// gameSeed, as events, or as frames when frames is true) that still fails:
// it replays windows of consecutive moves from the position before the
// window, shortest first, then drops the presses and adjustments it can. It
// returns nil when the whole trace replays faithfully.
func (s *Synthesiser) Shrink(g *Game, gameSeed uint64, frames bool) (*Failure, error) {
	b, err := s.build(g, gameSeed)
	if err != nil {
		return nil, err
	}
	check := func(sub *Game, lines []trace.Line) (error, error) {
		if frames {
			if lines, err = s.Frames(lines, gameSeed); err != nil {
				return nil, err
			}
		}
		reports, err := Replay(lines, game.Options{Laws: s.opts.Laws})
		if err != nil {
			return nil, err
		}
		return CheckClean(sub, reports), nil
	}
	whole, err := check(g, b.lines)
	if err != nil || whole == nil {
		return nil, err
	}
	positions := make([]board.Position, len(g.Moves)+1)
	positions[0] = g.Start
	for i, m := range g.Moves {
		positions[i+1] = positions[i].Apply(m)
	}
	window := func(from, to int) (Game, []trace.Line) {
		sub := Game{Name: g.Name, Start: positions[from], Moves: g.Moves[from:to]}
		first, end := b.starts[from], len(b.lines)
		if to < len(g.Moves) {
			end = b.starts[to]
		}
		// Shift time so that the window's first hand acts at 500 ms.
		shift := b.lines[first].T - 500*time.Millisecond
		lines := []trace.Line{{Kind: trace.Setup, FEN: positions[from].FEN()}}
		for _, l := range b.lines[first:end] {
			l.T -= shift
			lines = append(lines, l)
		}
		return sub, lines
	}
	best := &Failure{Game: *g, Lines: b.lines, Err: whole}
	found := false
	for size := 1; size <= len(g.Moves) && !found; size++ {
		for from := 0; from+size <= len(g.Moves); from++ {
			sub, lines := window(from, from+size)
			fault, err := check(&sub, lines)
			if err != nil {
				return nil, err
			}
			if fault != nil {
				best = &Failure{Game: sub, Lines: lines, Err: fault}
				found = true
				break
			}
		}
	}
	// Drop presses and announced adjustments that the failure does not need.
	for i := 1; i < len(best.Lines); i++ {
		l := best.Lines[i]
		drop := 0
		switch {
		case l.Kind == trace.Press && l.Button == trace.ButtonClock:
			drop = 1
		case l.Kind == trace.Press && l.Button == trace.ButtonJadoube && i+2 < len(best.Lines) &&
			best.Lines[i+1].Kind == trace.Lift && best.Lines[i+2].Kind == trace.Place && best.Lines[i+1].Square == best.Lines[i+2].Square:
			drop = 3
		}
		if drop == 0 {
			continue
		}
		lines := append(append([]trace.Line(nil), best.Lines[:i]...), best.Lines[i+drop:]...)
		fault, err := check(&best.Game, lines)
		if err != nil {
			return nil, err
		}
		if fault != nil {
			best.Lines, best.Err = lines, fault
			i--
		}
	}
	return best, nil
}
