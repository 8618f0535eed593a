package lawset

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// expectedLawIDs lists, set by set, the id of every law the catalogue must
// carry: every numbered law of the four historical codes (and one entry per
// heading of the Hastings regulations), and the FIDE articles of 3.7, 4, 5,
// 6.9, 7 and 9 (with 6.2.1 and 6.11, which boardd's clock cites). The list
// is kept here, in the repository (numbers are facts about the codes, not
// their text), so that the test runs on every clone;
// TestLawListsMatchTheTexts checks it against the texts in ../shared/laws
// where they are, so that it cannot drift from them unnoticed.
func expectedLawIDs() map[string][]string {
	roman := func(n int) []string {
		numerals := []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
			"XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII"}
		return numerals[:n]
	}
	arabic := func(n int) []string {
		var out []string
		for i := 1; i <= n; i++ {
			out = append(out, strconv.Itoa(i))
		}
		return out
	}
	hastings := append(roman(13),
		"place-and-date", "prizes", "special-prizes", "entrance-fee", "order-of-play", "consolation",
		"score", "days-of-play", "hours-of-play", "time-limit", "differences", "absentees",
		"adjournments", "scores-of-the-games", "arrangements", "withdrawing",
		"tie-among-prize-winners", "modification")
	fide := []string{
		"3.7.1", "3.7.2", "3.7.3", "3.7.3.1", "3.7.3.2", "3.7.3.3", "3.7.3.4", "3.7.3.5",
		"4.1", "4.2.1", "4.2.2", "4.3", "4.3.1", "4.3.2", "4.3.3",
		"4.4.1", "4.4.2", "4.4.3", "4.4.4", "4.5", "4.6", "4.6.1", "4.6.2", "4.6.3",
		"4.7", "4.7.1", "4.7.2", "4.7.3", "4.8",
		"5.1.1", "5.1.2", "5.2.1", "5.2.2", "5.2.3",
		"6.2.1", "6.9", "6.11",
		"7.1", "7.2.1", "7.2.2", "7.3", "7.4.1", "7.4.2", "7.4.3",
		"7.5.1", "7.5.2", "7.5.3", "7.5.4", "7.5.5", "7.6",
		"9.1.1", "9.1.2.1", "9.1.2.2", "9.1.2.3", "9.2", "9.2.1", "9.2.1.1", "9.2.1.2", "9.2.2",
		"9.3", "9.3.1", "9.3.2", "9.4", "9.5", "9.5.1", "9.5.2", "9.5.3", "9.6", "9.6.1", "9.6.2", "9.7",
		"D.2.2", "D.2.3",
	}
	return map[string][]string{
		"philidor1825": roman(17),
		"sarratt1808":  arabic(25),
		"nycc":         roman(18),
		"hastings1895": hastings,
		"fide2023":     fide,
	}
}

// regulationHeadings are the headings of the Hastings 1895 tournament
// regulations, in the order printed; each has a hastings1895 entry titled
// so.
func regulationHeadings() []string {
	return []string{"Place and Date", "Prizes", "Special Prizes", "Entrance Fee", "Order of Play", "Consolation",
		"Score", "Days of Play", "Hours of Play", "Time Limit", "Differences between Players", "Absentees",
		"Adjournments", "Scores of the Games", "Arrangements between Players", "Withdrawing",
		"Tie among Prize Winners", "Modification of Regulations"}
}

func catalogueIDs(t *testing.T, set string) []string {
	t.Helper()
	laws, err := LawsOf(set)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(laws))
	for i, l := range laws {
		ids[i] = l.Number()
	}
	return ids
}

// lawTexts reads the historical codes from ../shared/laws (beside the
// repository, where the project keeps them; not in every clone), or skips.
func lawTexts(t *testing.T) map[string]string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "laws")
	files := map[string]string{
		"philidor1825": "philidor-1825.txt",
		"sarratt1808":  "sarratt-1808.txt",
		"nycc":         "new-york-chess-club.txt",
		"hastings1895": "hastings-1895.txt",
	}
	out := map[string]string{}
	for set, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("law texts not found (%v): the catalogue is checked against the list of law numbers kept in the repository (TestCatalogueCoversEveryNumberedLaw)", err)
		}
		out[set] = string(data)
	}
	return out
}

var (
	// "XII. The king cannot castle ..." (Philidor, and the Hastings rules).
	romanLead = regexp.MustCompile(`(?m)^([IVXL]+)\. `)
	// "13. If a player make a false move ..." (Sarratt).
	arabicLead = regexp.MustCompile(`(?m)^(\d+)\. `)
	// A line holding only "XII." (the New York code; one is printed "VII..").
	romanLine = regexp.MustCompile(`(?m)^([IVXL]+)\.+\s*$`)
	// "Time Limit. — Thirty moves ..." (the Hastings regulations).
	regulation = regexp.MustCompile(`(?m)^([A-Z][A-Za-z ]*?)\s*\.\s*—`)
	// "PRIZES." and "SPECIAL PRIZES." stand alone on their lines.
	prizeHeading = regexp.MustCompile(`(?m)^((?:SPECIAL )?PRIZES)\.\s*$`)
)

func submatches(re *regexp.Regexp, text string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestCatalogueCoversEveryNumberedLaw checks the catalogue against the
// list of law numbers and regulation headings kept in the repository: every
// law there, nothing else, in the order of the code. It needs no texts and
// runs on every clone.
func TestCatalogueCoversEveryNumberedLaw(t *testing.T) {
	expected := expectedLawIDs()
	for _, set := range IDs() {
		t.Run(set, func(t *testing.T) {
			got, want := catalogueIDs(t, set), expected[set]
			for _, n := range want {
				if !slices.Contains(got, n) {
					t.Errorf("%s:%s is missing from the catalogue", set, n)
				}
			}
			for _, n := range got {
				if !slices.Contains(want, n) {
					t.Errorf("%s:%s is in the catalogue but not in the expected list (a law number that does not exist?)", set, n)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: the catalogue is not in the order of the code:\n got %v\nwant %v", set, got, want)
			}
		})
	}
	if len(expected) != len(IDs()) {
		t.Errorf("the list names %d law-sets, boardd carries %d", len(expected), len(IDs()))
	}

	// The Hastings regulations: one entry per heading, its title the heading.
	laws, _ := LawsOf("hastings1895")
	var titles []string
	for _, l := range laws {
		if !isRoman(l.Number()) {
			titles = append(titles, l.Title)
		}
	}
	if want := regulationHeadings(); !slices.EqualFunc(titles, want, strings.EqualFold) {
		t.Errorf("the hastings1895 regulations are titled\n %q\nwant the headings\n %q", titles, want)
	}
}

// TestLawListsMatchTheTexts checks the lists the catalogue is checked
// against (law numbers, regulation headings) against the historical texts,
// where they are: the numbers and headings found in the texts must be those
// of the lists. It skips on a clone without the texts.
func TestLawListsMatchTheTexts(t *testing.T) {
	texts := lawTexts(t)
	expected := expectedLawIDs()
	cases := []struct {
		set  string
		re   *regexp.Regexp
		text string
	}{
		{"philidor1825", romanLead, texts["philidor1825"]},
		{"sarratt1808", arabicLead, texts["sarratt1808"]},
		{"nycc", romanLine, texts["nycc"]},
		{"hastings1895", romanLead, texts["hastings1895"]},
	}
	for _, c := range cases {
		found := submatches(c.re, c.text)
		var numbered []string
		for _, n := range expected[c.set] {
			if c.set != "hastings1895" || isRoman(n) {
				numbered = append(numbered, n)
			}
		}
		if !slices.Equal(found, numbered) {
			t.Errorf("%s: the text numbers its laws\n %v\nthe list in the repository has\n %v", c.set, found, numbered)
		}
	}
	text := texts["hastings1895"]
	headings := append(submatches(regulation, text), submatches(prizeHeading, text)...)
	headings = slices.DeleteFunc(headings, func(h string) bool { return h == "NOTE" }) // an addendum to the prizes and adjournments
	want := regulationHeadings()
	if len(headings) != len(want) {
		t.Errorf("found %d regulation headings in the text, want %d: %v", len(headings), len(want), headings)
	}
	for _, h := range headings {
		if !slices.ContainsFunc(want, func(w string) bool { return strings.EqualFold(w, h) }) {
			t.Errorf("the text's regulation %q is not in the list of headings", h)
		}
	}
}

func isRoman(s string) bool { return s != "" && strings.Trim(s, "IVXL") == "" }

// TestCatalogueEntries checks that every entry is complete and says how far
// boardd applies the law in the way the status claims.
func TestCatalogueEntries(t *testing.T) {
	seen := map[report.Law]bool{}
	sets := IDs()
	all := Catalogue()
	if len(all) < 150 {
		t.Fatalf("the catalogue has %d entries; every law of five codes is more", len(all))
	}
	for _, l := range all {
		if seen[l.ID] {
			t.Errorf("%s appears twice", l.ID)
		}
		seen[l.ID] = true
		if !slices.Contains(sets, l.Set()) || l.Number() == "" {
			t.Errorf("%q is not SET:NUMBER with a known set", l.ID)
		}
		for field, v := range map[string]string{"title": l.Title, "summary": l.Summary, "application": l.Application} {
			if strings.TrimSpace(v) == "" || strings.ContainsAny(v, "\n\t") {
				t.Errorf("%s: %s %q is empty or not one line", l.ID, field, v)
			}
		}
		if l.Summary == l.Application {
			t.Errorf("%s: the summary merely repeats the application", l.ID)
		}
		switch l.Status {
		case Applied, Partial, Outside:
			if strings.HasPrefix(l.Application, "planned:") {
				t.Errorf("%s: status %s but the application says planned", l.ID, l.Status)
			}
		case Planned:
			if !strings.HasPrefix(l.Application, "planned: ") {
				t.Errorf("%s: status planned but the application does not begin with %q", l.ID, "planned: ")
			}
		default:
			t.Errorf("%s: no status", l.ID)
		}
	}
}

func TestCatalogueLookups(t *testing.T) {
	tests := []struct {
		id    string
		found bool
		title string
	}{
		{"nycc:XII", true, "False moves"},
		{"sarratt1808:13", true, "False move"},
		{"fide2023:7.5.1", true, "Illegal move"},
		{"hastings1895:time-limit", true, "Time Limit"},
		{"philidor1825:XVI", true, "Stalemate"},
		{"nycc:XIX", false, ""},
		{"sarratt1808:26", false, ""},
		{"fide2023:7.7", false, ""}, // folded into 7.5.3 and 7.5.4 in 2018
		{"chess:1", false, ""},
		{"nycc", false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		l, ok := LawByID(report.Law(tt.id))
		if ok != tt.found || l.Title != tt.title {
			t.Errorf("LawByID(%q) = %q, %v; want %q, %v", tt.id, l.Title, ok, tt.title, tt.found)
		}
		if ok && (string(l.ID) != tt.id || l.Set()+":"+l.Number() != tt.id) {
			t.Errorf("LawByID(%q) returned %s (set %q, number %q)", tt.id, l.ID, l.Set(), l.Number())
		}
	}
	if _, err := LawsOf("fide2018"); err == nil || !strings.Contains(err.Error(), "fide2023, hastings1895, nycc, philidor1825, sarratt1808") {
		t.Errorf("LawsOf(unknown) error = %v, want one listing the known law-sets", err)
	}
	// The catalogue is built afresh: a caller's change does not leak.
	a := Catalogue()
	a[0].Summary = "changed"
	if b := Catalogue(); b[0].Summary == "changed" {
		t.Error("Catalogue returned shared state")
	}
	for s, want := range map[Status]string{Applied: "applied", Partial: "partial", Planned: "planned", Outside: "outside", 0: "status(0)", 9: "status(9)"} {
		if got := s.String(); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", s, got, want)
		}
	}
}

// lawLiteral matches a law id written as a Go string literal.
var lawLiteral = regexp.MustCompile(`"((?:philidor1825|sarratt1808|nycc|hastings1895|fide2023):[A-Za-z0-9][A-Za-z0-9.\-]*)"`)

// lawSetLaws lists every law a law-set names: in any field, at any depth
// (rules, the late check, the set-up claim, the count), and in the rulings
// of its flag and time penalties.
func lawSetLaws(ls *LawSet) []string {
	var ids []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.String:
			if v.Type() == reflect.TypeFor[report.Law]() {
				ids = append(ids, v.String())
			}
		}
	}
	c := *ls
	c.Laws = nil // the catalogue itself is what the ids are checked against
	walk(reflect.ValueOf(c))
	for _, side := range []board.Color{board.White, board.Black} {
		for _, canMate := range []bool{true, false} {
			ids = append(ids, string(ls.Flag(side, canMate).Law))
		}
	}
	if ls.TimePenalty != nil {
		for _, o := range []Offence{IllegalMove, IncorrectClaim} {
			if p, ok := ls.TimePenalty(o, false); ok {
				ids = append(ids, string(p.Law))
			}
		}
	}
	return slices.DeleteFunc(ids, func(s string) bool { return s == "" })
}

// TestEveryEmittedLawIsCatalogued checks every law id boardd can emit: the
// laws each law-set names, and every law id written as a string literal in
// the module's (non-test) Go sources. cmd/boardd's TestReplayedLawsAreCatalogued
// adds the laws in the output of every scenario in testdata/laws.
func TestEveryEmittedLawIsCatalogued(t *testing.T) {
	emitted := map[string]string{} // id -> where
	for _, ls := range All() {
		for _, law := range lawSetLaws(ls) {
			emitted[law] = "law-set " + ls.ID
		}
	}
	root := ".."
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		for _, id := range submatches(lawLiteral, string(data)) {
			emitted[id] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 || len(emitted) < 40 {
		t.Fatalf("scanned %d Go files and found %d law ids: the scan is broken", n, len(emitted))
	}
	var missing []string
	for id, where := range emitted {
		if _, ok := LawByID(report.Law(id)); !ok {
			missing = append(missing, id+" (in "+where+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s is emitted but not in the catalogue", m)
	}
}

func BenchmarkLawByID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := LawByID("fide2023:9.6.2"); !ok {
			b.Fatal("not found")
		}
	}
}

// scenarioOutputs reads the output of every law scenario as kept in
// ../testdata/laws/golden (cmd/boardd's TestLawScenarioOutputGolden keeps it
// equal to what `boardd replay` prints), scenario by scenario.
func scenarioOutputs(t *testing.T) map[string][]map[string]any {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "laws", "*.trace"))
	if err != nil || len(paths) < 80 {
		t.Fatalf("found %d law scenarios (%v)", len(paths), err)
	}
	out := map[string][]map[string]any{}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".trace")
		data, err := os.ReadFile(filepath.Join("..", "testdata", "laws", "golden", name+".jsonl"))
		if err != nil {
			t.Fatalf("%s: %v (write it with go test ./cmd/boardd -run TestLawScenarioOutputGolden -update)", name, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out[name] = append(out[name], m)
		}
	}
	return out
}

// optionWord is how an option id is written in an application: an
// election of one of several touched men, "move-touched-b1", is the
// option "move-touched-<square>".
func optionWord(id string) string {
	for _, prefix := range []string{string(report.OptMoveTouched) + "-", string(report.OptTakeTouched) + "-"} {
		if sq, ok := strings.CutPrefix(id, prefix); ok {
			if _, err := board.ParseSquare(sq); err == nil {
				return prefix + "<square>"
			}
		}
	}
	return id
}

// mentions reports whether text names word as a word of its own (not part
// of a longer id such as "move-touched" in "move-touched-<square>").
func mentions(text, word string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		before := j == 0 || !isIDByte(text[j-1])
		after := end == len(text) || !isIDByte(text[end]) || text[end] == '-' && !strings.HasPrefix(text[end:], "-<") && !isIDByte(text[min(end+1, len(text)-1)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIDByte(c byte) bool {
	return c == '-' || c == '<' || c == '>' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// TestScenariosCiteLawsThatDescribeThem checks the catalogue against what
// boardd does: every law a scenario's output cites is in the catalogue as
// applied or partial, and its application names the irregularity kind and
// every option boardd offered or ruled under it.
func TestScenariosCiteLawsThatDescribeThem(t *testing.T) {
	for name, lines := range scenarioOutputs(t) {
		for _, l := range lines {
			law, _ := l["law"].(string)
			if law == "" {
				continue
			}
			entry, ok := LawByID(report.Law(law))
			if !ok {
				t.Errorf("%s cites %s, which is not in the catalogue", name, law)
				continue
			}
			if entry.Status != Applied && entry.Status != Partial {
				t.Errorf("%s cites %s, marked %s", name, law, entry.Status)
			}
			var words []string
			switch l["type"] {
			case "irregularity":
				words = append(words, fmt.Sprint(l["kind"]))
				opts, _ := l["options"].([]any)
				for _, o := range opts {
					m, _ := o.(map[string]any)
					words = append(words, optionWord(fmt.Sprint(m["id"])))
				}
			case "ruling":
				words = append(words, optionWord(fmt.Sprint(l["option"])))
			}
			for _, w := range words {
				if !mentions(entry.Application, w) {
					t.Errorf("%s: %s %s under %s, whose application does not say %q: %s", name, l["type"], w, law, w, entry.Application)
				}
			}
		}
	}
}

// TestAppliedLawsHaveProof checks that every law marked applied names the
// scenarios or Go tests that show it, and that each exists.
func TestAppliedLawsHaveProof(t *testing.T) {
	testFuncs := map[string]string{} // "pkg.TestName" -> file
	for _, dir := range []string{"board", "gesture", "arbiter", "game", "clock", "game/internal/timekeeper", "lawset"} {
		files, _ := filepath.Glob(filepath.Join("..", dir, "*_test.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`).FindAllStringSubmatch(string(data), -1) {
				testFuncs[filepath.Base(dir)+"."+m[1]] = f
			}
		}
	}
	for _, l := range Catalogue() {
		if l.Status == Applied && len(l.Scenarios)+len(l.Tests) == 0 {
			t.Errorf("%s is marked applied but names no scenario or test that shows it", l.ID)
		}
		for _, s := range l.Scenarios {
			if _, err := os.Stat(filepath.Join("..", "testdata", "laws", s+".trace")); err != nil {
				t.Errorf("%s: scenario %s: %v", l.ID, s, err)
			}
		}
		for _, name := range l.Tests {
			// "arbiter.TestLaws/fide2023:9.3": the case of another law
			// that shows this one too.
			name, caseLaw, named := strings.Cut(name, "/")
			if !named {
				caseLaw = string(l.ID)
			}
			file, ok := testFuncs[name]
			if !ok {
				t.Errorf("%s: no Go test %s", l.ID, name)
				continue
			}
			// A table of cases named by law (arbiter.TestLaws) must have
			// one for this law.
			data, _ := os.ReadFile(file)
			if strings.Contains(string(data), "law: \"") && !strings.Contains(string(data), "law: \""+caseLaw+"\"") {
				t.Errorf("%s: %s has no case for %s", l.ID, name, caseLaw)
			}
		}
	}
}
