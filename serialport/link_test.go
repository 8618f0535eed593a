package serialport_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/link"
	"github.com/boardd/boardd/ptypair"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/serialport"
	"github.com/boardd/boardd/timing"
)

// fakeBoard is a board's microcontroller on the master side of a pty,
// driven step by step by the test.
type fakeBoard struct {
	t     *testing.T
	pty   *ptypair.PTY
	sess  *link.Session
	dec   link.Decoder
	clock *timing.Real
	got   []link.Frame // application messages received, in order
}

func newFakeBoard(t *testing.T, path string, flags link.HelloFlags) *fakeBoard {
	t.Helper()
	p, err := ptypair.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return &fakeBoard{t: t, pty: p, clock: timing.NewReal(),
		sess: link.NewSession(link.SessionOptions{Role: link.Board, Hello: link.Hello{Name: "fake", Flags: flags}})}
}

func (b *fakeBoard) flush() {
	if out := b.sess.Output(); len(out) > 0 {
		if _, err := b.pty.Write(out); err != nil {
			b.t.Fatalf("fake board write: %v", err)
		}
	}
}

func (b *fakeBoard) send(m link.Message) {
	b.t.Helper()
	if err := b.sess.Send(b.clock.Now(), m); err != nil {
		b.t.Fatalf("fake board send %s: %v", m.Type(), err)
	}
	b.flush()
}

// until reads and answers boardd's frames until cond holds, failing the
// test after timeout.
func (b *fakeBoard) until(timeout time.Duration, what string, cond func() bool) {
	b.t.Helper()
	end := time.Now().Add(timeout)
	buf := make([]byte, 4096)
	for !cond() {
		if time.Now().After(end) {
			b.t.Fatalf("fake board: no %s within %s", what, timeout)
		}
		b.sess.Advance(b.clock.Now())
		b.flush()
		_ = b.pty.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		n, err := b.pty.Read(buf)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			b.t.Fatalf("fake board read: %v", err)
		}
		b.dec.Feed(buf[:n], func(f link.Frame, err error) {
			if err != nil {
				b.t.Errorf("fake board: spoiled frame from boardd: %v", err)
				return
			}
			ev := b.sess.Receive(b.clock.Now(), f)
			switch ev.Kind {
			case link.EventMessage, link.EventPeerError:
				if ev.Kind == link.EventPeerError {
					f = link.Frame{Type: link.TypeError, Payload: ev.PeerError.AppendPayload(nil)}
				}
				f.Payload = append([]byte(nil), f.Payload...)
				b.got = append(b.got, f)
			}
		})
		b.flush()
	}
}

// next waits for the next application message of type typ.
func (b *fakeBoard) next(typ link.Type, timeout time.Duration) link.Message {
	b.t.Helper()
	var found link.Message
	b.until(timeout, typ.String(), func() bool {
		for i, f := range b.got {
			if f.Type == typ {
				m, err := link.Parse(f)
				if err != nil {
					b.t.Fatal(err)
				}
				b.got = append(b.got[:i:i], b.got[i+1:]...)
				found = m
				return true
			}
		}
		return false
	})
	return found
}

// recorder is a Handler that records what it is told.
type recorder struct {
	mu      sync.Mutex
	ups     int
	downs   []error
	scans   []board.Occupancy
	buttons []link.Button
	choices []link.Choose
	refuse  error
}

func (r *recorder) Up(link.Hello) { r.mu.Lock(); r.ups++; r.mu.Unlock() }
func (r *recorder) Status() link.Status {
	return link.Status{Laws: "fide2023", FEN: board.StartFEN}
}
func (r *recorder) Down(err error) { r.mu.Lock(); r.downs = append(r.downs, err); r.mu.Unlock() }
func (r *recorder) Occupancy(m link.Occupancy) {
	r.mu.Lock()
	r.scans = append(r.scans, m.Occupancy)
	r.mu.Unlock()
}
func (r *recorder) Analog(m *link.Analog) { r.Occupancy(link.Occupancy{Occupancy: m.Occupancy}) }
func (r *recorder) Button(m link.Button) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buttons = append(r.buttons, m)
	return r.refuse
}
func (r *recorder) Choose(m link.Choose) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.choices = append(r.choices, m)
	return r.refuse
}

func (r *recorder) counts() (ups, downs, scans int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ups, len(r.downs), len(r.scans)
}

func startLink(t *testing.T, o serialport.Options, h serialport.Handler) *serialport.Link {
	t.Helper()
	if o.MinBackoff == 0 {
		o.MinBackoff, o.MaxBackoff = 10*time.Millisecond, 50*time.Millisecond
	}
	l, err := serialport.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx, h); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

func TestLinkOverPTY(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board")
	fb := newFakeBoard(t, path, link.HelloReports|link.HelloButtons)
	rec := &recorder{}
	l := startLink(t, serialport.Options{Path: path, Timeout: 300 * time.Millisecond}, rec)

	// Handshake: boardd's HELLO, then the status.
	fb.sess.Open(fb.clock.Now())
	fb.flush()
	st := fb.next(link.TypeStatus, 5*time.Second).(*link.Status)
	if st.Laws != "fide2023" || st.FEN != board.StartFEN {
		t.Fatalf("status %+v", st)
	}
	// A scan reaches the handler; Latest has it.
	start := board.Occupancy(0xffff00000000ffff)
	fb.send(link.Occupancy{Time: 1, Occupancy: start})
	fb.until(2*time.Second, "scan", func() bool { _, _, n := rec.counts(); return n == 1 })
	var f sensor.Frame
	if err := serialport.NewScanner(l).Scan(&f); err != nil || f.Occupancy != start {
		t.Fatalf("scanner: %v %v", f.Occupancy.Hex(), err)
	}
	// A scan with more men than a game has is dropped.
	fb.send(link.Occupancy{Time: 2, Occupancy: 0xffffffffff})
	fb.send(link.Occupancy{Time: 3, Occupancy: start})
	fb.until(2*time.Second, "scan", func() bool { _, _, n := rec.counts(); return n == 2 })
	if rec.scans[1] != start || l.Stats().Implausible != 1 {
		t.Fatalf("scans %v implausible %d", rec.scans, l.Stats().Implausible)
	}
	// LEDs go out and are acknowledged.
	var frame led.Frame
	frame.Set(12, led.MustMove, led.Steady)
	l.ShowLEDs(&frame)
	if m := fb.next(link.TypeLEDs, 2*time.Second).(*link.LEDs); led.FrameOfCodes(&m.Role, &m.Blink) != frame {
		t.Fatalf("LEDs %v %v", m.Role, m.Blink)
	}
	// Reports reach a board that asked for them.
	l.Report([]byte(`{"type":"move","t":1}`))
	if m := fb.next(link.TypeReport, 2*time.Second).(*link.Report); string(m.JSON) != `{"type":"move","t":1}` {
		t.Fatalf("report %s", m.JSON)
	}
	// A button the handler refuses comes back as an ERROR refused.
	rec.mu.Lock()
	rec.refuse = errors.New("no use for it")
	rec.mu.Unlock()
	fb.send(link.Button{Side: link.SideWhite, Button: link.ButtonClaim})
	e := fb.next(link.TypeError, 2*time.Second).(*link.ErrorMsg)
	if e.Code != link.ErrRefused || e.Of != link.TypeButton || !strings.Contains(e.Detail, "no use for it") {
		t.Fatalf("error %+v", e)
	}
	// The board falls silent: the link goes down, Latest says so.
	time.Sleep(500 * time.Millisecond)
	if _, downs, _ := rec.counts(); downs != 1 {
		t.Fatalf("downs %d after a silence", downs)
	}
	if err := serialport.NewScanner(l).Scan(&f); !errors.Is(err, serialport.ErrDown) {
		t.Fatalf("scan while down: %v", err)
	}
	// It restarts: a new handshake, and the LED frame is sent again.
	fb.sess = link.NewSession(link.SessionOptions{Role: link.Board, Hello: link.Hello{Name: "fake", Flags: link.HelloReports}})
	fb.got = nil
	fb.sess.Open(fb.clock.Now())
	fb.flush()
	if m := fb.next(link.TypeLEDs, 3*time.Second).(*link.LEDs); led.FrameOfCodes(&m.Role, &m.Blink) != frame {
		t.Fatalf("LEDs after restart %v %v", m.Role, m.Blink)
	}
	if ups, _, _ := rec.counts(); ups != 2 {
		t.Fatalf("ups %d", ups)
	}
}

func TestLinkReconnectsAfterUnplug(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board")
	fb := newFakeBoard(t, path, 0)
	rec := &recorder{}
	l := startLink(t, serialport.Options{Path: path}, rec)
	fb.sess.Open(fb.clock.Now())
	fb.flush()
	fb.next(link.TypeStatus, 5*time.Second)
	fb.pty.Close() // unplug
	deadline := time.Now().Add(3 * time.Second)
	for {
		if _, downs, _ := rec.counts(); downs == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no Down after unplugging")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a few failed reopenings
	fb2 := newFakeBoard(t, path, 0)    // replug: a new device behind the same name
	fb2.sess.Open(fb2.clock.Now())
	fb2.flush()
	fb2.next(link.TypeStatus, 5*time.Second)
	st := l.Stats()
	if st.Opens != 2 || st.Losses != 1 || st.OpenFailures == 0 || !st.Up {
		t.Fatalf("stats %+v", st)
	}
}

func TestLinkFindsPortByUSBID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board")
	fb := newFakeBoard(t, path, 0)
	list := func() ([]serialport.PortInfo, error) {
		return []serialport.PortInfo{
			{Path: "/dev/ttyS0"},
			{Path: "/dev/ttyACM7", USB: true, VID: "1234", PID: "0001"},
			{Path: path, USB: true, VID: "2E8A", PID: "000A"},
		}, nil
	}
	startLink(t, serialport.Options{VID: "2e8a", PID: "000a", List: list}, &recorder{})
	fb.sess.Open(fb.clock.Now())
	fb.flush()
	fb.next(link.TypeStatus, 5*time.Second)
}

func TestLinkBacksOff(t *testing.T) {
	var mu sync.Mutex
	var at []time.Time
	open := func(path string, baud int) (serialport.Port, error) {
		mu.Lock()
		at = append(at, time.Now())
		mu.Unlock()
		return nil, errors.New("no such device")
	}
	l := startLink(t, serialport.Options{Path: "/dev/none", Open: open, MinBackoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond}, &recorder{})
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(at) < 4 || len(at) > 12 {
		t.Fatalf("%d attempts in 300 ms with backoff 10 to 40 ms", len(at))
	}
	if gap := at[len(at)-1].Sub(at[len(at)-2]); gap < 35*time.Millisecond {
		t.Fatalf("last gap %v, want the 40 ms cap", gap)
	}
	if l.Stats().OpenFailures < 4 {
		t.Fatal("failures not counted")
	}
}

// lockedBuffer is a log destination safe for the link's goroutine and the
// test.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A board that resends its handshake over and over (a reset loop) is
// connected again each time, but the log says "board connected" once per
// serialport.ConnectLogEvery, not once per handshake.
func TestRepeatedHandshakeLogsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board")
	fb := newFakeBoard(t, path, 0)
	rec := &recorder{}
	var logs lockedBuffer
	startLink(t, serialport.Options{Path: path, Logger: slog.New(slog.NewTextHandler(&logs, nil))}, rec)
	const handshakes = 200
	for range handshakes {
		fb.sess = link.NewSession(link.SessionOptions{Role: link.Board, Hello: link.Hello{Name: "fake"}})
		fb.got = nil
		fb.sess.Open(fb.clock.Now())
		fb.flush()
		fb.next(link.TypeStatus, 5*time.Second)
	}
	if ups, _, _ := rec.counts(); ups != handshakes {
		t.Errorf("the handler was told of %d connections, want %d", ups, handshakes)
	}
	if n := strings.Count(logs.String(), `msg="board connected"`); n < 1 || n > 2 {
		t.Errorf(`%d "board connected" lines for %d handshakes, want one (two if the run crossed %v):
%s`, n, handshakes, serialport.ConnectLogEvery, logs.String())
	}
}
