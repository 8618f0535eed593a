package button

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// rig runs a Set over gpiotest pins whose WaitForEdge timeouts run on a fake
// clock. The test feeds edges through each pin's EdgesChan (a send returns
// once the watcher has taken the edge) and moves the fake clock only once
// the watchers wait on the timers it expects, counted in waiters: every
// WaitForEdge leaves one timer behind until the clock passes it.
type rig struct {
	t       *testing.T
	fc      *clockwork.FakeClock
	stamp   *timing.Virtual
	presses chan trace.Line
	waiters int
	cancel  context.CancelFunc
	done    chan struct{}
}

func newPin(name string, fc *clockwork.FakeClock) *gpiotest.Pin {
	return &gpiotest.Pin{N: name, Num: -1, EdgesChan: make(chan gpio.Level), Clock: fc}
}

func startRig(t *testing.T, o Opts, fc *clockwork.FakeClock) *rig {
	t.Helper()
	r := &rig{t: t, fc: fc, stamp: &timing.Virtual{}, presses: make(chan trace.Line, 16), done: make(chan struct{})}
	o.Clock = r.stamp
	o.Press = func(l trace.Line) { r.presses <- l }
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		_ = s.Run(ctx)
		close(r.done)
	}()
	r.waiters = len(o.Buttons) // each watcher waits for its first edge
	r.settle()
	return r
}

// edge feeds one edge; the watcher answers by waiting for the bounce to end.
func (r *rig) edge(p *gpiotest.Pin, l gpio.Level) {
	p.EdgesChan <- l
	r.waiters++
}

// settle waits until the watchers wait on every timer expected.
func (r *rig) settle() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.fc.BlockUntilContext(ctx, r.waiters); err != nil {
		r.t.Fatalf("watchers never waited on %d timers: %v", r.waiters, err)
	}
}

// quiet lets d pass with no edge: fired is how many timers that expires, and
// rearmed how many watchers then go back to waiting for an edge.
func (r *rig) quiet(d time.Duration, fired, rearmed int) {
	r.t.Helper()
	r.settle()
	r.fc.Advance(d)
	r.waiters += rearmed - fired
	r.settle()
}

func (r *rig) expect(want ...trace.Line) {
	r.t.Helper()
	for _, w := range want {
		select {
		case got := <-r.presses:
			if got != w {
				r.t.Errorf("press %+v, want %+v", got, w)
			}
		case <-time.After(10 * time.Second):
			r.t.Fatalf("no press, want %+v", w)
		}
	}
	select {
	case got := <-r.presses:
		r.t.Errorf("unexpected press %+v", got)
	default:
	}
}

func (r *rig) stop() {
	r.t.Helper()
	r.cancel()
	r.fc.Advance(time.Hour) // wake every watcher from its wait
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		r.t.Fatal("Run did not return after its context ended")
	}
}

func press(name, side string, at time.Duration) trace.Line {
	return trace.Line{T: at, Kind: trace.Press, Button: name, Side: side}
}

func TestBouncingPressIsOnePress(t *testing.T) {
	fc := clockwork.NewFakeClock()
	clk := newPin("GPIO5", fc)
	r := startRig(t, Opts{Buttons: []Button{{Name: trace.ButtonClock, Side: trace.SideWhite, Pin: clk}}}, fc)
	if clk.P != gpio.PullUp {
		t.Errorf("pin pull %v, want PullUp", clk.P)
	}

	// Pressed at 5s: the contacts bounce twice, then hold.
	r.stamp.Set(5 * time.Second)
	r.edge(clk, gpio.Low)
	r.edge(clk, gpio.High)
	r.stamp.Set(5*time.Second + 2*time.Millisecond) // the press dates from its first edge
	r.edge(clk, gpio.Low)
	r.quiet(30*time.Millisecond, 3, 1)
	r.expect(press(trace.ButtonClock, trace.SideWhite, 5*time.Second))

	// Released: nothing to report.
	r.edge(clk, gpio.High)
	r.quiet(30*time.Millisecond, 1, 1)
	r.expect()

	// A glitch shorter than the debounce: nothing.
	r.edge(clk, gpio.Low)
	r.edge(clk, gpio.High)
	r.quiet(30*time.Millisecond, 2, 1)
	r.expect()

	// Held down past the debounce: one press however long it is held.
	r.stamp.Set(9 * time.Second)
	r.edge(clk, gpio.Low)
	r.quiet(30*time.Millisecond, 1, 1)
	r.expect(press(trace.ButtonClock, trace.SideWhite, 9*time.Second))
	r.stop()
}

func TestEachSideItsOwnButtons(t *testing.T) {
	fc := clockwork.NewFakeClock()
	white, black := newPin("GPIO5", fc), newPin("GPIO6", fc)
	r := startRig(t, Opts{Debounce: 10 * time.Millisecond, Buttons: []Button{
		{Name: trace.ButtonClaim, Side: trace.SideWhite, Pin: white},
		{Name: trace.ButtonJadoube, Side: trace.SideBlack, Pin: black},
	}}, fc)
	r.stamp.Set(time.Second)
	r.edge(black, gpio.Low)
	r.quiet(10*time.Millisecond, 1, 1)
	r.expect(press(trace.ButtonJadoube, trace.SideBlack, time.Second))
	r.stamp.Set(2 * time.Second)
	r.edge(white, gpio.Low)
	r.quiet(10*time.Millisecond, 1, 1)
	r.expect(press(trace.ButtonClaim, trace.SideWhite, 2*time.Second))
	r.stop()
}

func TestActiveHigh(t *testing.T) {
	fc := clockwork.NewFakeClock()
	p := newPin("GPIO13", fc)
	r := startRig(t, Opts{ActiveHigh: true, Buttons: []Button{{Name: trace.ButtonCheck, Side: trace.SideBlack, Pin: p}}}, fc)
	if p.P != gpio.PullDown || p.Read() != gpio.Low {
		t.Errorf("pin pull %v level %v, want PullDown and low", p.P, p.Read())
	}
	r.edge(p, gpio.High)
	r.quiet(30*time.Millisecond, 1, 1)
	r.expect(press(trace.ButtonCheck, trace.SideBlack, 0))
	r.stop()
}

// failPin refuses to be configured.
type failPin struct{ gpiotest.Pin }

func (p *failPin) In(gpio.Pull, gpio.Edge) error { return errors.New("line busy") }

func TestNewRefuses(t *testing.T) {
	clock := &timing.Virtual{}
	pressFn := func(trace.Line) {}
	pin := func() gpio.PinIn { return &gpiotest.Pin{N: "GPIO5", EdgesChan: make(chan gpio.Level)} }
	cases := []struct {
		name string
		o    Opts
		want string
	}{
		{"no clock", Opts{Press: pressFn}, "no clock"},
		{"no callback", Opts{Clock: clock}, "no press callback"},
		{"unknown name", Opts{Clock: clock, Press: pressFn, Buttons: []Button{{Name: "resign", Side: "white", Pin: pin()}}},
			`name "resign": expected one of jadoube, check, claim, clock`},
		{"arbiter side", Opts{Clock: clock, Press: pressFn, Buttons: []Button{{Name: "clock", Side: "arbiter", Pin: pin()}}},
			`side "arbiter": expected white or black`},
		{"no pin", Opts{Clock: clock, Press: pressFn, Buttons: []Button{{Name: "clock", Side: "white"}}}, "no pin"},
		{"twice", Opts{Clock: clock, Press: pressFn, Buttons: []Button{
			{Name: "clock", Side: "white", Pin: pin()}, {Name: "clock", Side: "white", Pin: pin()}}}, "a second white clock button"},
		{"long debounce", Opts{Clock: clock, Press: pressFn, Debounce: 2 * time.Second}, "debounce 2s: expected up to 1s"},
		{"line busy", Opts{Clock: clock, Press: pressFn, Buttons: []Button{{Name: "claim", Side: "black", Pin: &failPin{gpiotest.Pin{N: "GPIO7"}}}}},
			"black claim button on GPIO7(0): line busy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
