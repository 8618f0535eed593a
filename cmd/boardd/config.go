package main

import (
	"context"
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
	h := &helpText{
		name:  "config",
		usage: []string{"config check FILE", "config example [WIRING]"},
		about: "check reads a configuration file and checks every key and value against what boardd accepts: the drivers, the GPIO pins (against the Raspberry Pi's header, and no pin used twice), the buses, the law-set, the time control, the state directory; and what the file names beyond itself, as boardd run would at its start: the console's certificate and key, the hall's URL, credentials and verify key, the engine and its opening book. It touches no hardware. A file check passes is one boardd run takes. It prints a one-line summary and exits 0 when the file will do; otherwise it prints every fault at once, each naming its key (with the value and what was expected), on stderr and exits 2; a check that would read a key already at fault is left out.\n\n" +
			"example prints a commented configuration for one wiring, which check accepts; WIRING is one of " + strings.Join(config.Examples(), ", ") + " (default sim). The comments name every key and every form its value may take.",
		examples: []string{
			"boardd config example hc165 > boardd.toml",
			"boardd config check boardd.toml",
			"sudo install -D -m 644 boardd.toml /etc/boardd/boardd.toml",
		},
		exit: "Exit status: 0 when the file will do (or the example is printed); 2 for a bad file or command line.",
	}
	if len(args) == 0 {
		return h.fail(env, "check or example?")
	}
	sub := args[0]
	rest := args[1:]
	switch {
	case isHelp(sub):
		h.write(env.stdout, nil)
		return 0
	case sub == "check":
		fs := h.flags()
		if code, ok := h.parse(env, fs, rest); !ok {
			return code
		}
		if fs.NArg() != 1 {
			return h.fail(env, "check: want one FILE, not %d arguments", fs.NArg())
		}
		path := fs.Arg(0)
		c, err := daemon.Check(daemon.Options{Config: path, Getenv: env.getenv})
		if err != nil {
			fmt.Fprintf(env.stderr, "boardd: %v\n", err)
			return 2
		}
		fmt.Fprintf(env.stdout, "%s: ok: sensor %s, LEDs %s, %d buttons, laws %s\n", path, c.Sensor.Wiring, c.LED.Wiring, len(c.Buttons.Pins), c.Laws)
		return 0
	case sub == "example":
		fs := h.flags()
		if code, ok := h.parse(env, fs, rest); !ok {
			return code
		}
		if fs.NArg() > 1 {
			return h.fail(env, "example: one WIRING at a time")
		}
		text, err := config.Example(fs.Arg(0))
		if err != nil {
			return h.fail(env, "example: %v", err)
		}
		fmt.Fprint(env.stdout, text)
		return 0
	}
	return h.fail(env, "unknown subcommand %q: want check or example", sub)
}
