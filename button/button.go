// Package button reads the players' push buttons wired to GPIOs (j'adoube,
// check, claim/choose and clock, a set for each side) and turns each
// debounced press into a trace press line, the same input a trace's "press"
// lines and the console's buttons give.
//
// Buttons are edge-triggered through periph's gpio WaitForEdge (on Linux the
// GPIO character device, periph's gpioioctl): a watcher sleeps until its
// line changes, waits for the contacts to stop bouncing, and reports a press
// when the line settles in the pressed state. Releases are not reported as
// presses. Where holds are sensed (Opts.HoldTime, for the voice), a button
// held down for the hold time or longer is a hold, reported when it is let
// go (with the buttons of the same side held down with it), and no press: a
// blind player holding his clock button to hear the clocks has not pressed
// his clock. A shorter press is then reported when the button is let go
// (its line stamped with the moment it went down). The package knows buttons, not
// chess: what a press means is the arbiter's, what a hold asks is the
// voice's.
package button

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
)

// Names returns the button names a Button may have, as trace press lines
// name them.
func Names() []string {
	return []string{trace.ButtonJadoube, trace.ButtonCheck, trace.ButtonClaim, trace.ButtonClock}
}

// Button is one push button: which it is, whose it is, and its line.
type Button struct {
	Name string     // trace.ButtonJadoube, ButtonCheck, ButtonClaim or ButtonClock
	Side string     // trace.SideWhite or trace.SideBlack
	Pin  gpio.PinIn // the GPIO the button pulls to ground (or to 3.3 V, with ActiveHigh)
}

// String names the Button for logs.
func (b Button) String() string { return fmt.Sprintf("%s %s button on %s", b.Side, b.Name, b.Pin) }

// Opts configure a set of buttons.
type Opts struct {
	Buttons []Button
	// ActiveHigh says a pressed button drives its line high (wired to
	// 3.3 V, with a pull-down); false, the usual wiring, means a pressed
	// button pulls its line to ground against the pin's pull-up.
	ActiveHigh bool
	// Debounce is how long a line must stay still after an edge before its
	// level counts; 0 means 30ms.
	Debounce time.Duration
	// Poll is the longest a watcher waits for an edge before checking that
	// the set is still running; 0 means a second.
	Poll time.Duration
	// Clock stamps presses with the time of their first edge; required.
	Clock timing.Clock
	// Press receives each press, on a watcher's goroutine; required.
	Press func(trace.Line)
	// Logger receives the set's start and faults; nil discards them.
	Logger *slog.Logger
	// HoldTime is how long a button must stay down to be a hold; 0: holds
	// are not sensed.
	HoldTime time.Duration
	// Hold, with HoldTime, is told of each hold when its button is let go,
	// on a watcher's goroutine. A hold is no press; with holds sensed, a
	// press goes to Press when its button is let go short of the hold time.
	Hold func(Hold)
}

// Hold is one or more buttons of a side held down together for the hold
// time at least.
type Hold struct {
	Side    string        // trace.SideWhite or trace.SideBlack
	Buttons []string      // the buttons held, sorted: ["clock"], ["clock", "jadoube"]
	T       time.Duration // when the first of them was pressed
	For     time.Duration // how long the button let go first was held
}

// Set watches a set of buttons.
type Set struct {
	o   Opts
	log *slog.Logger

	mu   sync.Mutex
	down map[string]time.Duration // the buttons down ("white clock") and since when
	used map[string]bool          // the buttons down that a hold reported already
}

// New checks the buttons and configures each line as an input with the pull
// matching the wiring and edge detection on both edges.
func New(o Opts) (*Set, error) {
	if o.Clock == nil {
		return nil, errors.New("button: no clock")
	}
	if o.Press == nil {
		return nil, errors.New("button: no press callback")
	}
	if o.Debounce == 0 {
		o.Debounce = 30 * time.Millisecond
	}
	if o.Debounce < 0 || o.Debounce > time.Second {
		return nil, fmt.Errorf("button: debounce %v: expected up to 1s", o.Debounce)
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	seen := map[string]bool{}
	for i, b := range o.Buttons {
		if !validName(b.Name) {
			return nil, fmt.Errorf("button %d: name %q: expected one of %s", i, b.Name, strings.Join(Names(), ", "))
		}
		if b.Side != trace.SideWhite && b.Side != trace.SideBlack {
			return nil, fmt.Errorf("button %d: side %q: expected white or black", i, b.Side)
		}
		if b.Pin == nil {
			return nil, fmt.Errorf("button %d (%s %s): no pin", i, b.Side, b.Name)
		}
		key := b.Side + " " + b.Name
		if seen[key] {
			return nil, fmt.Errorf("button %d: a second %s button", i, key)
		}
		seen[key] = true
	}
	pull := gpio.PullUp
	if o.ActiveHigh {
		pull = gpio.PullDown
	}
	for _, b := range o.Buttons {
		if err := b.Pin.In(pull, gpio.BothEdges); err != nil {
			return nil, fmt.Errorf("button: %s: %w", b, err)
		}
	}
	o.Buttons = append([]Button(nil), o.Buttons...)
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Set{o: o, log: log, down: map[string]time.Duration{}, used: map[string]bool{}}, nil
}

func validName(n string) bool {
	switch n {
	case trace.ButtonJadoube, trace.ButtonCheck, trace.ButtonClaim, trace.ButtonClock:
		return true
	}
	return false
}

// Run watches every button until ctx ends, then returns nil.
func (s *Set) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, b := range s.o.Buttons {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.watch(ctx, b)
		}()
	}
	if len(s.o.Buttons) > 0 {
		s.log.Info("buttons watched", "buttons", len(s.o.Buttons))
	}
	<-ctx.Done()
	_ = s.Halt() // interrupt the waits that can be interrupted
	wg.Wait()
	return nil
}

// watch turns one line's edges into presses.
func (s *Set) watch(ctx context.Context, b Button) {
	pressed := s.pressed(b.Pin.Read())
	for ctx.Err() == nil {
		if !b.Pin.WaitForEdge(s.o.Poll) {
			continue
		}
		at := s.o.Clock.Now()
		// The contacts bounce: wait until the line keeps still.
		for b.Pin.WaitForEdge(s.o.Debounce) {
			if ctx.Err() != nil {
				return
			}
		}
		now := s.pressed(b.Pin.Read())
		if now == pressed {
			continue // a glitch, or a press and release within one bounce
		}
		pressed = now
		if !s.holdsSensed() {
			if pressed {
				s.o.Press(trace.Line{T: at, Kind: trace.Press, Button: b.Name, Side: b.Side})
			}
			continue
		}
		if since, press := s.track(b, pressed, at); press {
			s.o.Press(trace.Line{T: since, Kind: trace.Press, Button: b.Name, Side: b.Side})
		}
	}
}

// holdsSensed reports whether the set tells holds from presses.
func (s *Set) holdsSensed() bool { return s.o.HoldTime > 0 && s.o.Hold != nil }

func (s *Set) pressed(l gpio.Level) bool { return l == gpio.Level(s.o.ActiveHigh) }

// track follows the buttons down for holds: when b is let go at t after
// the hold time, the hold is reported with every button of its side down
// as long; those are then let go without a report of their own. A button
// let go sooner, and not part of a hold, was pressed: track returns when it
// went down and true.
func (s *Set) track(b Button, pressed bool, t time.Duration) (time.Duration, bool) {
	key := b.Side + " " + b.Name
	s.mu.Lock()
	if pressed {
		s.down[key] = t
		s.mu.Unlock()
		return 0, false
	}
	since, ok := s.down[key]
	used := s.used[key]
	delete(s.down, key)
	delete(s.used, key)
	if !ok || used {
		s.mu.Unlock()
		return 0, false
	}
	if t-since < s.o.HoldTime {
		s.mu.Unlock()
		return since, true
	}
	h := Hold{Side: b.Side, Buttons: []string{b.Name}, T: since, For: t - since}
	for other, from := range s.down {
		side, name, _ := strings.Cut(other, " ")
		if side == b.Side && t-from >= s.o.HoldTime {
			h.Buttons = append(h.Buttons, name)
			h.T = min(h.T, from)
			s.used[other] = true
		}
	}
	s.mu.Unlock()
	sort.Strings(h.Buttons)
	s.o.Hold(h)
	return 0, false
}

// Halt interrupts every watcher's wait (on lines that support it).
func (s *Set) Halt() error {
	var errs []error
	for _, b := range s.o.Buttons {
		if err := b.Pin.Halt(); err != nil {
			errs = append(errs, fmt.Errorf("button: %s: %w", b, err))
		}
	}
	return errors.Join(errs...)
}

// String names the Set for logs.
func (s *Set) String() string {
	parts := make([]string, len(s.o.Buttons))
	for i, b := range s.o.Buttons {
		parts[i] = b.String()
	}
	return "buttons: " + strings.Join(parts, ", ")
}
