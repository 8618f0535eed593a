package main

import (
	"context"
	"fmt"
)

func runConfig(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd config: not built yet")
	return 1
}
