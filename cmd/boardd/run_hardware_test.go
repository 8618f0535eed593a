package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/config"
)

// runHW runs `boardd args...` in process.
func runHW(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code = dispatch(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigCheckCommand(t *testing.T) {
	good := writeFile(t, "good.toml", "laws = \"nycc\"\n[sensor]\nwiring = \"hc165\"\n")
	bad := writeFile(t, "bad.toml", "[sensor]\nwiring = \"hc165\"\nrate = 0\n[buttons]\nwhite_clock = \"GPIO25\"\n")
	cases := []struct {
		args       []string
		code       int
		out, inErr string
	}{
		{[]string{"config", "check", good}, 0, good + ": ok: sensor hc165, LEDs none, 0 buttons, laws nycc\n", ""},
		{[]string{"config", "check", bad}, 2, "", bad + ": 2 faults:\nsensor.rate = 0: expected scans a second, a number from 1 to 2000\n" +
			`buttons.white_clock = "GPIO25": expected a GPIO no other part uses (GPIO25 is the 74HC165 load pin, sensor.hc165.load)`},
		{[]string{"config", "check", filepath.Join(t.TempDir(), "none.toml")}, 2, "", "none.toml: open"},
		{[]string{"config", "check", writeFile(t, "emulate.toml", "emulate = \"chesslink:ttyGS0\"\n")}, 2, "",
			`emulate = "chesslink:ttyGS0": expected a board to answer apps as and its serial port, such as "chesslink:/dev/ttyGS0" (an absolute path), or "" for none`},
		{[]string{"config", "check"}, 2, "", "usage: boardd config check FILE"},
		{[]string{"config", "example", "hc595"}, 2, "", `no example wiring "hc595": expected one of apa102, hc165`},
		{[]string{"config", "frobnicate"}, 2, "", `unknown subcommand "frobnicate"`},
		{[]string{"config"}, 2, "", "usage:"},
	}
	for _, c := range cases {
		code, out, errs := runHW(t, c.args...)
		if code != c.code || out != c.out || !strings.Contains(errs, c.inErr) {
			t.Errorf("boardd %s: exit %d, stdout %q, stderr %q; want %d, %q, stderr containing %q",
				strings.Join(c.args, " "), code, out, errs, c.code, c.out, c.inErr)
		}
	}
}

func TestConfigExamplesCheck(t *testing.T) {
	for _, name := range append([]string{""}, config.Examples()...) {
		args := []string{"config", "example"}
		if name != "" {
			args = append(args, name)
		}
		code, out, errs := runHW(t, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "# boardd configuration") {
			t.Fatalf("boardd %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
		path := writeFile(t, "ex.toml", out)
		if code, _, errs := runHW(t, "config", "check", path); code != 0 {
			t.Errorf("example %q refused by config check: %s", name, errs)
		}
		if !strings.Contains(out, "\nemulate = \"\"\n") {
			t.Errorf("example %q does not show the emulate key", name)
		}
	}
}

func TestDaemonExitsTwoOnABadConfig(t *testing.T) {
	bad := writeFile(t, "bad.toml", "[sensor]\nretries = \"many\"\n")
	code, _, errs := runHW(t, "run", "--config", bad, "--state-dir", t.TempDir())
	if code != 2 || !strings.Contains(errs, `sensor.retries = "many": expected retries of a failed read, a whole number from 0 to 10`) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
