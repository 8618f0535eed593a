package lichess

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Unreachable reports whether err says lichess is out of reach for now, so
// that trying again later may succeed: no answer (a *TransportError), an
// answer of 5xx (lichess down or restarting) or 429 (rate limited). A
// rejected token, a missing scope or any other answer is not.
func Unreachable(err error) bool {
	var te *TransportError
	if errors.As(err, &te) {
		return true
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status >= http.StatusInternalServerError || ae.Status == http.StatusTooManyRequests
	}
	return false
}

// Backoff spaces the attempts of a request retried while lichess is out of
// reach, as a followed stream's reconnections are spaced: the wait doubles
// from the client's MinBackoff to its MaxBackoff, and after a 429 it is
// what is left of the rate-limit pause. A Backoff is for one goroutine.
type Backoff struct {
	c    *Client
	last time.Duration
}

// NewBackoff returns a Backoff on the client's settings, starting from
// MinBackoff.
func (c *Client) NewBackoff() *Backoff { return &Backoff{c: c} }

// Next returns how long to wait before the next attempt after the failed
// one that returned err.
func (b *Backoff) Next(err error) time.Duration {
	if errors.Is(err, ErrRateLimited) {
		b.last = 0
		return max(b.c.paused(), 0)
	}
	if b.last == 0 {
		b.last = b.c.minB
	} else {
		b.last = min(2*b.last, b.c.maxB)
	}
	return b.last
}

// Wait waits d on the client's clock (its Options.Wait), or returns ctx's
// error early.
func (c *Client) Wait(ctx context.Context, d time.Duration) error {
	return c.wait(ctx, d)
}
