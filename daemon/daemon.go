// Package daemon is the running board: what `boardd run` starts. It reads
// the configuration once, opens the state directory, restores the game in
// progress from its journal (or begins a new one) and runs it through the
// game's door (package game) in real time; it wires the hardware the
// configuration names (scanner, LEDs, buttons, clock displays, or a serial
// board), the web console, the club hall's uplink, systemd's notifications,
// and keeps journalling every input and report so that a crash loses
// nothing. Command-line parsing stays in cmd/boardd.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/serialport"
	"github.com/boardd/boardd/timing"
)

// Options are what `boardd run` was told: its flags, which win over the
// configuration file. Empty strings leave the file's value (or the default).
type Options struct {
	Config      string // configuration file ("": /etc/boardd/boardd.toml if it exists, else none)
	Laws        string // law-set id
	StateDir    string
	Listen      string // the console's address
	TLSCert     string // the console's certificate (PEM): HTTPS
	TLSKey      string // its private key (PEM)
	Sensor      string // sensor wiring
	LED         string // LED wiring
	Hall        string // the club hall's broker URL
	BoardID     string
	TimeControl string
	Tournament  bool
	WarnOnly    bool // irregularities shown and explained, no penalty exacted
	Odds        string
	// NewGame archives a saved game in progress, unfinished, and begins a
	// new game under the configured rules (--new-game); without it a
	// saved game goes on under its own rules, and one whose rules differ
	// from those the flags ask for is refused.
	NewGame bool
	// TrustClock dates games by the wall clock even when nothing says it
	// is synchronised (--trust-clock, or BOARDD_TRUST_CLOCK=1): a machine
	// whose clock is right with no NTP daemon disciplining it.
	TrustClock bool
	LogLevel   string
	Input      string // trace lines to play into the board: a file, a FIFO, or -
	ArchiveCap string // disk space for finished games, e.g. 64MiB
	Emulate    string // a board to answer apps as, and its port: chesslink:PATH
	// Voice is the language boardd speaks in (off, en, de) and
	// VoiceConvention how it says a move (plain, appendix-d): the [voice]
	// section's language and convention.
	Voice, VoiceConvention string
	// Pair plays one game on two boards (Appendix D play): "hall:BOARD"
	// pairs with that board through the hall's broker, "listen:ADDR"
	// waits for the other board on ADDR, "connect:ADDR" connects to it;
	// PairSide is the side played at this board (the other board plays
	// the other).
	Pair, PairSide string
	// VisuallyImpaired names the side whose player at this board is
	// visually impaired (white, black): FIDE's Appendix D reads his hands
	// (the visually_impaired key; fide2023 only).
	VisuallyImpaired string

	// A chess engine playing one side (the [engine] section): its path,
	// side (white, black, random), Elo or Skill Level, limit a move,
	// Polyglot book and clock mode (carried, shown).
	Engine, EngineSide, EngineElo, EngineSkill, EngineLimit, EngineBook, EngineClock string

	// Play on lichess (online.go): resume the account's game in progress,
	// seek a game (minutes+seconds, rated or casual, a colour), accept the
	// challenges of the players named (comma-separated, or "anyone").
	Lichess                   bool
	LichessSeek, LichessColor string
	LichessRated              bool
	LichessAccept             string

	Stdin  io.Reader           // for Input "-"
	Stderr io.Writer           // the log
	Getenv func(string) string // the process environment
}

// UsageError is a fault in the command line or the configuration: boardd
// run exits with status 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the fault.
func (e UsageError) Unwrap() error { return e.Err }

// daemon is the running board: the parts started by Run share it. Each part
// lives in its own file (journal.go, console.go, hardware.go, hall.go, ...).
type daemon struct {
	// engineNotice tells the console's page that the game in progress was
	// played against an engine that no longer runs.
	engineNotice gameNotice

	ctx      context.Context
	o        Options
	cfg      *config.Config // read once at start, the flags laid over it
	cfgPath  string         // the file it was read from ("" for none)
	log      *slog.Logger
	level    *slog.LevelVar // the log level: from the flag, else the config
	stateDir string
	opts     game.Options // the configured game
	game     *game.Game
	runner   *game.Runner
	clock    timing.Clock // real time, carried on from the journal's last time
	journal  *recovery    // the journal's part (journal.go)
	leds     *led.Driver  // shows the game's LEDs, when the configuration wires some
	closers  []func() error
	serial   map[string]*serialport.Board // serial boards by port (serial.go)
	tls      *console.TLS                 // the console's certificate, nil for plain HTTP
	hall     *hallSetup                   // the hall's settings, nil for no hall (hall.go)
	engine   *engine                      // the computer opponent, nil for none (engine.go)
	online   *onlinePlay                  // play on lichess, nil for none (online.go)
	apps     *emulation                   // the board apps drive, nil for none (emulate.go)
	voice    *speech                      // the voice, nil when silent (voice.go)
	paired   *opponent.Match              // the match against the paired board, nil for none (pair.go)
	pairing  *pairing                     // the paired board itself, nil for none (pair.go)

	// lichessOptions, when set (by tests), adjusts the lichess client's
	// options before it is made: its clock and wait, its backoff.
	lichessOptions func(*lichess.Options)
}

// Run runs the board until ctx ends. A fault in the options or the
// configuration is a UsageError; the board's own faults are other errors.
func Run(ctx context.Context, o Options) error {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	level := new(slog.LevelVar)
	if o.LogLevel != "" {
		if err := level.UnmarshalText([]byte(o.LogLevel)); err != nil {
			return UsageError{fmt.Errorf("log level %q: want debug, info, warn or error", o.LogLevel)}
		}
	}
	d := &daemon{ctx: ctx, o: o, level: level, log: slog.New(slog.NewTextHandler(o.Stderr, &slog.HandlerOptions{Level: level}))}
	if err := d.start(); err != nil {
		d.close()
		return err
	}
	err := d.runner.Run(ctx)
	d.log.Info("stopping")
	if cerr := d.close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

func (d *daemon) start() error {
	// The configuration first: it may name the state directory and the log
	// level.
	if err := d.configure(); err != nil {
		return err
	}
	dir, err := StateDir(d.cfg.StateDir, d.o.Getenv)
	if err != nil {
		return UsageError{err}
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("state directory %s: %w", dir, err)
	}
	d.stateDir = dir
	if _, err := game.StartPosition(d.opts); err != nil {
		return UsageError{fmt.Errorf("--odds: %w", err)}
	}
	// Everything the configuration names is read before anything runs:
	// a fault in it stops the start before the console shows its token.
	beyond, errs := checkBeyondFile(d.cfg, d.stateDir, d.o.Getenv, nil)
	if len(errs) > 0 {
		return UsageError{errors.Join(errs...)}
	}
	d.tls, d.hall = beyond.tls, beyond.hall
	// The journal builds the game, replaying the game in progress.
	if err := d.openJournal(); err != nil {
		return err
	}
	d.runner = game.NewRunner(d.game, d.clock)
	d.attachJournal()
	if err := d.startVoice(); err != nil {
		return err
	}
	if err := d.startEngine(); err != nil {
		return err
	}
	if err := d.startOnline(); err != nil {
		return err
	}
	if err := d.startPair(); err != nil {
		return err
	}
	if err := d.startLEDs(); err != nil {
		return err
	}
	if err := d.startEmulation(); err != nil {
		return err
	}
	if err := d.startHardware(); err != nil {
		return err
	}
	if err := d.startClockDisplay(); err != nil {
		return err
	}
	if err := d.startConsole(); err != nil {
		return err
	}
	if err := d.startHall(); err != nil {
		return err
	}
	d.log.Info("boardd running", "laws", d.journal.laws, "state", d.stateDir)
	d.notifyReady()
	return nil
}

func (d *daemon) onClose(fn func() error) { d.closers = append(d.closers, fn) }

func (d *daemon) close() error {
	var errs []error
	for i := len(d.closers) - 1; i >= 0; i-- {
		if err := d.closers[i](); err != nil {
			errs = append(errs, err)
		}
	}
	d.closers = nil
	return errors.Join(errs...)
}

// simulated reports whether the board has no sensors of its own: the
// console's page is the board.
func (d *daemon) simulated() bool {
	return d.cfg.Sensor.Wiring == "" || d.cfg.Sensor.Wiring == config.WiringSim
}

// StateDir picks the state directory: the flag (or the configuration's
// state_dir), else $STATE_DIRECTORY (set by systemd's StateDirectory=), else
// $XDG_STATE_HOME/boardd, else ~/.local/state/boardd.
func StateDir(flagValue string, getenv func(string) string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if v := getenv("STATE_DIRECTORY"); v != "" {
		// systemd may list several, separated by colons; boardd uses the first.
		for i := 0; i < len(v); i++ {
			if v[i] == ':' {
				return v[:i], nil
			}
		}
		return v, nil
	}
	if v := getenv("XDG_STATE_HOME"); v != "" {
		return filepath.Join(v, "boardd"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", fmt.Errorf("no state directory: set --state-dir, $STATE_DIRECTORY, $XDG_STATE_HOME or $HOME")
	}
	return filepath.Join(home, ".local", "state", "boardd"), nil
}
