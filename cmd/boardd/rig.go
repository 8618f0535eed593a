package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hwtest"
	"github.com/boardd/boardd/serialport"
)

func runRig(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "rig",
		usage: []string{"rig --pty LINK [flags] SCENARIO...", "rig --port PATH [flags] SCENARIO..."},
		about: "Plays scenarios into a running boardd as the board's microcontroller would, in real time, over the serial link: it lifts and places men, presses buttons, makes choices, pulls the cable, and checks boardd's reports and LEDs against each scenario's expectations, each within its deadline. It reports pass or fail per expectation and the latency from each physical event to the LEDs' answer. docs/rig.md describes the scenario files.\n\n" +
			"Scenarios play one after the other on the same link. Before one that does not start where boardd's game stands (its position or law-set), the rig starts a new game there as the arbiter would, through boardd's console (--console, with the arbiter token from --state-dir), and sets the men of its start on the board; so the shipped scenarios run together in one command.",
		groups: []flagGroup{
			{"The line", []string{"pty", "port", "baud"}},
			{"New games between scenarios", []string{"console", "state-dir", "board-id"}},
			{"The board's timing", []string{"scan", "heartbeat", "debounce"}},
			{"Waiting and logs", []string{"connect-timeout", "log-level"}},
		},
		examples: []string{
			"boardd run --sensor serial:/tmp/board --led serial:/tmp/board --state-dir /tmp/rig-state &",
			"boardd rig --pty /tmp/board --state-dir /tmp/rig-state hwtest/testdata/rig/*.jsonl",
			"boardd rig --port /dev/ttyUSB0 --baud 115200 --console http://board.local:8080 --state-dir state scenario.jsonl",
		},
		exit: "Exit status: 0 when every scenario passes; 1 when one fails or the line fails; 2 for a bad command line or scenario file.",
	}
	fs := h.flags()
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
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	switch {
	case *port == "" && *ptyLink == "":
		return h.fail(env, "--pty LINK or --port PATH: where is the board's line?")
	case *port != "" && *ptyLink != "":
		return h.fail(env, "--pty or --port, not both")
	case fs.NArg() == 0:
		return h.fail(env, "no scenario to play")
	}
	logger, err := newLogger(env.stderr, *logLevel)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	var scenarios []*hwtest.Scenario
	for _, path := range fs.Args() {
		sc, err := hwtest.ReadScenarioFile(path)
		if err != nil {
			fmt.Fprintf(env.stderr, "boardd: %v\n", err)
			return 2
		}
		scenarios = append(scenarios, sc)
	}
	var cable hwtest.Cable
	lineBaud := *baud
	if *ptyLink != "" {
		c, err := hwtest.NewPTYCable(*ptyLink)
		if err != nil {
			fmt.Fprintf(env.stderr, "boardd: %v\n", err)
			return 2
		}
		cable, lineBaud = c, 0
		fmt.Fprintf(env.stderr, "rig: the board is %s; run boardd with --sensor serial:%s --led serial:%s\n", c.Link, c.Link, c.Link)
	} else {
		cable = &hwtest.PortCable{Path: *port, Baud: *baud}
	}
	opts := hwtest.RigOptions{
		Cable: cable, ScanPeriod: *scan, Heartbeat: *heartbeat, Baud: lineBaud,
		Debounce: *debounce, ConnectTimeout: *connect, Logger: logger,
	}
	if *consoleURL != "" {
		arb := &hwtest.ConsoleArbiter{URL: *consoleURL, Board: *boardID}
		if dir, err := stateDir(*dirFlag, env.getenv); err == nil {
			arb.TokenFile = filepath.Join(dir, console.TokenFile)
		}
		opts.NewGame = arb.NewGame
	}
	rig, err := hwtest.NewRig(opts)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	defer rig.Close()
	failed := 0
	for _, sc := range scenarios {
		res, err := rig.Play(ctx, sc)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				fmt.Fprintln(env.stderr, "boardd: rig interrupted")
				return 1
			}
			fmt.Fprintf(env.stderr, "boardd: rig: %v\n", err)
			return 1
		}
		res.Write(env.stdout)
		if !res.Passed() {
			failed++
		}
	}
	fmt.Fprintf(env.stdout, "%d scenarios: %d passed, %d failed\n", len(scenarios), len(scenarios)-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
