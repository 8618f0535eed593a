package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/pipeline"
	"github.com/boardd/boardd/sdnotify"
	"github.com/boardd/boardd/timesync"
	"github.com/boardd/boardd/timing"
)

// Environment variables read by the journal part until `boardd run` has
// flags for them (see docs/journal.md).
const (
	envArchiveCap = "BOARDD_ARCHIVE_CAP" // archive size cap: bytes, or with KiB, MiB or GiB
	envInput      = "BOARDD_INPUT"       // trace lines to play into the board: a file, a FIFO, or - for stdin
)

// defaultConfig is the configuration file read when --config is not given.
const defaultConfig = "/etc/boardd/boardd.toml"

// recovery is the journal's part of the running daemon. It is also the
// daemon's clock (d.clock): the game's time goes on from the journal's last
// time, so the part travels from openJournal to attachJournal in it. (A
// `journal *recovery` field in the daemon struct would say so more plainly.)
type recovery struct {
	journal.Clock
	j      *journal.Journal
	rec    *journal.Recorder
	rp     *journal.Replayed // the game restored; nil for a new game
	header journal.Header
	tags   map[string]string // the live game's PGN tags
	level  *slog.LevelVar
	wall   func() (time.Time, bool)
}

// openJournal opens the journal in the state directory and builds d.pipe:
// the game in progress is replayed from the journal in virtual time, or a
// new game's journal begun. The daemon's clock then goes on from the
// journal's last time.
func (d *daemon) openJournal() error {
	// The level in force: --log-level, over the configuration file's
	// log_level (the configuration part resolves the two into the flag).
	rc := &recovery{level: new(slog.LevelVar)}
	if err := rc.level.UnmarshalText([]byte(d.flags.logLevel)); err != nil {
		return usageError{fmt.Errorf("log level %q: want debug, info, warn or error", d.flags.logLevel)}
	}
	// The log level can change on SIGHUP: the daemon logs through a level
	// variable from here on.
	d.log = slog.New(slog.NewTextHandler(d.env.stderr, &slog.HandlerOptions{Level: rc.level}))
	d.opts.Logger = d.log
	capText := d.flags.archiveCap
	if capText == "" {
		capText = d.env.getenv(envArchiveCap)
	}
	capBytes, err := parseSize(capText)
	if err != nil {
		return usageError{fmt.Errorf("$%s: %w", envArchiveCap, err)}
	}
	j, g, err := journal.Open(journal.Options{Dir: d.stateDir, ArchiveCap: capBytes, Logger: d.log})
	if err != nil {
		return err
	}
	rc.j = j
	d.onClose(j.Close)
	checker := timesync.Checker{}
	rc.wall = func() (time.Time, bool) {
		t, err := checker.WallTime()
		return t, err == nil
	}
	// The LED sink (the hardware part's; nil when the console shows the
	// LEDs) sees nothing of the replay, only the game restored.
	sink, err := d.ledSink()
	if err != nil {
		return err
	}
	var resume time.Duration
	if g != nil {
		rc.rp, err = journal.Replay(g, d.opts, sink)
		if err != nil {
			return err
		}
		d.pipe, rc.header, rc.tags, resume = rc.rp.Pipeline, g.Header, rc.rp.Tags, rc.rp.Resume
		game := d.pipe.Game()
		d.log.Info("game restored from the journal", "game", g.Header.Game, "laws", g.Header.Laws,
			"inputs", rc.rp.Inputs, "moves", game.MoveCount(), "seq", g.LastSeq, "t", resume, "torn_tail", g.Torn())
		if rc.rp.Diverged > 0 {
			d.log.Warn("the replay judged differently from the journal (written by another version of boardd?)", "reports", rc.rp.Diverged)
		}
		if len(rc.rp.Lost) > 0 {
			d.log.Info("reports the crash had lost were made again", "reports", len(rc.rp.Lost))
		}
		if !rc.rp.NewGame && game.MoveCount() == 0 && game.Result() == nil && game.Pending() == nil && !g.Header.SameRules(d.opts) {
			// Not a move played yet, and the configuration changed: the
			// game begins afresh under the new rules, the board as it stands.
			d.log.Info("the game not yet begun takes the new configuration", "game", g.Header.Game, "laws", d.opts.Laws, "was", g.Header.Laws)
			occ := d.pipe.Recogniser().Occupancy()
			rc.rp = nil
			if err := d.beginGame(rc, sink, resume, &occ, j.Restart); err != nil {
				return err
			}
		} else if !g.Header.SameRules(d.opts) {
			d.log.Info("the game in progress keeps its rules; a changed configuration applies when boardd starts before a game's first move",
				"game", g.Header.Game, "laws", g.Header.Laws, "configured_laws", d.opts.Laws)
		}
	} else if err := d.beginGame(rc, sink, 0, nil, j.Begin); err != nil {
		return err
	}
	rc.Clock = journal.Clock{Base: timing.NewReal(), Offset: resume}
	d.clock = rc
	return nil
}

// beginGame opens the journal of a new game at time t with begin (Begin, or
// Restart for a game not yet begun) under the configured options, the board
// reading occ (nil: the start position), and builds its pipeline.
func (d *daemon) beginGame(rc *recovery, sink led.Sink, t time.Duration, occ *board.Occupancy, begin func(time.Duration, journal.Header) (journal.Header, error)) error {
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
		if p, err := pipeline.New(h.Options(d.opts), nil, nil); err == nil {
			if pos := p.Game().Position(); pos.Occupancy() != *occ {
				h.Physical = occ
			}
		}
	}
	var err error
	if rc.header, err = begin(t, h); err != nil {
		return err
	}
	popts := rc.header.Options(d.opts)
	rc.tags = popts.Tags
	if d.pipe, err = pipeline.New(popts, sink, nil); err != nil {
		return err
	}
	if t > 0 {
		d.pipe.Advance(t)
	}
	d.log.Info("new game", "game", rc.header.Game, "laws", rc.header.Laws, "date", opts.Tags["Date"], "seq", rc.j.Seq())
	return nil
}

// attachJournal journals every input and report from now on, and finishes
// a restore: reports the crash lost are journalled, a rotation owed is made,
// and the LEDs show the game.
func (d *daemon) attachJournal() {
	rc, ok := d.clock.(*recovery)
	if !ok {
		d.log.Error("journal: the daemon's clock was replaced; the game is not being saved")
		return
	}
	rc.rec = journal.NewRecorder(rc.j, journal.RecorderOptions{
		Game: d.pipe.Game, Occupancy: d.pipe.Recogniser().Occupancy,
		Header: rc.header, Tags: rc.tags, Wall: rc.wall, Logger: d.log,
	})
	d.runner.OnInput(rc.rec.Input)
	d.runner.OnReport(rc.rec.Report)
	if rc.rp != nil {
		// The runner's loop has not started: this goroutine may touch the
		// pipeline.
		rc.rec.Restored(rc.rp, rc.rp.Resume)
		if err := rc.rp.Live(rc.rp.Resume); err != nil {
			d.log.Warn("led sink", "err", err)
		}
	}
}

// notifyReady tells systemd the daemon is ready, pings its watchdog while
// the runner's loop answers, reloads on SIGHUP, and starts the input given
// by $BOARDD_INPUT. Stopping tells systemd first.
func (d *daemon) notifyReady() {
	n := sdnotify.New(d.env.getenv)
	ctx, cancel := context.WithCancel(d.ctx)
	var wg sync.WaitGroup
	if err := n.Ready(d.status()); err != nil {
		d.log.Warn("systemd", "err", err)
	}
	if interval, ok := sdnotify.WatchdogInterval(d.env.getenv, os.Getpid()); ok {
		ticker := time.NewTicker(interval / 2)
		alive := func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, interval/2)
			defer cancel()
			return d.runner.Do(ctx, func(*pipeline.Pipeline, time.Duration) {})
		}
		wg.Go(func() {
			defer ticker.Stop()
			n.KeepAlive(ctx, ticker.C, alive, func(err error) { d.log.Warn("systemd watchdog", "err", err) })
		})
		d.log.Debug("systemd watchdog", "timeout", interval)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				d.reload(n)
			}
		}
	})
	path := d.flags.input
	if path == "" {
		path = d.env.getenv(envInput)
	}
	if path != "" {
		go d.feedInput(ctx, path) // not waited for: it may be blocked opening a FIFO
	}
	d.onClose(func() error {
		err := n.Stopping()
		signal.Stop(hup)
		cancel()
		wg.Wait()
		return errors.Join(err, n.Close())
	})
}

// status is the service's status line for systemd.
func (d *daemon) status() string {
	rc, ok := d.clock.(*recovery)
	if !ok {
		return "running"
	}
	return fmt.Sprintf("game %d (%s), state %s", rc.rec.Header().Game, rc.rec.Header().Laws, d.stateDir)
}

// reload applies what can change safely while a game is in progress: the
// log level, from the configuration file's log_level (which a SIGHUP puts
// in force over --log-level). Everything else applies from the next start.
func (d *daemon) reload(n *sdnotify.Notifier) {
	rc, ok := d.clock.(*recovery)
	if !ok {
		return
	}
	if err := n.Reloading(); err != nil {
		d.log.Warn("systemd", "err", err)
	}
	path, level, err := configLogLevel(d.flags.config)
	switch {
	case err != nil:
		d.log.Error("reload: configuration not read; nothing changed", "config", path, "err", err)
	case level == "":
		d.log.Info("reload: no log_level in the configuration; nothing changed", "config", path)
	default:
		if lerr := rc.level.UnmarshalText([]byte(level)); lerr != nil {
			d.log.Error("reload: log level not changed", "config", path, "log_level", level, "err", "want debug, info, warn or error")
		} else {
			d.log.Info("reloaded", "config", path, "log_level", rc.level.Level().String())
		}
	}
	if err := n.Ready(d.status()); err != nil {
		d.log.Warn("systemd", "err", err)
	}
}

// configLogLevel reads log_level from the configuration file (flag, or the
// default file if it exists). It returns "" when there is none.
func configLogLevel(flagValue string) (path, level string, err error) {
	path = flagValue
	if path == "" {
		path = defaultConfig
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if flagValue == "" && errors.Is(err, fs.ErrNotExist) {
			return "", "", nil
		}
		return path, "", err
	}
	var c struct {
		LogLevel string `toml:"log_level"`
	}
	if err := toml.Unmarshal(data, &c); err != nil {
		return path, "", err
	}
	return path, c.LogLevel, nil
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
// hall forwards records from a sequence number with ReadFrom), or nil.
func (d *daemon) gameJournal() *journal.Journal {
	if rc, ok := d.clock.(*recovery); ok {
		return rc.j
	}
	return nil
}
