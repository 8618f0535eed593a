package sensor

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// step is one Scan call of a scripted scanner: it takes cost of virtual time
// and returns err, or the occupancy (and readings).
type step struct {
	cost   time.Duration
	err    error
	occ    board.Occupancy
	analog bool
}

type scripted struct {
	clock *timing.Virtual
	steps []step
	n     int
}

func (s *scripted) Scan(f *Frame) error {
	st := s.steps[s.n]
	s.n++
	s.clock.Set(s.clock.Now() + st.cost)
	if st.err != nil {
		return st.err
	}
	f.Occupancy = st.occ
	if st.analog {
		a := ensureAnalog(f)
		for i := range a {
			a[i] = 2048
		}
		for _, sq := range st.occ.Squares() {
			a[sq] = 4000
		}
		f.Occupancy = 0 // the scanner's own rule saw nothing
	}
	return nil
}
func (s *scripted) Halt() error    { return nil }
func (s *scripted) String() string { return "scripted" }

type faultCall struct {
	t     time.Duration
	fault bool
}

// runLoop runs a loop over steps on a virtual clock until the script is
// spent, and returns the frames delivered (time and occupancy), the fault
// calls, the stats and the log.
func runLoop(t *testing.T, o LoopOpts, steps []step) ([]Frame, []faultCall, Stats, string) {
	t.Helper()
	clock := &timing.Virtual{}
	s := &scripted{clock: clock, steps: steps}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var frames []Frame
	var faults []faultCall
	var logs bytes.Buffer
	o.Clock = clock
	o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o.Wait = func(ctx context.Context, until time.Duration) error {
		if s.n >= len(s.steps) {
			cancel()
			return ctx.Err()
		}
		clock.Set(until)
		return ctx.Err()
	}
	o.Frame = func(f *Frame) { frames = append(frames, Frame{T: f.T, Occupancy: f.Occupancy}) }
	o.Fault = func(t time.Duration, fault bool, err error) { faults = append(faults, faultCall{t, fault}) }
	l, err := NewLoop(s, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if s.n != len(steps) {
		t.Fatalf("loop made %d scans of the %d scripted", s.n, len(steps))
	}
	return frames, faults, l.Stats(), logs.String()
}

func repeat(n int, s step) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestLoopKeepsRate(t *testing.T) {
	start := board.Occupancy(0xFFFF00000000FFFF)
	frames, faults, st, _ := runLoop(t, LoopOpts{Rate: 100}, repeat(201, step{cost: 2 * time.Millisecond, occ: start}))
	if len(frames) != 201 || len(faults) != 0 {
		t.Fatalf("%d frames, %d faults; want 201 and none", len(frames), len(faults))
	}
	for i, f := range frames {
		if want := time.Duration(i) * 10 * time.Millisecond; f.T != want || f.Occupancy != start {
			t.Fatalf("frame %d at %v (%v), want %v", i, f.T, f.Occupancy.SquareNames(), want)
		}
	}
	if st.Rate < 99 || st.Rate > 101 {
		t.Errorf("achieved rate %.2f, want 100", st.Rate)
	}
	if st.MeanCost != 2*time.Millisecond || st.MaxCost != 2*time.Millisecond || st.LastCost != 2*time.Millisecond {
		t.Errorf("cost mean %v max %v last %v, want 2ms", st.MeanCost, st.MaxCost, st.LastCost)
	}
	if st.Scans != 201 || st.Failed != 0 || st.Retries != 0 || st.Late != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestLoopRetriesAndFaults(t *testing.T) {
	bad := step{cost: time.Millisecond, err: errors.New("i2c: nack")}
	good := step{cost: time.Millisecond, occ: 1}
	var steps []step
	steps = append(steps, good)                   // 0ms: frame
	steps = append(steps, bad, good)              // 10ms: one retry, frame
	steps = append(steps, repeat(6, bad)...)      // 20, 30, 40ms: three failed scans (2 tries each): fault at 40ms
	steps = append(steps, good, good)             // 50, 60ms: frames, fault stands
	steps = append(steps, bad, bad)               // 70ms: a failed scan restarts the count
	steps = append(steps, good, good, good, good) // 80..110ms: cleared at the third, 100ms
	frames, faults, st, logs := runLoop(t, LoopOpts{Rate: 100, Retries: 1, FaultAfter: 3}, steps)

	var times []time.Duration
	for _, f := range frames {
		times = append(times, f.T)
	}
	ms := time.Millisecond
	want := []time.Duration{0, 10 * ms, 50 * ms, 60 * ms, 80 * ms, 90 * ms, 100 * ms, 110 * ms}
	if !equalDurations(times, want) {
		t.Errorf("frames at %v, want %v", times, want)
	}
	if wantF := []faultCall{{40 * ms, true}, {100 * ms, false}}; len(faults) != 2 || faults[0] != wantF[0] || faults[1] != wantF[1] {
		t.Errorf("fault calls %v, want %v", faults, wantF)
	}
	if st.Scans != 12 || st.Failed != 4 || st.Retries != 5 || st.Faults != 1 || st.Fault {
		t.Errorf("stats %+v", st)
	}
	if st.LastError != "i2c: nack" {
		t.Errorf("last error %q", st.LastError)
	}
	if n := strings.Count(logs, "scan failed"); n != 2 {
		t.Errorf("%d 'scan failed' lines, want one per run of failures (2):\n%s", n, logs)
	}
	if !strings.Contains(logs, "level=ERROR msg=\"sensor fault") || !strings.Contains(logs, "sensor fault cleared") {
		t.Errorf("fault and recovery not logged:\n%s", logs)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLoopRejectsImplausibleScan(t *testing.T) {
	stuck := step{cost: time.Millisecond, occ: board.Occupancy(1<<33 - 1)} // 33 squares
	good := step{cost: time.Millisecond, occ: 3}
	frames, _, st, _ := runLoop(t, LoopOpts{Retries: 1}, []step{stuck, good, stuck, stuck})
	if len(frames) != 1 || frames[0].Occupancy != 3 {
		t.Errorf("frames %v, want only the plausible one", frames)
	}
	if st.Failed != 1 || !strings.Contains(st.LastError, "33 squares read occupied") {
		t.Errorf("stats %+v", st)
	}
}

func TestLoopOverrunDoesNotBurst(t *testing.T) {
	frames, _, st, _ := runLoop(t, LoopOpts{Rate: 100}, repeat(5, step{cost: 25 * time.Millisecond, occ: 1}))
	var times []time.Duration
	for _, f := range frames {
		times = append(times, f.T)
	}
	ms := time.Millisecond
	if want := []time.Duration{0, 25 * ms, 50 * ms, 75 * ms, 100 * ms}; !equalDurations(times, want) {
		t.Errorf("scans at %v, want back to back %v", times, want)
	}
	if st.Late != 5 {
		t.Errorf("%d late scans, want 5", st.Late)
	}
}

func TestLoopClassifiesAnalogue(t *testing.T) {
	classify := func(a []uint16) board.Occupancy {
		var o board.Occupancy
		for sq, v := range a {
			if v > 3000 {
				o = o.With(board.Square(sq))
			}
		}
		return o
	}
	frames, _, _, _ := runLoop(t, LoopOpts{Classify: classify}, []step{{occ: occ(t, "e4", "d5"), analog: true}})
	if len(frames) != 1 || frames[0].Occupancy != occ(t, "e4", "d5") {
		t.Errorf("frames %v, want e4 d5 from the readings", frames)
	}
}

func TestNewLoopRefuses(t *testing.T) {
	s := &scripted{}
	clock := &timing.Virtual{}
	frame := func(*Frame) {}
	cases := []struct {
		name string
		s    Scanner
		o    LoopOpts
		want string
	}{
		{"no scanner", nil, LoopOpts{Clock: clock, Frame: frame}, "no scanner"},
		{"no clock", s, LoopOpts{Frame: frame}, "no clock"},
		{"no frame callback", s, LoopOpts{Clock: clock}, "no frame callback"},
		{"negative rate", s, LoopOpts{Clock: clock, Frame: frame, Rate: -5}, "rate -5: expected 0.1 to 10000"},
	}
	for _, c := range cases {
		if _, err := NewLoop(c.s, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// BenchmarkLoopScan measures the loop's own cost around a scan (retry
// bookkeeping, plausibility check, statistics, delivery), without the bus.
func BenchmarkLoopScan(b *testing.B) {
	clock := &timing.Virtual{}
	s := &scripted{clock: clock, steps: []step{{occ: 0xFFFF00000000FFFF}}}
	l, err := NewLoop(s, LoopOpts{Clock: clock, Frame: func(*Frame) {}})
	if err != nil {
		b.Fatal(err)
	}
	var f Frame
	b.ReportAllocs()
	for b.Loop() {
		s.n = 0
		if err := l.scan(&f); err != nil {
			b.Fatal(err)
		}
	}
}
