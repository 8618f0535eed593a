package hwtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Replay runs a trace through a fresh game in virtual time, as `boardd
// replay` does (a first setup line sets opts.Setup), and returns every report
// in order, the end line last.
func Replay(lines []trace.Line, opts game.Options) ([]report.Report, error) {
	i := 0
	return ReplayStream(func() (trace.Line, bool) {
		if i == len(lines) {
			return trace.Line{}, false
		}
		i++
		return lines[i-1], true
	}, opts)
}

// ReplayStream is Replay of the lines next gives until it says false, for
// traces too long to hold (an analogue trace has a line every scan).
func ReplayStream(next func() (trace.Line, bool), opts game.Options) ([]report.Report, error) {
	var reports []report.Report
	l, ok := next()
	if ok && l.Kind == trace.Setup {
		opts.Setup = l.FEN
		l, ok = next()
	}
	p, err := game.New(opts, func(r report.Report) { reports = append(reports, r) })
	if err != nil {
		return nil, fmt.Errorf("hwtest: replay: %w", err)
	}
	var last time.Duration
	for n := 1; ok; n++ {
		if err := p.Input(l); err != nil {
			return reports, fmt.Errorf("hwtest: replay: line %d: %w", n, err)
		}
		last = l.T
		l, ok = next()
	}
	p.Finish(last)
	return reports, nil
}

// CheckClean reports how a replay of clean play of g departs from it: every
// move recovered in order, the final position equal, no irregularity, ruling
// or mismatch, and a result (if any) only after the last move. It returns nil
// when the replay is faithful.
func CheckClean(g *Game, reports []report.Report) error {
	want := g.UCI()
	var got []string
	var faults []string
	var endFEN string
	resultAt := -1
	for _, r := range reports {
		switch r.Type {
		case "move":
			got = append(got, r.UCI)
		case "irregularity":
			faults = append(faults, fmt.Sprintf("irregularity %s (%s) at %v after move %d", r.Kind, r.Law, r.T, len(got)))
		case "ruling":
			faults = append(faults, fmt.Sprintf("ruling %s by %s (%s) at %v after move %d", r.Option, r.By, r.Law, r.T, len(got)))
		case "mismatch":
			faults = append(faults, fmt.Sprintf("mismatch missing %v extra %v at %v after move %d", r.Missing, r.Extra, r.T, len(got)))
		case "result":
			resultAt = len(got)
		case "end":
			endFEN = r.FEN
		}
	}
	if resultAt >= 0 && resultAt != len(want) {
		faults = append(faults, fmt.Sprintf("result after move %d of %d", resultAt, len(want)))
	}
	if d := firstDifference(want, got); d >= 0 {
		faults = append(faults, fmt.Sprintf("moves differ from move %d: want %s, got %s", d+1, excerpt(want, d), excerpt(got, d)))
	}
	final := g.Final()
	if endFEN != final.FEN() {
		faults = append(faults, fmt.Sprintf("final position %q, want %q", endFEN, final.FEN()))
	}
	if len(faults) == 0 {
		return nil
	}
	if len(faults) > 6 {
		faults = append(faults[:6], fmt.Sprintf("and %d more", len(faults)-6))
	}
	return fmt.Errorf("%s: %s", g.Name, strings.Join(faults, "; "))
}

func firstDifference(a, b []string) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// excerpt shows a few moves from index i.
func excerpt(moves []string, i int) string {
	if i >= len(moves) {
		return "(nothing)"
	}
	end := i + 3
	if end > len(moves) {
		end = len(moves)
	}
	return strings.Join(moves[i:end], " ")
}
