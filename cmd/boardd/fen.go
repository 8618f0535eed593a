package main

import (
	"context"
	"fmt"
)

func runFEN(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd fen: not built yet")
	return 1
}
