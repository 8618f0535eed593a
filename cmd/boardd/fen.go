package main

import (
	"context"
	"fmt"
)

func runFEN(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:   "fen",
		usage:  []string{"fen [--state-dir DIR]"},
		about:  "Prints the position of the game in progress as FEN, replayed from the journal in the state directory; no running boardd is needed, and the journal is only read.",
		groups: []flagGroup{{"Where", []string{"state-dir"}}},
		examples: []string{
			"sudo boardd fen --state-dir /var/lib/boardd",
		},
		exit: "Exit status: 0 when printed; 1 when there is no game in progress or the journal cannot be read; 2 for a bad command line.",
	}
	fs := h.flags()
	dirFlag := fs.String("state-dir", "", "state directory (default $STATE_DIRECTORY, else $XDG_STATE_HOME/boardd, else ~/.local/state/boardd, as for boardd run)")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
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
