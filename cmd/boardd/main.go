// Command boardd is the smart chessboard daemon and its tools: it runs a
// board (real or simulated), replays traces, prints the laws it applies, and
// more. main only parses the command line and wires packages together.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one `boardd NAME` subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *environment, args []string) int
}

// environment is what a command may touch: its standard streams and the
// process environment.
type environment struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

func commands() []command {
	return []command{
		{"run", "run the board daemon (a simulated board when no hardware is configured)", runDaemon},
		{"replay", "replay a trace through the whole game and print what boardd decides", runReplay},
		{"laws", "list the law-sets, or print every law of one with how boardd applies it", runLaws},
		{"config", "check a configuration file, or print a commented example", runConfig},
		{"ports", "list serial ports that may be a board", runPorts},
		{"calibrate", "learn the board's sensors, wiring and orientation, square by square", runCalibrate},
		{"selftest", "find stuck, noisy and crossed sensors and dead LEDs", runSelftest},
		{"pgn", "print the current or a finished game as PGN", runPGN},
		{"fen", "print the current position as FEN", runFEN},
		{"hall", "serve the club hall: every board at once, rulings, live broadcast", runHall},
		{"version", "print boardd's version, the commit it was built from and its date", runVersion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	env := &environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	code := dispatch(ctx, env, os.Args[1:])
	stop()
	os.Exit(code)
}

func dispatch(ctx context.Context, env *environment, args []string) int {
	switch {
	case len(args) == 0:
		fmt.Fprintln(env.stderr, "boardd: no command")
		usage(env.stderr)
		return 2
	case args[0] == "--version" || args[0] == "-version":
		return runVersion(ctx, env, args[1:])
	case args[0] == "help" && len(args) > 1:
		// boardd help COMMAND is boardd COMMAND --help.
		return dispatch(ctx, env, []string{args[1], "--help"})
	case isHelp(args[0]):
		usage(env.stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(env.stderr, "boardd: unknown command %q\n", args[0])
	usage(env.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "boardd: a smart chessboard daemon and its tools")
	fmt.Fprintln(w, "\nusage: boardd COMMAND [flags] [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	width := 0
	for _, c := range cs {
		width = max(width, len(c.name))
	}
	for _, c := range cs {
		fmt.Fprintf(w, "  %s%s  %s\n", c.name, strings.Repeat(" ", width-len(c.name)), c.summary)
	}
	fmt.Fprintln(w, "\nRun 'boardd COMMAND -h' (or 'boardd help COMMAND') for a command's flags and examples;")
	fmt.Fprintln(w, "'boardd --version' for the version. To start: 'boardd run', then open http://127.0.0.1:8080.")
}
