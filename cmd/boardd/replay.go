package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/trace"
)

func runReplay(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "replay",
		usage: []string{"replay [flags] [--trace FILE | --trace -]"},
		about: "Runs a trace (docs/trace-format.md: lifts, placements, presses, choices, each with its time) through the whole game in virtual time, as fast as it can, and prints one JSON line per decision: touches, adjustments, moves, irregularities with the options the law gives, rulings, mismatches, results, and a last end line with the FEN and the PGN.",
		groups: []flagGroup{
			{"The game", []string{"laws", "time-control", "tournament", "odds"}},
			{"Input and logs", []string{"trace", "log-level"}},
		},
		examples: []string{
			"boardd replay --laws sarratt1808 --trace testdata/laws/sarratt1808-false-castling.trace",
			`printf '{"t":0,"lift":"e2"}\n{"t":400,"place":"e4"}\n' | boardd replay --trace -`,
			"boardd replay --laws hastings1895 --time-control hastings1895 --trace clock/testdata/hastings-forfeit.trace",
		},
		exit: "Exit status: 0 when the trace is played to its end; 2 for a bad command line or a malformed trace line (boardd: trace line N: ...).",
	}
	fs := h.flags()
	laws := fs.String("laws", "fide2023", "law-set id: "+lawIDs())
	tracePath := fs.String("trace", "-", "trace file to replay, or - for standard input")
	tournament := fs.Bool("tournament", false, "tournament mode: the arbiter exacts every penalty, nobody may waive one")
	timeControl := fs.String("time-control", "", "time control: "+clock.Syntax)
	odds := fs.String("odds", "", "a game at odds: the men given (squares, or pawn, knight, rook, queen, pawn-and-move), comma-separated; add 'move' to give the move too")
	logLevel := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	if _, err := lawset.Lookup(*laws); err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	if *timeControl != "" {
		if _, err := clock.Parse(*timeControl); err != nil {
			fmt.Fprintf(env.stderr, "boardd: --time-control: %v\n", err)
			return 2
		}
	}
	logger, err := newLogger(env.stderr, *logLevel)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
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
	out := bufio.NewWriterSize(env.stdout, 64*1024)
	defer out.Flush()
	err = game.Replay(ctx, in, out, game.Options{Laws: *laws, Tournament: *tournament, Odds: *odds, TimeControl: *timeControl, ClockAtFirstInput: true, Logger: logger})
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

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
