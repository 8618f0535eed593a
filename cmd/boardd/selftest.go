package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/boardd/boardd/calibration"
)

// runSelftest is `boardd selftest`: the LED walk, the empty board and the man
// walk against the board's calibration, then the report. Exit status 0: fit
// for play; 1: unfit, or the test could not be completed; 2: usage.
func runSelftest(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "selftest",
		usage: []string{"selftest [flags]"},
		about: "Checks a calibrated board (run 'boardd calibrate' first): it lights each rank (type the squares that stay dark), watches the empty board, then asks for a man on each square. It reports stuck-on and stuck-off sensors, crosstalk, crossed wires, noisy squares and dead LEDs, by square.",
		groups: []flagGroup{
			{"The board", []string{"config", "state-dir"}},
			{"What to test", []string{"no-leds", "no-walk"}},
			{"Output", []string{"json"}},
			{"The simulated board", []string{"sim", "sim-auto", "sim-seed", "sim-faults", "sim-speed", "sim-no-leds"}},
		},
		examples: []string{
			"boardd selftest",
			"boardd selftest --json > selftest.json     # for a rig; the prompts go to stderr",
			"boardd selftest --sim --sim-auto --sim-faults dead=e4,cross=c4+c3,deadled=f6",
		},
		exit: "Exit status: 0 when the board is fit for play; 1 when it is not, or the test could not be completed (no calibration); 2 for a bad command line or configuration.",
	}
	fs := h.flags()
	var f calFlags
	f.register(fs)
	noLEDs := fs.Bool("no-leds", false, "skip the LED walk")
	noWalk := fs.Bool("no-walk", false, "skip the man walk (stuck-off sensors and crossed wires are then not looked for)")
	asJSON := fs.Bool("json", false, "print the report as JSON on stdout (the prompts go to stderr)")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	out := env.stdout
	if *asJSON {
		out = env.stderr
	}
	b, err := openCalBoard(env, &f, out, true)
	if err != nil {
		return failed(env, "selftest", err)
	}
	defer b.close()
	rep, err := calibration.SelfTest(ctx, b.session, b.cal, calibration.SelfTestOptions{NoLEDs: *noLEDs, NoWalk: *noWalk})
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
