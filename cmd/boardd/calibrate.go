package main

import (
	"context"
	"fmt"
)

func runCalibrate(ctx context.Context, env *environment, args []string) int {
	fmt.Fprintln(env.stderr, "boardd calibrate: not built yet")
	return 1
}
