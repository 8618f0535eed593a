package lichess

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/lichess/lichesstest"
)

// Test timings: distinct durations, so that a test can tell which wait it
// lets run out.
const (
	testStall      = 20 * time.Second
	testTimeout    = 15 * time.Second
	testMinBackoff = time.Second
	testMaxBackoff = 8 * time.Second
	testPause      = time.Minute
	realDeadline   = 20 * time.Second // how long a test waits, in real time, for a condition
)

// syncBuffer collects log output from many goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// harness is a lichesstest server and a client on one virtual clock.
type harness struct {
	t      *testing.T
	ctx    context.Context
	clock  *lichesstest.Clock
	srv    *lichesstest.Server
	client *Client
	logs   *syncBuffer
}

func newHarness(t *testing.T, so lichesstest.Options) *harness {
	t.Helper()
	h := &harness{t: t, clock: &lichesstest.Clock{}, logs: &syncBuffer{}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	h.ctx = ctx
	log := slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	so.Clock, so.Wait = h.clock, h.clock.Wait
	so.Logger = log
	h.srv = lichesstest.New(so)
	t.Cleanup(h.srv.Close)
	h.client = h.newClient(h.srv.Token())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", h.logs.String())
		}
		if strings.Contains(h.logs.String(), h.srv.Token()) {
			t.Errorf("the token appears in the log")
		}
	})
	return h
}

func (h *harness) newClient(token string) *Client {
	h.t.Helper()
	tok, err := NewToken(token)
	if err != nil {
		h.t.Fatal(err)
	}
	c, err := New(Options{
		BaseURL: h.srv.URL(), Token: tok, Clock: h.clock, Wait: h.clock.Wait,
		Logger:       slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		StallTimeout: testStall, RequestTimeout: testTimeout, MinBackoff: testMinBackoff, MaxBackoff: testMaxBackoff,
		RateLimitPause: testPause,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// awaitWait waits until some goroutine waits exactly d.
func awaitWait(h *harness, d time.Duration) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, realDeadline)
	defer cancel()
	if err := h.clock.AwaitWait(ctx, d); err != nil {
		h.t.Fatalf("nobody waited %v (waiting: %v): %v", d, h.clock.Waiting(), err)
	}
}

// pass lets a wait of exactly d run out.
func (h *harness) pass(d time.Duration) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, realDeadline)
	defer cancel()
	if err := h.clock.Pass(ctx, d); err != nil {
		h.t.Fatalf("nobody waited %v (waiting: %v): %v", d, h.clock.Waiting(), err)
	}
}

// eventually waits, in real time, until cond holds.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(realDeadline)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
