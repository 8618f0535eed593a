package game

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go/parser"
	"go/token"
)

// moduleFiles returns the module's Go files (path relative to the module
// root, source), tests included.
func moduleFiles(t *testing.T) map[string]string {
	t.Helper()
	root := ".."
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("found %d Go files: the walk is broken", len(out))
	}
	return out
}

// The game has one door: the stages behind it (gesture, arbiter, and the
// clocks' timekeeper under game/internal) are imported by package game and
// by the stages after them in the line (the arbiter judges the gesture
// reader's readings), never by anyone else, tests of other packages
// included: what draws, serves, keeps or rules on a board's game goes
// through game. (No tool needs a stage alone today; one that does is named
// here with why.)
func TestNoPackageOutsideTheGameImportsAStage(t *testing.T) {
	allowed := map[string][]string{
		"github.com/boardd/boardd/gesture": {"game/", "gesture/", "arbiter/"},
		"github.com/boardd/boardd/arbiter": {"game/", "arbiter/"},
	}
	fset := token.NewFileSet()
	for path, src := range moduleFiles(t) {
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dirs, stage := allowed[p]
			if strings.HasPrefix(p, "github.com/boardd/boardd/game/internal") {
				dirs, stage = []string{"game/"}, true
			}
			if !stage {
				continue
			}
			ok := false
			for _, d := range dirs {
				ok = ok || strings.HasPrefix(path, d)
			}
			if !ok {
				t.Errorf("%s imports %s: only %s may (the game's one door)", path, p, strings.Join(dirs, ", "))
			}
		}
	}
}

// Each code's differences live with that code: outside lawset/, no code
// asks which law-set is in force by its id.
func TestNoLawSetBranchesOutsideTheLawSets(t *testing.T) {
	branch := regexp.MustCompile(`\.ID\s*(==|!=)\s*"(philidor1825|sarratt1808|nycc|hastings1895|fide2023)"|switch\s+[^{]*(laws|Laws\(\)|LawSet)\.ID\s*\{|case\s+"(philidor1825|sarratt1808|nycc|hastings1895|fide2023)"`)
	for path, src := range moduleFiles(t) {
		if strings.HasPrefix(path, "lawset/") || strings.HasSuffix(path, "_test.go") {
			continue
		}
		for i, line := range strings.Split(src, "\n") {
			if branch.MatchString(line) && !strings.Contains(line, "(not a law-set)") {
				t.Errorf("%s:%d branches on a law-set id: %s", path, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// Reports are typed: outside package report (their encoding), no code names
// a report type by a string literal.
func TestReportTypesAreTyped(t *testing.T) {
	literal := regexp.MustCompile(`(Type:\s*|\.Type\s*(==|!=)\s*)"(touch|adjust|move|irregularity|ruling|mismatch|synced|result|clock|end|press)"`)
	for path, src := range moduleFiles(t) {
		if strings.HasPrefix(path, "report/") || !strings.Contains(src, `"github.com/boardd/boardd/report"`) {
			continue // the encoding itself, or code that knows no reports (other protocols have types of their own)
		}
		for i, line := range strings.Split(src, "\n") {
			if literal.MatchString(line) {
				t.Errorf("%s:%d names a report type by a string: %s", path, i+1, strings.TrimSpace(line))
			}
		}
	}
}
