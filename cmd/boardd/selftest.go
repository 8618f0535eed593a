package main

import (
	"context"
	"fmt"
)

func runSelftest(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd selftest: not built yet")
	return 1
}
