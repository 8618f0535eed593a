package button

import (
	"slices"
	"testing"
	"time"

	"github.com/boardd/boardd/trace"
	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// Holds: a button held down past the hold time is reported when let go, and
// is no press; a short press is a press, reported when let go with the time
// it went down; two buttons of a side held together are one hold naming
// both (the one let go second reports nothing more).
func TestHolds(t *testing.T) {
	fc := clockwork.NewFakeClock()
	clk, jad, black := newPin("GPIO5", fc), newPin("GPIO6", fc), newPin("GPIO7", fc)
	holds := make(chan Hold, 8)
	r := startRig(t, Opts{Debounce: 10 * time.Millisecond, HoldTime: time.Second, Hold: func(h Hold) { holds <- h },
		Buttons: []Button{
			{Name: trace.ButtonClock, Side: trace.SideWhite, Pin: clk},
			{Name: trace.ButtonJadoube, Side: trace.SideWhite, Pin: jad},
			{Name: trace.ButtonJadoube, Side: trace.SideBlack, Pin: black},
		}}, fc)
	down := func(p *testButton, at time.Duration) {
		r.stamp.Set(at)
		r.edge(p.pin, gpio.Low)
		r.quiet(10*time.Millisecond, 1, 1)
		r.expect() // a press or a hold: not known until let go
	}
	up := func(p *testButton, at time.Duration) {
		r.stamp.Set(at)
		r.edge(p.pin, gpio.High)
		r.quiet(10*time.Millisecond, 1, 1)
		r.expect()
	}
	upPressed := func(p *testButton, at, wentDown time.Duration) {
		r.stamp.Set(at)
		r.edge(p.pin, gpio.High)
		r.quiet(10*time.Millisecond, 1, 1)
		r.expect(press(p.name, p.side, wentDown))
	}
	noHold := func(what string) {
		select {
		case h := <-holds:
			t.Errorf("%s: a hold %+v", what, h)
		default:
		}
	}
	wantHold := func(what string, want Hold) {
		t.Helper()
		select {
		case h := <-holds:
			if h.Side != want.Side || !slices.Equal(h.Buttons, want.Buttons) || h.T != want.T || h.For != want.For {
				t.Errorf("%s: hold %+v, want %+v", what, h, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no hold, want %+v", what, want)
		}
	}
	c := &testButton{clk, trace.ButtonClock, trace.SideWhite}
	j := &testButton{jad, trace.ButtonJadoube, trace.SideWhite}
	b := &testButton{black, trace.ButtonJadoube, trace.SideBlack}

	down(c, 5*time.Second)
	upPressed(c, 5*time.Second+300*time.Millisecond, 5*time.Second)
	noHold("a short press")

	down(c, 10*time.Second)
	up(c, 12*time.Second)
	wantHold("the clock held", Hold{Side: trace.SideWhite, Buttons: []string{"clock"}, T: 10 * time.Second, For: 2 * time.Second})

	down(j, 20*time.Second)
	down(c, 20*time.Second+100*time.Millisecond)
	down(b, 20*time.Second+200*time.Millisecond) // the other side's: not part of White's hold
	up(c, 22*time.Second)
	wantHold("both held", Hold{Side: trace.SideWhite, Buttons: []string{"clock", "jadoube"}, T: 20 * time.Second, For: 1900 * time.Millisecond})
	up(j, 22*time.Second+100*time.Millisecond)
	noHold("the second of a pair let go")
	up(b, 22*time.Second+500*time.Millisecond)
	wantHold("Black's own", Hold{Side: trace.SideBlack, Buttons: []string{"jadoube"}, T: 20*time.Second + 200*time.Millisecond, For: 2300 * time.Millisecond})
	r.stop()
}

// testButton is a test's button: its pin, name and side.
type testButton struct {
	pin        *gpiotest.Pin
	name, side string
}
