package hall

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/logrepeat"
	"github.com/boardd/boardd/timing"
)

// grid streams the hall's board summaries to the grid pages: one event
// stream for every board, so that a page follows two hundred boards on one
// connection. A change marks its board; the grid's goroutine sends each
// marked board's summary once, however many changes came meanwhile, to
// every client. A client that falls behind by more than its buffer is sent
// the whole hall again instead. Nothing here waits for a client.
type grid struct {
	h       *Hall
	ping    time.Duration
	streams *console.StreamLimit
	log     *slog.Logger
	refused *logrepeat.Limiter // says when streams are refused, once a minute
	kick    chan struct{}
	done    <-chan struct{} // the server's end

	mu      sync.Mutex
	dirty   map[string]bool
	clients map[*gridClient]struct{}
	version uint64
}

// gridClient is one event stream.
type gridClient struct {
	wake chan struct{} // capacity 1

	mu     sync.Mutex
	buf    []byte
	resync bool // sent the whole hall next, not buf
}

// gridBuffer bounds what a client may have unwritten.
const gridBuffer = 1 << 20

func newGrid(h *Hall, ping time.Duration, streams *console.StreamLimit, log *slog.Logger, done <-chan struct{}) *grid {
	return &grid{h: h, ping: ping, streams: streams, log: log, refused: logrepeat.New(timing.NewReal(), time.Minute),
		done: done, kick: make(chan struct{}, 1), dirty: map[string]bool{}, clients: map[*gridClient]struct{}{}}
}

// changed marks a board; it must not block.
func (g *grid) changed(id string) {
	g.mu.Lock()
	g.dirty[id] = true
	g.mu.Unlock()
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// gridEvery is the least time between two sends of the grid once a send
// carried gridBusy boards or more: at two thousand boards a board's event
// and the state that follows it then make one summary, not two, and the
// changes go out in forty writes a second, not thousands. A small hall's
// changes go out at once.
const (
	gridEvery = 25 * time.Millisecond
	gridBusy  = 32
)

func (g *grid) run(ctx context.Context) {
	pause := time.NewTimer(0)
	defer pause.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-pause.C:
		}
		select {
		case <-ctx.Done():
			return
		case <-g.kick:
		}
		g.mu.Lock()
		dirty := g.dirty
		g.dirty = map[string]bool{}
		n := len(g.clients)
		g.mu.Unlock()
		if len(dirty) >= gridBusy {
			pause.Reset(gridEvery)
		} else {
			pause.Reset(0)
		}
		if n == 0 {
			continue
		}
		var out []byte
		for id := range dirty {
			b := g.h.Board(id)
			if b == nil {
				continue
			}
			js, err := json.Marshal(b.Summary())
			if err != nil {
				continue
			}
			g.mu.Lock()
			g.version++
			v := g.version
			g.mu.Unlock()
			out = appendEvent(out, "board", strconv.FormatUint(v, 10), js)
		}
		if len(out) == 0 {
			continue
		}
		g.mu.Lock()
		for cl := range g.clients {
			cl.mu.Lock()
			if !cl.resync {
				if len(cl.buf)+len(out) > gridBuffer {
					cl.resync, cl.buf = true, nil
				} else {
					cl.buf = append(cl.buf, out...)
				}
			}
			cl.mu.Unlock()
			select {
			case cl.wake <- struct{}{}:
			default:
			}
		}
		g.mu.Unlock()
	}
}

// appendEvent formats one Server-Sent Event; data is one line of JSON.
func appendEvent(dst []byte, name, id string, data []byte) []byte {
	dst = append(dst, "event: "...)
	dst = append(dst, name...)
	if id != "" {
		dst = append(dst, "\nid: "...)
		dst = append(dst, id...)
	}
	dst = append(dst, "\ndata: "...)
	dst = append(dst, data...)
	return append(dst, '\n', '\n')
}

// hallEvent is the whole hall as one event.
func (g *grid) hallEvent() []byte {
	js, err := json.Marshal(overview(g.h))
	if err != nil {
		return nil
	}
	return appendEvent(nil, "hall", "", js)
}

// serve streams the grid: a hall event (every board) at once and whenever
// the client fell behind, a board event after each change to a board, and a
// comment as keep-alive. Streams are bounded (ServerOptions.Streams): one
// past the bound is refused with 503 and Retry-After.
func (g *grid) serve(w http.ResponseWriter, r *http.Request) {
	release, ok := g.streams.Acquire(w, r)
	if !ok {
		g.refused.Log(g.log, slog.LevelWarn, "refused", "hall: event streams refused: as many are open as the hall keeps", "open", g.streams.Open(), "client", r.RemoteAddr)
		return
	}
	defer release()
	if !console.BeginEventStream(w, r) {
		return
	}
	rc := http.NewResponseController(w)
	cl := &gridClient{wake: make(chan struct{}, 1), resync: true}
	g.mu.Lock()
	g.clients[cl] = struct{}{}
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.clients, cl)
		g.mu.Unlock()
	}()
	if _, err := w.Write([]byte("retry: 1000\n\n")); err != nil {
		return
	}
	cl.wake <- struct{}{}
	ping := time.NewTicker(g.ping)
	defer ping.Stop()
	for {
		var out []byte
		select {
		case <-r.Context().Done():
			return
		case <-g.done:
			return
		case <-ping.C:
			out = []byte(": ping\n\n")
		case <-cl.wake:
			cl.mu.Lock()
			resync := cl.resync
			out, cl.buf, cl.resync = cl.buf, nil, false
			cl.mu.Unlock()
			if resync {
				out = g.hallEvent()
			}
		}
		if len(out) == 0 {
			continue
		}
		if _, err := w.Write(out); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
