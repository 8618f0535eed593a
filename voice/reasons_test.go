package voice

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// resultReasons returns every reason a game can end with: the law-sets'
// own (a flag's fall for each side, a dead position) and the arbiter's,
// read from its source: each reason handed to finish or finishAs, as a
// string, a format (its verbs filled), a side's word joined to a string, or
// a variable given strings in the same function. A reason written any other
// way fails the test, which must then learn it.
func resultReasons(t *testing.T) []string {
	t.Helper()
	var reasons []string
	for _, ls := range lawset.All() {
		for _, side := range []board.Color{board.White, board.Black} {
			for _, canMate := range []bool{true, false} {
				reasons = append(reasons, ls.Flag(side, canMate).Reason)
			}
		}
		if ls.InsufficientReason != "" {
			reasons = append(reasons, ls.InsufficientReason)
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "arbiter", "*.go"))
	if err != nil || len(files) < 10 {
		t.Fatalf("the arbiter's sources: %d files (%v)", len(files), err)
	}
	fset := token.NewFileSet()
	calls := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "finish" && sel.Sel.Name != "finishAs") {
					return true
				}
				calls++
				arg := call.Args[2] // finish(t, result, reason, law)
				if sel.Sel.Name == "finishAs" {
					arg = call.Args[3] // finishAs(t, termination, result, reason, law)
				}
				got, ok := reasonValues(fn, arg)
				if !ok {
					t.Errorf("%s: a result's reason written as %T: teach resultReasons to read it", fset.Position(arg.Pos()), arg)
				}
				reasons = append(reasons, got...)
				return true
			})
		}
	}
	if calls < 10 {
		t.Fatalf("found %d calls of finish and finishAs in the arbiter: the scan is broken", calls)
	}
	return reasons
}

// reasonValues returns the strings expr can hold within fn, and whether
// resultReasons can read it. A law-set's reason (g.laws.X) is read from
// the law-sets; a parameter of fn is read at fn's calls.
func reasonValues(fn *ast.FuncDecl, expr ast.Expr) ([]string, bool) {
	switch e := expr.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return []string{s}, err == nil
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			if lit, ok := e.Args[0].(*ast.BasicLit); ok {
				format, err := strconv.Unquote(lit.Value)
				format = strings.NewReplacer("%d", "50", "%s", "White").Replace(format)
				return []string{format}, err == nil
			}
		}
	case *ast.BinaryExpr:
		if lit, ok := e.Y.(*ast.BasicLit); ok && e.Op == token.ADD {
			s, err := strconv.Unquote(lit.Value)
			return []string{"white" + s, "black" + s}, err == nil
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.SelectorExpr); ok && x.Sel.Name == "laws" {
			return nil, true
		}
	case *ast.Ident:
		for _, field := range fn.Type.Params.List {
			for _, name := range field.Names {
				if name.Name == e.Name {
					// A parameter: the callers' reasons are read at their
					// calls (Finish's, a flag's, from the law-sets).
					return nil, true
				}
			}
		}
		var values []string
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == e.Name {
				if lit, ok := as.Rhs[0].(*ast.BasicLit); ok {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						values = append(values, s)
					}
				}
			}
			return true
		})
		return values, len(values) > 0
	}
	return nil, false
}

// TestEveryResultReasonHasWords: every reason a game can end with is said
// in English and in German.
func TestEveryResultReasonHasWords(t *testing.T) {
	reasons := resultReasons(t)
	if len(reasons) < 30 {
		t.Fatalf("found %d reasons: the scan is broken", len(reasons))
	}
	for _, reason := range reasons {
		r := report.Report{Type: report.Result, Result: report.Draw, Reason: reason}
		for _, w := range []Words{{Lang: English}, {Lang: German}} {
			got := w.Result(r)
			if !strings.Contains(got, ": ") || strings.HasSuffix(got, ": .") {
				t.Errorf("%s: the reason %q is left unsaid: %q", w.Lang, reason, got)
			}
		}
	}
}

// TestGermanReasonWords checks the German words of reasons whose phrases
// overlap: the longer phrase decides.
func TestGermanReasonWords(t *testing.T) {
	for _, c := range []struct{ reason, want string }{
		{"Black's flag fell, but White cannot mate by any series of legal moves", "Zeit überschritten, aber der Gegner kann nicht mattsetzen"},
		{"White exceeded the time limit and forfeits the game", "Bedenkzeit überschritten, die Partie ist verloren"},
		{"stalemate: the stalemated player wins", "Patt: der Pattgesetzte gewinnt"},
		{"threefold repetition claimed on the move then made", "dreimalige Stellungswiederholung, beansprucht"},
		{"continual repetition of the same moves", "fortgesetzte Wiederholung derselben Züge"},
		{"second illegal move, but the opponent cannot mate", "zweiter regelwidriger Zug, aber der Gegner kann nicht mattsetzen"},
		{"black resigns", "Schwarz gibt auf"},
		{"something new", ""},
	} {
		if got := germanReason(c.reason); got != c.want {
			t.Errorf("germanReason(%q) = %q, want %q", c.reason, got, c.want)
		}
	}
	if got := fmt.Sprint((Words{Lang: German}).Result(report.Report{Type: report.Result, Result: report.WhiteWins, Reason: "black resigns"})); got != "Weiß gewinnt: Schwarz gibt auf." {
		t.Errorf("a resignation in German: %q", got)
	}
}
