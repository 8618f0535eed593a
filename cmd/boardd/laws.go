package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardd/boardd/arbiter"
)

func lawIDs() string { return strings.Join(arbiter.LawSetIDs(), ", ") }

func runLaws(ctx context.Context, env *environment, args []string) int {
	sets := arbiter.LawSets()
	if len(args) == 0 {
		for _, id := range arbiter.LawSetIDs() {
			ls := sets[id]
			fmt.Fprintf(env.stdout, "%-13s %s\n", ls.ID, ls.Name)
		}
		return 0
	}
	if _, err := arbiter.Lookup(args[0]); err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	ls := sets[args[0]]
	fmt.Fprintf(env.stdout, "%s: %s\n%s\n", ls.ID, ls.Name, ls.Summary)
	return 0
}
