package journal

import (
	"bytes"
	"fmt"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
)

// Clock continues a journal's time after a restart: Now is Offset plus the
// time elapsed on Base. The daemon's runner runs on it, so a restored game's
// times carry on from the journal's instead of starting again from zero.
type Clock struct {
	Base   timing.Clock
	Offset time.Duration
}

// Now returns Offset plus Base's time.
func (c Clock) Now() time.Duration { return c.Offset + c.Base.Now() }

// Watch follows a game's reports to tell when a finished game gives way to
// a new one (the board reset to the start after a result), which is when the
// journal rotates. It remembers the finished game's PGN for the archive.
type Watch struct {
	finished bool
	pgn      string
}

// Observe takes a report just made by game g. It returns true when r marks
// the start of a new game after a finished one; FinishedPGN then holds the
// finished game's PGN.
func (w *Watch) Observe(r *report.Report, g *game.Game) bool {
	s := g.Snapshot()
	if s.Result != nil {
		if report.Durable(r.Type) || !w.finished {
			w.pgn = g.PGN()
		}
		w.finished = true
		return false
	}
	if w.finished && r.Type == report.Synced && s.Moves == 0 {
		w.finished = false
		return true
	}
	return false
}

// FinishedPGN returns the PGN of the last game seen finished.
func (w *Watch) FinishedPGN() string { return w.pgn }

// Replayed is a game rebuilt from its journal.
type Replayed struct {
	Game   *game.Game
	Inputs int // inputs replayed
	// Lost are reports the replay made that the journal does not hold: the
	// process died after journalling an input and before its reports. The
	// daemon journals them on start.
	Lost []report.Report
	// Diverged counts journalled reports the replay did not make the same:
	// zero unless the journal was written by a boardd that judged
	// differently (a different version).
	Diverged int
	// NewGame is true when the game was finished and a new one began with
	// the last input: the journal owes a rotation, with FinishedPGN.
	NewGame     bool
	FinishedPGN string
	// Resume is the time the game goes on from: the journal's last time.
	// The outage itself is not counted (a Pi has no real-time clock to
	// measure it): timers pending when the power went, a move left settling
	// or a castling half made, run on as if nothing had happened, and what
	// the hands did meanwhile arrives as the board's first reading.
	Resume time.Duration
}

// Replay rebuilds the game of a journal in a fresh game in virtual time:
// its inputs are applied at their journalled times, then the game is
// advanced to the last journalled time, so that every timer that had fired
// has fired again. base gives what the header does not hold (the logger).
// Reports made by the replay are compared with those journalled.
func Replay(g *Game, base game.Options) (*Replayed, error) {
	opts := g.Header.Options(base)
	rp := &Replayed{Resume: g.LastT}
	var journalled [][]byte
	var at []int // index in g.Records of each journalled report
	for i, r := range g.Records {
		if r.Kind == KindReport {
			_, body, _ := bytes.Cut(r.Raw, []byte{','}) // drop `{"seq":N,`
			journalled = append(journalled, body)
			at = append(at, i)
		}
	}
	var made int
	var buf []byte
	var w Watch
	var p *game.Game
	newGameAt := -1 // the index of the report that began a new game
	observe := func(r report.Report) {
		if w.Observe(&r, p) {
			newGameAt = made
		}
		buf = r.AppendJSON(buf[:0])
		if made < len(journalled) {
			if !bytes.Equal(buf[1:], journalled[made]) {
				rp.Diverged++
			}
		} else {
			rp.Lost = append(rp.Lost, r)
		}
		made++
	}
	var err error
	if p, err = game.New(opts, observe); err != nil {
		return nil, fmt.Errorf("journal: replay of game %d: %w", g.Header.Game, err)
	}
	for _, r := range g.Records {
		if r.Kind != KindInput {
			continue
		}
		if err := p.Input(r.Input); err != nil {
			return nil, fmt.Errorf("journal: replay of game %d: seq %d: %w", g.Header.Game, r.Seq, err)
		}
		rp.Inputs++
	}
	p.Advance(g.LastT)
	if made < len(journalled) {
		rp.Diverged += len(journalled) - made
	}
	// The daemon rotates as it journals the report that began a new game,
	// before any other input: if the journal goes on with inputs after it,
	// it holds two games (written by some other means) and is left as it is.
	if newGameAt >= 0 {
		rp.NewGame = true
		if newGameAt < len(at) {
			for _, r := range g.Records[at[newGameAt]+1:] {
				if r.Kind == KindInput {
					rp.NewGame = false
				}
			}
		}
	}
	rp.FinishedPGN = w.FinishedPGN()
	rp.Game = p
	return rp, nil
}
