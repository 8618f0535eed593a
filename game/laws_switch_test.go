package game

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// play feeds trace text to g.
func play(t *testing.T, g *Game, text string) {
	t.Helper()
	lines, err := trace.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := g.Input(l); err != nil {
			t.Fatal(err)
		}
	}
}

func lastOf(rs []report.Report, typ report.Type) *report.Report {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Type == typ {
			return &rs[i]
		}
	}
	return nil
}

// A law-set changed mid-game with a clock: every stage follows the new code
// at once. The flag that falls afterwards is ruled by fide2023:6.9, not by
// Sarratt's silence, and a false move is now made only by the clock press
// (fide2023:7.5.1), so one put right before the press is no irregularity.
func TestLawSetChangeReachesEveryStage(t *testing.T) {
	var out []report.Report
	g, err := New(Options{Laws: "sarratt1808", TimeControl: "300+2", ClockAtFirstInput: true}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, `{"t":0,"lift":"e2"}
{"t":300,"place":"e4"}
{"t":1500,"lift":"e7"}
{"t":1800,"place":"e5"}
{"t":3000,"arbiter":"laws","value":"fide2023"}
`)
	if id := g.Snapshot().Laws.ID; id != "fide2023" {
		t.Fatalf("law-set %s after the change, want fide2023", id)
	}
	// White moves the king's knight two squares straight: a false move,
	// put right before any clock press.
	play(t, g, `{"t":5000,"lift":"g1"}
{"t":5300,"place":"g3"}
{"t":8000,"lift":"g3"}
{"t":8300,"place":"g1"}
`)
	if r := lastOf(out, report.Irregularity); r != nil {
		t.Errorf("a false move put right before the clock press was ruled: %+v", *r)
	}
	// Nobody moves again: White's flag falls.
	g.Advance(10 * time.Minute)
	r := lastOf(out, report.Result)
	if r == nil || r.Law != "fide2023:6.9" || r.Result != report.BlackWins {
		t.Fatalf("the flag's fall ruled %+v, want 0-1 by fide2023:6.9", r)
	}
	if pgn := g.PGN(); !strings.Contains(pgn, `[LawSet "fide2023"]`) {
		t.Errorf("the PGN does not name the law-set in force:\n%s", pgn)
	}
}

// A ruling raised under one code must be decided under it: the change of
// law-set is refused while it waits, and goes through once it is decided.
func TestLawSetChangeWaitsForThePendingRuling(t *testing.T) {
	var out []report.Report
	g, err := New(Options{Laws: "sarratt1808"}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	// White touches the knight, sets it back, plays e4: sarratt1808:7.
	play(t, g, `{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
`)
	g.Advance(2 * time.Second)
	p := g.Snapshot().Pending
	if p == nil || p.Law != "sarratt1808:7" {
		t.Fatalf("pending %+v, want the touch-move ruling of sarratt1808:7", p)
	}
	err = g.Action(2500*time.Millisecond, trace.ActionLaws, "fide2023")
	if err == nil || !strings.Contains(err.Error(), "sarratt1808") || !strings.Contains(err.Error(), "decide it") {
		t.Fatalf("switch while a ruling waits: %v, want a refusal naming the pending ruling", err)
	}
	if s := g.Snapshot(); s.Laws.ID != "sarratt1808" || s.Pending == nil {
		t.Fatalf("after the refusal: laws %s, pending %v; want sarratt1808 and the ruling still waiting", s.Laws.ID, s.Pending)
	}
	if err := g.Choose(3*time.Second, report.OptStand, report.Black); err != nil {
		t.Fatal(err)
	}
	if r := lastOf(out, report.Ruling); r == nil || r.Law != "sarratt1808:7" || r.By != report.Black {
		t.Fatalf("the ruling %+v, want Black's under sarratt1808:7", r)
	}
	if err := g.Action(3500*time.Millisecond, trace.ActionLaws, "fide2023"); err != nil {
		t.Fatalf("switch once decided: %v", err)
	}
	if id := g.Snapshot().Laws.ID; id != "fide2023" {
		t.Errorf("law-set %s, want fide2023", id)
	}
}

// knightsShuffle brings the start position round twice, Black to move at
// the end: Black's knight going back to g8 makes it stand the third time.
const knightsShuffle = `{"t":0,"lift":"g1"}
{"t":300,"place":"f3"}
{"t":1000,"lift":"g8"}
{"t":1300,"place":"f6"}
{"t":2000,"lift":"f3"}
{"t":2300,"place":"g1"}
{"t":3000,"lift":"f6"}
{"t":3300,"place":"g8"}
{"t":4000,"lift":"g1"}
{"t":4300,"place":"f3"}
{"t":5000,"lift":"g8"}
{"t":5300,"place":"f6"}
{"t":6000,"lift":"f3"}
{"t":6300,"place":"g1"}
`

// TestClaimHoldsTheClocks: a draw claim on the move about to be made stops
// both clocks until that move is made (fide2023:9.5.1): the claimant's
// thinking after the claim costs him nothing, and an incorrect claim then
// gives his opponent two minutes (9.5.3) with the opponent's clock running.
// A law-set change drops the claim and starts the clock again.
func TestClaimHoldsTheClocks(t *testing.T) {
	cases := []struct {
		name  string
		after string // after the claim at 8 s
		// black's clock at his move, and after it White's
		black, white string
		decidedBy    report.Law // the result's or the refusal's law
	}{
		{name: "correct: the repeating move", after: `{"t":68000,"lift":"f6"}
{"t":68300,"place":"g8"}
`, black: "1:29:55", white: "1:29:57", decidedBy: "fide2023:9.2.1.1"},
		{name: "incorrect: another move", after: `{"t":68000,"lift":"b8"}
{"t":68300,"place":"c6"}
`, black: "1:29:55", white: "1:31:57", decidedBy: "fide2023:9.5.3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out []report.Report
			g, err := New(Options{Laws: "fide2023", TimeControl: "5400", ClockAtFirstInput: true}, func(r report.Report) { out = append(out, r) })
			if err != nil {
				t.Fatal(err)
			}
			play(t, g, knightsShuffle+`{"t":8000,"press":"claim","side":"black"}
`+c.after)
			g.Advance(70 * time.Second)
			held := lastOf(out, report.Clock)
			if held == nil || held.Law != "fide2023:9.5.1" || held.Side != "black" || held.BlackClock == "" {
				t.Fatalf("no clock report for the claim: %+v", held)
			}
			mv := lastOf(out, report.Move)
			if mv == nil || mv.Side != "black" || mv.BlackClock != c.black || mv.WhiteClock != c.white {
				t.Errorf("Black's move after a minute's thought: %+v; want Black %s (the minute not charged), White %s", mv, c.black, c.white)
			}
			var decided report.Law
			if r := lastOf(out, report.Result); r != nil {
				decided = r.Law
			} else if r := lastOf(out, report.Ruling); r != nil {
				decided = r.Law
			}
			if decided != c.decidedBy {
				t.Errorf("decided under %q, want %q", decided, c.decidedBy)
			}
		})
	}
	t.Run("a law-set change drops the claim and the clock runs", func(t *testing.T) {
		var out []report.Report
		g, err := New(Options{Laws: "fide2023", TimeControl: "5400", ClockAtFirstInput: true}, func(r report.Report) { out = append(out, r) })
		if err != nil {
			t.Fatal(err)
		}
		play(t, g, knightsShuffle+`{"t":8000,"press":"claim","side":"black"}
{"t":9000,"arbiter":"laws","value":"nycc"}
{"t":69000,"lift":"b8"}
{"t":69300,"place":"c6"}
`)
		g.Advance(71 * time.Second)
		mv := lastOf(out, report.Move)
		if mv == nil || mv.Side != "black" || mv.BlackClock != "1:28:55" {
			t.Errorf("Black's move a minute after the change: %+v; want his clock charged the minute (1:28:55)", mv)
		}
	})
}

// A visually impaired player's board is read by FIDE's Appendix D: the
// side is refused under a code without it, at the start and by a change of
// law-set mid-game (which leaves fide2023 in force, so his touches still
// cite fide2023:D.2.2).
func TestVisuallyImpairedNeedsAppendixD(t *testing.T) {
	for _, tc := range []struct {
		name, laws, side string
		wantErr          string
	}{
		{"fide2023 takes white", "fide2023", "white", ""},
		{"fide2023 takes black", "fide2023", "black", ""},
		{"neither", "sarratt1808", "", ""},
		{"an old code", "nycc", "white", "Appendix D is FIDE's"},
		{"not a side", "fide2023", "grey", `visually impaired side "grey": want white or black`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Options{Laws: tc.laws, VisuallyImpaired: tc.side}, nil)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("New(laws %s, visually impaired %q) = %v, want an error with %q", tc.laws, tc.side, err, tc.wantErr)
			}
		})
	}

	var out []report.Report
	g, err := New(Options{Laws: "fide2023", VisuallyImpaired: "black"}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, `{"t":0,"lift":"e2"}
{"t":300,"place":"e4"}
`)
	for _, to := range []string{"philidor1825", "sarratt1808", "nycc", "hastings1895"} {
		err := g.Action(time.Second, trace.ActionLaws, to)
		if err == nil || !strings.Contains(err.Error(), "the law-set stays fide2023") {
			t.Errorf("changing to %s with a visually impaired player = %v, want it refused", to, err)
		}
	}
	if id := g.Snapshot().Laws.ID; id != "fide2023" {
		t.Fatalf("law-set %s after the refused changes, want fide2023", id)
	}
	play(t, g, `{"t":2000,"lift":"e7"}
{"t":2300,"place":"e5"}
`)
	g.Advance(5 * time.Second)
	touch, move := lastOf(out, report.Touch), lastOf(out, report.Move)
	if touch == nil || touch.Law != "fide2023:D.2.2" || move == nil || move.Law != "fide2023:D.2.3" || move.Made != move.T {
		t.Fatalf("Black's touch %+v and move %+v: want them citing fide2023:D.2.2 and D.2.3, the move made when announced", touch, move)
	}
	if first := out[0]; first.Type != report.Touch || first.Law != "" {
		t.Errorf("White's touch %+v cites a law: the sighted side is read by Article 4", first)
	}
}
