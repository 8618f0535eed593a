package main

import (
	"context"
	"fmt"
)

func runHall(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd hall: not built yet")
	return 1
}
