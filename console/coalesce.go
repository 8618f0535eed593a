package console

import (
	"context"
	"sync"
)

// coalescer shares the board's answers between requests that want one at
// the same time, so that a flood of requests costs the board's game one
// query at a time, never one a request: at most one fetch runs, and every
// request that comes while it runs waits for the next one, which begins when
// it ends and serves them all. Each request is thus answered with a value
// taken after it came.
type coalescer[T any] struct {
	mu      sync.Mutex
	running bool
	next    *fetch[T]
	waiting int // requests waiting for a value
}

type fetch[T any] struct {
	done chan struct{}
	v    T
	err  error
}

// get returns a value fetched by fn after the call began, or ctx's error.
// fn runs on a goroutine of its own with base, not ctx: other requests may
// be waiting for it.
func (c *coalescer[T]) get(ctx, base context.Context, fn func(context.Context) (T, error)) (T, error) {
	c.mu.Lock()
	f := c.next
	if f == nil {
		f = &fetch[T]{done: make(chan struct{})}
		c.next = f
	}
	if !c.running {
		c.running = true
		go c.run(base, fn)
	}
	c.waiting++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
	}()
	select {
	case <-f.done:
		return f.v, f.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// run fetches for the waiting requests until none waits.
func (c *coalescer[T]) run(base context.Context, fn func(context.Context) (T, error)) {
	for {
		c.mu.Lock()
		f := c.next
		c.next = nil
		if f == nil {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		f.v, f.err = fn(base)
		close(f.done)
	}
}

// waiters returns the number of requests waiting for a value.
func (c *coalescer[T]) waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waiting
}
