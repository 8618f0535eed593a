package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/daemon"
)

// runConfig is `boardd config check FILE` (exit 0 if the file will do, 2
// with every fault on stderr if not: every check `boardd run` makes before
// it starts, the files the configuration names included; no hardware is
// touched) and `boardd config example [WIRING]` (a commented file that
// check accepts).
func runConfig(ctx context.Context, env *environment, args []string) int {
	usage := func() {
		fmt.Fprintf(env.stderr, "usage: boardd config check FILE\n       boardd config example [WIRING]\n\nWIRING is one of %s (default sim).\n", strings.Join(config.Examples(), ", "))
	}
	if len(args) == 0 {
		usage()
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage()
		return 0
	case "check":
		fs := flag.NewFlagSet("config check", flag.ContinueOnError)
		fs.SetOutput(env.stderr)
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if fs.NArg() != 1 {
			usage()
			return 2
		}
		path := fs.Arg(0)
		c, err := daemon.Check(daemon.Options{Config: path, Getenv: env.getenv})
		if err != nil {
			fmt.Fprintf(env.stderr, "boardd: %v\n", err)
			return 2
		}
		leds := c.LED.Wiring
		fmt.Fprintf(env.stdout, "%s: ok: sensor %s, LEDs %s, %d buttons, laws %s\n", path, c.Sensor.Wiring, leds, len(c.Buttons.Pins), c.Laws)
		return 0
	case "example":
		if len(args) > 2 {
			usage()
			return 2
		}
		wiring := ""
		if len(args) == 2 {
			wiring = args[1]
		}
		text, err := config.Example(wiring)
		if err != nil {
			fmt.Fprintf(env.stderr, "boardd: config example: %v\n", err)
			return 2
		}
		fmt.Fprint(env.stdout, text)
		return 0
	}
	fmt.Fprintf(env.stderr, "boardd: config: unknown subcommand %q\n", args[0])
	usage()
	return 2
}
