package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/timesync"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Environment variables the journal part reads when the flags say nothing
// (see docs/journal.md).
const (
	envArchiveCap = "BOARDD_ARCHIVE_CAP" // archive size cap: bytes, or with KiB, MiB or GiB
	envInput      = "BOARDD_INPUT"       // trace lines to play into the board: a file, a FIFO, or - for stdin
	envTrustClock = "BOARDD_TRUST_CLOCK" // 1: the wall clock is right (--trust-clock)
)

// recovery is the journal's part of the running daemon: the journal of the
// game in progress, its recorder, and what the restart restored.
type recovery struct {
	j      *journal.Journal
	rec    *journal.Recorder
	rp     *journal.Replayed // the game restored; nil for a new game
	header journal.Header
	wall   func() (time.Time, bool)
	// laws is the law-set in force once the journal is open: the game's,
	// restored or new (an arbiter may have changed a restored game's).
	laws string
}

// openJournal opens the journal in the state directory and builds d.game:
// the game in progress is replayed from the journal in virtual time, or a
// new game's journal begun. The daemon's clock then goes on from the
// journal's last time.
func (d *daemon) openJournal() error {
	capText := d.o.ArchiveCap
	if capText == "" {
		capText = d.o.Getenv(envArchiveCap)
	}
	capBytes, err := parseSize(capText)
	if err != nil {
		return UsageError{fmt.Errorf("archive cap: %w", err)}
	}
	j, g, err := journal.Open(journal.Options{Dir: d.stateDir, ArchiveCap: capBytes, Logger: d.log})
	if err != nil {
		return err
	}
	rc := &recovery{j: j}
	d.journal = rc
	d.onClose(j.Close)
	checker := timesync.Checker{Trusted: d.o.TrustClock || d.o.Getenv(envTrustClock) == "1"}
	if why := checker.Why(); why != "" {
		d.log.Info("games are dated "+journal.UnknownDate+" until the wall clock is known to be right; on a machine whose clock is set, give --trust-clock",
			"why", why)
	}
	rc.wall = func() (time.Time, bool) {
		t, err := checker.WallTime()
		return t, err == nil
	}
	var resume time.Duration
	if g != nil {
		if resume, err = d.restore(rc, g); err != nil {
			return err
		}
	} else if err := d.beginGame(rc, 0, nil, j.Begin); err != nil {
		return err
	}
	d.clock = journal.Clock{Base: timing.NewReal(), Offset: resume}
	rc.laws = d.game.Laws().ID
	return nil
}

// ruleConflicts names each rule the command line's flags ask for that the
// saved game in progress, under way under rules of its own, is not played
// under: "--laws nycc, and it is under fide2023". Rules from the
// configuration file alone never conflict: the game in progress keeps its
// own (restore says so).
func (d *daemon) ruleConflicts(h journal.Header, inForce string) []string {
	var out []string
	if d.o.Laws != "" && d.o.Laws != inForce {
		out = append(out, fmt.Sprintf("--laws %s, and it is under %s", d.o.Laws, inForce))
	}
	if d.o.TimeControl != "" && d.o.TimeControl != h.TimeControl {
		was := h.TimeControl
		if was == "" {
			was = "no clock"
		}
		out = append(out, fmt.Sprintf("--time-control %s, and it has %s", d.o.TimeControl, was))
	}
	if d.o.Odds != "" && d.o.Odds != h.Odds {
		was := h.Odds
		if was == "" {
			was = "no odds"
		}
		out = append(out, fmt.Sprintf("--odds %s, and it is played at %s", d.o.Odds, was))
	}
	if d.o.VisuallyImpaired != "" && d.o.VisuallyImpaired != h.VisuallyImpaired {
		was := h.VisuallyImpaired
		if was == "" {
			was = "neither"
		}
		out = append(out, fmt.Sprintf("--visually-impaired %s, and its visually impaired side is %s", d.o.VisuallyImpaired, was))
	}
	if d.o.Tournament && !h.Tournament {
		out = append(out, "--tournament, and it is not in tournament mode")
	}
	if d.o.Tournament && h.WarnOnly {
		out = append(out, "--tournament, and it is played warn-only (a tournament exacts every penalty)")
	}
	if d.o.WarnOnly && !h.WarnOnly {
		out = append(out, "--warn-only, and it exacts its penalties")
	}
	return out
}

// restore replays the game in progress from its journal g and returns the
// time the game goes on from. A game with no move yet whose rules the
// configuration has changed begins afresh under the new rules; a game under
// way keeps its own, and is refused (a UsageError) when the command line's
// flags ask for others, unless --new-game archives it and begins anew.
func (d *daemon) restore(rc *recovery, g *journal.Game) (time.Duration, error) {
	rp, err := journal.Replay(g, d.opts)
	if err != nil {
		return 0, err
	}
	rc.rp, rc.header, d.game = rp, g.Header, rp.Game
	resume := rp.Resume
	snap := d.game.Snapshot()
	d.log.Info("game restored from the journal", "game", g.Header.Game, "laws", d.game.Laws().ID,
		"inputs", rp.Inputs, "moves", snap.Moves, "seq", g.LastSeq, "t", resume, "torn_tail", g.Torn())
	if len(g.Damaged) > 0 || g.Repaired > 0 {
		d.log.Warn("the journal was damaged", "file", g.Path, "records_repaired", g.Repaired, "records_lost", len(g.Damaged),
			"inputs_put_back_from_the_reports", len(rp.Reconstructed), "inputs_not_recovered", rp.Unrecovered)
	}
	for _, l := range rp.Reconstructed {
		d.log.Warn("a damaged input was put back from the reports that follow it", "input", strings.TrimSpace(string(trace.Append(nil, l))))
	}
	if rp.Diverged > 0 {
		d.log.Warn("the replay judged differently from the journal (written by another version of boardd, or an input lost to damage)", "reports", rp.Diverged)
	}
	if rp.Missing > 0 {
		d.log.Warn("reports lost to damage in the journal's middle were made again by the replay (not journalled again)", "reports", rp.Missing)
	}
	if len(rp.Lost) > 0 {
		d.log.Info("reports the crash had lost were made again", "reports", len(rp.Lost))
	}
	// The law-set in force is the game's own: its header's, or the one an
	// arbiter changed it to during the game.
	inForce := d.game.Laws().ID
	h := g.Header
	h.Laws = inForce
	underway := !rp.NewGame && (snap.Moves > 0 || snap.Result != nil || snap.Pending != nil)
	switch {
	case d.o.NewGame && underway:
		// Asked for: the game in progress is archived unfinished and a new
		// one begins under the configured rules, the board as it stands.
		occ := snap.Occupancy
		pgn := d.game.PGN()
		rotate := func(t time.Duration, h journal.Header) (journal.Header, error) { return rc.j.Rotate(t, pgn, h) }
		if err := d.beginGame(rc, resume, &occ, rotate); err != nil {
			return 0, fmt.Errorf("--new-game: the game in progress could not be archived: %w", err)
		}
		d.log.Warn("--new-game: the game in progress was archived unfinished; a new game begins",
			"archived_game", g.Header.Game, "archived_laws", inForce, "moves", snap.Moves, "game", rc.header.Game, "laws", rc.header.Laws)
		rc.rp = nil
	case h.SameRules(d.opts):
	case !underway && !rp.NewGame:
		// Not a move played yet, and the configuration changed: the game
		// begins afresh under the new rules, the board as it stands.
		d.log.Info("the game not yet begun takes the new configuration", "game", g.Header.Game, "laws", d.opts.Laws, "was", g.Header.Laws)
		occ := snap.Occupancy
		saved := d.game
		if err := d.beginGame(rc, resume, &occ, rc.j.Restart); err != nil {
			var usage UsageError
			if errors.As(err, &usage) {
				return 0, err
			}
			// The journal could not begin afresh (it is behind): the game
			// keeps its rules.
			d.log.Warn("the game keeps its rules", "game", g.Header.Game, "err", err)
			rc.header, d.game = g.Header, saved
			break
		}
		rc.rp = nil
	default:
		if conflicts := d.ruleConflicts(g.Header, inForce); len(conflicts) > 0 && underway {
			moves := fmt.Sprintf("%d moves", snap.Moves)
			if snap.Moves == 1 {
				moves = "1 move"
			}
			return 0, UsageError{fmt.Errorf("the saved game %d in %s (%s) is not played under the rules asked for: %s. "+
				"Run without those flags to go on with it, or add --new-game to archive it unfinished and begin a new game under them",
				g.Header.Game, d.stateDir, moves, strings.Join(conflicts, "; "))}
		}
		d.log.Warn("the game in progress keeps its rules, not the configuration's: they apply from the next game (or now with boardd run --new-game)",
			"game", g.Header.Game, "laws", inForce, "configured_laws", d.opts.Laws,
			"time_control", g.Header.TimeControl, "configured_time_control", d.opts.TimeControl)
	}
	return resume, nil
}

// beginGame opens the journal of a new game at time t with begin (Begin, or
// Restart for a game not yet begun) under the configured options, the board
// reading occ (nil: the start position), and builds its game.
func (d *daemon) beginGame(rc *recovery, t time.Duration, occ *board.Occupancy, begin func(time.Duration, journal.Header) (journal.Header, error)) error {
	opts := d.opts
	opts.Tags = map[string]string{}
	for k, v := range d.opts.Tags {
		opts.Tags[k] = v
	}
	now, synced := rc.wall()
	opts.Tags["Date"] = journal.UnknownDate
	var started time.Time
	if synced {
		opts.Tags["Date"], started = now.Format("2006.01.02"), now
	}
	h := journal.NewHeader(rc.j.Game(), opts, started)
	if occ != nil {
		start, err := game.StartPosition(h.Options(d.opts))
		if err != nil {
			return UsageError{err}
		}
		if start.Occupancy() != *occ {
			h.Physical = occ
		}
	}
	var err error
	if rc.header, err = begin(t, h); err != nil {
		return err
	}
	if d.game, err = game.New(rc.header.Options(d.opts), nil); err != nil {
		return err
	}
	if t > 0 {
		d.game.Advance(t)
	}
	d.log.Info("new game", "game", rc.header.Game, "laws", rc.header.Laws, "date", opts.Tags["Date"], "seq", rc.j.Seq())
	return nil
}

// attachJournal journals every input and report from now on, and finishes
// a restore: reports the crash lost are journalled and a rotation owed is
// made.
func (d *daemon) attachJournal() {
	rc := d.journal
	g := d.game
	rc.rec = journal.NewRecorder(rc.j, journal.RecorderOptions{
		Game:      func() *game.Game { return g },
		Occupancy: func() board.Occupancy { return g.Snapshot().Occupancy },
		Header:    rc.header, Wall: rc.wall, Logger: d.log,
	})
	d.runner.OnInput(rc.rec.Input)
	d.runner.OnReport(rc.rec.Report)
	if rc.rp != nil {
		// The runner's loop has not started: this goroutine may touch the
		// game.
		rc.rec.Restored(rc.rp, rc.rp.Resume)
	} else {
		rc.rec.Tick(d.game.Now()) // a journal that could not be begun shows its fault
	}
	// What the journal could not write, and a finished game it could not
	// archive, are retried every second while there are any.
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(time.Second)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				if rc.j.Pending() {
					_ = d.runner.Do(ctx, func(_ *game.Game, now time.Duration) { rc.rec.Tick(now) })
				}
			}
		}
	}()
	d.onClose(func() error {
		cancel()
		<-done
		return nil
	})
}

// parseSize reads a size in bytes, with an optional KiB, MiB or GiB; empty
// is zero (the default).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q: want a number of bytes, KiB, MiB or GiB, e.g. 64MiB", s)
	}
	return n * mult, nil
}

// gameJournal returns the open journal, for the parts that read it (the
// hall forwards records from a sequence number with ReadFrom).
func (d *daemon) gameJournal() *journal.Journal { return d.journal.j }
