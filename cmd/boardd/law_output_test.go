package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
)

// TestLawScenarioOptionsNameRealSquares replays every law scenario and
// checks that every option boardd offers names at least one square, each a
// real one: the LEDs show an option by its squares, so an option with none,
// or with a placeholder such as "-", could not be shown to its chooser.
func TestLawScenarioOptionsNameRealSquares(t *testing.T) {
	paths := lawScenarioPaths(t)
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".trace"), func(t *testing.T) {
			lines, _ := runScenario(t, path)
			for _, l := range lines {
				if l["type"] != "irregularity" {
					continue
				}
				opts, _ := l["options"].([]any)
				for _, o := range opts {
					m, _ := o.(map[string]any)
					if err := realSquares(m["squares"]); err != nil {
						t.Errorf("t=%v %v: option %v: %v", l["t"], l["kind"], m["id"], err)
					}
				}
			}
		})
	}
}

// realSquares checks an option's squares as decoded from JSON: a non-empty
// list of squares that parse as squares of the board.
func realSquares(v any) error {
	sqs, ok := v.([]any)
	if !ok || len(sqs) == 0 {
		return fmt.Errorf("names no square (%v)", v)
	}
	for _, s := range sqs {
		name, _ := s.(string)
		if sq, err := board.ParseSquare(name); err != nil || !sq.Valid() {
			return fmt.Errorf("square %q is not a square of the board", s)
		}
	}
	return nil
}

func TestRealSquares(t *testing.T) {
	cases := []struct {
		name string
		in   any
		ok   bool
	}{
		{"two squares", []any{"e2", "e4"}, true},
		{"none", []any{}, false},
		{"absent", nil, false},
		{"placeholder", []any{"-"}, false},
		{"empty name", []any{"e2", ""}, false},
		{"off the board", []any{"i9"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := realSquares(c.in); (err == nil) != c.ok {
				t.Errorf("realSquares(%v) = %v, want ok %v", c.in, err, c.ok)
			}
		})
	}
}

// TestLawScenarioRemoteSideNeverChooses replays every law scenario that
// gives a side to a remote player (a "remote" line) and checks that no
// irregularity asks that side to choose, and that none names it as the
// offender for a man moved at the board: a side played from off the board
// has no hand there.
func TestLawScenarioRemoteSideNeverChooses(t *testing.T) {
	paths := lawScenarioPaths(t)
	found := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		remote := remoteSides(string(data))
		if len(remote) == 0 {
			continue
		}
		found++
		t.Run(strings.TrimSuffix(filepath.Base(path), ".trace"), func(t *testing.T) {
			lines, _ := runScenario(t, path)
			for _, l := range lines {
				if l["type"] != "irregularity" {
					continue
				}
				if c, _ := l["chooser"].(string); remote[c] {
					t.Errorf("t=%v %v: the choice is asked of %s, played from off the board", l["t"], l["kind"], c)
				}
				if o, _ := l["offender"].(string); remote[o] {
					t.Errorf("t=%v %v: %s, played from off the board, is named the offender", l["t"], l["kind"], o)
				}
			}
		})
	}
	if found == 0 {
		t.Fatal("no law scenario has a remote side")
	}
}

// remoteSides returns the sides a trace's "remote" lines give to a remote
// player.
func remoteSides(trace string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(trace, "\n") {
		var l struct {
			Remote string `json:"remote"`
		}
		if !strings.HasPrefix(strings.TrimSpace(line), "{") || json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		switch l.Remote {
		case "both":
			out["white"], out["black"] = true, true
		case "white", "black":
			out[l.Remote] = true
		}
	}
	return out
}

// TestLawScenarioCitesOnlyItsCode replays every law scenario and checks
// that every law its output cites belongs to the law-set it was replayed
// under: a ruling citing another code's article is wrong.
func TestLawScenarioCitesOnlyItsCode(t *testing.T) {
	paths := lawScenarioPaths(t)
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".trace"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			code := parseScenario(t, data).laws
			lines, _ := runScenario(t, path)
			for _, l := range lines {
				law, _ := l["law"].(string)
				if law != "" && !strings.HasPrefix(law, code+":") {
					t.Errorf("t=%v %v cites %s, not a law of %s", l["t"], l["type"], law, code)
				}
			}
		})
	}
}
