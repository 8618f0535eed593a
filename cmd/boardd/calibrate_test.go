package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/boardd/boardd/calibration"
)

// simArgs run a command on the simulated board at full speed, the simulated
// person answering every question.
func simArgs(dir string, more ...string) []string {
	return append([]string{"--sim", "--sim-auto", "--sim-speed", "0", "--state-dir", dir}, more...)
}

func TestCalibrateAndSelftestCommands(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBoardd(t, nil, append([]string{"calibrate"}, simArgs(dir)...)...)
	if code != 0 || !strings.Contains(out, "Calibration saved to "+filepath.Join(dir, "calibration.json")) || !strings.Contains(out, "No weak or suspicious squares.") {
		t.Fatalf("calibrate: exit %d\n%s\n%s", code, out, errs)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"healthy", simArgs(dir), 0, []string{"no findings", "verdict: FIT for play"}},
		{"faults", simArgs(dir, "--sim-faults", "dead=e4,cross=c4+c3,deadled=f6"), 1, []string{
			"stuck-off  e4", "crosstalk  c4 c3", "dead-led   f6", "verdict: UNFIT for play: 3 faults on c3 c4 e4 f6"}},
		{"empty board only", simArgs(dir, "--no-walk", "--no-leds", "--sim-faults", "stuck=h3"), 1, []string{"stuck-on   h3"}},
		{"another board", []string{"--sim", "--sim-auto", "--sim-speed", "0", "--state-dir", dir, "--sim-seed", "2"}, 1, []string{
			"calibration was made on other hardware", `"sim analogue board (seed 1)"`, `"sim analogue board (seed 2)"`, "run 'boardd calibrate' to recalibrate"}},
		{"no calibration", simArgs(t.TempDir()), 1, []string{"no calibration", "the board was never calibrated; run 'boardd calibrate' to calibrate it"}},
		{"bad fault", simArgs(dir, "--sim-faults", "melted=e4"), 2, []string{`unknown kind "melted"`}},
		{"bad flag", []string{"--frobnicate"}, 2, []string{"flag provided but not defined"}},
	} {
		t.Run("selftest "+tc.name, func(t *testing.T) {
			code, out, errs := runBoardd(t, nil, append([]string{"selftest"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s\n%s", code, tc.code, out, errs)
			}
			for _, s := range tc.says {
				if !strings.Contains(out+errs, s) {
					t.Errorf("output does not say %q:\n%s\n%s", s, out, errs)
				}
			}
		})
	}
	t.Run("selftest --json", func(t *testing.T) {
		code, out, _ := runBoardd(t, nil, append([]string{"selftest"}, simArgs(dir, "--json", "--sim-faults", "swap=a2+b2")...)...)
		var rep struct {
			Fit      bool
			Findings []struct {
				Kind    string
				Squares []string
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("stdout is not the JSON report: %v\n%s", err, out)
		}
		if code != 1 || rep.Fit || len(rep.Findings) != 2 || rep.Findings[0].Kind != "crossed" {
			t.Errorf("exit %d, report %+v", code, rep)
		}
	})
	t.Run("corrupt file", func(t *testing.T) {
		path := filepath.Join(dir, "calibration.json")
		data, _ := os.ReadFile(path)
		if err := os.WriteFile(path, data[:len(data)-100], 0o640); err != nil {
			t.Fatal(err)
		}
		code, _, errs := runBoardd(t, nil, append([]string{"selftest"}, simArgs(dir)...)...)
		if code != 1 || !strings.Contains(errs, "calibration file is corrupt") || !strings.Contains(errs, "run 'boardd calibrate' to recalibrate") {
			t.Errorf("exit %d: %s", code, errs)
		}
	})
	t.Run("calibrate a faulty board", func(t *testing.T) {
		code, out, _ := runBoardd(t, nil, append([]string{"calibrate"}, simArgs(t.TempDir(), "--sim-faults", "dead=e4")...)...)
		if code != 1 || !strings.Contains(out, "stuck-off  e4") || !strings.Contains(out, "The board is not fit for play: repair e4") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
}

// ptyRun is the real boardd binary on a pseudo-terminal.
type ptyRun struct {
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  strings.Builder
	done chan error
	read chan struct{} // closed when the output has been read to its end
}

func startPTY(t *testing.T, bin string, args ...string) *ptyRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=dumb")
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	p := &ptyRun{cmd: cmd, tty: tty, done: make(chan error, 1), read: make(chan struct{})}
	go func() {
		defer close(p.read)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		tty.Close()
	})
	return p
}

func (p *ptyRun) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// expect waits until the output matches re, and returns the output.
func (p *ptyRun) expect(t *testing.T, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if out := p.output(); rx.MatchString(out) {
			return out
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %q in the output:\n%s", re, p.output())
	return ""
}

func (p *ptyRun) send(t *testing.T, text string) {
	t.Helper()
	if _, err := io.WriteString(p.tty, text); err != nil {
		t.Fatal(err)
	}
}

func (p *ptyRun) exit(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.done:
		select {
		case <-p.read: // the terminal drained: all the output is in
		case <-time.After(10 * time.Second):
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(120 * time.Second):
		t.Fatalf("boardd did not exit:\n%s", p.output())
		return -1
	}
}

// TestWizardThroughPTY runs the real binary on a pseudo-terminal as a
// person would: answers the wizard's question, interrupts it with Ctrl-C in
// the middle of the White walk, resumes it to the end, then runs the
// self-test and answers the LED walk from the picture of the board.
func TestWizardThroughPTY(t *testing.T) {
	bin := buildBoardd(t)
	dir := t.TempDir()

	p := startPTY(t, bin, "calibrate", "--sim", "--sim-speed", "20", "--state-dir", dir)
	p.expect(t, `Take every man off the board, then press Enter: $`)
	p.send(t, "\r")
	p.expect(t, `White \[[#.]{32}\] square 5 of 64: put a White man on e1`)
	p.send(t, "\x03") // Ctrl-C: SIGINT from the terminal
	if code := p.exit(t); code != 130 {
		t.Fatalf("interrupted calibrate: exit %d, want 130:\n%s", code, p.output())
	}
	out := p.output()
	m := regexp.MustCompile(`interrupted at (White|Black) walk, square (\d+) of 64; run 'boardd calibrate' again to resume`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no interruption message:\n%s", out)
	}
	if !strings.Contains(out, "\r\033[K") {
		t.Errorf("the status line is not redrawn in place on a terminal:\n%q", out[:min(len(out), 600)])
	}
	if _, err := os.Stat(filepath.Join(dir, calibration.ProgressFileName)); err != nil {
		t.Fatalf("no saved progress: %v", err)
	}

	p = startPTY(t, bin, "calibrate", "--sim", "--sim-speed", "0", "--state-dir", dir)
	p.expect(t, "Resuming the saved calibration: "+m[1]+" walk, square "+m[2]+" of 64")
	p.expect(t, `Calibration saved to`)
	if code := p.exit(t); code != 0 {
		t.Fatalf("resumed calibrate: exit %d:\n%s", code, p.output())
	}
	out = p.output()
	if strings.Contains(out, "Take every man off the board") {
		t.Errorf("the resumed wizard measured the empty board again")
	}
	for _, want := range []string{"Black [###############################.] square 64 of 64: now lift it", "LEDs: snaking rank by rank from a8", "No weak or suspicious squares."} {
		if !strings.Contains(out, want) {
			t.Errorf("resumed calibrate does not say %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, calibration.ProgressFileName)); err == nil {
		t.Errorf("progress file left behind after the calibration finished")
	}

	p = startPTY(t, bin, "selftest", "--sim", "--sim-speed", "0", "--state-dir", dir, "--sim-faults", "deadled=f6,noisy=b7")
	for r := 8; r >= 1; r-- {
		out := p.expect(t, `Rank `+string(rune('0'+r))+` is lit\. .*: $`)
		// Read the rank's row off the last picture, as a person would.
		rows := regexp.MustCompile(`(?m)^  `+string(rune('0'+r))+`  ([.*WB ]{15})\r?$`).FindAllStringSubmatch(out, -1)
		if rows == nil {
			t.Fatalf("no picture of rank %d:\n%s", r, out)
		}
		var dark []string
		for f, c := range strings.Fields(rows[len(rows)-1][1]) {
			if c != "*" {
				dark = append(dark, string(rune('a'+f))+string(rune('0'+r)))
			}
		}
		p.send(t, strings.Join(dark, " ")+"\r")
		p.expect(t, `Rank `+string(rune('0'+r))+` is lit\. .*: .*\n`)
	}
	p.expect(t, `Take every man off the board, then press Enter: $`)
	p.send(t, "\r")
	if code := p.exit(t); code != 1 {
		t.Fatalf("selftest: exit %d, want 1 (unfit):\n%s", code, p.output())
	}
	out = p.output()
	for _, want := range []string{"dead-led   f6", "noisy      b7", "verdict: UNFIT for play: 1 fault on f6"} {
		if !strings.Contains(out, want) {
			t.Errorf("selftest does not say %q:\n%s", want, out)
		}
	}
}
