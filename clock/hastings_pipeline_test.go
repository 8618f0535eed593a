package clock_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/pipeline"
	"github.com/boardd/boardd/trace"
)

// The Hastings trace is a game the board recognises: under hastings1895
// every move before the fall is reported, legal, at its clock press, and
// nothing irregular happens, so the only ruling the trace can draw is the
// one on time.
func TestHastingsForfeitTraceIsAGame(t *testing.T) {
	f, err := os.Open("testdata/hastings-forfeit.trace")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var presses []time.Duration
	for _, l := range lines[1:] {
		if l.Kind == trace.Press {
			presses = append(presses, l.T)
		}
	}
	var reports []arbiter.Report
	p, err := pipeline.New(pipeline.Options{Laws: "hastings1895"}, nil, func(r arbiter.Report) { reports = append(reports, r) })
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
	var moves []arbiter.Report
	for _, r := range reports {
		switch r.Type {
		case "move":
			moves = append(moves, r)
		case "touch", "end", "result", "clock":
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
		if m.T != presses[i] {
			t.Errorf("move %d (%s) reported at %v, want its press at %v", i+1, m.SAN, m.T, presses[i])
		}
		if i < len(sans) && m.SAN != sans[i] {
			t.Errorf("ply %d: %s, want %s", i+1, m.SAN, sans[i])
		}
	}
	if got := moves[58].SAN; got != "R4f2" {
		t.Errorf("White's thirtieth move %s, want R4f2", got)
	}
}
