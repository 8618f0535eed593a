package console

import (
	"net"
	"net/http"
	"strconv"
	"sync"
)

// Defaults of a StreamLimit. An event stream costs the daemon some 30 KiB
// (a goroutine, its connection's buffers, the client's queue): 256 streams
// are 8 MiB, which a Pi Zero (512 MB) carries; one browser tab needs one.
const (
	DefaultMaxStreams          = 256
	DefaultMaxStreamsPerClient = 16
)

// StreamRetryAfter is the Retry-After (seconds) of a stream refused.
const StreamRetryAfter = 10

// StreamLimit bounds the event streams open at once: in all, and from one
// client address (an IPv6 client is its /64). A stream past either is
// refused with 503 Service Unavailable and Retry-After, and the
// connection is closed; the streams already open keep going. Servers that
// share a process may share one limit. It is safe for concurrent use.
type StreamLimit struct {
	max, perClient int

	mu       sync.Mutex
	open     int
	byClient map[string]int
}

// NewStreamLimit returns a limit of max streams in all and perClient from
// one client address (the defaults where zero or less).
func NewStreamLimit(max, perClient int) *StreamLimit {
	if max <= 0 {
		max = DefaultMaxStreams
	}
	if perClient <= 0 {
		perClient = DefaultMaxStreamsPerClient
	}
	return &StreamLimit{max: max, perClient: perClient, byClient: map[string]int{}}
}

// Open returns the number of streams open now.
func (l *StreamLimit) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// Acquire takes a place for a stream to r's client; release gives it
// back. When there is none it answers 503 itself, closes the connection
// and reports false.
func (l *StreamLimit) Acquire(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	client := requestClient(r)
	l.mu.Lock()
	full := l.open >= l.max
	mine := l.byClient[client] >= l.perClient
	if !full && !mine {
		l.open++
		l.byClient[client]++
	}
	open, theirs := l.open, l.byClient[client]
	l.mu.Unlock()
	if full || mine {
		w.Header().Set("Retry-After", strconv.Itoa(StreamRetryAfter))
		w.Header().Set("Connection", "close")
		if full {
			WriteError(w, http.StatusServiceUnavailable, "too many event streams: %d are open, as many as this server keeps; try again later", open)
		} else {
			WriteError(w, http.StatusServiceUnavailable, "too many event streams from %s: %d are open, as many as one client may have; close some pages", client, theirs)
		}
		return nil, false
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			l.open--
			if l.byClient[client]--; l.byClient[client] <= 0 {
				delete(l.byClient, client)
			}
			l.mu.Unlock()
		})
	}, true
}

// requestClient names a request's client for the bounds per client.
func requestClient(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil {
		return ipKey(ip)
	}
	return host
}
