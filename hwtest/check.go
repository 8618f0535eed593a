package hwtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Check is the outcome of one expectation.
type Check struct {
	Line    int
	Text    string        // the expectation as written
	Pass    bool          //
	Latency time.Duration // from the input it follows to the report or LEDs that met it
	Detail  string        // what met it, or why it failed
}

// Latency summarises how long boardd took from each physical event (a man
// lifted or placed, a button, a choice) to the first change of the LEDs it
// caused. A lift is answered at once (the man shows as touched); a
// placement usually only when the move is complete, after boardd's settle
// time, so the two are also kept apart.
type Latency struct {
	Samples []time.Duration // one per event answered by an LED change
	Lifts   []time.Duration // the samples of lifts
	Places  []time.Duration // the samples of placements
	Silent  int             // events after which the LEDs did not change before the next event
}

// Percentile returns the p-th percentile (0 < p <= 100) of the samples by
// nearest rank, or 0 with no samples.
func (l Latency) Percentile(p float64) time.Duration { return percentile(l.Samples, p) }

// percentile is the p-th percentile (0 < p <= 100) of samples by nearest
// rank, or 0 with none: the rig's latencies and the load runs' alike.
func percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

// Max returns the longest sample.
func (l Latency) Max() time.Duration {
	if len(l.Samples) == 0 {
		return 0
	}
	return slices.Max(l.Samples)
}

func summary(s []time.Duration) string {
	if len(s) == 0 {
		return "n=0"
	}
	return fmt.Sprintf("n=%d p50 %s p99 %s max %s", len(s), fmtMS(percentile(s, 50)), fmtMS(percentile(s, 99)), fmtMS(slices.Max(s)))
}

func (l Latency) String() string {
	return fmt.Sprintf("all %s; lifts %s; placements %s; events without an LED change: %d",
		summary(l.Samples), summary(l.Lifts), summary(l.Places), l.Silent)
}

func fmtMS(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// seenReport is a report received from boardd.
type seenReport struct {
	at     time.Duration
	fields map[string]any
	raw    string
	used   bool
}

type expState struct {
	active bool
	from   time.Duration // when its anchor happened
	done   bool
	check  Check
}

// checker judges a scenario's expectations against what boardd sends back,
// in time told to it (the rig's clock); it does no I/O.
type checker struct {
	sc       *Scenario
	exps     []expState
	reports  []seenReport
	leds     led.Frame
	haveLEDs bool
	startAt  time.Duration

	// latency of the current physical event
	lat      Latency
	pending  bool
	baseLEDs led.Frame
	eventAt  time.Duration
	kind     trace.Kind
}

func newChecker(sc *Scenario) *checker {
	return &checker{sc: sc, exps: make([]expState, len(sc.Expectations))}
}

// start marks the start of the scenario at t: expectations anchored to the
// start become active.
func (c *checker) start(t time.Duration) {
	c.startAt = t
	c.activate(-1, t)
}

// happened records that event i happened at t.
func (c *checker) happened(i int, t time.Duration) {
	if c.sc.Events[i].Physical() {
		c.closeSample()
		c.pending, c.baseLEDs, c.eventAt, c.kind = true, c.leds, t, c.sc.Events[i].Input.Kind
	}
	c.activate(i, t)
}

func (c *checker) closeSample() {
	if c.pending {
		c.lat.Silent++
		c.pending = false
	}
}

func (c *checker) activate(anchor int, t time.Duration) {
	for i := range c.exps {
		e := &c.sc.Expectations[i]
		if e.Anchor != anchor || c.exps[i].active {
			continue
		}
		c.exps[i].active, c.exps[i].from = true, t
		if e.Report == "" {
			if c.haveLEDs {
				c.tryLEDs(i, t)
			}
			continue
		}
		for j := range c.reports {
			if !c.reports[j].used && c.reports[j].at >= t && c.tryReport(i, j) {
				break
			}
		}
	}
}

// gotLEDs records an LED frame received at t.
func (c *checker) gotLEDs(t time.Duration, f *led.Frame) {
	c.leds, c.haveLEDs = *f, true
	if c.pending && *f != c.baseLEDs {
		d := t - c.eventAt
		c.lat.Samples = append(c.lat.Samples, d)
		switch c.kind {
		case trace.Lift:
			c.lat.Lifts = append(c.lat.Lifts, d)
		case trace.Place:
			c.lat.Places = append(c.lat.Places, d)
		}
		c.pending = false
	}
	for i := range c.exps {
		if c.exps[i].active && !c.exps[i].done && c.sc.Expectations[i].Report == "" {
			c.tryLEDs(i, t)
		}
	}
}

func (c *checker) tryLEDs(i int, t time.Duration) {
	st, e := &c.exps[i], &c.sc.Expectations[i]
	if t > st.from+e.Within {
		return
	}
	if ok, _ := ledsMatch(e, &c.leds); ok {
		st.done = true
		st.check = Check{Line: e.Line, Text: e.Text, Pass: true, Latency: t - st.from, Detail: "shown"}
	}
}

// ledsMatch reports whether f meets e, and if not, what differs.
func ledsMatch(e *Expectation, f *led.Frame) (bool, string) {
	var bad []string
	listed := board.Occupancy(0)
	for _, w := range e.LEDs {
		listed = listed.With(w.Square)
		if !w.Matches(f) {
			bad = append(bad, fmt.Sprintf("%s is %s/%s, want %s", w.Square, f.Role[w.Square], f.Blink[w.Square], w))
		}
	}
	if e.RestOff {
		for sq := range f.Role {
			if f.Role[sq] != led.Off && !listed.Has(board.Square(sq)) {
				bad = append(bad, fmt.Sprintf("%s is %s, want off", board.Square(sq), f.Role[sq]))
			}
		}
	}
	return len(bad) == 0, strings.Join(bad, "; ")
}

// gotReport records a report line received at t.
func (c *checker) gotReport(t time.Duration, raw []byte) error {
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("report %q: %v", raw, err)
	}
	c.reports = append(c.reports, seenReport{at: t, fields: fields, raw: string(raw)})
	j := len(c.reports) - 1
	for i := range c.exps {
		st, e := &c.exps[i], &c.sc.Expectations[i]
		if st.active && !st.done && e.Report != "" && t >= st.from && t <= st.from+e.Within && c.tryReport(i, j) {
			break
		}
	}
	return nil
}

func (c *checker) tryReport(i, j int) bool {
	st, e, r := &c.exps[i], &c.sc.Expectations[i], &c.reports[j]
	if r.fields["type"] != e.Report || r.at > st.from+e.Within {
		return false
	}
	for k, want := range e.Fields {
		if !fieldMatches(k, want, r.fields[k]) {
			return false
		}
	}
	r.used, st.done = true, true
	st.check = Check{Line: e.Line, Text: e.Text, Pass: true, Latency: r.at - st.from, Detail: r.raw}
	return true
}

// fieldMatches compares an expected field with the report's; "options" may
// be given as a list of ids.
func fieldMatches(key string, want, got any) bool {
	if key == "options" {
		ws, ok1 := want.([]any)
		gs, ok2 := got.([]any)
		if ok1 && ok2 && len(ws) == len(gs) {
			allIDs := true
			for i := range ws {
				id, isString := ws[i].(string)
				if !isString {
					allIDs = false
					break
				}
				o, _ := gs[i].(map[string]any)
				if o == nil || o["id"] != id {
					return false
				}
			}
			if allIDs {
				return true
			}
		}
	}
	return reflect.DeepEqual(want, got)
}

// advance fails every active expectation whose deadline passed before t.
func (c *checker) advance(t time.Duration) {
	for i := range c.exps {
		st, e := &c.exps[i], &c.sc.Expectations[i]
		if !st.active || st.done || t <= st.from+e.Within {
			continue
		}
		st.done = true
		st.check = Check{Line: e.Line, Text: e.Text, Latency: e.Within, Detail: c.why(i)}
	}
}

// why explains a missed expectation.
func (c *checker) why(i int) string {
	st, e := &c.exps[i], &c.sc.Expectations[i]
	if e.Report == "" {
		if !c.haveLEDs {
			return fmt.Sprintf("no LED frame within %s", e.Within)
		}
		_, diff := ledsMatch(e, &c.leds)
		return fmt.Sprintf("not shown within %s: %s", e.Within, diff)
	}
	var seen []string
	for _, r := range c.reports {
		if r.at >= st.from && r.at <= st.from+e.Within {
			seen = append(seen, r.raw)
		}
	}
	if len(seen) == 0 {
		return fmt.Sprintf("no report within %s", e.Within)
	}
	return fmt.Sprintf("no matching %s within %s; reports: %s", e.Report, e.Within, strings.Join(seen, " "))
}

// deadline returns the earliest deadline of an active expectation not yet
// met.
func (c *checker) deadline() time.Duration {
	d := timing.Never
	for i := range c.exps {
		st, e := &c.exps[i], &c.sc.Expectations[i]
		if st.active && !st.done {
			d = timing.Earliest(d, st.from+e.Within)
		}
	}
	return d
}

// resolved reports whether every expectation has passed or failed.
func (c *checker) resolved() bool {
	for i := range c.exps {
		if !c.exps[i].done {
			return false
		}
	}
	return true
}

// finish closes the scenario: expectations whose input never happened fail,
// and a strict scenario fails for every report it did not ask for.
func (c *checker) finish() ([]Check, Latency) {
	c.closeSample()
	var out []Check
	for i := range c.exps {
		st, e := &c.exps[i], &c.sc.Expectations[i]
		if !st.done {
			st.check = Check{Line: e.Line, Text: e.Text, Detail: "its input never happened"}
		}
		out = append(out, st.check)
	}
	if c.sc.Strict {
		for _, r := range c.reports {
			typ, _ := r.fields["type"].(string)
			if !r.used && strictType(typ) {
				out = append(out, Check{Text: "(strict) no report but those expected", Detail: "unexpected report " + r.raw})
			}
		}
	}
	return out, c.lat
}
