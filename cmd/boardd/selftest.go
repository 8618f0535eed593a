package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/boardd/boardd/calibration"
)

// runSelftest is `boardd selftest`: the LED walk, the empty board and the man
// walk against the board's calibration, then the report. Exit status 0: fit
// for play; 1: unfit, or the test could not be completed; 2: usage.
func runSelftest(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintln(env.stderr, "usage: boardd selftest [flags]")
		fmt.Fprintln(env.stderr, "\nFinds stuck-on and stuck-off sensors, crosstalk, crossed wires, noisy squares and")
		fmt.Fprintln(env.stderr, "dead LEDs. Exit status 0: fit for play; 1: unfit (or not completed); 2: usage.")
		fmt.Fprintln(env.stderr, "\nflags:")
		fs.PrintDefaults()
	}
	var f calFlags
	f.register(fs)
	noLEDs := fs.Bool("no-leds", false, "skip the LED walk")
	noWalk := fs.Bool("no-walk", false, "skip the man walk (stuck-off sensors and crossed wires are then not looked for)")
	asJSON := fs.Bool("json", false, "print the report as JSON on stdout (the prompts go to stderr)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.stderr, "boardd selftest: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	out := env.stdout
	if *asJSON {
		out = env.stderr
	}
	b, err := openCalBoard(env, &f, out)
	if err != nil {
		return failed(env, "selftest", err)
	}
	defer b.close()
	cal, err := calibration.LoadAny(calibration.Path(b.stateDir))
	if err != nil {
		// SelfTest itself refuses a calibration made on other hardware.
		return failed(env, "selftest", err)
	}
	rep, err := calibration.SelfTest(ctx, b.session, cal, calibration.SelfTestOptions{NoLEDs: *noLEDs, NoWalk: *noWalk})
	if err != nil {
		fmt.Fprintln(out)
		return failed(env, "selftest", err)
	}
	if *asJSON {
		data, err := json.Marshal(rep)
		if err != nil {
			return failed(env, "selftest", err)
		}
		fmt.Fprintf(env.stdout, "%s\n", data)
	} else {
		fmt.Fprintf(out, "\nSelf-test of %s:\n", rep.Hardware)
		rep.WriteVerdict(out)
	}
	if !rep.Fit() {
		return 1
	}
	return 0
}
