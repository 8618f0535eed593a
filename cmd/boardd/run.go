package main

import (
	"context"
	"flag"
	"fmt"
)

func runDaemon(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fmt.Fprintln(env.stderr, "boardd: run: not yet wired")
	<-ctx.Done()
	return 0
}
