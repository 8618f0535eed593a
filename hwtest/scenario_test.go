package hwtest

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/trace"
)

func TestReadScenarioFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "rig", "*.jsonl"))
	if err != nil || len(files) < 5 {
		t.Fatalf("scenario files: %v %v", files, err)
	}
	for _, f := range files {
		sc, err := ReadScenarioFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if sc.Laws != "fide2023" || len(sc.Expectations) == 0 {
			t.Errorf("%s: laws %q, %d expectations", f, sc.Laws, len(sc.Expectations))
		}
	}
	sc, err := ReadScenarioFile(filepath.Join("testdata", "rig", "touch-move.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "touch-move" || !sc.ChooseByNumber || !sc.Strict || sc.Tail != time.Second {
		t.Errorf("header: %+v", sc)
	}
	// The irregularity's LED check follows the placement on e4.
	e := sc.Expectations[5]
	if e.Report != "" || sc.Events[e.Anchor].Input.Kind != trace.Place || len(e.LEDs) != 4 || !e.RestOff {
		t.Errorf("expectation %+v anchored to %+v", e, sc.Events[e.Anchor])
	}
	if w := e.LEDs[0]; w.String() != "g1:option-2/slow" {
		t.Errorf("first LED want %s", w)
	}
}

func TestReadScenarioRefuses(t *testing.T) {
	tests := []struct {
		text string
		line int
		want string
	}{
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"scenario\":\"late\"}", 2, "header must be the first line"},
		{`{"scenario":"x","colour":"blue"}`, 1, "unknown field"},
		{`{"scenario":"x","choose_by":"colour"}`, 1, "choose_by"},
		{`{"t":0,"lift":"e9"}`, 1, "square"},
		{"{\"t\":5,\"lift\":\"e2\"}\n{\"t\":4,\"place\":\"e4\"}", 2, "back in time"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"t\":1,\"setup\":\"8/8/8/8/8/8/8/K6k w - - 0 1\"}", 2, "setup must come before"},
		{`{"t":0,"arbiter":"new-game"}`, 1, "cannot be played over the board's link"},
		{`{"t":0,"rig":"explode"}`, 1, "want unplug, replug"},
		{`{"t":0,"rig":"garbage"}`, 1, "bytes 0"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"castle\"}", 2, "want leds or a report type"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"move\",\"within\":-3}", 2, "within"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"move\",\"t\":40}", 2, "cannot be matched"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"leds\",\"squares\":{\"e2\":\"purple\"}}", 2, "want lit, off or a role"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"leds\",\"squares\":{\"e2\":\"touched/strobe\"}}", 2, "blink"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"leds\",\"squares\":{}}", 2, "squares"},
		{"{\"t\":0,\"lift\":\"e2\"}\n{\"expect\":\"leds\",\"squares\":{\"e2\":\"lit\"},\"rest\":\"dark\"}", 2, "rest"},
		{"not json", 1, "not a JSON object"},
		{"# only a comment\n", 1, "no inputs"},
	}
	for _, tt := range tests {
		_, err := ReadScenario(strings.NewReader(tt.text), "x.jsonl")
		var se *ScenarioError
		if !errors.As(err, &se) || se.Line != tt.line || !strings.Contains(se.Error(), tt.want) {
			t.Errorf("%q: err %v, want line %d and %q", tt.text, err, tt.line, tt.want)
		}
	}
}

// checkerScenario is a small scenario for the checker tests.
func checkerScenario(t *testing.T, strict bool) *Scenario {
	t.Helper()
	header := `{"scenario":"c","strict":false}`
	if strict {
		header = `{"scenario":"c"}`
	}
	text := header + `
{"expect":"leds","squares":{"e2":"off"},"within":50}
{"t":0,"lift":"e2"}
{"expect":"touch","square":"e2","within":100}
{"expect":"leds","squares":{"e2":"touched"},"within":100}
{"t":200,"place":"e4"}
{"expect":"move","san":"e4","within":400}
{"expect":"leds","squares":{"e2":"last-move/steady","e4":"last-move"},"rest":"off","within":400}
{"t":1000,"press":"clock","side":"white"}
{"expect":"irregularity","options":["stand","restore"],"within":300}
`
	sc, err := ReadScenario(strings.NewReader(text), "c.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func frameWith(sets ...any) *led.Frame {
	var f led.Frame
	for i := 0; i < len(sets); i += 2 {
		sq, _ := board.ParseSquare(sets[i].(string))
		f.Set(sq, sets[i+1].(led.Role), led.Steady)
	}
	return &f
}

func TestCheckerInVirtualTime(t *testing.T) {
	ms := time.Millisecond
	sc := checkerScenario(t, true)
	c := newChecker(sc)
	c.gotLEDs(0, frameWith())
	c.start(10 * ms) // the dark board meets the first check at once
	c.happened(0, 10*ms)
	c.gotLEDs(35*ms, frameWith("e2", led.Touched))
	if err := c.gotReport(36*ms, []byte(`{"type":"touch","t":30,"side":"white","square":"e2","piece":"pawn"}`)); err != nil {
		t.Fatal(err)
	}
	c.happened(1, 210*ms)
	c.gotLEDs(490*ms, frameWith("e2", led.LastMove, "e4", led.LastMove))
	_ = c.gotReport(491*ms, []byte(`{"type":"move","t":480,"side":"white","uci":"e2e4","san":"e4","fen":"x"}`))
	c.happened(2, 1010*ms)
	// A move nobody expected, then the irregularity with other options.
	_ = c.gotReport(1100*ms, []byte(`{"type":"move","t":1090,"san":"e5"}`))
	_ = c.gotReport(1150*ms, []byte(`{"type":"irregularity","options":[{"id":"stand","squares":[]},{"id":"recall","squares":[]}]}`))
	if d := c.deadline(); d != 1310*ms {
		t.Fatalf("deadline %v, want 1.31s", d)
	}
	c.advance(1311 * ms)
	if !c.resolved() {
		t.Fatal("not resolved after every deadline")
	}
	checks, lat := c.finish()
	want := []struct {
		pass    bool
		latency time.Duration
	}{{true, 0}, {true, 26 * ms}, {true, 25 * ms}, {true, 281 * ms}, {true, 280 * ms}, {false, 300 * ms}, {false, 0}, {false, 0}}
	if len(checks) != len(want) {
		t.Fatalf("%d checks: %+v", len(checks), checks)
	}
	for i, w := range want {
		if checks[i].Pass != w.pass || checks[i].Latency != w.latency {
			t.Errorf("check %d (%s): pass %v latency %v, want %v %v (%s)", i, checks[i].Text, checks[i].Pass, checks[i].Latency, w.pass, w.latency, checks[i].Detail)
		}
	}
	if !strings.Contains(checks[5].Detail, "no matching irregularity") || !strings.Contains(checks[6].Detail, `unexpected report {"type":"move","t":1090`) {
		t.Errorf("details: %q, %q", checks[5].Detail, checks[6].Detail)
	}
	// Latency: the lift answered in 25 ms, the placement in 280 ms, the
	// clock press never.
	if len(lat.Lifts) != 1 || lat.Lifts[0] != 25*ms || len(lat.Places) != 1 || lat.Places[0] != 280*ms || lat.Silent != 1 {
		t.Errorf("latency %+v", lat)
	}
	// Not strict: the unexpected move is let pass.
	c2 := newChecker(checkerScenario(t, false))
	c2.start(0)
	_ = c2.gotReport(5*ms, []byte(`{"type":"move","san":"a3"}`))
	c2.advance(10 * time.Second)
	if checks, _ := c2.finish(); len(checks) != 6 {
		t.Errorf("lenient scenario: %d checks", len(checks))
	}
}

func TestCheckerLEDMismatchExplained(t *testing.T) {
	sc := checkerScenario(t, true)
	c := newChecker(sc)
	c.start(0)
	c.happened(0, 0)
	c.gotLEDs(10*time.Millisecond, frameWith("e2", led.MustMove, "a1", led.Fault))
	c.advance(time.Second)
	checks, _ := c.finish()
	if checks[2].Pass || !strings.Contains(checks[2].Detail, "e2 is must-move/steady, want e2:touched") {
		t.Errorf("detail %q", checks[2].Detail)
	}
	if checks[0].Pass || !strings.Contains(checks[0].Detail, "e2 is must-move/steady, want e2:off") {
		t.Errorf("detail %q", checks[0].Detail)
	}
}

func TestLatencyPercentiles(t *testing.T) {
	var l Latency
	for i := 100; i >= 1; i-- {
		l.Samples = append(l.Samples, time.Duration(i)*time.Millisecond)
	}
	if l.Percentile(50) != 50*time.Millisecond || l.Percentile(99) != 99*time.Millisecond || l.Max() != 100*time.Millisecond {
		t.Errorf("p50 %v p99 %v max %v", l.Percentile(50), l.Percentile(99), l.Max())
	}
	if (Latency{}).Percentile(50) != 0 {
		t.Error("empty percentile")
	}
	if got := wireTime(18, 115200); got != 1562500*time.Nanosecond {
		t.Errorf("18 bytes at 115200: %v", got)
	}
}
