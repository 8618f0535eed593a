package journal

import (
	"bytes"
	"fmt"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
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
	// Lost are reports the replay made that the journal does not hold at
	// its end: the process died after journalling an input and before its
	// reports. The daemon journals them on start.
	Lost []report.Report
	// Diverged counts journalled reports the replay did not make the same:
	// zero unless the journal was written by a boardd that judged
	// differently (a different version), or an input was lost to damage.
	Diverged int
	// Missing counts reports the replay made that the journal lacks in its
	// middle: reports damaged beyond repair. They are not journalled again
	// (at the end of the journal they would be out of place).
	Missing int
	// Reconstructed are inputs damaged beyond repair that the replay put
	// back from what the journalled reports say happened; Unrecovered
	// counts those it could not.
	Reconstructed []trace.Line
	Unrecovered   int
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
// Reports made by the replay are matched with those journalled, in order,
// passing over a report either lacks.
//
// A record damaged beyond repair (g.Damaged) that was an input throws the
// replay off the journalled reports from there on; the replay then carries
// on from the reports: it tries the inputs they point to (the squares of
// the touches, moves and mismatches that follow, at the times around the
// gap, or what is left legible of the damaged line) and keeps the one with
// which the replay makes the journalled reports again.
func Replay(g *Game, base game.Options) (*Replayed, error) {
	rp, err := replayRecords(g, base, g.Records)
	if err != nil || len(g.Damaged) == 0 {
		return rp, err
	}
	records := g.Records
	var reconstructed []trace.Line
	unrecovered := 0
	shift := 0 // inputs put back so far move the later gaps
	for _, d := range g.Damaged {
		if rp.Diverged == 0 {
			break
		}
		at := d.Before + shift
		var best []Record
		for _, cand := range guessInputs(records, at, d.Text) {
			with := make([]Record, 0, len(records)+1)
			with = append(append(append(with, records[:at]...), Record{Seq: cand.Seq, T: cand.T, Kind: KindInput, Input: cand}), records[at:]...)
			try, err := replayRecords(g, base, with)
			if err != nil {
				continue
			}
			if try.Diverged+try.Missing < rp.Diverged+rp.Missing {
				rp, best = try, with
				if try.Diverged == 0 {
					break
				}
			}
		}
		if best == nil {
			unrecovered++
			continue
		}
		reconstructed = append(reconstructed, best[at].Input)
		records = best
		shift++
	}
	rp.Reconstructed, rp.Unrecovered = reconstructed, unrecovered
	return rp, nil
}

// replayRecords replays records, the journal of game g (or the journal with
// inputs put back).
func replayRecords(g *Game, base game.Options, records []Record) (*Replayed, error) {
	opts := g.Header.Options(base)
	rp := &Replayed{Resume: g.LastT}
	var journalled [][]byte
	var at []int // index in records of each journalled report
	for i, r := range records {
		if r.Kind == KindReport {
			_, body, _ := bytes.Cut(r.Raw, []byte{','}) // drop `{"seq":N,`
			journalled = append(journalled, body)
			at = append(at, i)
		}
	}
	var made []report.Report
	var madeJSON [][]byte
	var w Watch
	var p *game.Game
	newGameAt := -1 // the index of the report that began a new game
	observe := func(r report.Report) {
		if w.Observe(&r, p) {
			newGameAt = len(made)
		}
		made = append(made, r)
		madeJSON = append(madeJSON, r.AppendJSON(nil)[1:])
	}
	var err error
	if p, err = game.New(opts, observe); err != nil {
		return nil, fmt.Errorf("journal: replay of game %d: %w", g.Header.Game, err)
	}
	for _, r := range records {
		if r.Kind == KindComment {
			// The move it comments was made before it was noted: the
			// timers due by then fire first.
			p.Advance(r.T)
			_ = p.Annotate(r.Ply, r.Value)
			continue
		}
		if r.Kind != KindInput {
			continue
		}
		if err := p.Input(r.Input); err != nil {
			return nil, fmt.Errorf("journal: replay of game %d: seq %d: %w", g.Header.Game, r.Seq, err)
		}
		rp.Inputs++
	}
	p.Advance(g.LastT)
	pair, lostFrom, diverged, missing := align(madeJSON, journalled)
	rp.Diverged, rp.Missing = diverged, missing
	rp.Lost = made[lostFrom:]
	// The daemon rotates as it journals the report that began a new game,
	// before any other input: if the journal goes on with inputs after it,
	// it holds two games (written by some other means) and is left as it is.
	if newGameAt >= 0 {
		rp.NewGame = true
		if k := pair[newGameAt]; k >= 0 {
			for _, r := range records[at[k]+1:] {
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

// alignWindow is how far align looks ahead for the two lists to agree
// again.
const alignWindow = 64

// align matches the reports a replay made with those journalled, in order:
// equal reports pair off; where they differ, the nearer of a report the
// journal lacks (damaged) or one the replay did not make is passed over; a
// report changed in place counts as diverged. pair gives each made
// report's journalled index (-1: none); the made reports from lostFrom on
// come after everything journalled (lost in a crash).
func align(made, journalled [][]byte) (pair []int, lostFrom, diverged, missing int) {
	pair = make([]int, len(made))
	for i := range pair {
		pair[i] = -1
	}
	i, k := 0, 0
	for i < len(made) && k < len(journalled) {
		if bytes.Equal(made[i], journalled[k]) {
			pair[i] = k
			i, k = i+1, k+1
			continue
		}
		skipped := false
		for d := 1; d <= alignWindow && !skipped; d++ {
			switch {
			case i+d < len(made) && bytes.Equal(made[i+d], journalled[k]):
				missing += d // reports the journal lacks
				i += d
				skipped = true
			case k+d < len(journalled) && bytes.Equal(made[i], journalled[k+d]):
				diverged += d // reports the replay did not make
				k += d
				skipped = true
			}
		}
		if !skipped {
			diverged++ // a report made otherwise
			i, k = i+1, k+1
		}
	}
	diverged += len(journalled) - k
	return pair, i, diverged, missing
}

// SettleHands lets the timers the hands left pending at the end of the
// journal of g fire, as they do in a daemon restarted on the journal once
// its clock runs on: a man set down whose move report a crash tore off is
// made the move it was (the settle time passes). It is for readers of a
// journal no daemon holds (boardd pgn, boardd fen), so that they show the
// game boardd run will restore. It fires only the timers due within the
// longest of the game's gesture and debounce times after the journal's
// last time, so a game clock is not run down.
func (rp *Replayed) SettleHands(g *Game) {
	t := g.Header.Options(game.Options{}).Timing
	within := max(t.Settle, t.QuickSettle, t.OpenWait, t.Jadoube, t.Bump, game.DefaultSettle, game.DefaultOpenWait, game.DefaultJadoube, game.DefaultBump) +
		max(t.Debounce, game.DefaultDebounce)
	p := rp.Game
	for d := p.Deadline(); d != timing.Never && d <= rp.Resume+within; d = p.Deadline() {
		p.Advance(d)
	}
}
