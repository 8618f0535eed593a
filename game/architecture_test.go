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

// The game has one door: no package outside game/ imports a stage behind
// it (the compiler refuses it for game/internal; this test says so).
func TestNoPackageOutsideTheGameImportsAStage(t *testing.T) {
	fset := token.NewFileSet()
	for path, src := range moduleFiles(t) {
		if strings.HasPrefix(path, "game/") {
			continue
		}
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, "github.com/boardd/boardd/game/internal") {
				t.Errorf("%s imports %s: only package game may", path, p)
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
