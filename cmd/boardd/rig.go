package main

import (
	"context"
	"fmt"
)

func runRig(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd rig: not built yet")
	return 1
}
