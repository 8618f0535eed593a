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
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
