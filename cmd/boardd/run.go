package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/boardd/boardd/daemon"
)

// runDaemon is `boardd run`: its flags, then the daemon until ctx ends.
func runDaemon(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	o := daemon.Options{Stdin: env.stdin, Stderr: env.stderr, Getenv: env.getenv}
	fs.StringVar(&o.Config, "config", "", "configuration file (default /etc/boardd/boardd.toml if it exists; none: a simulated board)")
	fs.StringVar(&o.Laws, "laws", "", "law-set id: "+lawIDs()+" (default from the config, else fide2023)")
	fs.StringVar(&o.StateDir, "state-dir", "", "state directory (default $STATE_DIRECTORY, else $XDG_STATE_HOME/boardd, else ~/.local/state/boardd)")
	fs.StringVar(&o.Listen, "listen", "", "console address (default 127.0.0.1:8080; 0.0.0.0:8443 for the club's network, with --tls-cert and --tls-key)")
	fs.StringVar(&o.TLSCert, "tls-cert", "", "serve the console over HTTPS with this certificate (PEM; default from the config, else plain HTTP)")
	fs.StringVar(&o.TLSKey, "tls-key", "", "the private key of --tls-cert (PEM)")
	fs.StringVar(&o.Sensor, "sensor", "", "sensor driver: sim, none, serial:SPEC, hc165, mcp23017, matrix, mcp3008 or mcp3208 (default from the config, else sim)")
	fs.StringVar(&o.LED, "led", "", "LED driver: none, sim, serial:SPEC, ws2812, sk6812, apa102, max7219 or ht16k33 (default from the config, else none)")
	fs.StringVar(&o.Hall, "hall", "", "club hall broker, mqtt://host:port (default: no hall)")
	fs.StringVar(&o.BoardID, "board-id", "", "this board's id in the hall (default the host name)")
	fs.StringVar(&o.TimeControl, "time-control", "", "time control, e.g. 40/5400+30:1800+30, or a preset (default: no clock)")
	fs.BoolVar(&o.Tournament, "tournament", false, "tournament mode: the arbiter exacts every penalty, nobody may waive one")
	fs.StringVar(&o.Odds, "odds", "", "a game at odds: the men given (squares, or pawn, knight, rook, queen, pawn-and-move), comma-separated; add 'move' to give the move too")
	fs.StringVar(&o.LogLevel, "log-level", "", "log level: debug, info, warn or error (default from the config, else info)")
	fs.StringVar(&o.Input, "input", "", "play trace lines into the board from FILE, a FIFO, or - for standard input (a rig, a demonstration)")
	fs.StringVar(&o.ArchiveCap, "archive-cap", "", "disk space for finished games, e.g. 64MiB (default 64MiB)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := daemon.Run(ctx, o); err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		var ue daemon.UsageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

// usageError is a fault in a command's arguments or configuration: exit
// status 2.
type usageError struct{ error }

// stateDir picks the state directory as boardd run does.
func stateDir(flagValue string, getenv func(string) string) (string, error) {
	return daemon.StateDir(flagValue, getenv)
}
