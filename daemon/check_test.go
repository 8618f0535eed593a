package daemon

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Check finds every fault of a file in one run: the faults in its values,
// the pins it shares, and what it names beyond itself (certificate, hall's
// verify key, engine). A check whose input is itself at fault is skipped
// rather than reporting the same fault twice.
func TestCheckFindsEveryFault(t *testing.T) {
	for _, c := range []struct {
		name   string
		file   string
		want   []string // each a line of the error, in order
		absent []string // what a skipped check would have said
	}{{
		name: "values, a shared pin and a missing engine",
		file: `laws = "nosuch"
listen = "nope"
log_level = "loud"
board_id = "bad id!"
state_dir = "relative"
tls_cert = "/etc/boardd/console.pem"
[buttons]
white_clock = "GPIO5"
black_clock = "GPIO5"
[engine]
path = "/nonexistent/engine"
elo = 1500
skill = 3
[lichess]
color = "white"
`,
		want: []string{
			`board_id = "bad id!": expected`,
			`laws = "nosuch": expected a law-set`,
			`listen = "nope": expected an address`,
			`log_level = "loud": expected debug, info, warn or error`,
			`state_dir = "relative": expected an absolute directory`,
			`engine.skill = 3: expected -1 (none) with engine.elo set`,
			`lichess.color = "white": expected "" without lichess.seek`,
			`tls_key = "": expected the certificate's private key`,
			`buttons.white_clock = "GPIO5": expected a GPIO no other part uses (GPIO5 is the black clock button, buttons.black_clock)`,
			`engine.path "/nonexistent/engine": no engine there`,
		},
		absent: []string{"console: TLS certificate", "--odds"},
	}, {
		name: "everything beyond the file",
		file: `tls_cert = "/nonexistent/console.pem"
tls_key = "/nonexistent/console.key"
hall = "mqtt://hall.club.lan?verify-key=/nonexistent/hall-verify-key.pem"
[engine]
path = "/nonexistent/engine"
book = "/nonexistent/book.bin"
`,
		want: []string{
			"console: TLS certificate /nonexistent/console.pem",
			"--hall: hall verify key",
			`engine.path "/nonexistent/engine": no engine there`,
			"engine.book: ",
		},
	}, {
		name: "a value at fault is not read again",
		file: `tls_cert = "console.pem"
tls_key = "/nonexistent/console.key"
hall = "http://hall.club.lan"
[engine]
path = "/nonexistent/engine"
book = "book.bin"
[sensor]
wiring = "hc165"
[sensor.hc165]
load = "GPIO99"
[buttons]
white_claim = "GPIO25"
`,
		want: []string{
			`engine.book = "book.bin": expected an absolute file name`,
			`hall = "http://hall.club.lan": expected a broker URL`,
			`sensor.hc165.load = "GPIO99": expected a GPIO of the Raspberry Pi's header`,
			`tls_cert = "console.pem": expected an absolute file name`,
			`tls_cert = "": expected the console's certificate, to go with tls_key`,
			`engine.path "/nonexistent/engine": no engine there`,
		},
		// The load pin kept its default, GPIO25, the button's pin: no clash
		// in the file.
		absent: []string{"console: TLS", "--hall:", "engine.book: ", "buttons.white_claim"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "boardd.toml", c.file)
			_, err := Check(Options{Config: path})
			var ue UsageError
			var faults *CheckFaults
			if !errors.As(err, &ue) || !errors.As(err, &faults) {
				t.Fatalf("check: %v, want a usage error holding CheckFaults", err)
			}
			msg := err.Error()
			head, body, _ := strings.Cut(msg, "\n")
			if want := fmt.Sprintf("%s: %d faults:", path, len(c.want)); head != want || len(faults.Faults) != len(c.want) {
				t.Errorf("check said %q (%d faults), want %q:\n%s", head, len(faults.Faults), want, msg)
			}
			lines := strings.Split(body, "\n")
			for i, want := range c.want {
				if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
					t.Errorf("fault %d is not %q:\n%s", i+1, want, msg)
				}
			}
			for _, no := range c.absent {
				if strings.Contains(msg, no) {
					t.Errorf("check says %q, from a check whose input is at fault:\n%s", no, msg)
				}
			}
		})
	}
}

// TestCheckProbesTheEngine: the check starts the engine the file names and
// refuses an executable that does not answer as a UCI engine, as run does;
// a real engine passes.
func TestCheckProbesTheEngine(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cases := []struct {
		name string
		path string
		want string // "" for a pass
	}{
		{name: "ends at once", path: script("ends", "exit 3"), want: "crashed while starting"},
		{name: "speaks something else", path: script("talks", `while read l; do echo "what is $l"; done`), want: `no "uciok" after "uci"`},
	}
	if sf, err := exec.LookPath("stockfish"); err == nil {
		cases = append(cases, struct{ name, path, want string }{name: "stockfish", path: sf})
	} else if _, err := os.Stat("/usr/games/stockfish"); err == nil {
		cases = append(cases, struct{ name, path, want string }{name: "stockfish", path: "/usr/games/stockfish"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "boardd.toml", fmt.Sprintf("[engine]\npath = %q\n", c.path))
			_, err := Check(Options{Config: path})
			if c.want == "" {
				if err != nil {
					t.Fatalf("check: %v", err)
				}
				return
			}
			var faults *CheckFaults
			if !errors.As(err, &faults) || len(faults.Faults) != 1 || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), fmt.Sprintf("engine.path %q", c.path)) {
				t.Fatalf("check: %v, want one fault naming engine.path and %q", err, c.want)
			}
		})
	}
}

// TestCheckRefusesWarnOnlyInATournament: warn-only exacts no penalty, a
// tournament every one; the check (as run) refuses them together, naming
// both, whether each comes from the file or a flag, and takes either alone.
func TestCheckRefusesWarnOnlyInATournament(t *testing.T) {
	for _, c := range []struct {
		name       string
		file       string
		warn, tour bool   // the flags
		want       string // the fault's line; "" for none
	}{
		{"both keys", "tournament = true\nwarn_only = true\n", false, false, "warn_only = true: expected false when tournament is on (tournament = true or --tournament)"},
		{"both flags", "", true, true, "--warn-only (warn_only) = true: expected false when tournament is on (tournament = true or --tournament)"},
		{"--tournament on a warn-only file", "warn_only = true\n", false, true, "warn_only = true: expected false when tournament is on"},
		{"--warn-only on a tournament file", "tournament = true\n", true, false, "--warn-only (warn_only) = true: expected false when tournament is on"},
		{"warn-only alone", "warn_only = true\n", false, false, ""},
		{"--warn-only alone", "", true, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "boardd.toml", c.file)
			cfg, err := Check(Options{Config: path, WarnOnly: c.warn, Tournament: c.tour})
			if c.want == "" {
				if err != nil || cfg == nil || !cfg.WarnOnly {
					t.Fatalf("check: %v (warn_only %v), want warn-only taken", err, cfg != nil && cfg.WarnOnly)
				}
				return
			}
			var ue UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("check: %v, want a usage error saying %q", err, c.want)
			}
		})
	}
}
