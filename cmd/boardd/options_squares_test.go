package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
)

// TestLawScenarioOptionsNameRealSquares replays every law scenario and
// checks that every option boardd offers names at least one square, each a
// real one: the LEDs show an option by its squares, so an option with none,
// or with a placeholder such as "-", could not be shown to its chooser.
func TestLawScenarioOptionsNameRealSquares(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "laws", "*.trace"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	sort.Strings(paths)
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
