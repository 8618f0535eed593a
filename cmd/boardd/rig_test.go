package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rigScenario is a scenario file of the rig's test data.
func rigScenario(name string) string {
	return filepath.Join("..", "..", "hwtest", "testdata", "rig", name)
}

// runRigBinary runs `boardd rig --pty link scenario...` and returns its
// output and exit status.
func runRigBinary(t *testing.T, bin, link string, scenarios ...string) (string, int) {
	t.Helper()
	args := append([]string{"rig", "--pty", link, "--log-level", "warn"}, scenarios...)
	cmd := exec.Command(bin, args...)
	cmd.Env = daemonEnv()
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	}
	t.Fatalf("boardd rig: %v\n%s", err, out)
	return "", 0
}

// checkRigOutput fails the test unless every scenario passed.
func checkRigOutput(t *testing.T, out string, status int) {
	t.Helper()
	if status != 0 || !strings.Contains(out, "0 failed") {
		t.Fatalf("boardd rig exited %d:\n%s", status, out)
	}
}

// TestRigAgainstBinary runs the real boardd binary on a serial board whose
// port is a pty, and the real `boardd rig` at the other end: a move made
// across an unplugged cable, then boardd killed with SIGKILL and started
// again, the game going on over a new link.
func TestRigAgainstBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBoardd(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "board")
	state := filepath.Join(dir, "state")
	args := []string{"run", "--sensor", "serial:" + link, "--led", "serial:" + link, "--state-dir", state, "--listen", "127.0.0.1:0", "--log-level", "info"}
	d := startBoardd(t, bin, daemonEnv(), args...)

	out, status := runRigBinary(t, bin, link, rigScenario("unplug.jsonl"))
	t.Logf("boardd rig:\n%s", out)
	checkRigOutput(t, out, status)
	if !strings.Contains(out, "1 scenarios:") {
		t.Fatalf("no summary:\n%s", out)
	}
	logs := d.stderr.String()
	for _, want := range []string{"board connected", "board link lost; the game is kept", "board checked"} {
		if !strings.Contains(logs, want) {
			t.Errorf("boardd's log lacks %q:\n%s", want, logs)
		}
	}

	// A power cut: the journal keeps 1. e4 e5; the new boardd opens the
	// board again and the game goes on.
	if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	d.wait(t, 5*time.Second)
	d2 := startBoardd(t, bin, daemonEnv(), args...)
	out, status = runRigBinary(t, bin, link, rigScenario("resume.jsonl"))
	t.Logf("boardd rig after the restart:\n%s", out)
	checkRigOutput(t, out, status)
	if strings.Contains(out, "not played") {
		t.Fatalf("the restarted boardd lost the game:\n%s\n%s", out, d2.stderr.String())
	}
	pgn, err := exec.Command(bin, "pgn", "--state-dir", state).Output()
	if err == nil && !strings.Contains(string(pgn), "1. e4 e5 2. Nf3 Nc6") {
		t.Errorf("pgn:\n%s", pgn)
	}
}
