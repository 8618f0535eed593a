package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardd/boardd/timing"
)

// Defaults of Options.
const (
	DefaultBaseURL        = "https://lichess.org"
	DefaultStallTimeout   = 20 * time.Second
	DefaultRequestTimeout = 20 * time.Second
	DefaultMinBackoff     = time.Second
	DefaultMaxBackoff     = 30 * time.Second
	// DefaultRateLimitPause is how long every request waits after a 429:
	// lichess asks for a full minute.
	DefaultRateLimitPause = time.Minute
	DefaultUserAgent      = "boardd (github.com/boardd/boardd)"
)

// Options configure a Client.
type Options struct {
	// BaseURL is lichess's address (DefaultBaseURL if empty); tests point
	// it at a lichesstest server.
	BaseURL string
	// Token is the personal API token, sent as a Bearer token.
	Token Token
	// HTTPClient makes the requests (a client without an overall timeout
	// if nil: streams last as long as a game). Its Timeout must be zero.
	HTTPClient *http.Client
	// Clock tells the time for backoff, the rate-limit pause, stall
	// detection and request timeouts (a timing.Real if nil).
	Clock timing.Clock
	// Wait lets d pass on Clock, or returns ctx's error early (a real timer
	// if nil). Tests give a virtual clock's wait.
	Wait func(ctx context.Context, d time.Duration) error
	// Logger receives connections, losses, retries and refusals (discarded
	// if nil). The token never appears in it.
	Logger *slog.Logger
	// UserAgent identifies boardd to lichess (DefaultUserAgent if empty).
	UserAgent string
	// StallTimeout drops a stream that sends nothing, not even a keep-alive
	// line, for this long (DefaultStallTimeout if zero). Lichess writes an
	// empty line every 6 to 7 seconds.
	StallTimeout time.Duration
	// RequestTimeout abandons a request that is not answered in this long
	// (DefaultRequestTimeout if zero). Streams and seeks are bounded by
	// StallTimeout instead.
	RequestTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait before reconnecting a
	// stream: it doubles from one to the other while attempts fail, and
	// starts again from MinBackoff once a connection has delivered a line.
	MinBackoff, MaxBackoff time.Duration
	// RateLimitPause is how long every request waits after a 429
	// (DefaultRateLimitPause if zero; never less than a Retry-After header).
	RateLimitPause time.Duration
}

// Client talks to lichess's Board API for one account. It is safe for
// concurrent use.
type Client struct {
	base    *url.URL
	token   Token
	http    *http.Client
	clock   timing.Clock
	wait    func(ctx context.Context, d time.Duration) error
	log     *slog.Logger
	agent   string
	stall   time.Duration
	timeout time.Duration
	minB    time.Duration
	maxB    time.Duration
	pause   time.Duration

	mu          sync.Mutex
	pausedUntil time.Duration // no request before this instant (after a 429)
	pausedSet   bool

	stats stats
}

// Stats count what a Client has done, for status pages and tests.
type Stats struct {
	Requests      int64 // requests sent, streams included
	StreamsOpened int64 // streams that answered 200
	Lines         int64 // non-blank stream lines read
	KeepAlives    int64 // blank stream lines read
	Stalls        int64 // streams dropped for silence
	RateLimited   int64 // 429 answers
	MovesSent     int64 // moves lichess accepted
	MovesRefused  int64 // moves lichess refused (400)
}

type stats struct {
	requests, streams, lines, keepAlives, stalls, rateLimited, movesSent, movesRefused atomic.Int64
}

// New returns a client for the account whose token o carries.
func New(o Options) (*Client, error) {
	if o.Token.IsZero() {
		return nil, errors.New("lichess: no token")
	}
	base := o.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("lichess: base URL %q: want http(s)://host[:port]", base)
	}
	c := &Client{
		base: u, token: o.Token, http: o.HTTPClient, clock: o.Clock, wait: o.Wait, log: o.Logger,
		agent: o.UserAgent, stall: o.StallTimeout, timeout: o.RequestTimeout,
		minB: o.MinBackoff, maxB: o.MaxBackoff, pause: o.RateLimitPause,
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.http.Timeout != 0 {
		return nil, errors.New("lichess: the HTTP client has an overall Timeout, which would cut streams: leave it zero (StallTimeout and RequestTimeout bound requests)")
	}
	if c.clock == nil {
		c.clock = timing.NewReal()
	}
	if c.wait == nil {
		c.wait = timing.Wait
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.agent == "" {
		c.agent = DefaultUserAgent
	}
	if c.stall <= 0 {
		c.stall = DefaultStallTimeout
	}
	if c.timeout <= 0 {
		c.timeout = DefaultRequestTimeout
	}
	if c.minB <= 0 {
		c.minB = DefaultMinBackoff
	}
	if c.maxB < c.minB {
		c.maxB = max(DefaultMaxBackoff, c.minB)
	}
	if c.pause <= 0 {
		c.pause = DefaultRateLimitPause
	}
	return c, nil
}

// Stats returns the counts so far; safe from any goroutine.
func (c *Client) Stats() Stats {
	s := &c.stats
	return Stats{
		Requests: s.requests.Load(), StreamsOpened: s.streams.Load(), Lines: s.lines.Load(),
		KeepAlives: s.keepAlives.Load(), Stalls: s.stalls.Load(), RateLimited: s.rateLimited.Load(),
		MovesSent: s.movesSent.Load(), MovesRefused: s.movesRefused.Load(),
	}
}

// request is one call to lichess.
type request struct {
	method string
	path   string // escaped path, e.g. /api/board/game/abc/move/e2e4
	query  url.Values
	form   url.Values // sent as application/x-www-form-urlencoded
	body   string     // sent as text/plain when form is nil
	auth   bool       // send the token (all but /api/token/test)
}

// paused returns how long requests must still hold back after a 429.
func (c *Client) paused() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.pausedSet {
		return 0
	}
	return c.pausedUntil - c.clock.Now()
}

// pauseFor holds every request back for d from now (or longer, if an
// earlier pause ends later).
func (c *Client) pauseFor(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	until := c.clock.Now() + d
	if !c.pausedSet || until > c.pausedUntil {
		c.pausedUntil, c.pausedSet = until, true
	}
}

// awaitPause waits out a rate-limit pause, if one is running.
func (c *Client) awaitPause(ctx context.Context) error {
	for {
		d := c.paused()
		if d <= 0 {
			return ctx.Err()
		}
		c.log.Info("lichess: holding requests back after a 429", "for", d)
		if err := c.wait(ctx, d); err != nil {
			return err
		}
	}
}

// send makes the HTTP request, waiting out any rate-limit pause first, and
// returns the response for a 2xx status, else an *APIError (the body read
// and closed). ctx bounds the whole exchange, body included.
func (c *Client) send(ctx context.Context, r request, accept string) (*http.Response, error) {
	if err := c.awaitPause(ctx); err != nil {
		return nil, err
	}
	u := *c.base
	u.Path = c.base.Path + r.path
	u.RawPath = c.base.EscapedPath() + r.path
	if len(r.query) > 0 {
		u.RawQuery = r.query.Encode()
	}
	var body io.Reader
	ctype := ""
	switch {
	case r.form != nil:
		body, ctype = strings.NewReader(r.form.Encode()), "application/x-www-form-urlencoded"
	case r.body != "":
		body, ctype = strings.NewReader(r.body), "text/plain"
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("lichess: %s %s: %w", r.method, r.path, err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.agent)
	if r.auth {
		req.Header.Set("Authorization", "Bearer "+c.token.Reveal())
	}
	c.stats.requests.Add(1)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &TransportError{Method: r.method, Path: r.path, Err: redactURLError(err)}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	apiErr := &APIError{Method: r.method, Path: r.path, Status: resp.StatusCode, Message: errorMessage(data)}
	if resp.StatusCode == http.StatusTooManyRequests {
		c.stats.rateLimited.Add(1)
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			apiErr.RetryAfter = time.Duration(s) * time.Second
		}
		c.pauseFor(max(c.pause, apiErr.RetryAfter))
		c.log.Warn("lichess: rate limited (429); every request waits", "request", r.method+" "+r.path, "for", max(c.pause, apiErr.RetryAfter))
	}
	return nil, apiErr
}

// TransportError is a request that got no answer from lichess: no
// connection, a connection lost, or no answer in time. Whether lichess acted
// on it is unknown.
type TransportError struct {
	Method, Path string
	Err          error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("lichess: %s %s: %v", e.Method, e.Path, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// redactURLError drops the URL from a *url.Error (it holds no token, but the
// caller names the request already).
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// errorMessage returns lichess's "error" field of a JSON error body, or the
// start of the body.
func errorMessage(data []byte) string {
	var e struct {
		Error any `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error != nil {
		switch v := e.Error.(type) {
		case string:
			return v
		default:
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	s := strings.TrimSpace(string(data))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// call makes a request that answers JSON, decoding it into out (unless nil),
// bounded by RequestTimeout. It returns the response's header.
func (c *Client) call(ctx context.Context, r request, out any) (http.Header, error) {
	if err := c.awaitPause(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := c.after(ctx, c.timeout, func() { cancel(errRequestTimeout) })
	defer stop()
	resp, err := c.send(ctx, r, "application/json")
	if err != nil {
		return nil, c.timeoutCause(ctx, r, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, c.timeoutCause(ctx, r, &TransportError{Method: r.method, Path: r.path, Err: err})
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("lichess: %s %s: answer: %w", r.method, r.path, err)
		}
	}
	return resp.Header, nil
}

var errRequestTimeout = errors.New("no answer within the request timeout")

// timeoutCause names the request timeout as the cause of a cancelled
// request, whether it was cancelled on the wire or before it was sent (the
// timeout may fire while the request still waits out a rate-limit pause).
func (c *Client) timeoutCause(ctx context.Context, r request, err error) error {
	if context.Cause(ctx) == errRequestTimeout {
		return &TransportError{Method: r.method, Path: r.path, Err: fmt.Errorf("%w (%v)", errRequestTimeout, c.timeout)}
	}
	return err
}

// after runs f once d has passed on the client's clock, unless stop is
// called (or ctx ends) first.
func (c *Client) after(ctx context.Context, d time.Duration, f func()) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if c.wait(ctx, d) == nil && ctx.Err() == nil {
			f()
		}
	}()
	return func() { cancel(); <-done }
}

// okCall makes a request that answers {"ok":true}.
func (c *Client) okCall(ctx context.Context, r request) error {
	_, err := c.call(ctx, r, nil)
	return err
}

// gamePath returns /api/board/game/{id}/{rest...} with each part escaped.
func gamePath(id string, rest ...string) string {
	p := "/api/board/game/" + url.PathEscape(id)
	for _, r := range rest {
		p += "/" + url.PathEscape(r)
	}
	return p
}
