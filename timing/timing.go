// Package timing is the injected clock every timer in boardd runs on.
//
// Time in the game is a time.Duration since the game's epoch (the
// start of a replay, or the moment the daemon started). Components never read
// the wall clock: they are told the time with every input, keep their own
// deadlines, and are advanced to a deadline by whoever drives them. A replay
// drives them from the trace in virtual time, jumping from one input or
// deadline to the next; the daemon drives them from a Real clock. This package
// knows nothing of chess, sensors or LEDs.
package timing

import (
	"context"
	"sync"
	"time"
)

// Clock tells the time since an epoch.
type Clock interface {
	Now() time.Duration
}

// Real is a Clock on the monotonic wall clock, its epoch the moment it was
// made.
type Real struct {
	start time.Time
}

// NewReal returns a real clock whose epoch is now.
func NewReal() *Real { return &Real{start: time.Now()} }

// Now returns the monotonic time elapsed since the epoch.
func (r *Real) Now() time.Duration { return time.Since(r.start) }

// Epoch returns the wall-clock instant of the epoch.
func (r *Real) Epoch() time.Time { return r.start }

// Virtual is a Clock that moves only when told to. It is safe for concurrent
// use.
type Virtual struct {
	mu  sync.Mutex
	now time.Duration
}

// Now returns the virtual time.
func (v *Virtual) Now() time.Duration {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

// Set moves the virtual time to t; time never runs backwards, so an earlier t
// is ignored.
func (v *Virtual) Set(t time.Duration) {
	v.mu.Lock()
	if t > v.now {
		v.now = t
	}
	v.mu.Unlock()
}

// Never is the deadline of a component with no timer pending.
const Never = time.Duration(1<<63 - 1)

// Earliest returns the earlier of two deadlines.
func Earliest(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

// Sleep waits d in real time, or until ctx ends; it reports whether d
// passed. It spaces a port's reopening attempts (a backoff between tries on
// hardware), where nothing depends on the exact instant.
func Sleep(ctx context.Context, d time.Duration) bool { return Wait(ctx, d) == nil }

// Wait waits d in real time, or returns ctx's error if ctx ends first; a d
// that is not positive returns at once (ctx's error, nil while ctx runs).
// It is where the components that are given a wait (virtual time in tests
// and replays) meet real time.
func Wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Until returns the real-time wait for deadlines read on clock: it waits
// until clock reads until, or returns ctx's error if ctx ends first (Wait).
func Until(clock Clock) func(ctx context.Context, until time.Duration) error {
	return func(ctx context.Context, until time.Duration) error { return Wait(ctx, until-clock.Now()) }
}
