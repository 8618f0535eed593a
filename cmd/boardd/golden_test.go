package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
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
	paths := lawScenarioPaths(t)
	dir := filepath.Join("..", "..", "testdata", "laws", "golden")
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".trace")
		t.Run(name, func(t *testing.T) {
			_, out := runScenario(t, path)
			// The same, with nothing on the command line but the trace:
			// its `# laws:` and `# flags:` lines must replay it alike.
			var bare, stderr bytes.Buffer
			env := &environment{stdin: strings.NewReader(""), stdout: &bare, stderr: &stderr, getenv: func(string) string { return "" }}
			if code := dispatch(context.Background(), env, []string{"replay", "--trace", path}); code != 0 || bare.String() != out {
				t.Errorf("boardd replay --trace %s alone (exit %d, %s) differs from the replay with the scenario's flags:\n--- with\n%s--- alone\n%s", path, code, stderr.String(), out, bare.String())
			}
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

// TestReplayDirectives: what the command line says wins over the trace's
// head, and a `# flags:` line that names no replay flag is refused with the
// file named.
func TestReplayDirectives(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	castling := "# laws: sarratt1808\n{\"t\":0,\"setup\":\"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"}\n{\"t\":0,\"lift\":\"e1\"}\n{\"t\":100,\"place\":\"e2\"}\n{\"t\":200,\"lift\":\"e2\"}\n{\"t\":300,\"place\":\"e1\"}\n"
	cases := []struct {
		name    string
		trace   string
		args    []string
		code    int
		stdout  []string
		stderr  string
		without string
	}{
		{name: "the trace's law-set", trace: castling, code: 0, stdout: []string{`LawSet \"sarratt1808\"`}},
		{name: "the command line's law-set wins", trace: castling, args: []string{"--laws", "nycc"}, code: 0, stdout: []string{`LawSet \"nycc\"`}, without: "sarratt1808"},
		{name: "not a replay flag", trace: "# flags: --engine stockfish\n", code: 2, stderr: `# flags: "--engine" is no replay flag`},
		{name: "a flag without its value", trace: "# flags: --time-control\n", code: 2, stderr: "# flags: --time-control wants a value"},
		{name: "a bad value", trace: "# flags: --time-control soon\n", code: 2, stderr: "time-control"},
		{name: "an unknown law-set", trace: "# laws: fide1999\n", code: 2, stderr: `unknown law-set "fide1999"`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := write(fmt.Sprintf("t%d.trace", i), c.trace)
			code, stdout, stderr := runBoardd(t, nil, append([]string{"replay", "--trace", path}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.code, stderr)
			}
			for _, want := range c.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %s:\n%s", want, stdout)
				}
			}
			if c.without != "" && strings.Contains(stdout, c.without) {
				t.Errorf("stdout has %s:\n%s", c.without, stdout)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, c.stderr)
			}
		})
	}
}
