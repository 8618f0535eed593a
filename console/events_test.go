package console

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardd/boardd/trace"
)

// fakeBoard counts its snapshots; a snapshot can be held at a gate.
type fakeBoard struct {
	id      string
	calls   atomic.Int64
	gate    chan struct{} // when not nil, State waits for a value
	entered chan struct{} // when not nil, State tells of each call
	mu      sync.Mutex
	watch   func(Change)
}

func (f *fakeBoard) ID() string      { return f.id }
func (f *fakeBoard) Simulated() bool { return true }
func (f *fakeBoard) State(ctx context.Context) (State, error) {
	n := f.calls.Add(1)
	if f.entered != nil {
		f.entered <- struct{}{}
	}
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return State{}, ctx.Err()
		}
	}
	return State{Board: f.id, FEN: strconv.FormatInt(n, 10)}, nil
}
func (f *fakeBoard) PGN(context.Context) (string, error)      { return "*\n", nil }
func (f *fakeBoard) Submit(context.Context, trace.Line) error { return nil }
func (f *fakeBoard) Watch(fn func(Change)) func() {
	f.mu.Lock()
	f.watch = fn
	f.mu.Unlock()
	return func() {}
}
func (f *fakeBoard) fire(c Change) {
	f.mu.Lock()
	fn := f.watch
	f.mu.Unlock()
	fn(c)
}

func recvState(t *testing.T, cl *client) State {
	t.Helper()
	select {
	case ev := <-cl.state:
		var st State
		i := len("event: state\nid: ")
		for ev[i] != '\n' {
			i++
		}
		if err := json.Unmarshal(ev[i+len("\ndata: "):len(ev)-2], &st); err != nil {
			t.Fatalf("state event %q: %v", ev, err)
		}
		return st
	case <-time.After(10 * time.Second):
		t.Fatal("no state event in 10 s")
	}
	return State{}
}

// A client that never reads holds up nobody: it keeps the latest state and
// its report buffer, and counts the reports it lost.
func TestSlowClientIsNeverWaitedFor(t *testing.T) {
	fb := &fakeBoard{id: "f"}
	s, err := New(Options{Boards: []Board{fb}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := s.hubs["f"]
	slow := &client{state: make(chan []byte, 1), reports: make(chan []byte, reportBuffer), fresh: true}
	h.add(slow)
	first := recvState(t, slow)
	const n = 1000
	for i := range n {
		fb.fire(Change{Report: []byte(`{"type":"touch","t":` + strconv.Itoa(i) + `}`)})
	}
	if got := len(slow.reports); got != reportBuffer {
		t.Errorf("%d reports buffered, want %d", got, reportBuffer)
	}
	if got := slow.dropped.Load(); got != n-reportBuffer {
		t.Errorf("%d reports dropped, want %d", got, n-reportBuffer)
	}
	// The state waiting for the client is a newer one, and only one.
	later := recvState(t, slow)
	if later.FEN == first.FEN {
		t.Errorf("the state was not renewed")
	}
	if len(slow.state) > 1 {
		t.Errorf("%d states queued", len(slow.state))
	}
	if calls := fb.calls.Load(); calls > n/2 {
		t.Errorf("%d snapshots for %d changes: not coalesced", calls, n)
	}
}

// Changes that come while a snapshot is being taken are served by one more
// snapshot, not one each.
func TestChangesCoalesce(t *testing.T) {
	fb := &fakeBoard{id: "f", gate: make(chan struct{}), entered: make(chan struct{}, 8)}
	s, err := New(Options{Boards: []Board{fb}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := s.hubs["f"]
	cl := &client{state: make(chan []byte, 1), reports: make(chan []byte, reportBuffer), fresh: true}
	h.add(cl) // kicks the hub: it takes a snapshot and waits at the gate
	<-fb.entered
	for range 100 {
		fb.fire(Change{})
	}
	fb.gate <- struct{}{} // the first snapshot
	recvState(t, cl)
	fb.gate <- struct{}{} // one more for all 100 changes
	st := recvState(t, cl)
	if st.FEN != "2" || fb.calls.Load() != 2 {
		t.Errorf("snapshot %s after %d calls, want the second of 2", st.FEN, fb.calls.Load())
	}
	select {
	case fb.gate <- struct{}{}:
		t.Errorf("a third snapshot was taken")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestAppendEvent(t *testing.T) {
	got := string(appendEvent(nil, "state", "7", []byte(`{"a":1}`)))
	if got != "event: state\nid: 7\ndata: {\"a\":1}\n\n" {
		t.Errorf("%q", got)
	}
	got = string(appendEvent(nil, "report", "", []byte(`{}`)))
	if got != "event: report\ndata: {}\n\n" {
		t.Errorf("%q", got)
	}
}

func BenchmarkStateSnapshot(b *testing.B) {
	r := newRig(b, rigOptions{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.local.State(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStateJSON(b *testing.B) {
	r := newRig(b, rigOptions{})
	st, err := r.local.State(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReportFanOut measures a report handed to 100 event streams.
func BenchmarkReportFanOut(b *testing.B) {
	fb := &fakeBoard{id: "f"}
	s, err := New(Options{Boards: []Board{fb}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := s.hubs["f"]
	var clients []*client
	for range 100 {
		cl := &client{state: make(chan []byte, 1), reports: make(chan []byte, reportBuffer)}
		clients = append(clients, cl)
		h.add(cl)
	}
	rep := []byte(`{"type":"move","t":1234,"side":"white","uci":"e2e4","san":"e4","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"}`)
	b.ReportAllocs()
	for b.Loop() {
		fb.fire(Change{Report: rep})
		for _, cl := range clients {
			select {
			case <-cl.reports:
			default:
			}
		}
	}
}
