package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReplayWithoutTheCalibration: an analogue trace replays without its
// calibration as README and replay's help say: --calibration none, or a
// trace copied without the calibration its first line names, replays the
// occupancy recorded with the levels, with a warning; a calibration named
// on the command line that is not there is still a fault.
func TestReplayWithoutTheCalibration(t *testing.T) {
	copied := filepath.Join(t.TempDir(), "opening.trace")
	data, err := os.ReadFile(filepath.Join(repoRoot, "testdata/analog/opening.trace"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(repoRoot, "testdata/analog/opening.trace")
	cases := []struct {
		name  string
		args  []string
		code  int
		warns []string // on stderr
	}{
		{"--calibration none", []string{"--calibration", "none", "--trace", trace}, 0,
			[]string{"level=WARN", "replayed as the occupancy recorded with them"}},
		{"a trace copied without its calibration", []string{"--trace", copied}, 0,
			[]string{"the calibration the trace names is not there", filepath.Join(filepath.Dir(copied), "board.calibration.json"), "replayed as the occupancy recorded with them"}},
		{"the trace's own calibration", []string{"--trace", trace}, 0, nil},
		{"a --calibration file that is not there", []string{"--calibration", filepath.Join(t.TempDir(), "missing.json"), "--trace", trace}, 2,
			[]string{"boardd: --calibration: ", "missing.json: no such file"}},
	}
	moves := regexp.MustCompile(`"type":"move"[^\n]*"uci":"([a-h1-8]{4})"`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errText := runBoardd(t, nil, append([]string{"replay"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, errText)
			}
			for _, w := range c.warns {
				if !strings.Contains(errText, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errText)
				}
			}
			if c.code != 0 {
				return
			}
			if len(c.warns) == 0 && errText != "" {
				t.Errorf("stderr:\n%s", errText)
			}
			var got []string
			for _, m := range moves.FindAllStringSubmatch(out, -1) {
				got = append(got, m[1])
			}
			if strings.Join(got, " ") != "e2e4 e7e5 g1f3 b8c6" {
				t.Errorf("moves %v, want e2e4 e7e5 g1f3 b8c6", got)
			}
		})
	}
}

// TestRunHelpNamesTheHallAsREADMEDoes: run -h gives the hall's broker in
// the mqtts:// form README and docs/hall.md use, and still the mqtt://.
func TestRunHelpNamesTheHallAsREADMEDoes(t *testing.T) {
	code, out, errText := runBoardd(t, nil, "run", "-h")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	// The flag's description: from its line to the next flag's.
	_, hall, _ := strings.Cut(out, "\n  --hall string\n")
	if end := strings.Index(hall, "\n  --"); end >= 0 {
		hall = hall[:end]
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "--hall mqtts://") {
		t.Fatal("README no longer shows --hall mqtts://: this test's premise is gone")
	}
	if !strings.Contains(hall, "mqtts://") || !strings.Contains(hall, "mqtt://") {
		t.Errorf("run -h on --hall: %q, want mqtts:// (as README) and mqtt://", hall)
	}
}

// TestJournalSettingsAreRunFlags holds docs/journal.md's Settings table to
// boardd run: every flag it names is one run -h lists, and the page no
// longer says run has no flags for them.
func TestJournalSettingsAreRunFlags(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/journal.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, settings, ok := strings.Cut(string(doc), "\n## Settings\n")
	if !ok {
		t.Fatal("docs/journal.md has no Settings section")
	}
	if end := strings.Index(settings, "\n## "); end >= 0 {
		settings = settings[:end]
	}
	if strings.Contains(settings, "Until `boardd run` has flags") || strings.Contains(settings, "report to the lead") {
		t.Errorf("docs/journal.md's Settings still says boardd run has no flags for them:\n%s", settings)
	}
	code, help, errText := runBoardd(t, nil, "run", "-h")
	if code != 0 {
		t.Fatalf("run -h: exit %d: %s", code, errText)
	}
	flags := regexp.MustCompile("(?m)^\\| `(--[a-z-]+)` \\|").FindAllStringSubmatch(settings, -1)
	if len(flags) < 2 {
		t.Fatalf("the Settings table names %d flags, want its rows' flags:\n%s", len(flags), settings)
	}
	for _, f := range flags {
		if !strings.Contains(help, "\n  "+f[1]+" ") && !strings.Contains(help, "\n  "+f[1]+"\n") {
			t.Errorf("docs/journal.md names %s, which boardd run -h does not list", f[1])
		}
	}
}

// TestDocDrawingsAreWellFormed parses every SVG drawing in docs/ (building.md's
// matrix and square among them): a drawing a browser cannot read shows as
// a broken image, which the link check does not see.
func TestDocDrawingsAreWellFormed(t *testing.T) {
	svgs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(svgs) < 2 {
		t.Fatalf("found %d SVG drawings in docs/, want building-matrix.svg and building-square.svg at least", len(svgs))
	}
	for _, path := range svgs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(data))
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(path), err)
				break
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
				if se.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("%s: root element in namespace %q, want the SVG namespace", filepath.Base(path), se.Name.Space)
				}
			}
		}
		if root != "svg" {
			t.Errorf("%s: root element %q, want svg", filepath.Base(path), root)
		}
	}
}
