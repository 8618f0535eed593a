package main

import (
	"context"
	"fmt"
)

func runPorts(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd ports: not built yet")
	return 1
}
