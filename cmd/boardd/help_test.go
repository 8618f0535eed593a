package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every command's help: asked for with -h, --help or `boardd help NAME`,
// it goes to stdout with exit status 0 and says what the command does in a
// line, how to call it, its flags in titled groups (none left over) and
// examples; a bad flag is a usage error on stderr with exit status 2.
func TestEveryCommandHelp(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			var first string
			for _, args := range [][]string{{c.name, "-h"}, {c.name, "--help"}, {"help", c.name}} {
				code, out, errs := runBoardd(t, nil, args...)
				if code != 0 || errs != "" {
					t.Fatalf("boardd %s: exit %d, stderr %q; want 0 and nothing on stderr", strings.Join(args, " "), code, errs)
				}
				if first == "" {
					first = out
				} else if out != first {
					t.Errorf("boardd %s prints another help than boardd %s -h", strings.Join(args, " "), c.name)
				}
			}
			out := first
			head, _, _ := strings.Cut(out, "\n\n")
			if want := "boardd " + c.name + ": " + c.summary; strings.Join(strings.Fields(head), " ") != want {
				t.Errorf("help begins %q, want the one-line description %q", head, want)
			}
			for _, want := range []string{"\nusage: boardd " + c.name, "\nExamples:\n  "} {
				if !strings.Contains(out, want) {
					t.Errorf("help lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "\nOther flags:") {
				t.Errorf("a flag is in no group:\n%s", out)
			}
			if n := strings.Count(out, "\n  --"); n > 3 && strings.Count(out, ":\n  --") < 2 {
				t.Errorf("%d flags in one group: group them", n)
			}
			inExamples := false
			for _, line := range strings.Split(out, "\n") {
				inExamples = inExamples || line == "Examples:"
				if !inExamples && len(line) > helpColumns {
					t.Errorf("line of %d columns: %q", len(line), line)
				}
			}

			code, out, errs := runBoardd(t, nil, c.name, "--no-such-flag")
			if code != 2 || out != "" {
				t.Errorf("boardd %s --no-such-flag: exit %d, stdout %q; want 2 and nothing on stdout", c.name, code, out)
			}
			for _, want := range []string{"usage: boardd " + c.name, "Run 'boardd " + c.name + " -h' for help."} {
				if !strings.Contains(errs, want) {
					t.Errorf("boardd %s --no-such-flag: stderr lacks %q:\n%s", c.name, want, errs)
				}
			}
		})
	}
}

// Usage errors other than flags: arguments where none are taken, a missing
// one, options that exclude each other.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"run", "extra"},
		{"replay", "extra.trace"},
		{"hall", "extra"},
		{"ports", "extra"},
		{"fen", "extra"},
		{"pgn", "--list", "--game", "2"},
		{"config"},
		{"config", "check"},
		{"config", "check", "a.toml", "b.toml"},
		{"laws", "nycc", "fide2023"},
		{"version", "extra"},
		{"calibrate", "extra"},
		{"selftest", "extra"},
	} {
		code, out, errs := runBoardd(t, nil, args...)
		if code != 2 || out != "" || !strings.Contains(errs, "usage: boardd") {
			t.Errorf("boardd %s: exit %d, stdout %q, stderr %q; want 2, nothing, and the usage", strings.Join(args, " "), code, out, errs)
		}
	}
}

// boardd's own help lists every command; -h and help are asked for (stdout,
// 0), a bare boardd is a usage error (stderr, 2).
func TestTopLevelHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		code, out, errs := runBoardd(t, nil, args...)
		if code != 0 || errs != "" {
			t.Fatalf("boardd %s: exit %d, stderr %q", args[0], code, errs)
		}
		for _, c := range commands() {
			if !strings.Contains(out, "\n  "+c.name+" ") {
				t.Errorf("boardd %s does not list %s:\n%s", args[0], c.name, out)
			}
		}
	}
}

// boardd version and --version print the version, the commit and its
// date, and the Go release; built by `go build` in a clone, the commit is
// the clone's.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := runBoardd(t, nil, args...)
		if code != 0 || errs != "" || !regexp.MustCompile(`^boardd \S+\ncommit .+\ndate   .+\ngo     go\S* \w+/\w+\n$`).MatchString(out) {
			t.Errorf("boardd %s: exit %d, stderr %q, stdout:\n%s", args[0], code, errs, out)
		}
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	head, err := exec.Command(git, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git clone: %v", err)
	}
	// -buildvcs=true whatever GOFLAGS says: a release is built so.
	bin := filepath.Join(t.TempDir(), "boardd")
	if msg, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		if strings.Contains(string(msg), "VCS") {
			t.Skipf("go cannot read the clone's git status here: %s", msg)
		}
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "commit unknown") {
		// go stamps no VCS information in a git worktree (a .git file,
		// not a directory); a clone, as CI makes, has it.
		t.Logf("boardd --version built here:\n%s", out)
	} else if want := "commit " + strings.TrimSpace(string(head)); !strings.Contains(string(out), want) {
		t.Errorf("boardd --version of a build in the clone:\n%s\nwant %q", out, want)
	} else if !regexp.MustCompile(`\ndate   \d{4}-\d\d-\d\dT`).Match(out) {
		t.Errorf("boardd --version names no commit date:\n%s", out)
	}

	// A release names its version at link time.
	rel := filepath.Join(t.TempDir(), "boardd")
	if msg, err := exec.Command("go", "build", "-o", rel, "-ldflags", "-X main.version=v9.8.7", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	if out, err := exec.Command(rel, "version").Output(); err != nil || !strings.HasPrefix(string(out), "boardd v9.8.7\n") {
		t.Errorf("boardd version of a release build: %v\n%s", err, out)
	}
}

// selftest on a board never calibrated says so, and leaves nothing behind:
// no state directory is made.
func TestSelftestNeverCalibrated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	code, out, errs := runBoardd(t, nil, append([]string{"selftest"}, simArgs(dir)...)...)
	if code != 1 || !strings.Contains(errs, "the board was never calibrated; run 'boardd calibrate' to calibrate it") || strings.Contains(errs, "recalibrate") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("selftest made %s (%v)", dir, err)
	}
}
