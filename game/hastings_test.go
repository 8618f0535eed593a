package game

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// hastingsTrace reads Pillsbury-Tarrasch, Hastings 1895, with invented
// times (clock/testdata).
func hastingsTrace(t *testing.T) []trace.Line {
	t.Helper()
	f, err := os.Open("../clock/testdata/hastings-forfeit.trace")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// The Hastings trace is a game the board recognises: under hastings1895
// every move before the fall is reported, legal, at its clock press, and
// nothing irregular happens, so the only ruling the trace can draw is the
// one on time.
func TestHastingsForfeitTraceIsAGame(t *testing.T) {
	lines := hastingsTrace(t)
	var presses []time.Duration
	for _, l := range lines[1:] {
		if l.Kind == trace.Press {
			presses = append(presses, l.T)
		}
	}
	var reports []report.Report
	p, err := New(Options{Laws: "hastings1895"}, func(r report.Report) { reports = append(reports, r) })
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	p.Finish(lines[len(lines)-1].T)

	const fall = 12270 * time.Second
	var moves []report.Report
	for _, r := range reports {
		switch r.Type {
		case report.Move:
			moves = append(moves, r)
		case report.Touch, report.End, report.Result, report.Clock:
		default:
			if r.T < fall {
				t.Errorf("%s report at %v, before the fall", r.Type, r.T)
			}
		}
	}
	if len(moves) < 59 {
		t.Fatalf("%d moves reported before the fall, want 59", len(moves))
	}
	sans := strings.Fields("d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 Nf3 Nbd7")
	for i, m := range moves[:59] {
		// The move is complete when the hand quits the man (hastings1895:V):
		// a move nothing can extend is confirmed soon after its placement,
		// the others at the clock press at the latest.
		if m.T > presses[i] || m.T < presses[i]-200*time.Millisecond {
			t.Errorf("move %d (%s) reported at %v, want it by its press at %v", i+1, m.SAN, m.T, presses[i])
		}
		if i < len(sans) && m.SAN != sans[i] {
			t.Errorf("ply %d: %s, want %s", i+1, m.SAN, sans[i])
		}
	}
	if got := moves[58].SAN; got != "R4f2" {
		t.Errorf("White's thirtieth move %s, want R4f2", got)
	}
}

// The game with --time-control hastings1895: the clocks begin at the first
// line, every move report carries the times left, and Black's flag falls at
// 3:24:30, where the Hastings regulations forfeit him.
func TestHastingsForfeitWithClocks(t *testing.T) {
	lines := hastingsTrace(t)
	var reports []report.Report
	g, err := New(Options{Laws: "hastings1895", TimeControl: "hastings1895", ClockAtFirstInput: true}, func(r report.Report) { reports = append(reports, r) })
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := g.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	g.Finish(lines[len(lines)-1].T)
	type moveLine struct {
		san, white, black string
	}
	var moveLines []moveLine
	var result *report.Report
	for _, r := range reports {
		switch {
		case r.Type == report.Move && result == nil:
			moveLines = append(moveLines, moveLine{r.SAN, r.WhiteClock, r.BlackClock})
		case r.Type == report.Result:
			result = &r
		}
	}
	// Each side's clock runs from the placement that made the other's move
	// to the placement that made its own (a move is made when the hand
	// quits the man, hastings1895:V, whenever the board can be sure of it):
	// Black's flag falls at 3:24:29.8.
	if result == nil || result.Result != report.WhiteWins || result.Law != "hastings1895:time-limit" || result.T != 12269800*time.Millisecond {
		t.Fatalf("result %+v, want 1-0 by hastings1895:time-limit at 3:24:29.8", result)
	}
	if len(moveLines) != 59 {
		t.Fatalf("%d move lines before the fall, want 59", len(moveLines))
	}
	// Hand-computed: White 15 s and Black 10 s on move 1; after White's
	// 30th move White has 7200 − 5070 + 3600 s, Black 7200 − 6900 s.
	want := map[int]moveLine{
		0:  {"d4", "1:59:45", "2:00:00"},
		1:  {"d5", "1:59:45", "1:59:50"},
		58: {"R4f2", "1:35:30", "0:05:00"}, // made at its placement, 0.2 s before the press
	}
	for i, w := range want {
		if moveLines[i] != w {
			t.Errorf("move line %d: %+v, want %+v", i+1, moveLines[i], w)
		}
	}
	if pgn := g.PGN(); !strings.Contains(pgn, "1. d4 {[%clk 1:59:45]} 1... d5 {[%clk 1:59:50]}") || !strings.Contains(pgn, `[TimeControl "30/7200:15/3600"]`) {
		t.Errorf("PGN lacks the clock comments or the TimeControl tag:\n%s", pgn)
	}
}
