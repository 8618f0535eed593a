package console

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientFrom returns an HTTP client whose connections come from the
// loopback address ip (127.0.0.2, ...): another client, as the console
// counts them.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// openStream opens an event stream and returns its answer: the body stays
// open until ctx ends.
func openStream(t testing.TB, ctx context.Context, c *http.Client, url string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode == http.StatusOK {
		// The stream has begun once its first line came.
		line, err := bufio.NewReader(res.Body).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "retry:") {
			t.Fatalf("stream's first line %q, %v", line, err)
		}
	}
	return res
}

// Event streams are bounded in all and per client: a stream past either
// bound is refused with 503 and Retry-After, the streams open go on, and a
// place freed is taken again.
func TestStreamLimit(t *testing.T) {
	fb := &fakeBoard{id: "f"}
	limit := NewStreamLimit(5, 3)
	s, err := New(Options{Boards: []Board{fb}, Streams: limit, Ping: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); hs.Close() })
	url := hs.URL + "/api/boards/f/events"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, b := clientFrom("127.0.0.2"), clientFrom("127.0.0.3")
	refused := func(res *http.Response, want string) {
		t.Helper()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), want) {
			t.Errorf("answer %d (Retry-After %q) %s, want 503 with Retry-After saying %q", res.StatusCode, res.Header.Get("Retry-After"), body, want)
		}
	}
	for i := range 3 {
		if res := openStream(t, ctx, a, url); res.StatusCode != http.StatusOK {
			t.Fatalf("client a's stream %d: %d", i, res.StatusCode)
		}
	}
	refused(openStream(t, ctx, a, url), "as many as one client may have")
	bctx, bcancel := context.WithCancel(ctx)
	if res := openStream(t, bctx, b, url); res.StatusCode != http.StatusOK {
		t.Fatalf("client b's first stream: %d", res.StatusCode)
	}
	if res := openStream(t, ctx, b, url); res.StatusCode != http.StatusOK {
		t.Fatalf("client b's second stream: %d", res.StatusCode)
	}
	refused(openStream(t, ctx, clientFrom("127.0.0.4"), url), "as many as this server keeps")
	if n := limit.Open(); n != 5 {
		t.Errorf("%d streams open, want 5", n)
	}
	// A stream that ends gives its place back.
	bcancel()
	deadline := time.Now().Add(5 * time.Second)
	for limit.Open() != 4 {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open after one ended, want 4", limit.Open())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if res := openStream(t, ctx, clientFrom("127.0.0.4"), url); res.StatusCode != http.StatusOK {
		t.Errorf("a stream after one ended: %d", res.StatusCode)
	}
}

// Far more streams than the bound are asked for while the game is played
// on the page: the streams past the bound are refused, every move is
// taken, and a stream within the bound sees them all.
func TestStreamFloodLeavesTheGameAlone(t *testing.T) {
	r := newRig(t, rigOptions{})
	watcher := r.stream(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	const flood = 1000
	for i := range flood {
		c := clientFrom("127.0.1." + strconv.Itoa(1+i%200))
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.api("events"), nil)
			res, err := c.Do(req)
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					mu.Lock()
					statuses[0]++
					mu.Unlock()
				}
				return
			}
			mu.Lock()
			statuses[res.StatusCode]++
			mu.Unlock()
			if res.StatusCode == http.StatusOK {
				io.Copy(io.Discard, res.Body) // read until the test ends
			}
			res.Body.Close()
		})
	}
	for _, in := range []string{`{"lift":"e2"}`, `{"place":"e4"}`} {
		r.input(t, in)
	}
	watcher.waitState(t, "1. e4", hasMoves("e4"))
	for _, in := range []string{`{"lift":"e7"}`, `{"place":"e5"}`} {
		r.input(t, in)
	}
	watcher.waitState(t, "1... e5", hasMoves("e4 e5"))
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := statuses[http.StatusOK] + statuses[http.StatusServiceUnavailable] + statuses[0]
		mu.Unlock()
		if n == flood {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d streams answered", n, flood)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if statuses[http.StatusOK] > DefaultMaxStreams || statuses[http.StatusServiceUnavailable] < flood-DefaultMaxStreams-statuses[0] {
		t.Errorf("answers %v: want at most %d streams, the rest refused", statuses, DefaultMaxStreams)
	}
	t.Logf("answers to %d streams: %v", flood, statuses)
}

// A flood of state and PGN requests costs the board one query at a time:
// those that come while one is taken share the next.
func TestStateRequestsCoalesce(t *testing.T) {
	fb := &fakeBoard{id: "f", gate: make(chan struct{}), entered: make(chan struct{}, 64)}
	s, err := New(Options{Boards: []Board{fb}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); hs.Close() })
	first := make(chan string, 1)
	go func() {
		res, err := http.Get(hs.URL + "/api/boards/f/state")
		if err != nil {
			first <- err.Error()
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		first <- string(body)
	}()
	<-fb.entered // the first query waits at the gate
	const n = 50
	var wg sync.WaitGroup
	bodies := make([]string, n)
	for i := range n {
		wg.Go(func() {
			res, err := http.Get(hs.URL + "/api/boards/f/state")
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			bodies[i] = string(b)
		})
	}
	// Once they all wait, the first query may end.
	h := s.hubs["f"]
	deadline := time.Now().Add(10 * time.Second)
	for h.states.waiters() != n+1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests wait, want %d", h.states.waiters(), n+1)
		}
		time.Sleep(5 * time.Millisecond)
	}
	fb.gate <- struct{}{}
	<-fb.entered
	fb.gate <- struct{}{}
	wg.Wait()
	if got := <-first; !strings.Contains(got, `"fen":"1"`) {
		t.Errorf("the first request got %s, want the first query's", got)
	}
	for i, b := range bodies {
		if !strings.Contains(b, `"fen":"2"`) {
			t.Errorf("request %d got %s, want a query taken after it came", i, b)
		}
	}
	if calls := fb.calls.Load(); calls != 2 {
		t.Errorf("%d queries for %d requests, want 2", calls, n+1)
	}
}

// The listener closes at once the connections past its bounds, in all and
// per client, and takes new ones once some close.
func TestListenerBounds(t *testing.T) {
	ln, err := Listen("127.0.0.1:0", ListenOptions{MaxConns: 3, MaxConnsPerClient: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func(from string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// closedAtOnce reports whether the server end closed c.
	closedAtOnce := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
	take := func(what string) net.Conn {
		t.Helper()
		select {
		case c := <-accepted:
			return c
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: not accepted", what)
		}
		return nil
	}
	a1, a2 := dial("127.0.0.2"), dial("127.0.0.2")
	sa1 := take("a's first")
	take("a's second")
	if a3 := dial("127.0.0.2"); !closedAtOnce(a3) {
		t.Error("a client's third connection was kept")
	}
	b1 := dial("127.0.0.3")
	take("b's first")
	if c1 := dial("127.0.0.4"); !closedAtOnce(c1) {
		t.Error("a fourth connection in all was kept")
	}
	for _, c := range []net.Conn{a1, a2, b1} {
		if closedAtOnce(c) {
			t.Error("a connection within the bounds was closed")
		}
	}
	sa1.Close() // the server ends one: its place is free
	dial("127.0.0.4")
	take("a connection after one closed")
}

// The Bearer scheme's name is case-insensitive.
func TestBearerSchemeAnyCase(t *testing.T) {
	r := newRig(t, rigOptions{})
	for _, h := range []string{"Bearer " + testToken, "bearer " + testToken, "BEARER " + testToken, "bEaReR  " + testToken} {
		req, _ := http.NewRequest(http.MethodGet, r.url+"/api/auth", nil)
		req.Header.Set("Authorization", h)
		status, out := do(t, req)
		if status != http.StatusOK || out["role"] != "arbiter" {
			t.Errorf("Authorization %q: %d %v, want the arbiter", h[:8], status, out)
		}
	}
	for _, h := range []string{"Basic " + testToken, "Bearer", "Bearer" + testToken, testToken} {
		req, _ := http.NewRequest(http.MethodGet, r.url+"/api/auth", nil)
		req.Header.Set("Authorization", h)
		if status, out := do(t, req); status != http.StatusUnauthorized {
			t.Errorf("Authorization %.12q: %d %v, want 401", h, status, out)
		}
	}
}

// BenchmarkStreamAcquire measures taking and giving back a stream's place.
func BenchmarkStreamAcquire(b *testing.B) {
	l := NewStreamLimit(0, 0)
	r := httptest.NewRequest(http.MethodGet, "/api/boards/f/events", nil)
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		release, ok := l.Acquire(w, r)
		if !ok {
			b.Fatal("refused")
		}
		release()
	}
}
