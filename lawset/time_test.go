package lawset

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

func mustLookup(t *testing.T, id string) *LawSet {
	t.Helper()
	ls, err := Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// What a flag's fall means under each code.
func TestFlagUnderEachLawSet(t *testing.T) {
	cases := []struct {
		laws    string
		flagged board.Color
		canMate bool
		result  report.Outcome
		law     report.Law
		reason  string
	}{
		{"fide2023", board.White, true, report.BlackWins, "fide2023:6.9", "White's flag fell"},
		{"fide2023", board.Black, true, report.WhiteWins, "fide2023:6.9", "Black's flag fell"},
		{"fide2023", board.White, false, report.Draw, "fide2023:6.9", "White's flag fell, but Black cannot mate by any series of legal moves"},
		{"hastings1895", board.White, true, report.BlackWins, "hastings1895:time-limit", "White exceeded the time limit and forfeits the game"},
		{"hastings1895", board.White, false, report.BlackWins, "hastings1895:time-limit", "forfeits"},
		{"nycc", board.White, true, report.BlackWins, "nycc:VIII", "White exceeded the time limit the players agreed"},
		{"nycc", board.Black, false, report.WhiteWins, "nycc:VIII", "agreed"},
		{"philidor1825", board.White, true, report.BlackWins, "", "the code says nothing of time, so no law is cited"},
		{"sarratt1808", board.White, false, report.BlackWins, "", "the code says nothing of time"},
	}
	for _, c := range cases {
		r := mustLookup(t, c.laws).Flag(c.flagged, c.canMate)
		if r.Result != c.result || r.Law != c.law || !strings.Contains(r.Reason, c.reason) {
			t.Errorf("%s (%v flagged, can mate %v): %+v; want %s by %q, reason with %q", c.laws, c.flagged, c.canMate, r, c.result, c.law, c.reason)
		}
	}
}

// fide2023:7.5.5 and 9.5.3 give the opponent two minutes, one in rapid and
// blitz; no other code gives time.
func TestTimePenalties(t *testing.T) {
	fide := mustLookup(t, "fide2023")
	for _, c := range []struct {
		offence Offence
		fast    bool
		time    time.Duration
		law     report.Law
	}{
		{IllegalMove, false, 2 * time.Minute, "fide2023:7.5.5"},
		{IllegalMove, true, time.Minute, "fide2023:7.5.5"},
		{IncorrectClaim, false, 2 * time.Minute, "fide2023:9.5"},
		{IncorrectClaim, true, time.Minute, "fide2023:9.5"},
	} {
		p, ok := fide.TimePenalty(c.offence, c.fast)
		if !ok || p.Time != c.time || p.Law != c.law {
			t.Errorf("offence %d fast %v: %+v %v; want %v by %s", c.offence, c.fast, p, ok, c.time, c.law)
		}
	}
	if _, ok := fide.TimePenalty(0, false); ok {
		t.Error("a penalty for no offence")
	}
	for _, id := range []string{"philidor1825", "sarratt1808", "nycc", "hastings1895"} {
		if mustLookup(t, id).TimePenalty != nil {
			t.Errorf("%s gives a time penalty", id)
		}
	}
}

// Whose clock runs while a choice is pending.
func TestDuringChoice(t *testing.T) {
	for id, want := range map[string]struct {
		policy ChoiceClock
		law    report.Law
	}{
		"fide2023":     {HoldBoth, "fide2023:6.11"},
		"hastings1895": {RunChooser, "hastings1895:IV"},
		"nycc":         {KeepRunning, ""},
		"philidor1825": {KeepRunning, ""},
		"sarratt1808":  {KeepRunning, ""},
	} {
		ls := mustLookup(t, id)
		if ls.DuringChoice != want.policy || ls.DuringChoiceLaw != want.law {
			t.Errorf("%s during a choice: %v %q, want %v %q", id, ls.DuringChoice, ls.DuringChoiceLaw, want.policy, want.law)
		}
	}
	for c, want := range map[ChoiceClock]string{KeepRunning: "keep", RunChooser: "run-chooser", HoldBoth: "hold"} {
		if c.String() != want {
			t.Errorf("%d: %q", c, c.String())
		}
	}
}

func TestLookup(t *testing.T) {
	if got := strings.Join(IDs(), ","); got != "sarratt1808,philidor1825,nycc,hastings1895,fide2023" {
		t.Errorf("IDs() = %s", got)
	}
	_, err := Lookup("fide2018")
	if err == nil || !strings.Contains(err.Error(), "fide2023, hastings1895, nycc, philidor1825, sarratt1808") {
		t.Errorf("Lookup(unknown) = %v", err)
	}
	// Each call builds the law-sets afresh: a caller cannot change another's.
	a := mustLookup(t, "nycc")
	a.Rules[report.KindFalseMove] = Rule{}
	if b := mustLookup(t, "nycc"); b.Rules[report.KindFalseMove].Law != "nycc:XII" {
		t.Error("Lookup returned shared state")
	}
}
