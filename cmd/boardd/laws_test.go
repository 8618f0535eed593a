package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// runBoardd runs `boardd args...` in process with the environment given.
func runBoardd(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }}
	code = dispatch(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func TestLawsCommandText(t *testing.T) {
	tests := []struct {
		name     string
		vars     map[string]string
		args     []string
		code     int
		contains []string // in stdout
		errs     []string // in stderr
		width    int      // no stdout line longer than this (0: not checked)
	}{
		{name: "list", args: []string{"laws"}, code: 0,
			contains: []string{"sarratt1808   1808 25", "philidor1825  1825 17", "nycc          1850 18", "hastings1895  1895 31", "fide2023      2023", "boardd laws ID"}},
		{name: "one set", args: []string{"laws", "sarratt1808"}, code: 0, width: 80,
			contains: []string{"sarratt1808: Sarratt's Laws of Chess (1808)", "25 laws:", "\nsarratt1808:13  False move  [applied]\n", "    boardd: false-move (sarratt1808:13)", "\nsarratt1808:19  Check unnoticed for several moves  [applied]\n", "    boardd: The checked player notices it"}},
		{name: "a partial law", args: []string{"laws", "nycc:XVI"}, code: 0, width: 80,
			contains: []string{"nycc:XVI  Games at odds  [partial]\n", "are not applied"}},
		{name: "width flag after the id", args: []string{"laws", "fide2023", "--width", "50"}, code: 0, width: 50,
			contains: []string{"fide2023:9.6.2  Seventy-five moves  [applied]"}},
		{name: "COLUMNS", vars: map[string]string{"COLUMNS": "60"}, args: []string{"laws", "hastings1895"}, code: 0, width: 60,
			contains: []string{"hastings1895:time-limit  Time Limit  [applied]", "hastings1895:arrangements"}},
		{name: "one law", args: []string{"laws", "nycc:XII"}, code: 0, width: 80,
			contains: []string{"nycc:XII  False moves  [applied]", "boardd: false-move, own-capture and moved-adverse-man (nycc:XII)"}},
		{name: "narrow width clamped", args: []string{"laws", "--width", "20", "sarratt1808:21"}, code: 0, width: 40,
			contains: []string{"sarratt1808:21  [applied]\n    Claims lapse once the claimant plays\n"}},
		{name: "unknown set", args: []string{"laws", "fide2018"}, code: 2,
			errs: []string{`unknown law-set "fide2018"`, "fide2023, hastings1895, nycc, philidor1825, sarratt1808"}},
		{name: "unknown law", args: []string{"laws", "nycc:XIX"}, code: 2,
			errs: []string{`no law "nycc:XIX"`, "sarratt1808, philidor1825, nycc, hastings1895, fide2023"}},
		{name: "two ids", args: []string{"laws", "nycc", "fide2023"}, code: 2, errs: []string{"one law-set or law id at a time"}},
		{name: "bad flag", args: []string{"laws", "--colour"}, code: 2, errs: []string{"flag provided but not defined"}},
		{name: "help", args: []string{"laws", "-h"}, code: 0, contains: []string{"usage: boardd laws", "--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runBoardd(t, tt.vars, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
			for _, want := range tt.contains {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			for _, want := range tt.errs {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errs)
				}
			}
			if tt.width > 0 {
				for _, line := range strings.Split(out, "\n") {
					if len(line) > tt.width && strings.Contains(strings.TrimSpace(line), " ") {
						t.Errorf("line of %d columns (width %d): %q", len(line), tt.width, line)
					}
				}
			}
		})
	}
}

// TestLawsCommandEveryLaw checks that `boardd laws SET` prints every law of
// the catalogue, whole: its id, title, status, and every word of its summary
// and application.
func TestLawsCommandEveryLaw(t *testing.T) {
	for _, set := range lawset.IDs() {
		code, out, errs := runBoardd(t, nil, "laws", set)
		if code != 0 {
			t.Fatalf("boardd laws %s: exit %d: %s", set, code, errs)
		}
		laws, err := lawset.LawsOf(set)
		if err != nil {
			t.Fatal(err)
		}
		words := strings.Join(strings.Fields(out), " ")
		for _, l := range laws {
			head := "\n" + string(l.ID) + "  " + l.Title + "  [" + l.Status.String() + "]\n"
			if len(head) > 82 {
				head = "\n" + string(l.ID) + "  [" + l.Status.String() + "]\n    " + l.Title + "\n"
			}
			if !strings.Contains(out, head) {
				t.Errorf("boardd laws %s: no heading %q", set, strings.TrimSpace(head))
			}
			for _, text := range []string{l.Summary, "boardd: " + l.Application} {
				if !strings.Contains(words, strings.Join(strings.Fields(text), " ")) {
					t.Errorf("boardd laws %s: %s: text lost in wrapping: %q", set, l.ID, text)
				}
			}
		}
	}
}

func TestLawsCommandJSON(t *testing.T) {
	code, out, errs := runBoardd(t, nil, "laws", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sets []lawSetJSON
	if err := json.Unmarshal([]byte(out), &sets); err != nil {
		t.Fatalf("boardd laws --json: %v\n%s", err, out)
	}
	if len(sets) != 5 {
		t.Fatalf("%d sets, want 5", len(sets))
	}
	for i, id := range lawset.IDs() {
		s := sets[i]
		laws, _ := lawset.LawsOf(id)
		total := 0
		for _, n := range s.Status {
			total += n
		}
		if s.ID != id || s.Year == 0 || s.Name == "" || s.Count != len(laws) || total != s.Count || s.Laws != nil {
			t.Errorf("set %d = %+v, want %s with %d laws counted and none listed", i, s, id, len(laws))
		}
	}

	code, out, errs = runBoardd(t, nil, "laws", "nycc", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var set lawSetJSON
	if err := json.Unmarshal([]byte(out), &set); err != nil {
		t.Fatalf("boardd laws nycc --json: %v\n%s", err, out)
	}
	laws, _ := lawset.LawsOf("nycc")
	if set.ID != "nycc" || len(set.Laws) != len(laws) {
		t.Fatalf("nycc: %d laws, want %d", len(set.Laws), len(laws))
	}
	for i, l := range laws {
		if !reflect.DeepEqual(set.Laws[i], lawJSON(l)) {
			t.Errorf("law %d = %+v, want %+v", i, set.Laws[i], lawJSON(l))
		}
	}

	code, out, _ = runBoardd(t, nil, "laws", "--json", "fide2023:9.6.1")
	var one lawEntryJSON
	if err := json.Unmarshal([]byte(out), &one); code != 0 || err != nil || one.ID != "fide2023:9.6.1" || one.Status != "applied" {
		t.Errorf("boardd laws --json fide2023:9.6.1: exit %d, %v, %+v", code, err, one)
	}
}

// scenarioHeader reads a law scenario's law-set and flags.
func scenarioHeader(t *testing.T, path string) (laws string, flags []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if v, ok := strings.CutPrefix(line, "# laws:"); ok {
			laws = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "# flags:"); ok {
			flags = strings.Fields(v)
		}
	}
	return laws, flags
}

// TestReplayedLawsAreCatalogued replays every scenario in testdata/laws
// under its own law-set and under every other one, and checks that each law
// id in the output is in the catalogue (lawset's
// TestEveryEmittedLawIsCatalogued covers the ids in the sources).
func TestReplayedLawsAreCatalogued(t *testing.T) {
	paths := lawScenarioPaths(t)
	seen := map[string]string{} // law id -> a replay that emitted it
	own := 0
	for _, path := range paths {
		laws, flags := scenarioHeader(t, path)
		for _, set := range lawset.IDs() {
			args := append([]string{"replay", "--trace", path, "--laws", set}, flags...)
			code, out, errs := runBoardd(t, nil, args...)
			if code != 0 {
				if set == laws {
					t.Errorf("boardd %s: exit %d: %s", strings.Join(args, " "), code, errs)
				}
				continue // a scenario may make no sense under another code
			}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var r struct {
					Law string `json:"law"`
				}
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("boardd %s: output line %q: %v", strings.Join(args, " "), line, err)
				}
				if r.Law == "" {
					continue // a result no law of the set covers says so in its reason
				}
				if set == laws {
					own++
				}
				if _, ok := seen[r.Law]; !ok {
					seen[r.Law] = filepath.Base(path) + " under " + set
				}
			}
		}
	}
	t.Logf("%d scenarios, %d law ids in their own replays, %d distinct ids under every law-set", len(paths), own, len(seen))
	if own < len(paths) || len(seen) < 30 {
		t.Fatalf("%d law ids in the scenarios' own replays, %d distinct: the replays are not producing rulings", own, len(seen))
	}
	for id, where := range seen {
		if !strings.HasPrefix(id, strings.SplitN(where, " under ", 2)[1]+":") {
			t.Errorf("%s (from %s) cites another law-set's law", id, where)
		}
		if _, ok := lawset.LawByID(report.Law(id)); !ok {
			t.Errorf("%s (emitted by %s) is not in the catalogue", id, where)
		}
	}
}
