package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/pipeline"
	"github.com/boardd/boardd/serialport"
	"github.com/boardd/boardd/timing"
)

// runFlags are the flags of `boardd run`; the parts of the daemon read them.
type runFlags struct {
	config      string
	laws        string
	stateDir    string
	listen      string
	sensor      string
	led         string
	hall        string
	boardID     string
	timeControl string
	tournament  bool
	odds        string
	logLevel    string
	input       string
	archiveCap  string
}

// daemon is the running board: the parts started by `boardd run` share it.
// Each part lives in its own file (run_journal.go, run_console.go,
// run_hardware.go, run_hall.go).
type daemon struct {
	ctx      context.Context
	env      *environment
	log      *slog.Logger
	level    *slog.LevelVar // the log level: from the flag, else the config
	flags    *runFlags
	stateDir string
	opts     pipeline.Options
	pipe     *pipeline.Pipeline
	runner   *pipeline.Runner
	clock    timing.Clock
	closers  []func() error
	serial   map[string]*serialport.Board // serial boards by port (run_serial.go)
}

func runDaemon(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	f := &runFlags{}
	fs.StringVar(&f.config, "config", "", "configuration file (default /etc/boardd/boardd.toml if it exists; none: a simulated board)")
	fs.StringVar(&f.laws, "laws", "", "law-set id: "+lawIDs()+" (default from the config, else fide2023)")
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory (default $STATE_DIRECTORY, else $XDG_STATE_HOME/boardd, else ~/.local/state/boardd)")
	fs.StringVar(&f.listen, "listen", "", "console address (default 127.0.0.1:8080)")
	fs.StringVar(&f.sensor, "sensor", "", "sensor driver: sim, none, serial:SPEC, hc165, mcp23017, matrix, mcp3008 or mcp3208 (default from the config, else sim)")
	fs.StringVar(&f.led, "led", "", "LED driver: none, sim, serial:SPEC, ws2812, sk6812, apa102, max7219 or ht16k33 (default from the config, else none)")
	fs.StringVar(&f.hall, "hall", "", "club hall broker, mqtt://host:port (default: no hall)")
	fs.StringVar(&f.boardID, "board-id", "", "this board's id in the hall (default the host name)")
	fs.StringVar(&f.timeControl, "time-control", "", "time control, e.g. 40/5400+30:1800+30, or a preset (default: no clock)")
	fs.BoolVar(&f.tournament, "tournament", false, "tournament mode: the arbiter exacts every penalty, nobody may waive one")
	fs.StringVar(&f.odds, "odds", "", "a game at odds: the men given (squares, or pawn, knight, rook, queen, pawn-and-move), comma-separated; add 'move' to give the move too")
	fs.StringVar(&f.logLevel, "log-level", "", "log level: debug, info, warn or error (default from the config, else info)")
	fs.StringVar(&f.input, "input", "", "play trace lines into the board from FILE, a FIFO, or - for standard input (a rig, a demonstration)")
	fs.StringVar(&f.archiveCap, "archive-cap", "", "disk space for finished games, e.g. 64MiB (default 64MiB)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level := new(slog.LevelVar)
	if f.logLevel != "" {
		if err := level.UnmarshalText([]byte(f.logLevel)); err != nil {
			fmt.Fprintf(env.stderr, "boardd: log level %q: want debug, info, warn or error\n", f.logLevel)
			return 2
		}
	}
	logger := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))
	d := &daemon{ctx: ctx, env: env, log: logger, level: level, flags: f}
	if err := d.start(); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(env.stderr, "boardd: %v\n", err)
			d.close()
			return 2
		}
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		d.close()
		return 1
	}
	err := d.runner.Run(ctx)
	d.log.Info("stopping")
	if cerr := d.close(); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 1
	}
	return 0
}

// usageError is a fault in the command line or configuration: exit status 2.
type usageError struct{ error }

func (d *daemon) start() error {
	// The configuration first: it may name the state directory and the log
	// level.
	if err := d.configure(); err != nil {
		return err
	}
	if d.flags.logLevel != "" {
		if err := d.level.UnmarshalText([]byte(d.flags.logLevel)); err != nil {
			return usageError{fmt.Errorf("log level %q: want debug, info, warn or error", d.flags.logLevel)}
		}
	}
	dir, err := stateDir(d.flags.stateDir, d.env.getenv)
	if err != nil {
		return usageError{err}
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("state directory %s: %w", dir, err)
	}
	d.stateDir = dir
	ls, err := arbiter.Lookup(d.opts.Laws)
	if err != nil {
		return usageError{err}
	}
	if d.opts.Odds != "" {
		if _, err := arbiter.NewGame(arbiter.Options{Laws: ls, Odds: d.opts.Odds}); err != nil {
			return usageError{fmt.Errorf("--odds: %w", err)}
		}
	}
	d.clock = timing.NewReal()
	// The journal builds the pipeline, replaying the game in progress.
	if err := d.openJournal(); err != nil {
		return err
	}
	d.runner = pipeline.NewRunner(d.pipe, d.clock)
	d.attachJournal()
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
	d.log.Info("boardd running", "laws", d.opts.Laws, "state", d.stateDir)
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

// stateDir picks the state directory: the flag, else $STATE_DIRECTORY (set by
// systemd's StateDirectory=), else $XDG_STATE_HOME/boardd, else
// ~/.local/state/boardd.
func stateDir(flagValue string, getenv func(string) string) (string, error) {
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
