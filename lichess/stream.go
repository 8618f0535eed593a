package lichess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// errStreamEnded is a stream that lichess closed cleanly.
var errStreamEnded = errors.New("lichess closed the stream")

// stream opens a streaming request and reads it line by line until lichess
// closes it (nil), ctx ends, or the stream fails. onOpen runs once lichess
// has answered 200; onLine gets each non-blank line (valid only during the
// call) and may stop the stream by returning an error. A stream silent for
// the stall timeout, blank lines included, is dropped with ErrStalled.
func (c *Client) stream(ctx context.Context, r request, onOpen func(), onLine func([]byte) error) error {
	if err := c.awaitPause(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var last atomic.Int64
	last.Store(int64(c.clock.Now()))
	watch := c.watchdog(ctx, &last, func() { cancel(ErrStalled) })
	defer watch()

	resp, err := c.send(ctx, r, "application/x-ndjson")
	if err != nil {
		if context.Cause(ctx) == ErrStalled {
			c.stats.stalls.Add(1)
			return fmt.Errorf("lichess: %s %s: %w", r.method, r.path, ErrStalled)
		}
		return err
	}
	defer resp.Body.Close()
	c.stats.streams.Add(1)
	last.Store(int64(c.clock.Now()))
	if onOpen != nil {
		onOpen()
	}
	lines := NewLineReader(resp.Body)
	for {
		line, keepAlive, err := lines.Next()
		if err != nil {
			switch {
			case context.Cause(ctx) == ErrStalled:
				c.stats.stalls.Add(1)
				return fmt.Errorf("lichess: %s %s: %w", r.method, r.path, ErrStalled)
			case ctx.Err() != nil:
				if cause := context.Cause(ctx); cause != nil && cause != context.Canceled {
					return cause
				}
				return ctx.Err()
			case err == io.EOF:
				return nil
			}
			return &TransportError{Method: r.method, Path: r.path, Err: err}
		}
		last.Store(int64(c.clock.Now()))
		if keepAlive {
			c.stats.keepAlives.Add(1)
			continue
		}
		c.stats.lines.Add(1)
		if err := onLine(line); err != nil {
			return err
		}
	}
}

// watchdog calls stalled once the clock has gone the stall timeout past
// the instant in last (nanoseconds on the clock), re-arming as last moves.
// The returned function stops it.
func (c *Client) watchdog(ctx context.Context, last *atomic.Int64, stalled func()) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			left := c.stall - (c.clock.Now() - time.Duration(last.Load()))
			if left <= 0 {
				stalled()
				return
			}
			if c.wait(ctx, left) != nil {
				return
			}
		}
	}()
	return func() { cancel(); <-done }
}

// Link is the state of a followed stream, for the board's status display.
type Link struct {
	// Up says the stream is connected.
	Up bool
	// Err is why it is down (nil when up, or before the first attempt).
	Err error
	// Retry is how long until the next attempt, when down.
	Retry time.Duration
}

// follower keeps a stream connected: after each loss it waits (doubling
// backoff, or the rate-limit pause after a 429) and reconnects, until ctx
// ends or an error retrying cannot mend.
type follower struct {
	c       *Client
	what    string
	backoff time.Duration
	link    func(Link)
}

// attempt is the result of one connection: err as the stream returned it,
// delivered says a line arrived (the server was reachable and serving).
type attempt struct {
	err       error
	delivered bool
}

// next decides what follows a connection's end: the wait before the next
// one, or a fatal error to return.
func (f *follower) next(a attempt) (time.Duration, error) {
	c := f.c
	if a.delivered {
		f.backoff = 0
	}
	if a.err != nil && fatal(a.err) {
		c.log.Error("lichess: "+f.what+" failed; not retrying", "err", a.err)
		if f.link != nil {
			f.link(Link{Err: a.err})
		}
		return 0, a.err
	}
	var wait time.Duration
	switch {
	case errors.Is(a.err, ErrRateLimited):
		wait = c.paused() // the pause set by the 429
		f.backoff = 0
	default:
		if f.backoff == 0 {
			f.backoff = c.minB
		} else {
			f.backoff = min(2*f.backoff, c.maxB)
		}
		wait = f.backoff
	}
	err := a.err
	if err == nil {
		err = errStreamEnded
	}
	c.log.Warn("lichess: "+f.what+" lost; reconnecting", "err", err, "retry", wait)
	if f.link != nil {
		f.link(Link{Err: err, Retry: wait})
	}
	return wait, nil
}

// StreamEvents reads the account's event stream (GET /api/stream/event) on
// one connection, handing each event to handle, until lichess closes it
// (nil), ctx ends, handle returns an error, or the stream fails. On
// connecting, lichess sends the open challenges and the games in progress.
// Lichess keeps one event stream per token: opening one closes the last.
func (c *Client) StreamEvents(ctx context.Context, handle func(Event) error) error {
	return c.streamEvents(ctx, nil, handle, nil)
}

func (c *Client) streamEvents(ctx context.Context, onOpen func(), handle func(Event) error, delivered *bool) error {
	r := request{method: "GET", path: "/api/stream/event", auth: true}
	return c.stream(ctx, r, onOpen, func(line []byte) error {
		if delivered != nil {
			*delivered = true
		}
		ev, err := DecodeEvent(line)
		if err != nil {
			c.log.Warn("lichess: event stream: a line that does not decode is skipped", "err", err)
			return nil
		}
		return handle(ev)
	})
}

// FollowEvents keeps the account's event stream open until ctx ends,
// reconnecting after every loss, and hands each event to handle. Each
// connection repeats the open challenges and games in progress, so handle
// must take a repeated GameStart or ChallengeEvent in its stride. link, if
// not nil, is told each time the stream goes up or down. FollowEvents
// returns ctx's error, an error of handle's, or an error retrying cannot
// mend (the token rejected or lacking a scope).
func (c *Client) FollowEvents(ctx context.Context, handle func(Event) error, link func(Link)) error {
	f := &follower{c: c, what: "event stream", link: link}
	for {
		var delivered bool
		var handleErr error
		err := c.streamEvents(ctx, func() {
			c.log.Info("lichess: event stream connected")
			if link != nil {
				link(Link{Up: true})
			}
		}, func(ev Event) error {
			if err := handle(ev); err != nil {
				handleErr = err
				return err
			}
			return nil
		}, &delivered)
		if handleErr != nil {
			return handleErr
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait, ferr := f.next(attempt{err: err, delivered: delivered})
		if ferr != nil {
			return ferr
		}
		if err := c.wait(ctx, wait); err != nil {
			return err
		}
	}
}
