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

	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/trace"
)

func runReplay(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	laws := fs.String("laws", "fide2023", "law-set id: "+lawIDs())
	tracePath := fs.String("trace", "-", "trace file to replay, or - for standard input")
	tournament := fs.Bool("tournament", false, "tournament mode: the arbiter exacts every penalty, nobody may waive one")
	timeControl := fs.String("time-control", "", "time control: "+clock.Syntax)
	odds := fs.String("odds", "", "a game at odds: the men given (squares, or pawn, knight, rook, queen, pawn-and-move), comma-separated; add 'move' to give the move too")
	logLevel := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return 2
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
