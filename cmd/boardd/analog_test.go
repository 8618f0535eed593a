package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The analogue example of README: a trace of an MCP3008 board's levels and
// the calibration its first line names.
var (
	analogTrace       = filepath.Join("..", "..", "testdata", "analog", "opening.trace")
	analogCalibration = filepath.Join("..", "..", "testdata", "analog", "board.calibration.json")
	analogGolden      = filepath.Join("..", "..", "testdata", "analog", "opening.jsonl")
)

func replayWith(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	env := &environment{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errs, getenv: func(string) string { return "" }}
	code = dispatch(context.Background(), env, append([]string{"replay"}, args...))
	return code, out.String(), errs.String()
}

var moveRE = regexp.MustCompile(`"type":"move","t":[0-9.]+,"side":"[a-z]+","uci":"([a-h1-8nbrq]+)"`)

func movesOf(out string) string {
	var moves []string
	for _, m := range moveRE.FindAllStringSubmatch(out, -1) {
		moves = append(moves, m[1])
	}
	return strings.Join(moves, " ")
}

// TestReplayAnalogExample replays README's analogue example through the
// calibration its first line names, through --calibration, and as a reader
// without the calibration does (the frames recorded with the levels): each
// way the four moves come back, and the calibrated replay prints, byte for
// byte, the output kept beside the trace (go test ./cmd/boardd -run
// TestReplayAnalogExample -update rewrites it).
func TestReplayAnalogExample(t *testing.T) {
	text, err := os.ReadFile(analogTrace)
	if err != nil {
		t.Fatal(err)
	}
	code, named, stderr := replayWith(t, "", "--trace", analogTrace)
	if code != 0 || stderr != "" {
		t.Fatalf("replay with the named calibration: exit %d: %s", code, stderr)
	}
	if *updateGolden {
		if err := os.WriteFile(analogGolden, []byte(named), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(analogGolden)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if named != string(want) {
		t.Errorf("output differs from %s:\n--- want\n%s--- got\n%s", analogGolden, want, named)
	}
	if got := movesOf(named); got != "e2e4 e7e5 g1f3 b8c6" {
		t.Errorf("moves %q", got)
	}
	code, flagged, stderr := replayWith(t, string(text), "--calibration", analogCalibration, "--trace", "-")
	if code != 0 || flagged != named {
		t.Errorf("--calibration on standard input: exit %d, %s; output differs: %v", code, stderr, flagged != named)
	}
	unnamed := strings.Replace(string(text), `"calibration":"board.calibration.json",`, "", 1)
	code, recorded, stderr := replayWith(t, unnamed, "--trace", "-")
	if code != 0 || movesOf(recorded) != "e2e4 e7e5 g1f3 b8c6" || !strings.Contains(stderr, "replayed as the occupancy recorded with them") {
		t.Errorf("no calibration: exit %d, moves %q, stderr %q", code, movesOf(recorded), stderr)
	}
}

// TestReplayAnalogFaults: a bad analogue line or calibration exits 2 with
// the line at fault named, never a panic. (A calibration the trace names
// that is not there is no fault: the recorded occupancy is replayed, with a
// warning; TestReplayWithoutTheCalibration.)
func TestReplayAnalogFaults(t *testing.T) {
	text, err := os.ReadFile(analogTrace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	edit := func(n int, from, to string) string {
		out := append([]string(nil), lines...)
		if !strings.Contains(out[n-1], from) {
			t.Fatalf("line %d has no %q", n, from)
		}
		out[n-1] = strings.Replace(out[n-1], from, to, 1)
		return strings.Join(out, "\n")
	}
	firstLevel := regexp.MustCompile(`"analog":\[[0-9]+`).FindString(lines[5])
	twelveBit := filepath.Join("..", "..", "calibration", "testdata", "calibration.json")
	cal := []string{"--calibration", analogCalibration}
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		fault string
	}{
		{"a level beyond the ADC", edit(6, firstLevel, `"analog":[1500`), cal, "boardd: trace line 6: analog level 0: 1500 is more than a 10-bit ADC reads (0 to 1023)"},
		{"levels without their resolution", edit(6, `"bits":10,`, ""), cal, `boardd: trace line 6: analog: missing "bits"`},
		{"a resolution that changes", edit(7, `"bits":10,`, `"bits":12,`), cal, "boardd: trace line 7: bits 12, where line 4 said 10"},
		{"a 12-bit board's calibration", string(text), []string{"--calibration", twelveBit}, "boardd: trace line 4: calibration: its levels reach"},
		{"a missing calibration", string(text), []string{"--calibration", "nowhere.json"}, "boardd: --calibration: nowhere.json: no such file"},
	} {
		code, _, stderr := replayWith(t, tt.stdin, append(tt.args, "--trace", "-")...)
		if code != 2 || !strings.Contains(stderr, tt.fault) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tt.name, code, stderr, tt.fault)
		}
	}
}

// TestReplayAnalogBinary runs README's analogue example on the real boardd
// binary, from the repository's root as README gives it, and again from
// elsewhere without --calibration (the calibration the trace names, found
// beside the trace): both print the kept output.
func TestReplayAnalogBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBoardd(t)
	want, err := os.ReadFile(analogGolden)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, dir string
		args      []string
	}{
		{"README's command", root, []string{"replay", "--calibration", "testdata/analog/board.calibration.json", "--trace", "testdata/analog/opening.trace"}},
		{"the calibration the trace names", t.TempDir(), []string{"replay", "--trace", filepath.Join(root, "testdata", "analog", "opening.trace")}},
	} {
		cmd := exec.Command(bin, tt.args...)
		cmd.Dir = tt.dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() != 0 {
			t.Errorf("%s: %v: %s", tt.name, err, stderr.String())
			continue
		}
		if string(out) != string(want) {
			t.Errorf("%s: output differs from %s:\n%s", tt.name, analogGolden, out)
		}
	}
}
