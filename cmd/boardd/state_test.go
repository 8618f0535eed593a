package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/journal/journaltest"
)

// TestSavedGameRules runs the real binary on a state directory whose saved
// game, one move in, is under nycc: the flags that ask for other rules are
// refused with both named and the way out; without them the game goes on
// under its own law-set and every line of the log that names a law-set
// names nycc; --new-game archives it and begins a new game under the
// law-set asked for.
func TestSavedGameRules(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the boardd binary")
	}
	bin := buildBoardd(t)
	cfg := filepath.Join(t.TempDir(), "boardd.toml")
	if err := os.WriteFile(cfg, nil, 0o644); err != nil { // the defaults: fide2023
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		args     []string
		exit2    bool     // refused at start
		want     []string // in stderr
		laws     string   // the law-set in force: every laws= in the log
		archived bool     // game 1 archived
	}{
		{name: "--laws other than the saved game's is refused", args: []string{"--laws", "fide2023"}, exit2: true,
			want: []string{"the saved game 1", "--laws fide2023, and it is under nycc", "--new-game"}},
		{name: "--time-control other than the saved game's is refused", args: []string{"--time-control", "300+2"}, exit2: true,
			want: []string{"--time-control 300+2, and it has no clock"}},
		{name: "the saved game's own law-set goes on", args: []string{"--laws", "nycc"}, laws: "nycc"},
		{name: "a configuration for other rules: the game keeps its own, with a warning", laws: "nycc",
			want: []string{`level=WARN msg="the game in progress keeps its rules, not the configuration's`, "configured_laws=fide2023"}},
		{name: "--new-game archives the saved game and begins one under --laws", args: []string{"--laws", "fide2023", "--new-game"}, laws: "fide2023", archived: true,
			want: []string{`level=WARN msg="--new-game: the game in progress was archived unfinished; a new game begins" archived_game=1 archived_laws=nycc`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			pl := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
			if err := pl.Move("e2e4"); err != nil {
				t.Fatal(err)
			}
			playInto(t, dir, pl.Lines) // under nycc
			args := append([]string{"run", "--state-dir", dir, "--listen", "127.0.0.1:0", "--config", cfg}, c.args...)
			p := startBoardd(t, bin, daemonEnv(), args...)
			if c.exit2 {
				err := p.wait(t, 20*time.Second)
				if code := exitCode(err); code != 2 {
					t.Fatalf("exit %d (%v), want 2; stderr:\n%s", code, err, p.stderr.String())
				}
			} else {
				deadline := time.Now().Add(20 * time.Second)
				for !strings.Contains(p.stderr.String(), `msg="boardd running"`) {
					if time.Now().After(deadline) {
						t.Fatalf("boardd did not start; stderr:\n%s", p.stderr.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
				p.cmd.Process.Signal(os.Interrupt)
				if err := p.wait(t, 15*time.Second); err != nil {
					t.Fatalf("exit after SIGINT: %v\n%s", err, p.stderr.String())
				}
			}
			logs := p.stderr.String()
			for _, w := range c.want {
				if !strings.Contains(logs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, logs)
				}
			}
			if c.laws != "" {
				// Whatever names the law-set in force names c.laws: the
				// restore, the new game, "boardd running".
				for _, m := range regexp.MustCompile(`(?m)^.*msg="(?:game restored from the journal|new game|boardd running)".*$`).FindAllString(logs, -1) {
					if !strings.Contains(m, " laws="+c.laws) {
						if c.archived && strings.Contains(m, "game restored") {
							continue // the saved game, before it was archived
						}
						t.Errorf("a log line names another law-set than the one in force (%s):\n%s", c.laws, m)
					}
				}
				if !strings.Contains(logs, `msg="boardd running" laws=`+c.laws) {
					t.Errorf("the running line does not name %s:\n%s", c.laws, logs)
				}
			}
			_, err := os.Stat(filepath.Join(dir, "archive", "game-000001.pgn"))
			if archived := err == nil; archived != c.archived {
				t.Errorf("game 1 archived: %v, want %v", archived, c.archived)
			}
			if c.archived {
				pgn, _ := os.ReadFile(filepath.Join(dir, "archive", "game-000001.pgn"))
				if !strings.Contains(string(pgn), "1. e4") || !strings.Contains(string(pgn), `[LawSet "nycc"]`) {
					t.Errorf("the archived game is not the saved one:\n%s", pgn)
				}
			}
		})
	}
}

// exitCode is a finished process's exit status (0 for no error, -1 when it
// did not exit on its own).
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
