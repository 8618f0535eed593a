package main

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rigScenario is a scenario file of the rig's test data.
func rigScenario(name string) string {
	return filepath.Join("..", "..", "hwtest", "testdata", "rig", name)
}

// buildRig builds the rig, a program of its own (hwtest/cmd/rig: the
// daemon links no test support), into the test's temporary directory.
func buildRig(t *testing.T) string {
	t.Helper()
	return goBuild(t, "../../hwtest/cmd/rig", "boardd-rig")
}

// runRigBinary runs `boardd-rig --pty link scenario...` and returns its
// output and exit status.
func runRigBinary(t *testing.T, rig, link string, scenarios ...string) (string, int) {
	t.Helper()
	args := append([]string{"--pty", link, "--log-level", "warn"}, scenarios...)
	cmd := exec.Command(rig, args...)
	cmd.Env = daemonEnv()
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	}
	t.Fatalf("boardd-rig: %v\n%s", err, out)
	return "", 0
}

// checkRigOutput fails the test unless every scenario passed.
func checkRigOutput(t *testing.T, out string, status int) {
	t.Helper()
	if status != 0 || !strings.Contains(out, "0 failed") {
		t.Fatalf("boardd-rig exited %d:\n%s", status, out)
	}
}

// TestRigAgainstBinary runs the real boardd binary on a serial board whose
// port is a pty, and the real rig (hwtest/cmd/rig) at the other end: a move made
// across an unplugged cable, then boardd killed with SIGKILL and started
// again, the game going on over a new link.
func TestRigAgainstBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, rig := buildBoardd(t), buildRig(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "board")
	state := filepath.Join(dir, "state")
	args := []string{"run", "--sensor", "serial:" + link, "--led", "serial:" + link, "--state-dir", state, "--listen", "127.0.0.1:0", "--log-level", "info"}
	d := startBoardd(t, bin, daemonEnv(), args...)

	out, status := runRigBinary(t, rig, link, rigScenario("unplug.jsonl"))
	t.Logf("boardd-rig:\n%s", out)
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
	out, status = runRigBinary(t, rig, link, rigScenario("resume.jsonl"))
	t.Logf("boardd-rig after the restart:\n%s", out)
	checkRigOutput(t, out, status)
	if strings.Contains(out, "not played") {
		t.Fatalf("the restarted boardd lost the game:\n%s\n%s", out, d2.stderr.String())
	}
	pgn, err := exec.Command(bin, "pgn", "--state-dir", state).Output()
	if err == nil && !strings.Contains(string(pgn), "1. e4 e5 2. Nf3 Nc6") {
		t.Errorf("pgn:\n%s", pgn)
	}
}

// TestRigRunsEveryScenarioInOneCommand runs the shipped scenarios together
// with one run of the rig, as a rig operator would: each starts from its own
// position, the rig starting a new game through the console (with the
// arbiter token from boardd's state directory) where boardd's game stands
// elsewhere.
func TestRigRunsEveryScenarioInOneCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary, and plays every scenario in real time")
	}
	bin, rig := buildBoardd(t), buildRig(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "board")
	state := filepath.Join(dir, "state")
	d := startBoardd(t, bin, daemonEnv(), "run", "--sensor", "serial:"+link, "--led", "serial:"+link, "--state-dir", state, "--listen", "127.0.0.1:0", "--log-level", "info")
	url := consoleURL(t, d)
	scenarios, err := filepath.Glob(rigScenario("*.jsonl"))
	if err != nil || len(scenarios) < 6 {
		t.Fatalf("scenarios %v (%v)", scenarios, err)
	}
	args := append([]string{"--console", url, "--state-dir", state}, scenarios...)
	out, status := runRigBinary(t, rig, link, args...)
	t.Logf("boardd-rig:\n%s", out)
	if strings.Contains(out, "not played") || !strings.Contains(out, fmt.Sprintf("%d scenarios: ", len(scenarios))) {
		t.Fatalf("exit %d: a scenario was not played\nboardd's log:\n%s", status, d.stderr.String())
	}
	if status != 0 {
		// The checks run in real time: on a machine busy with other tests
		// an LED frame may miss its deadline. Each scenario failed is
		// played once more, on its own, again from a new game.
		var again []string
		for _, m := range regexp.MustCompile(`(?m)^FAIL \S+ \((\S+)\)`).FindAllStringSubmatch(out, -1) {
			again = append(again, m[1])
		}
		out, status = runRigBinary(t, rig, link, append([]string{"--console", url, "--state-dir", state}, again...)...)
		t.Logf("boardd-rig, the scenarios that failed played again:\n%s", out)
		if want := fmt.Sprintf("%d scenarios: %d passed, 0 failed", len(again), len(again)); status != 0 || !strings.Contains(out, want) {
			t.Fatalf("exit %d, want 0 and %q\nboardd's log:\n%s", status, want, d.stderr.String())
		}
	}
	if n := strings.Count(d.stderr.String(), "action=new-game"); n < 3 {
		t.Errorf("the rig started %d new games, want one before each scenario that starts elsewhere", n)
	}

	// Without a console, a scenario that starts elsewhere is not played,
	// and the rig says why.
	out, status = runRigBinary(t, rig, link, "--console", "", rigScenario("fools-mate.jsonl"))
	if status != 1 || !strings.Contains(out, "not played: boardd's game stands at") || !strings.Contains(out, "let the rig start new games") {
		t.Errorf("without a console: exit %d\n%s", status, out)
	}
}

// consoleURL reads the console's address from boardd's log.
func consoleURL(t *testing.T, d *proc) string {
	t.Helper()
	re := regexp.MustCompile(`msg=console url=(http://\S+)`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(d.stderr.String()); m != nil {
			return m[1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("boardd logged no console address:\n%s", d.stderr.String())
	return ""
}
