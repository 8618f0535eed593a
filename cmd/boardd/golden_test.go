package main

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// updateGolden rewrites testdata/laws/golden/*.jsonl from the current output:
// go test ./cmd/boardd -run TestLawScenarioOutputGolden -update.
var updateGolden = flag.Bool("update", false, "rewrite the law scenarios' golden outputs")

// TestLawScenarioOutputGolden checks that `boardd replay` prints, byte for
// byte, the output kept beside each law scenario. The expectations in the
// scenario say what matters for the law; this test shows every other change
// of output, so that a change is always one somebody meant (rerun with
// -update and review the diff).
func TestLawScenarioOutputGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "laws", "*.trace"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	sort.Strings(paths)
	dir := filepath.Join("..", "..", "testdata", "laws", "golden")
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".trace")
		t.Run(name, func(t *testing.T) {
			_, out := runScenario(t, path)
			golden := filepath.Join(dir, name+".jsonl")
			if *updateGolden {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (create it with -update)", err)
			}
			if string(want) != out {
				t.Errorf("output differs from %s:\n--- want\n%s--- got\n%s", golden, want, out)
			}
		})
	}
}
