package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/trace"
	"github.com/boardd/boardd/wiring"
)

func runReplay(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "replay",
		usage: []string{"replay [flags] [--trace FILE | --trace -]"},
		about: "Runs a trace (docs/trace-format.md: lifts, placements, frames, analogue frames, presses, choices, each with its time) through the whole game in virtual time, as fast as it can, and prints one JSON line per decision: touches, adjustments, moves, irregularities with the options the law gives, rulings, mismatches, results, and a last end line with the FEN and the PGN. The trace's own head comments `# laws: ID` and `# flags: ...` apply where the command line leaves the law-set or those flags unset.",
		groups: []flagGroup{
			{"The game", []string{"laws", "time-control", "tournament", "warn-only", "odds", "visually-impaired"}},
			{"Input and logs", []string{"trace", "calibration", "log-level"}},
		},
		examples: []string{
			"boardd replay --laws sarratt1808 --trace testdata/laws/sarratt1808-false-castling.trace",
			`printf '{"t":0,"lift":"e2"}\n{"t":400,"place":"e4"}\n' | boardd replay --trace -`,
			"boardd replay --laws hastings1895 --time-control hastings1895 --trace clock/testdata/hastings-forfeit.trace",
			"boardd replay --calibration testdata/analog/board.calibration.json --trace testdata/analog/opening.trace",
		},
		exit: "Exit status: 0 when the trace is played to its end; 2 for a bad command line or a malformed trace line (boardd: trace line N: ...).",
	}
	fs := h.flags()
	laws := fs.String("laws", "fide2023", "law-set id: "+lawIDs()+"; without it, the trace's # laws: line names it")
	tracePath := fs.String("trace", "-", "trace file to replay, or - for standard input")
	calPath := fs.String("calibration", "", "calibration file to read the trace's analogue frames through, as boardd run reads an analogue board (default: the one the trace's first line names, relative to the trace's directory; none: the occupancy recorded with the levels)")
	tournament := fs.Bool("tournament", false, "tournament mode: the arbiter exacts every penalty, nobody may waive one")
	warnOnly := fs.Bool("warn-only", false, "warn-only: each irregularity is shown and explained with its law, no penalty exacted (an illegal move is still set back); never with --tournament")
	timeControl := fs.String("time-control", "", "time control: "+clock.Syntax)
	odds := fs.String("odds", "", "a game at odds: the men given (squares, or pawn, knight, rook, queen, pawn-and-move), comma-separated; add 'move' to give the move too")
	visuallyImpaired := fs.String("visually-impaired", "", "white or black: the side whose player is visually impaired, his lifts touches and his moves made once announced by FIDE's Appendix D (fide2023:D.2.2, D.2.3); fide2023 only")
	logLevel := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	var in io.Reader = env.stdin
	if *tracePath != "-" {
		f, err := os.Open(*tracePath)
		if err != nil {
			fmt.Fprintf(env.stderr, "boardd: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	// The trace's own `# laws:` and `# flags:` lines say how to replay it
	// where the command line does not.
	directives, in, err := trace.ReadDirectives(in)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %s: %v\n", *tracePath, err)
		return 2
	}
	if err := applyDirectives(fs, directives); err != nil {
		fmt.Fprintf(env.stderr, "boardd: %s: %v\n", *tracePath, err)
		return 2
	}
	if _, err := lawset.Lookup(*laws); err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	if *warnOnly && *tournament {
		fmt.Fprintln(env.stderr, "boardd: --warn-only and --tournament together: a tournament exacts every penalty, warn-only none; give one")
		return 2
	}
	if *timeControl != "" {
		if _, err := clock.Parse(*timeControl); err != nil {
			fmt.Fprintf(env.stderr, "boardd: --time-control: %v\n", err)
			return 2
		}
	}
	if err := checkVisuallyImpaired(*visuallyImpaired, *laws); err != nil {
		fmt.Fprintf(env.stderr, "boardd: --visually-impaired: %v\n", err)
		return 2
	}
	logger, err := newLogger(env.stderr, *logLevel)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	opts := game.Options{Laws: *laws, Tournament: *tournament, WarnOnly: *warnOnly, Odds: *odds, TimeControl: *timeControl, VisuallyImpaired: *visuallyImpaired, ClockAtFirstInput: true, Logger: logger}
	openCal := func(path string) (game.AnalogClassifier, error) { return openTraceCalibration(path, logger) }
	switch *calPath {
	case "none":
		// The levels are not read: the occupancy recorded with them is
		// replayed (game.Replay warns once it meets analogue frames).
	case "":
		dir := "."
		if *tracePath != "-" {
			dir = filepath.Dir(*tracePath)
		}
		opts.OpenAnalog = func(name string) (game.AnalogClassifier, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			c, err := openCal(name)
			if errors.Is(err, calibration.ErrMissing) {
				// A trace copied without its calibration is still replayed,
				// from the occupancy recorded with the levels.
				logger.Warn("the calibration the trace names is not there: its levels are not read (give --calibration FILE to read them, or --calibration none to say so)", "calibration", name)
				return nil, nil
			}
			return c, err
		}
	default:
		if opts.Analog, err = openCal(*calPath); err != nil {
			fmt.Fprintf(env.stderr, "boardd: --calibration: %v\n", err)
			return 2
		}
	}
	out := bufio.NewWriterSize(env.stdout, 64*1024)
	defer out.Flush()
	err = game.Replay(ctx, in, out, opts)
	var te *trace.Error
	switch {
	case errors.As(err, &te):
		out.Flush()
		fmt.Fprintf(env.stderr, "boardd: %v\n", te)
		return 2
	case err != nil:
		out.Flush()
		fmt.Fprintf(env.stderr, "boardd: replay: %v\n", err)
		return 2
	}
	return 0
}

// checkVisuallyImpaired refuses a visually impaired side other than white
// or black, or under a law-set without Appendix D's rules.
func checkVisuallyImpaired(side, laws string) error {
	if side == "" {
		return nil
	}
	if side != "white" && side != "black" {
		return fmt.Errorf("%q: want white or black", side)
	}
	ls, err := lawset.Lookup(laws)
	if err != nil {
		return err
	}
	if ls.AppendixD == nil {
		return fmt.Errorf("%s has no rules for a visually impaired player's board (Appendix D is FIDE's: use --laws fide2023)", ls.ID)
	}
	return nil
}

// applyDirectives sets the flags a trace's head names (its law-set, its
// flags) that the command line left unset: what the command line says wins.
func applyDirectives(fs *flag.FlagSet, d trace.Directives) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var args []string
	if d.Laws != "" && !given["laws"] {
		args = append(args, "--laws", d.Laws)
	}
	for i := 0; i < len(d.Flags); i++ {
		word := d.Flags[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(word, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(word, "-") || f == nil || name == "trace" {
			return fmt.Errorf("# flags: %q is no replay flag", word)
		}
		words := []string{word}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			if i+1 == len(d.Flags) {
				return fmt.Errorf("# flags: %s wants a value", word)
			}
			i++
			words = append(words, d.Flags[i])
		}
		if !given[name] {
			args = append(args, words...)
		}
	}
	if len(args) == 0 {
		return nil
	}
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("# flags: %w", err)
	}
	return nil
}

// openTraceCalibration reads the calibration file at path for the analogue
// frames of a replay; a missing file is calibration.ErrMissing. A calibration boardd run would refuse for play (a
// square without a working sensor) is used all the same, with a warning:
// a replay is where such a board is looked into.
func openTraceCalibration(path string, log *slog.Logger) (game.AnalogClassifier, error) {
	cal, err := calibration.LoadAny(path)
	if errors.Is(err, calibration.ErrMissing) {
		return nil, fmt.Errorf("%s: no such file: %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	if err := cal.Unfit(); err != nil {
		log.Warn("boardd run would refuse this calibration", "file", path, "why", err)
	}
	return wiring.TraceClassifier(cal)
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
