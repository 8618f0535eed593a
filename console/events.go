package console

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// hub follows one board for the event streams: a change kicks it, it takes
// one snapshot however many changes came meanwhile, and hands the snapshot to
// every client that has not seen it. A client slow to read gets the latest
// state only (older ones are replaced, never queued) and loses reports beyond
// its buffer, which it is told of. Nothing here waits for a client.
type hub struct {
	b       Board
	kick    chan struct{}
	unwatch func()
	// states and pgns share the board's answers between the requests
	// that want them at once.
	states coalescer[State]
	pgns   coalescer[string]

	mu      sync.Mutex
	clients map[*client]struct{}
	last    []byte
	version uint64
}

// client is one event stream.
type client struct {
	state   chan []byte // the latest state event not yet written (capacity 1)
	reports chan []byte
	dropped atomic.Int64
	fresh   bool // wants the next state even if unchanged (guarded by hub.mu)
}

// reportBuffer is how many reports a client may have unwritten.
const reportBuffer = 64

func newHub(b Board) *hub {
	return &hub{b: b, kick: make(chan struct{}, 1), clients: map[*client]struct{}{}}
}

// changed is the board's watcher: it must not block.
func (h *hub) changed(c Change) {
	for _, ev := range [][]byte{event("report", c.Report), event("say", c.Say)} {
		if ev == nil {
			continue
		}
		h.mu.Lock()
		for cl := range h.clients {
			select {
			case cl.reports <- ev:
			default:
				cl.dropped.Add(1)
			}
		}
		h.mu.Unlock()
	}
	h.poke()
}

func (h *hub) poke() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

func (h *hub) add(cl *client) {
	h.mu.Lock()
	h.clients[cl] = struct{}{}
	h.mu.Unlock()
	h.poke()
}

func (h *hub) remove(cl *client) {
	h.mu.Lock()
	delete(h.clients, cl)
	h.mu.Unlock()
}

func (h *hub) run(ctx context.Context, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.kick:
		}
		h.mu.Lock()
		n := len(h.clients)
		h.mu.Unlock()
		if n == 0 {
			continue
		}
		st, err := h.b.State(ctx)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("console: board state", "board", h.b.ID(), "err", err)
			}
			continue
		}
		js, err := json.Marshal(st)
		if err != nil {
			log.Warn("console: board state", "board", h.b.ID(), "err", err)
			continue
		}
		h.mu.Lock()
		changed := !bytes.Equal(js, h.last)
		if changed {
			h.last = js
			h.version++
		}
		var ev []byte
		for cl := range h.clients {
			if !changed && !cl.fresh {
				continue
			}
			if ev == nil {
				ev = appendEvent(nil, "state", strconv.FormatUint(h.version, 10), h.last)
			}
			cl.fresh = false
			select { // replace the state the client has not written yet
			case <-cl.state:
			default:
			}
			cl.state <- ev // only this goroutine sends: never blocks
		}
		h.mu.Unlock()
	}
}

// appendEvent formats one Server-Sent Event; data is one line of JSON.
// event returns a server-sent event of data, nil for no data.
func event(name string, data []byte) []byte {
	if data == nil {
		return nil
	}
	return appendEvent(nil, name, "", data)
}

func appendEvent(dst []byte, name, id string, data []byte) []byte {
	dst = append(dst, "event: "...)
	dst = append(dst, name...)
	dst = append(dst, '\n')
	if id != "" {
		dst = append(dst, "id: "...)
		dst = append(dst, id...)
		dst = append(dst, '\n')
	}
	dst = append(dst, "data: "...)
	dst = append(dst, data...)
	return append(dst, '\n', '\n')
}

// events streams a board: a state event at once and after every change,
// report events as they come, a dropped event when reports were lost, and a
// comment line as keep-alive.
//
// Streams are bounded (Options.Streams): one past the bound is refused with
// 503 and Retry-After.
func (s *Server) events(w http.ResponseWriter, r *http.Request, h *hub) {
	release, ok := s.opts.Streams.Acquire(w, r)
	if !ok {
		s.warnStreams.Log(s.log, slog.LevelWarn, "refused", "console: event streams refused: as many are open as the console keeps", "open", s.opts.Streams.Open(), "client", requestClient(r))
		return
	}
	defer release()
	if !BeginEventStream(w, r) {
		return
	}
	// Join the hub before the client sees the answer start, so that it
	// misses nothing sent after that.
	cl := &client{state: make(chan []byte, 1), reports: make(chan []byte, reportBuffer), fresh: true}
	h.add(cl)
	defer h.remove(cl)
	rc := http.NewResponseController(w)
	if _, err := w.Write([]byte("retry: 1000\n\n")); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	ping := time.NewTicker(s.opts.Ping)
	defer ping.Stop()
	for {
		var out []byte
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case out = <-cl.state:
		case out = <-cl.reports:
		case <-ping.C:
			out = []byte(": ping\n\n")
		}
		if _, err := w.Write(out); err != nil { // out may be shared: never append to it
			return
		}
		if n := cl.dropped.Swap(0); n > 0 {
			if _, err := w.Write(appendEvent(nil, "dropped", "", []byte(`{"reports":`+strconv.FormatInt(n, 10)+`}`))); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
