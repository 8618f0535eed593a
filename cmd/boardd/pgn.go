package main

import (
	"context"
	"fmt"
)

func runPGN(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd pgn: not built yet")
	return 1
}
