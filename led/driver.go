package led

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/timing"
)

// Driver shows frames on a sink in real time, on its own goroutine: the
// newest frame given to Show is shown at once, with the newest layer given to
// ShowLayer laid over it (Overlay), and the sink is called again at each
// blink edge it asks for. Whoever composes frames (the daemon, from the
// game's snapshots: lighting.Follow) never waits for the LEDs' bus.
type Driver struct {
	sink  Sink
	clock timing.Clock
	log   *slog.Logger
	wake  chan struct{}

	mu    sync.Mutex
	frame Frame
	layer Frame
	fresh bool
}

// NewDriver returns a driver of sink on clock; logger may be nil.
func NewDriver(sink Sink, clock timing.Clock, logger *slog.Logger) *Driver {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Driver{sink: sink, clock: clock, log: logger, wake: make(chan struct{}, 1)}
}

// Show hands the driver a new frame; it returns at once. A frame equal to
// the one shown is not shown again.
func (d *Driver) Show(f Frame) {
	d.mu.Lock()
	if f == d.frame && !d.fresh {
		d.mu.Unlock()
		return
	}
	d.frame, d.fresh = f, true
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// ShowLayer hands the driver a frame to lay over the game's (see Overlay),
// such as an app's LEDs; a dark frame takes the layer away. It returns at
// once.
func (d *Driver) ShowLayer(f Frame) {
	d.mu.Lock()
	if f == d.layer {
		d.mu.Unlock()
		return
	}
	d.layer, d.fresh = f, true
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run shows frames until ctx ends; then it turns the LEDs off and halts the
// sink.
func (d *Driver) Run(ctx context.Context) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	defer func() {
		if err := d.sink.Halt(); err != nil {
			d.log.Warn("led sink halt", "sink", d.sink.String(), "err", err)
		}
	}()
	failing := false
	for {
		d.mu.Lock()
		f := Overlay(&d.frame, &d.layer)
		d.fresh = false
		d.mu.Unlock()
		now := d.clock.Now()
		if err := d.sink.Show(&f, now); err != nil {
			if !failing {
				d.log.Warn("led sink", "sink", d.sink.String(), "err", err)
			}
			failing = true
		} else if failing {
			d.log.Info("led sink showing again", "sink", d.sink.String())
			failing = false
		}
		wait := time.Hour
		if due, ok := d.sink.Deadline(); ok {
			wait = max(due-d.clock.Now(), 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-d.wake:
		case <-timer.C:
		}
	}
}
