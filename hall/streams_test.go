package hall

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/console"
)

// clientFrom returns an HTTP client whose connections come from the
// loopback address ip (127.0.0.2, ...): another client, as the stream
// bound counts them.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// stream opens path on hs from c; the answer's body stays open until cancel
// is called or the test ends. An answer 200 has begun streaming.
func stream(t *testing.T, c *http.Client, url string) (res *http.Response, lines *bufio.Reader, cancel func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = c.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	lines = bufio.NewReader(res.Body)
	if res.StatusCode == http.StatusOK {
		if line, err := lines.ReadString('\n'); err != nil || !strings.HasPrefix(line, "retry:") {
			t.Fatalf("%s: first line %q, %v", url, line, err)
		}
	}
	return res, lines, cancel
}

// The hall's event streams, the grid's and the boards' pages' alike, share
// one bound in all and per client, as the console's do: a stream past it
// is refused with 503, Retry-After and a message naming the bound, the
// streams open go on, and a place freed is taken again.
func TestHallStreamLimit(t *testing.T) {
	h := testHall()
	h.board("b1")
	srv, err := NewServer(h, ServerOptions{Streams: console.NewStreamLimit(3, 2), Ping: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	grid, board := hs.URL+"/api/hall/events", hs.URL+"/api/boards/b1/events"

	refused := func(res *http.Response, want string) {
		t.Helper()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "10" || !strings.Contains(string(body), want) {
			t.Errorf("answer %d, Retry-After %q, %s: want 503, Retry-After 10, %q", res.StatusCode, res.Header.Get("Retry-After"), body, want)
		}
	}
	a := clientFrom("127.0.0.2")
	first, firstLines, closeFirst := stream(t, a, grid)
	second, _, _ := stream(t, a, grid)
	if first.StatusCode != http.StatusOK || second.StatusCode != http.StatusOK {
		t.Fatalf("first two grid streams %d, %d: want 200", first.StatusCode, second.StatusCode)
	}
	// A third from the same client is past the bound per client.
	res, _, _ := stream(t, a, grid)
	refused(res, "as many as one client may have")
	// A board's page from another client takes the last place in all.
	if res, _, _ := stream(t, clientFrom("127.0.0.3"), board); res.StatusCode != http.StatusOK {
		t.Fatalf("board stream %d: want 200", res.StatusCode)
	}
	c := clientFrom("127.0.0.4")
	res, _, _ = stream(t, c, grid)
	refused(res, "as many as this server keeps")
	res, _, _ = stream(t, c, board)
	refused(res, "as many as this server keeps")

	// The streams open go on: a change reaches them.
	h.changed("b1")
	for {
		line, err := firstLines.ReadString('\n')
		if err != nil {
			t.Fatalf("the first stream after the refusals: %v", err)
		}
		if strings.HasPrefix(line, "event: board") || strings.HasPrefix(line, "event: hall") {
			break
		}
	}
	// A place freed is taken again.
	closeFirst()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, _, _ := stream(t, c, grid)
		if res.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a stream closed, but the next is still refused: %d", res.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
