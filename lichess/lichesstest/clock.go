package lichesstest

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Clock is a virtual clock for tests of the lichess client and of this
// server: it implements timing.Clock, and its Wait blocks until the test
// moves time past the wait's end with Advance. Nothing happens by itself, so
// backoff, rate-limit pauses, keep-alives and stall detection happen exactly
// when a test says. It is safe for concurrent use.
type Clock struct {
	mu      sync.Mutex
	now     time.Duration
	waiters []*waiter
	changed chan struct{} // closed when a wait begins
}

type waiter struct {
	until, asked time.Duration
	done         chan struct{}
}

// Now returns the virtual time.
func (c *Clock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Wait blocks until Advance has moved the clock d past now, or ctx ends.
func (c *Clock) Wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	w := &waiter{until: c.now + d, asked: d, done: make(chan struct{})}
	c.waiters = append(c.waiters, w)
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
	c.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		c.waiters = slices.DeleteFunc(c.waiters, func(x *waiter) bool { return x == w })
		c.mu.Unlock()
		select {
		case <-w.done:
			return nil
		default:
		}
		return ctx.Err()
	}
}

// Advance moves the clock on by d, ending every wait that falls due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += d
	c.waiters = slices.DeleteFunc(c.waiters, func(w *waiter) bool {
		if w.until <= c.now {
			close(w.done)
			return true
		}
		return false
	})
}

// Waiting returns the durations the pending waits asked for, shortest
// first.
func (c *Clock) Waiting() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, len(c.waiters))
	for i, w := range c.waiters {
		out[i] = w.asked
	}
	slices.Sort(out)
	return out
}

// AwaitWait blocks until some goroutine is waiting for exactly d (asked
// since the clock last reached it), or ctx ends.
func (c *Clock) AwaitWait(ctx context.Context, d time.Duration) error {
	for {
		c.mu.Lock()
		for _, w := range c.waiters {
			if w.asked == d {
				c.mu.Unlock()
				return nil
			}
		}
		if c.changed == nil {
			c.changed = make(chan struct{})
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Pass waits until some goroutine waits for exactly d, then advances the
// clock by d: "let that backoff (or pause, or keep-alive) run out".
func (c *Clock) Pass(ctx context.Context, d time.Duration) error {
	if err := c.AwaitWait(ctx, d); err != nil {
		return err
	}
	c.Advance(d)
	return nil
}
