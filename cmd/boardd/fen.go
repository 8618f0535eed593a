package main

import (
	"context"
	"flag"
	"fmt"
)

func runFEN(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("fen", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	dirFlag := fs.String("state-dir", "", "state directory (default as for boardd run)")
	fs.Usage = func() {
		fmt.Fprintln(env.stderr, "usage: boardd fen [--state-dir D]")
		fmt.Fprintln(env.stderr, "\nPrints the position of the game in progress as FEN, replayed from the journal.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	dir, err := stateDir(*dirFlag, env.getenv)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	g, err := currentGame(env, dir)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 1
	}
	pos := g.Snapshot().Position
	fmt.Fprintln(env.stdout, pos.FEN())
	return 0
}
