package game

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// TestWarnOnlySwitch: warn-only is switched between games (before the first
// move, or after the result for the games after it), refused mid-game and in
// tournament mode with the reason in words, and a bad value is named.
func TestWarnOnlySwitch(t *testing.T) {
	const e4 = `{"t":0,"lift":"e2"}
{"t":300,"place":"e4"}
`
	for _, c := range []struct {
		name       string
		tournament bool
		before     string // trace played before the switch
		result     bool   // declare a result before the switch
		value      string
		want       string // the error's words; "" for none
		on         bool   // warn-only after
	}{
		{name: "before the first move", value: "on", on: true},
		{name: "mid-game", before: e4, value: "on", want: "refused during a game (1 move made): switch it between games"},
		{name: "after the result", before: e4, result: true, value: "on", on: true},
		{name: "in a tournament", tournament: true, value: "on", want: "a tournament exacts every penalty (--tournament), warn-only none (--warn-only)"},
		{name: "off in a tournament", tournament: true, value: "off"},
		{name: "a bad value", value: "yes", want: `warn-only: value "yes": want on or off`},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := New(Options{Laws: "fide2023", Tournament: c.tournament}, nil)
			if err != nil {
				t.Fatal(err)
			}
			play(t, g, c.before)
			g.Advance(2 * time.Second)
			if c.result {
				if err := g.Action(3*time.Second, trace.ActionResult, "1-0"); err != nil {
					t.Fatal(err)
				}
			}
			err = g.Action(4*time.Second, trace.ActionWarnOnly, c.value)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("switch: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("switch: %v, want an error saying %q", err, c.want)
			}
			if s := g.Snapshot(); s.WarnOnly != c.on || g.WarnOnly() != c.on {
				t.Errorf("warn-only %v (snapshot %v), want %v", g.WarnOnly(), s.WarnOnly, c.on)
			}
		})
	}
}

// TestWarnOnlyWarningInSnapshot: a touch-move broken under warn-only is
// reported as a warning (nobody chooses), the move stands and nothing waits;
// the snapshot keeps the warning until the next move, and no ruling is made.
func TestWarnOnlyWarningInSnapshot(t *testing.T) {
	var out []report.Report
	g, err := New(Options{Laws: "sarratt1808", WarnOnly: true}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, `{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
`)
	g.Advance(2 * time.Second)
	s := g.Snapshot()
	if s.Pending != nil || s.Warning == nil || s.Warning.Chooser != report.WarnOnly || s.Warning.Law != "sarratt1808:7" || s.Moves != 1 {
		t.Fatalf("pending %v, warning %+v, %d moves; want no choice waiting, the warning under sarratt1808:7 and 1.e4 standing", s.Pending, s.Warning, s.Moves)
	}
	if want := "Under sarratt1808:7 you would have to move the knight on g1; warn-only: play on"; s.Warning.Reason != want {
		t.Errorf("warning says %q, want %q", s.Warning.Reason, want)
	}
	play(t, g, `{"t":3000,"lift":"e7"}
{"t":3300,"place":"e5"}
`)
	g.Advance(5 * time.Second)
	if s := g.Snapshot(); s.Warning != nil || s.Moves != 2 {
		t.Errorf("after Black's reply: warning %+v, %d moves; want none and 2", s.Warning, s.Moves)
	}
	if r := lastOf(out, report.Ruling); r != nil {
		t.Errorf("a ruling was made under warn-only: %+v", *r)
	}
	if pgn := g.PGN(); !strings.Contains(pgn, "warning (warn-only), touch-move e4, sarratt1808:7") {
		t.Errorf("the PGN has no warning note:\n%s", pgn)
	}
}
