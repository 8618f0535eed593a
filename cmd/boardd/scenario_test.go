package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A law scenario is a trace in testdata/laws/ whose comment lines say which
// law-set to replay it under and what boardd must report:
//
//	# laws: sarratt1808
//	# flags: --tournament
//	# expect: irregularity kind=touch-move law=sarratt1808:7 options=stand,move-touched
//	# expect-not: irregularity
//	# expect: end fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1
//	# warn-only: irregularity kind=touch-move law=sarratt1808:7 chooser=warn-only options=move-touched
//	# warn-only-not: ruling
//
// Expectations must appear in order (other lines may come between them);
// each key=value must equal the output line's field (options compares the
// option ids in order; an underscore in a value stands for a space). expect-not lines must match no output line at all.
// warn-only and warn-only-not lines are the same for a second replay of the
// trace with --warn-only added (docs/laws.md#warn-only): what the
// scenario's irregularities become when no penalty is exacted.
type scenario struct {
	laws       string
	flags      []string
	expect     []expectation
	absent     []expectation
	warn       []expectation
	warnAbsent []expectation
	comment    string
}

type expectation struct {
	typ    string
	fields map[string]string
	text   string
}

func parseScenario(t *testing.T, data []byte) scenario {
	t.Helper()
	var sc scenario
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if !strings.HasPrefix(line, "#") {
			continue
		}
		body := strings.TrimSpace(strings.TrimPrefix(line, "#"))
		key, rest, ok := strings.Cut(body, ":")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		switch key {
		case "laws":
			sc.laws = rest
		case "flags":
			sc.flags = strings.Fields(rest)
		case "expect", "expect-not", "warn-only", "warn-only-not":
			parts := strings.Fields(rest)
			if len(parts) == 0 {
				t.Fatalf("empty %s line", key)
			}
			e := expectation{typ: parts[0], fields: map[string]string{}, text: rest}
			for _, p := range parts[1:] {
				k, v, _ := strings.Cut(p, "=")
				e.fields[k] = strings.ReplaceAll(v, "_", " ") // FENs are written with _ for spaces
			}
			switch key {
			case "expect":
				sc.expect = append(sc.expect, e)
			case "expect-not":
				sc.absent = append(sc.absent, e)
			case "warn-only":
				sc.warn = append(sc.warn, e)
			default:
				sc.warnAbsent = append(sc.warnAbsent, e)
			}
		default:
			if sc.comment == "" {
				sc.comment = body
			}
		}
	}
	if sc.laws == "" {
		t.Fatal("scenario has no '# laws:' line")
	}
	return sc
}

func (e expectation) matches(line map[string]any) bool {
	if line["type"] != e.typ {
		return false
	}
	for k, want := range e.fields {
		got, ok := line[k]
		if k == "options" {
			opts, _ := got.([]any)
			var ids []string
			for _, o := range opts {
				m, _ := o.(map[string]any)
				ids = append(ids, fmt.Sprint(m["id"]))
			}
			if strings.Join(ids, ",") != want {
				return false
			}
			continue
		}
		if !ok {
			if want != "" {
				return false
			}
			continue
		}
		if fmt.Sprint(got) != want {
			return false
		}
	}
	return true
}

func runScenario(t *testing.T, path string, extra ...string) ([]map[string]any, string) {
	t.Helper()
	args := []string{"replay", "--trace", path}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := parseScenario(t, data)
	args = append(args, "--laws", sc.laws)
	args = append(args, sc.flags...)
	args = append(args, extra...)
	var stdout, stderr bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := dispatch(context.Background(), env, args); code != 0 {
		t.Fatalf("boardd %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines, stdout.String()
}

// TestLawScenarios replays every scenario in testdata/laws through the real
// `boardd replay` entry point and checks what it reports.
func TestLawScenarios(t *testing.T) {
	paths := lawScenarioPaths(t)
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".trace"), func(t *testing.T) {
			data, _ := os.ReadFile(path)
			sc := parseScenario(t, data)
			lines, raw := runScenario(t, path)
			checkScenario(t, sc.comment, lines, raw, sc.expect, sc.absent)
			if len(sc.warn) == 0 && len(sc.warnAbsent) == 0 {
				return
			}
			lines, raw = runScenario(t, path, "--warn-only")
			checkScenario(t, sc.comment+" (--warn-only)", lines, raw, sc.warn, sc.warnAbsent)
		})
	}
}

// checkScenario holds a replay's output lines to a scenario's expectations
// (in order) and to what it must not report.
func checkScenario(t *testing.T, comment string, lines []map[string]any, raw string, expect, absent []expectation) {
	t.Helper()
	i := 0
	for _, e := range expect {
		for i < len(lines) && !e.matches(lines[i]) {
			i++
		}
		if i == len(lines) {
			t.Fatalf("%s\nexpected, in order: %s\noutput:\n%s", comment, e.text, raw)
		}
		i++
	}
	for _, e := range absent {
		for _, l := range lines {
			if e.matches(l) {
				t.Fatalf("%s\nexpected no line matching: %s\noutput:\n%s", comment, e.text, raw)
			}
		}
	}
	if last := lines[len(lines)-1]; last["type"] != "end" {
		t.Fatalf("last line is %v, want end", last["type"])
	}
}

// TestReplayRefusesWarnOnlyInATournament: `boardd replay` refuses
// --warn-only with --tournament, naming both, with exit status 2, whether
// the command line or the trace's # flags: line gives them.
func TestReplayRefusesWarnOnlyInATournament(t *testing.T) {
	trace := filepath.Join("..", "..", "testdata", "laws", "sarratt1808-tournament-touch-move.trace")
	for _, args := range [][]string{
		{"replay", "--warn-only", "--tournament", "--trace", "-"},
		{"replay", "--warn-only", "--trace", trace}, // the trace's own # flags: --tournament
	} {
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		code := dispatch(context.Background(), env, args)
		if code != 2 || !strings.Contains(stderr.String(), "--warn-only and --tournament together") || stdout.Len() != 0 {
			t.Errorf("boardd %s: exit %d, stderr %q, %d bytes out; want exit 2 naming --warn-only and --tournament, nothing out", strings.Join(args, " "), code, stderr.String(), stdout.Len())
		}
	}
}

// lawScenarioPaths returns the law scenarios in testdata/laws, sorted; no
// scenario at all fails the test.
func lawScenarioPaths(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "laws", "*.trace"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	sort.Strings(paths)
	return paths
}
