package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// lawIDs lists the law-set ids for flag help texts.
func lawIDs() string { return strings.Join(lawset.IDs(), ", ") }

// runLaws is `boardd laws [--json] [--width N] [SET | SET:NUMBER]`: the
// law-sets, every law of one set with how boardd applies it, or one law.
func runLaws(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "laws",
		usage: []string{"laws [--json] [--width N] [SET | SET:NUMBER]"},
		about: "Without an argument, lists the law-sets boardd carries (" + lawIDs() + ") with their year and number of laws. With a law-set id, prints every law of it: a summary in boardd's own words, how boardd applies it, and whether it is applied, partly applied, planned, or outside what a board can sense. With a law id such as nycc:XII or fide2023:7.5.1, prints that law alone. Flags may come before or after the id.",
		groups: []flagGroup{
			{"Output", []string{"json", "width"}},
		},
		examples: []string{
			"boardd laws                    # the five law-sets",
			"boardd laws sarratt1808        # every law of Sarratt's code",
			"boardd laws fide2023:7.5.1     # one law",
			"boardd laws nycc --json        # for tools",
		},
	}
	fs := h.flags()
	asJSON := fs.Bool("json", false, "print JSON for tools instead of text")
	width := fs.Int("width", 0, "wrap text at this many columns, at least 40 (default: $COLUMNS, else 80)")
	// Flags may come before or after the id.
	var rest []string
	for {
		if code, ok := h.parse(env, fs, args); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(rest) > 1 {
		return h.fail(env, "one law-set or law id at a time, not %q", strings.Join(rest, " "))
	}
	cols := *width
	if cols == 0 {
		cols, _ = strconv.Atoi(env.getenv("COLUMNS"))
	}
	switch {
	case cols <= 0:
		cols = 80
	case cols < 40:
		cols = 40 // narrower helps nobody
	}
	var (
		out any
		err error
	)
	switch {
	case len(rest) == 0:
		out = lawSetList()
	case strings.Contains(rest[0], ":"):
		law, ok := lawset.LawByID(report.Law(rest[0]))
		if !ok {
			fmt.Fprintf(env.stderr, "boardd laws: no law %q in the catalogue; run 'boardd laws SET' for a law-set's ids (law-sets: %s)\n", rest[0], lawIDs())
			return 2
		}
		out = lawJSON(law)
	default:
		if out, err = lawSetDetail(rest[0]); err != nil {
			fmt.Fprintf(env.stderr, "boardd laws: %v\n", err)
			return 2
		}
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(env.stderr, "boardd laws: %v\n", err)
			return 1
		}
		return 0
	}
	w := &textWriter{w: env.stdout, cols: cols}
	switch v := out.(type) {
	case []lawSetJSON:
		w.sets(v)
	case lawSetJSON:
		w.set(v)
	case lawEntryJSON:
		w.law(v)
	}
	if w.err != nil {
		fmt.Fprintf(env.stderr, "boardd laws: %v\n", w.err)
		return 1
	}
	return 0
}

// lawSetJSON is a law-set as `boardd laws --json` prints it.
type lawSetJSON struct {
	ID      string         `json:"id"`
	Name    string         `json:"name"`
	Year    int            `json:"year"`
	Summary string         `json:"summary"`
	Count   int            `json:"count"`
	Status  map[string]int `json:"status"` // laws by status
	Laws    []lawEntryJSON `json:"laws,omitempty"`
}

// lawEntryJSON is one law as `boardd laws --json` prints it.
type lawEntryJSON struct {
	ID          report.Law `json:"id"`
	Title       string     `json:"title"`
	Summary     string     `json:"summary"`
	Application string     `json:"application"`
	Status      string     `json:"status"`
	// Scenarios (testdata/laws) and Tests (Go tests) show boardd applying
	// the law.
	Scenarios []string `json:"scenarios,omitempty"`
	Tests     []string `json:"tests,omitempty"`
}

func lawJSON(l lawset.Law) lawEntryJSON {
	return lawEntryJSON{ID: l.ID, Title: l.Title, Summary: l.Summary, Application: l.Application, Status: l.Status.String(), Scenarios: l.Scenarios, Tests: l.Tests}
}

func lawSetList() []lawSetJSON {
	var out []lawSetJSON
	for _, id := range lawset.IDs() {
		s, err := lawSetDetail(id)
		if err != nil {
			continue // every id LawSetIDs lists has a set and a catalogue
		}
		s.Laws = nil
		out = append(out, s)
	}
	return out
}

func lawSetDetail(id string) (lawSetJSON, error) {
	ls, err := lawset.Lookup(id)
	if err != nil {
		return lawSetJSON{}, err
	}
	laws, err := lawset.LawsOf(id)
	if err != nil {
		return lawSetJSON{}, err
	}
	s := lawSetJSON{ID: ls.ID, Name: ls.Name, Year: ls.Year, Summary: ls.Summary, Count: len(laws), Status: map[string]int{}}
	for _, l := range laws {
		s.Laws = append(s.Laws, lawJSON(l))
		s.Status[l.Status.String()]++
	}
	return s, nil
}

// textWriter prints the catalogue for a terminal, wrapping at cols. It
// remembers the first write error.
type textWriter struct {
	w    io.Writer
	cols int
	err  error
}

func (t *textWriter) printf(format string, a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, a...)
	}
}

func (t *textWriter) sets(sets []lawSetJSON) {
	t.printf("%-13s %-4s %-5s %s\n", "ID", "YEAR", "LAWS", "NAME")
	for _, s := range sets {
		t.printf("%-13s %-4d %-5d %s\n", s.ID, s.Year, s.Count, s.Name)
	}
	t.printf("\nRun 'boardd laws ID' for every law of a set and how boardd applies it.\n")
}

func (t *textWriter) set(s lawSetJSON) {
	t.paragraph("", "    ", s.ID+": "+s.Name)
	t.paragraph("", "", s.Summary)
	var counts []string
	for _, st := range []lawset.Status{lawset.Applied, lawset.Partial, lawset.Planned, lawset.Outside} {
		if n := s.Status[st.String()]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, st))
		}
	}
	t.paragraph("", "", fmt.Sprintf("%d laws: %s.", s.Count, strings.Join(counts, ", ")))
	for _, l := range s.Laws {
		t.printf("\n")
		t.law(l)
	}
}

func (t *textWriter) law(l lawEntryJSON) {
	if head := fmt.Sprintf("%s  %s  [%s]", l.ID, l.Title, l.Status); len(head) <= t.cols {
		t.printf("%s\n", head)
	} else {
		t.printf("%s  [%s]\n", l.ID, l.Status)
		t.paragraph("    ", "    ", l.Title)
	}
	t.paragraph("    ", "    ", l.Summary)
	t.paragraph("    boardd: ", "            ", l.Application)
	if len(l.Scenarios)+len(l.Tests) > 0 {
		// One name a line (a scenario in testdata/laws, or a Go test as
		// package.TestName): a name is not broken.
		t.printf("    shown by:\n")
		for _, s := range l.Scenarios {
			t.printf("        testdata/laws/%s.trace\n", s)
		}
		for _, s := range l.Tests {
			t.printf("        %s\n", s)
		}
	}
}

// paragraph prints text wrapped at t.cols, the first line after first and
// the others after rest.
func (t *textWriter) paragraph(first, rest, text string) {
	line := first
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > t.cols {
			t.printf("%s\n", line)
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	t.printf("%s\n", line)
}
