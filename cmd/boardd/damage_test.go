package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
)

// TestPGNOfADamagedJournal runs boardd pgn on the journal of a game with
// slides, captures, castling and a promotion, damaged two ways: each line
// garbled beyond repair in turn (the header rebuilt) (blanked, every bit
// flipped), and the journal cut inside each move report (the move's input
// whole, as a power cut leaves it). Every ply is printed, as boardd run
// restores it, at most one lost per damaged line, and stderr names the
// damaged line.
func TestPGNOfADamagedJournal(t *testing.T) {
	lines, plies, err := journaltest.RichGame()
	if err != nil {
		t.Fatal(err)
	}
	clean := t.TempDir()
	playInto(t, clean, lines)
	data, err := os.ReadFile(filepath.Join(clean, journal.CurrentFile))
	if err != nil {
		t.Fatal(err)
	}
	code, want, errs := runCommand(t, "pgn", "--state-dir", clean)
	if code != 0 || errs != "" || !strings.Contains(want, "bxa8=Q") || !strings.Contains(want, "O-O O-O") {
		t.Fatalf("the clean journal: exit %d, stderr %q\n%s", code, errs, want)
	}
	if n := countPlies(want); n != plies {
		t.Fatalf("the clean journal prints %d plies, want %d", n, plies)
	}
	check := func(what string, bad []byte, line int) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, journal.CurrentFile), bad, 0o640); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCommand(t, "pgn", "--state-dir", dir)
		if code != 0 {
			t.Fatalf("%s: exit %d, stderr %s", what, code, errs)
		}
		got, wantPGN := out, want
		if line == 1 {
			// A header garbled past reading is rebuilt: its law-set is
			// the first with which the replay makes the journalled
			// reports, which every law-set does in this game.
			got, wantPGN = lawSetTag.ReplaceAllString(got, ""), lawSetTag.ReplaceAllString(want, "")
			if !strings.Contains(errs, "line 1 (the header") || !strings.Contains(errs, "rebuilt") {
				t.Errorf("%s: stderr does not say the header was rebuilt: %q", what, errs)
			}
		}
		if n := countPlies(out); n < plies-1 || n == plies && got != wantPGN {
			t.Errorf("%s: %d of %d plies printed:\n%s", what, n, plies, out)
		}
		if !strings.Contains(errs, fmt.Sprintf("line %d ", line)) && !strings.Contains(errs, fmt.Sprintf("line %d:", line)) {
			t.Errorf("%s: stderr does not name line %d: %q", what, line, errs)
		}
	}
	text := bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
	for i := 0; i < len(text); i++ {
		for _, mode := range []string{"blanked", "flipped"} {
			var bad []byte
			for k, l := range text {
				if k == i {
					l = bytes.Clone(l)
					for b := range l {
						if mode == "blanked" {
							l[b] = 'X'
						} else if l[b] = ^l[b]; l[b] == '\n' {
							l[b] = 0
						}
					}
				}
				bad = append(append(bad, l...), '\n')
			}
			check(fmt.Sprintf("line %d %s (%s)", i+1, mode, text[i]), bad, i+1)
		}
	}
	at, moves := 0, 0
	for i, l := range text {
		if bytes.Contains(l, []byte(`"type":"move"`)) {
			moves++
			for _, cut := range []int{1, len(l) / 2, len(l) - 1} {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, journal.CurrentFile), data[:at+cut], 0o640); err != nil {
					t.Fatal(err)
				}
				code, out, errs := runCommand(t, "pgn", "--state-dir", dir)
				if n := countPlies(out); code != 0 || n != moves || !strings.Contains(errs, "torn tail") {
					t.Errorf("line %d cut at byte %d: exit %d, %d plies printed, want %d (the move whose report was torn); stderr %q", i+1, cut, code, n, moves, errs)
				}
			}
		}
		at += len(l) + 1
	}
}

var lawSetTag = regexp.MustCompile(`(?m)^\[LawSet "[^"]*"\]\n`)

// runCommand runs boardd with args in this process and returns its exit
// status, stdout and stderr.
func runCommand(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &environment{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	code := dispatch(t.Context(), env, args)
	return code, out.String(), errb.String()
}

// countPlies counts the moves in a PGN's movetext (comments, move numbers
// and the result left out).
func countPlies(pgn string) int {
	_, text, _ := strings.Cut(pgn, "\n\n")
	n, depth := 0, 0
	for _, f := range strings.Fields(text) {
		switch {
		case strings.HasPrefix(f, "{"):
			depth++
		}
		if depth > 0 {
			if strings.HasSuffix(f, "}") {
				depth--
			}
			continue
		}
		switch f {
		case "*", "1-0", "0-1", "1/2-1/2":
			continue
		}
		if strings.HasSuffix(f, ".") {
			continue // a move number: 1. or 8...
		}
		n++
	}
	return n
}
