package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/boardd/boardd/hwtest"
	"github.com/boardd/boardd/serialport"
)

func runRig(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("rig", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	port := fs.String("port", "", "serial port to play on (boardd runs at the other end of the line)")
	ptyLink := fs.String("pty", "", "make a pseudo-terminal pair and this symlink to its boardd end; run boardd with --sensor serial:LINK --led serial:LINK")
	baud := fs.Int("baud", serialport.DefaultBaud, "line speed (also the wire time in the latency floor; a pty has none)")
	scan := fs.Duration("scan", hwtest.DefaultScanPeriod, "the board's scan period: a moved man is sent at the next scan")
	heartbeat := fs.Duration("heartbeat", hwtest.DefaultHeartbeat, "send an unchanged scan this often")
	debounce := fs.Duration("debounce", 0, "boardd's debounce window, for the latency floor (default 20ms)")
	connect := fs.Duration("connect-timeout", 15*time.Second, "how long to wait for boardd to answer")
	logLevel := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	fs.Usage = func() {
		fmt.Fprintln(env.stderr, "usage: boardd rig --port PATH | --pty LINK [flags] SCENARIO...\n\nPlay scenarios into a running boardd as the board's microcontroller would, in real time,\nand report each expectation and the latency from each event to the LEDs' answer.\nThe exit status is 0 when every scenario passes, 1 when one fails. See docs/rig.md.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*port == "") == (*ptyLink == "") || fs.NArg() == 0 {
		fs.Usage()
		return 2
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
	rig, err := hwtest.NewRig(hwtest.RigOptions{
		Cable: cable, ScanPeriod: *scan, Heartbeat: *heartbeat, Baud: lineBaud,
		Debounce: *debounce, ConnectTimeout: *connect, Logger: logger,
	})
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
