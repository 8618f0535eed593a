package journal

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// UnknownDate is the PGN date of a game played before the clock was
// synchronised.
const UnknownDate = "????.??.??"

// Recorder journals a running game. Register Input and Report with the
// runner (game.Runner.OnInput and OnReport): both run on the runner's
// loop goroutine, where the game may be read. It rotates the journal when a
// finished game gives way to a new one, keeps current.pgn and current.fen up
// to date, dates the game once the clock is synchronised, and shows on the
// game (Game.SetJournalFault, the LEDs' fault corners) whether the journal
// is behind.
type Recorder struct {
	mu     sync.Mutex // guards header, which Header reads from other goroutines
	j      *Journal
	game   func() *game.Game
	occ    func() board.Occupancy
	header Header
	wall   func() (time.Time, bool)
	log    *slog.Logger
	watch  Watch
	// derivedFailed: current.pgn or current.fen could not be written (a
	// fault of their own, logged apart from the journal's).
	derivedFailed bool
}

// RecorderOptions configure a Recorder.
type RecorderOptions struct {
	// Game returns the live game; it is read on the loop goroutine only.
	Game func() *game.Game
	// Header is the current game's header, as begun or read back.
	Header Header
	// Occupancy returns what the board reads now (the recogniser's
	// occupancy): a new game's journal records it when it differs from the
	// start position, so its replay sees the board as it stood.
	Occupancy func() board.Occupancy
	// Wall returns the wall-clock time and whether the clock is
	// synchronised (nil: never).
	Wall func() (time.Time, bool)
	// Logger gets journal errors; nil discards.
	Logger *slog.Logger
}

// NewRecorder returns a recorder appending to j.
func NewRecorder(j *Journal, o RecorderOptions) *Recorder {
	if o.Wall == nil {
		o.Wall = func() (time.Time, bool) { return time.Time{}, false }
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Recorder{j: j, game: o.Game, occ: o.Occupancy, header: o.Header, wall: o.Wall, log: o.Logger}
}

// Header returns the current game's header (a copy: safe from any
// goroutine).
func (r *Recorder) Header() Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := r.header
	h.Tags = make(map[string]string, len(r.header.Tags))
	for k, v := range r.header.Tags {
		h.Tags[k] = v
	}
	return h
}

// Input journals an input before it is applied. An arbiter's new-game
// action ends the game in progress: the journal rotates first, and the
// action opens the new game's journal. A player named (game.ActionNameWhite,
// ActionNameBlack) stays named in the next game's header.
func (r *Recorder) Input(l trace.Line) {
	if l.Kind == trace.Arbiter && l.Action == trace.ActionNewGame {
		if g := r.game(); g.Snapshot().Moves > 0 || g.Snapshot().Result != nil {
			r.watch.pgn = g.PGN()
			r.rotate(l.T)
		}
	}
	r.j.AppendInput(l)
	r.showFault()
	if tag, ok := game.NameTag(l.Action); ok && l.Kind == trace.Arbiter && r.game().CheckName(l.Action, l.Value) == nil {
		// A player named from the console keeps the name in the games that
		// follow, as the configuration's names do: the next header has it.
		v := l.Value
		if v == "" {
			v = "?"
		}
		r.mu.Lock()
		r.header.Tags[tag] = v
		r.mu.Unlock()
	}
}

// Report journals a report (syncing at moves, rulings, irregularities and
// results), and rotates when a new game begins.
func (r *Recorder) Report(rep report.Report) {
	r.j.AppendReport(&rep)
	r.showFault()
	g := r.game()
	if r.watch.Observe(&rep, g) {
		r.rotate(rep.T)
		return
	}
	if report.Durable(rep.Type) || rep.Type == report.Synced {
		if rep.Type == report.Move {
			r.learnDate(rep.T)
		}
		r.writeCurrent(g)
	}
}

// Restored tells the recorder what the replay found: reports it remade that
// the journal had lost are journalled, and a rotation owed is made at t.
func (r *Recorder) Restored(rp *Replayed, t time.Duration) {
	for i := range rp.Lost {
		r.j.AppendReport(&rp.Lost[i])
	}
	if rp.NewGame {
		r.watch.pgn = rp.FinishedPGN
		r.rotate(t)
		return
	}
	g := r.game()
	if g.Snapshot().Result != nil {
		r.watch.finished, r.watch.pgn = true, g.PGN()
	}
	r.j.Sync()
	r.showFault()
	r.writeCurrent(g)
}

// Tick retries what the journal could not write, and the archiving of a
// finished game that failed, at game time t; the daemon calls it every
// second or so while the journal has work pending (Journal.Pending). It
// runs on the loop goroutine.
func (r *Recorder) Tick(t time.Duration) {
	r.j.Retry(t)
	r.showFault()
}

// showFault shows on the game whether the journal is behind.
func (r *Recorder) showFault() {
	r.game().SetJournalFault(r.j.Fault() != nil)
}

func (r *Recorder) rotate(t time.Duration) {
	g := r.game()
	next := r.header
	next.Laws = g.Laws().ID      // an arbiter may have changed it during the game
	next.WarnOnly = g.WarnOnly() // and warn-only, between games
	// The sides played from off the board stay so in the next game; its
	// journal says so from its header.
	next.Remote = RemoteSides(g.Snapshot().Remote)
	next.Physical = nil
	if r.occ != nil {
		if occ, start := r.occ(), r.startOccupancy(next); occ != start {
			next.Physical = &occ
		}
	}
	next.Tags = make(map[string]string, len(r.header.Tags))
	for k, v := range r.header.Tags {
		next.Tags[k] = v
	}
	next.Started, next.Tags["Date"] = time.Time{}, UnknownDate
	if now, ok := r.wall(); ok {
		next.Started, next.Tags["Date"] = now, now.Format("2006.01.02")
	}
	g.SetTag("Date", next.Tags["Date"])
	h, err := r.j.Rotate(t, r.watch.FinishedPGN(), next)
	r.showFault()
	if err != nil {
		r.log.Error("journal: the new game could not be begun in the journal", "err", err)
	} else {
		r.mu.Lock()
		r.header = h
		r.mu.Unlock()
	}
	r.watch.finished = false
	r.writeCurrent(g)
}

// learnDate dates a game begun before the clock was synchronised, once it
// is: the start is taken as now less the game time since the header.
func (r *Recorder) learnDate(t time.Duration) {
	if d, ok := r.header.Tags["Date"]; ok && d != UnknownDate {
		return
	}
	now, ok := r.wall()
	if !ok {
		return
	}
	start := now.Add(-(t - r.headerT()))
	date := start.Format("2006.01.02")
	if err := r.j.AppendTag(t, "Date", date); errors.Is(err, ErrBacklogFull) {
		r.showFault()
		return
	}
	r.mu.Lock()
	r.header.Tags["Date"] = date
	r.mu.Unlock()
	r.game().SetTag("Date", date)
}

// SetTag sets a PGN tag of the game in progress at game time t (the names
// of the players of a game against an engine, say): it is journalled, so
// that the journal's replay and its PGN have it, kept for the games that
// follow (the next header carries it), and set on the live game. It runs
// on the loop goroutine. It fails only when the journal's backlog is full:
// nothing is changed then.
func (r *Recorder) SetTag(t time.Duration, tag, value string) error {
	if err := r.j.AppendTag(t, tag, value); errors.Is(err, ErrBacklogFull) {
		r.showFault()
		return err
	}
	r.mu.Lock()
	r.header.Tags[tag] = value
	r.mu.Unlock()
	g := r.game()
	g.SetTag(tag, value)
	r.showFault()
	r.writeCurrent(g)
	return nil
}

// Comment notes a comment at the move at ply of the game in progress, at
// game time t (a chess engine's evaluation of its move): it is journalled,
// so that the journal's replay and its PGN have it, and noted in the live
// game. It runs on the loop goroutine. It fails when the game has no such
// move, or the journal's backlog is full: nothing is changed then.
func (r *Recorder) Comment(t time.Duration, ply int, comment string) error {
	g := r.game()
	if ply < 0 || ply >= g.Snapshot().Moves {
		return fmt.Errorf("journal: comment at move %d: the game has %d moves", ply, g.Snapshot().Moves)
	}
	if err := r.j.AppendComment(t, ply, comment); errors.Is(err, ErrBacklogFull) {
		r.showFault()
		return err
	}
	if err := g.Annotate(ply, comment); err != nil {
		return err
	}
	r.showFault()
	r.writeCurrent(g)
	return nil
}

// startOccupancy is where the men stand at the start of a game with header
// h.
func (r *Recorder) startOccupancy(h Header) board.Occupancy {
	pos, err := game.StartPosition(h.Options(game.Options{}))
	if err != nil {
		pos = board.Start()
	}
	return pos.Occupancy()
}

func (r *Recorder) writeCurrent(g *game.Game) {
	pos := g.Snapshot().Position
	err := r.j.WriteCurrent(g.PGN(), pos.FEN())
	switch {
	case err != nil && !r.derivedFailed:
		r.log.Warn("journal: current.pgn and current.fen not updated (the journal is not concerned)", "err", err)
	case err == nil && r.derivedFailed:
		r.log.Info("journal: current.pgn and current.fen updated again")
	}
	r.derivedFailed = err != nil
}

func (r *Recorder) headerT() time.Duration { return r.j.headerT() }
