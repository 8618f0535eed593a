package clock_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
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

// The wiring boardd replay --time-control hastings1895 needs, on today's
// pipeline: the timekeeper begins at the first line, takes every move
// report, and is woken at its deadline before each later line. Black's flag
// falls at 3:24:30 and the Hastings regulations forfeit him.
func TestHastingsForfeitThroughPipeline(t *testing.T) {
	f, err := os.Open("testdata/hastings-forfeit.trace")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	ctl, _ := clock.Preset("hastings1895")
	tk, err := clock.NewTimekeeper("hastings1895", ctl, board.White)
	if err != nil {
		t.Fatal(err)
	}
	type moveLine struct {
		san, white, black, clk string
	}
	var moveLines []moveLine
	var ruling *clock.Ruling
	var fellAt time.Duration
	observe := func(r arbiter.Report) {
		if r.Type != "move" || ruling != nil {
			return
		}
		side, _ := board.ParseColor(r.Side)
		tk.Move(r.T, side)
		w, b := tk.Times(r.T)
		moveLines = append(moveLines, moveLine{r.SAN, w, b, tk.Clk(r.T, side)})
	}
	p, err := pipeline.New(pipeline.Options{Laws: "hastings1895"}, nil, observe)
	if err != nil {
		t.Fatal(err)
	}
	tk.Begin(lines[0].T)
	for _, l := range lines {
		if d := tk.Deadline(); ruling == nil && l.T >= d {
			p.Advance(d)
			if fall, ok := tk.Flag(d); ok {
				pos := p.Game().Position()
				r := tk.Rule(fall, pos.CanMate(fall.Side.Other()))
				ruling, fellAt = &r, fall.T
				tk.End(d)
			}
		}
		if l.Kind == trace.Press && l.Button == trace.ButtonClock {
			side, _ := board.ParseColor(l.Side)
			tk.Press(l.T, side)
		}
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	p.Finish(lines[len(lines)-1].T)
	tk.End(lines[len(lines)-1].T)

	if ruling == nil || ruling.Result != "1-0" || ruling.Law != "hastings1895:time-limit" || fellAt != 12270*time.Second {
		t.Fatalf("ruling %+v at %v, want 1-0 by hastings1895:time-limit at 3:24:30", ruling, fellAt)
	}
	if len(moveLines) != 59 {
		t.Fatalf("%d move lines before the fall, want 59", len(moveLines))
	}
	// Hand-computed: White 15 s and Black 10 s on move 1; after White's
	// 30th move White has 7200 − 5070 + 3600 s, Black 7200 − 6900 s.
	want := map[int]moveLine{
		0:  {"d4", "1:59:45", "2:00:00", "[%clk 1:59:45]"},
		1:  {"d5", "1:59:45", "1:59:50", "[%clk 1:59:50]"},
		58: {"R4f2", "1:35:30", "0:05:00", "[%clk 1:35:30]"},
	}
	for i, w := range want {
		if moveLines[i] != w {
			t.Errorf("move line %d: %+v, want %+v", i+1, moveLines[i], w)
		}
	}
}
