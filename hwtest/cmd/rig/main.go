// Command rig plays test scenarios into a running boardd as the board's
// microcontroller would, in real time, over the serial link: it lifts and
// places men, presses buttons, makes choices, pulls the cable, and checks
// boardd's reports and LEDs against each scenario's expectations, each
// within its deadline. docs/rig.md describes it and the scenario files.
//
// It is a program of its own, not a boardd command, so that the daemon
// links none of the test support it is made of (hwtest, ptypair, the
// pseudo-terminal library):
//
//	go run ./hwtest/cmd/rig --pty LINK [flags] SCENARIO...
//	go run ./hwtest/cmd/rig --port PATH [flags] SCENARIO...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/daemon"
	"github.com/boardd/boardd/hwtest"
	"github.com/boardd/boardd/serialport"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

const usage = `usage: rig --pty LINK [flags] SCENARIO...
       rig --port PATH [flags] SCENARIO...

Plays scenarios into a running boardd as the board's microcontroller would,
over the serial link, and checks boardd's reports and LEDs against each
scenario's expectations, each within its deadline. It reports pass or fail
per expectation and the latency from each physical event to the LEDs'
answer. docs/rig.md describes the scenario files.

Scenarios play one after the other on the same link. Before one that does
not start where boardd's game stands, the rig starts a new game there as the
arbiter would, through boardd's console (--console, with the arbiter token
from --state-dir), and sets the men of its start on the board.

Examples:
  boardd run --sensor serial:/tmp/board --led serial:/tmp/board --state-dir /tmp/rig-state &
  go run ./hwtest/cmd/rig --pty /tmp/board --state-dir /tmp/rig-state hwtest/testdata/rig/*.jsonl
  boardd-rig --port /dev/ttyUSB0 --baud 115200 --console http://board.local:8080 --state-dir state scenario.jsonl

Exit status: 0 when every scenario passes; 1 when one fails or the line
fails; 2 for a bad command line or scenario file.

Flags:
`

// run is the command: args without the program's name; it returns the exit
// status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("rig", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	port := fs.String("port", "", "serial port to play on (boardd runs at the other end of the line)")
	ptyLink := fs.String("pty", "", "make a pseudo-terminal pair and this symlink to its boardd end; run boardd with --sensor serial:LINK --led serial:LINK")
	baud := fs.Int("baud", serialport.DefaultBaud, "line speed (also the wire time in the latency floor; a pty has none)")
	scan := fs.Duration("scan", hwtest.DefaultScanPeriod, "the board's scan period: a moved man is sent at the next scan")
	heartbeat := fs.Duration("heartbeat", hwtest.DefaultHeartbeat, "send an unchanged scan this often")
	debounce := fs.Duration("debounce", 0, "boardd's debounce window, for the latency floor (default 20ms)")
	connect := fs.Duration("connect-timeout", 15*time.Second, "how long to wait for boardd to answer")
	logLevel := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	consoleURL := fs.String("console", "http://127.0.0.1:8080", "the console of the boardd under test, where the rig starts new games between scenarios as the arbiter (empty: never; each scenario must then start where the game stands)")
	dirFlag := fs.String("state-dir", "", "the state directory of the boardd under test, for its arbiter token (default as for boardd run)")
	boardID := fs.String("board-id", "", "the board's id at the console (default: its only board)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "rig: %s\n", fmt.Sprintf(format, a...))
		fmt.Fprintln(stderr, "usage: rig --pty LINK [flags] SCENARIO... (rig -h for the flags)")
		return 2
	}
	switch {
	case *port == "" && *ptyLink == "":
		return fail("--pty LINK or --port PATH: where is the board's line?")
	case *port != "" && *ptyLink != "":
		return fail("--pty or --port, not both")
	case fs.NArg() == 0:
		return fail("no scenario to play")
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fail("log level %q: want debug, info, warn or error", *logLevel)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	var scenarios []*hwtest.Scenario
	for _, path := range fs.Args() {
		sc, err := hwtest.ReadScenarioFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "rig: %v\n", err)
			return 2
		}
		scenarios = append(scenarios, sc)
	}
	var cable hwtest.Cable
	lineBaud := *baud
	if *ptyLink != "" {
		c, err := hwtest.NewPTYCable(*ptyLink)
		if err != nil {
			fmt.Fprintf(stderr, "rig: %v\n", err)
			return 2
		}
		cable, lineBaud = c, 0
		fmt.Fprintf(stderr, "rig: the board is %s; run boardd with --sensor serial:%s --led serial:%s\n", c.Link, c.Link, c.Link)
	} else {
		cable = &hwtest.PortCable{Path: *port, Baud: *baud}
	}
	opts := hwtest.RigOptions{
		Cable: cable, ScanPeriod: *scan, Heartbeat: *heartbeat, Baud: lineBaud,
		Debounce: *debounce, ConnectTimeout: *connect, Logger: logger,
	}
	if *consoleURL != "" {
		arb := &hwtest.ConsoleArbiter{URL: *consoleURL, Board: *boardID}
		if dir, err := daemon.StateDir(*dirFlag, getenv); err == nil {
			arb.TokenFile = filepath.Join(dir, console.TokenFile)
		}
		opts.NewGame = arb.NewGame
	}
	rig, err := hwtest.NewRig(opts)
	if err != nil {
		fmt.Fprintf(stderr, "rig: %v\n", err)
		return 2
	}
	defer rig.Close()
	failed := 0
	for _, sc := range scenarios {
		res, err := rig.Play(ctx, sc)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				fmt.Fprintln(stderr, "rig: interrupted")
				return 1
			}
			fmt.Fprintf(stderr, "rig: %v\n", err)
			return 1
		}
		res.Write(stdout)
		if !res.Passed() {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%d scenarios: %d passed, %d failed\n", len(scenarios), len(scenarios)-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
