package serialport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.bug.st/serial"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/link"
	"github.com/boardd/boardd/logrepeat"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// Port is an open serial port; go.bug.st/serial's Port is one.
type Port interface {
	io.ReadWriteCloser
}

// Defaults of Options.
const (
	DefaultBaud        = 115200
	DefaultTimeout     = time.Second
	DefaultReopenAfter = 5 * time.Second
	DefaultMinBackoff  = 100 * time.Millisecond
	DefaultMaxBackoff  = 5 * time.Second
)

// ConnectLogEvery is how often "board connected" may be logged: a board
// resending its handshake in a loop is connected again each time, and
// logged once an interval with the count of the others.
const ConnectLogEvery = 10 * time.Second

// Options configure a Link.
type Options struct {
	// Path is the port's device. Empty: the port with USB id VID:PID, or,
	// with no id either, the only USB serial port.
	Path     string
	VID, PID string
	// Baud is the line speed (DefaultBaud if zero); USB CDC boards ignore it.
	Baud int
	// Name is what boardd's HELLO announces ("boardd" if empty).
	Name string
	// Timeout declares the link down when the board sends nothing for this
	// long (DefaultTimeout if zero). The protocol has the board send a scan
	// at least every 250 ms.
	Timeout time.Duration
	// AckTimeout is how long to wait for an acknowledgement before sending
	// an LED frame or report again (link.DefaultAckTimeout if zero).
	AckTimeout time.Duration
	// ReopenAfter closes and reopens a port on which the link has stayed
	// down this long (DefaultReopenAfter if zero).
	ReopenAfter time.Duration
	// MinBackoff and MaxBackoff bound the wait between attempts to open the
	// port; the wait doubles from one to the other while attempts fail.
	MinBackoff, MaxBackoff time.Duration
	// Clock is the link's time (a timing.Real if nil).
	Clock timing.Clock
	// Logger receives connections, losses and faults (discarded if nil).
	Logger *slog.Logger
	// Open opens a port (OpenPort if nil); tests may substitute it.
	Open func(path string, baud int) (Port, error)
	// List lists the ports to find one by USB id (List if nil).
	List func() ([]PortInfo, error)
}

// OpenPort opens the serial port at path through go.bug.st/serial: baud, 8
// data bits, no parity, one stop bit, raw, and whatever arrived before it was
// opened thrown away.
func OpenPort(path string, baud int) (Port, error) {
	p, err := serial.Open(path, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		return nil, err
	}
	if err := p.ResetInputBuffer(); err != nil {
		p.Close()
		return nil, fmt.Errorf("flush input: %w", err)
	}
	return p, nil
}

// Handler is told what comes over the link. Its methods run on the link's
// goroutine, one at a time; they may block briefly (to hand an input to the
// game) but must not wait for the link itself.
type Handler interface {
	// Up is called when the handshake completes, with the board's HELLO.
	Up(peer link.Hello)
	// Status returns the STATUS sent to the board after each handshake.
	Status() link.Status
	// Down is called when the link is lost: the port failed or the board
	// fell silent.
	Down(err error)
	// Occupancy is called with every scan of a digital board.
	Occupancy(m link.Occupancy)
	// Analog is called with every scan of an analogue board; m is reused.
	Analog(m *link.Analog)
	// Button is called for each button press; an error refuses it (the
	// board is sent an ERROR refused).
	Button(m link.Button) error
	// Choose is called for each choice; an error refuses it.
	Choose(m link.Choose) error
}

// Stats count what a link has seen, across reconnections.
type Stats struct {
	Path         string // the port in use, or last used
	Up           bool   // the handshake is done and the board is talking
	Peer         string // the board's name
	Opens        uint64 // ports opened
	OpenFailures uint64 // attempts to open that failed
	Losses       uint64 // connections lost (port errors and silences)
	Implausible  uint64 // scans with more men than a game has (dropped)
	ReportsLost  uint64 // reports dropped for a full queue
	Decoder      link.DecoderStats
	Session      link.SessionStats
}

// String summarises the counters for logs.
func (s Stats) String() string {
	return fmt.Sprintf("frames %d, dropped %d (bad crc %d, bad cobs %d, short %d, too long %d), lost %d, refused %d, bad version %d, retransmits %d, opens %d, losses %d",
		s.Decoder.Frames, s.Decoder.Dropped(), s.Decoder.BadCRC, s.Decoder.BadCOBS, s.Decoder.Short, s.Decoder.TooLong,
		s.Session.Lost, s.Session.Unknown+s.Session.BadPayload, s.Session.BadVersion, s.Session.Retransmits, s.Opens, s.Losses)
}

// Link is boardd's end of a serial link to one board. Run keeps it
// connected: it opens the port (with backoff while it cannot), shakes hands,
// delivers the board's messages to a Handler, sends LED frames and reports,
// and on any loss closes the port and starts again. Its methods other than
// Run are safe for concurrent use and never block.
type Link struct {
	opts  Options
	log   *slog.Logger
	clock timing.Clock
	sess  *link.Session
	dec   link.Decoder
	wake  chan struct{}

	mu          sync.Mutex
	stats       Stats
	leds        led.Frame
	ledsHave    bool
	ledsDirty   bool
	reports     [][]byte
	wantReports bool
	last        sensor.Frame // the board's last scan
	haveLast    bool
	lastErr     error
	faults      *logrepeat.Limiter // warnings about the board's frames: one a second per kind
	connects    *logrepeat.Limiter // "board connected": one every ten seconds
}

// maxQueuedReports bounds the reports waiting for the link.
const maxQueuedReports = 256

// New returns a link configured by o; Run connects it.
func New(o Options) (*Link, error) {
	if o.Path == "" && (o.VID == "") != (o.PID == "") {
		return nil, fmt.Errorf("serialport: a USB id needs both VID and PID")
	}
	if o.Baud == 0 {
		o.Baud = DefaultBaud
	}
	if o.Baud < 0 {
		return nil, fmt.Errorf("serialport: baud %d", o.Baud)
	}
	if o.Name == "" {
		o.Name = "boardd"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ReopenAfter <= 0 {
		o.ReopenAfter = DefaultReopenAfter
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.MinBackoff)
	}
	if o.Clock == nil {
		o.Clock = timing.NewReal()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Open == nil {
		o.Open = OpenPort
	}
	if o.List == nil {
		o.List = func() ([]PortInfo, error) { return List(ListOptions{}) }
	}
	l := &Link{
		opts:     o,
		log:      o.Logger.With("port", o.describe()),
		clock:    o.Clock,
		wake:     make(chan struct{}, 1),
		faults:   logrepeat.New(o.Clock, time.Second),
		connects: logrepeat.New(o.Clock, ConnectLogEvery),
	}
	l.sess = link.NewSession(link.SessionOptions{Role: link.Host, Hello: link.Hello{Name: o.Name}, Timeout: o.Timeout, AckTimeout: o.AckTimeout})
	l.stats.Path = o.Path
	return l, nil
}

func (o Options) describe() string {
	switch {
	case o.Path != "":
		return o.Path
	case o.VID != "":
		return "usb:" + o.VID + ":" + o.PID
	}
	return "usb:any"
}

// String names the link for logs: "serial link on PATH".
func (l *Link) String() string { return "serial link on " + l.opts.describe() }

// Stats returns a snapshot of the counters.
func (l *Link) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// snapshot publishes the decoder's and session's counters (on the link's
// goroutine, which alone touches them).
func (l *Link) snapshot() {
	l.mu.Lock()
	l.stats.Decoder, l.stats.Session = l.dec.Stats, l.sess.Stats
	l.mu.Unlock()
}

// current is the counters as they stand, for logs on the link's goroutine.
func (l *Link) current() string {
	l.snapshot()
	return l.Stats().String()
}

// ShowLEDs makes f the frame the board must show; the latest frame is sent
// as soon as the link allows, and again after every reconnection.
func (l *Link) ShowLEDs(f *led.Frame) {
	l.mu.Lock()
	if l.ledsHave && *f == l.leds {
		l.mu.Unlock()
		return
	}
	l.leds, l.ledsHave, l.ledsDirty = *f, true, true
	l.mu.Unlock()
	l.poke()
}

// Report queues one report line (a JSON object) for a board that asked for
// reports; it is dropped otherwise.
func (l *Link) Report(json []byte) {
	l.mu.Lock()
	if !l.wantReports {
		l.mu.Unlock()
		return
	}
	if len(l.reports) >= maxQueuedReports {
		l.reports = l.reports[1:]
		l.stats.ReportsLost++
	}
	l.reports = append(l.reports, append([]byte(nil), json...))
	l.mu.Unlock()
	l.poke()
}

func (l *Link) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// ErrDown is returned by a Scanner while the link is down.
var ErrDown = errors.New("serialport: board link down")

// Latest fills f with the board's last scan. It returns ErrDown (wrapping
// the reason) while the link is down or no scan has come since it came up.
func (l *Link) Latest(f *sensor.Frame) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stats.Up || !l.haveLast {
		if l.lastErr != nil {
			return fmt.Errorf("%w: %w", ErrDown, l.lastErr)
		}
		return ErrDown
	}
	f.Occupancy = l.last.Occupancy
	if l.last.Analog != nil {
		f.Analog = append(f.Analog[:0], l.last.Analog...)
	} else {
		f.Analog = f.Analog[:0]
	}
	return nil
}

// Run keeps the link connected until ctx ends, delivering to h. It returns
// nil when ctx ends; it never gives up on the board.
func (l *Link) Run(ctx context.Context, h Handler) error {
	backoff := l.opts.MinBackoff
	failing := false
	for ctx.Err() == nil {
		path, err := l.resolve()
		var port Port
		if err == nil {
			port, err = l.opts.Open(path, l.opts.Baud)
		}
		if err != nil {
			l.mu.Lock()
			l.stats.OpenFailures++
			l.lastErr = err
			l.mu.Unlock()
			if !failing {
				l.log.Warn("board port cannot be opened; retrying with backoff", "err", err)
				failing = true
			} else {
				l.log.Debug("board port still cannot be opened", "err", err, "next", backoff)
			}
			if !timing.Sleep(ctx, backoff) {
				break
			}
			backoff = min(2*backoff, l.opts.MaxBackoff)
			continue
		}
		failing = false
		l.mu.Lock()
		l.stats.Opens++
		l.stats.Path = path
		l.mu.Unlock()
		l.log.Info("board port open", "path", path, "baud", l.opts.Baud)
		opened := l.clock.Now()
		err = l.serve(ctx, port, path, h)
		port.Close()
		wasUp := l.markDown(err)
		if ctx.Err() != nil {
			break
		}
		if wasUp {
			l.log.Warn("board link lost; the game is kept, reconnecting", "path", path, "err", err, "stats", l.current())
			h.Down(err)
		} else {
			l.log.Warn("no board answers on the port; reopening it", "path", path, "err", err, "stats", l.current())
		}
		if l.clock.Now()-opened > l.opts.ReopenAfter {
			backoff = l.opts.MinBackoff
		}
		if !timing.Sleep(ctx, backoff) {
			break
		}
		backoff = min(2*backoff, l.opts.MaxBackoff)
	}
	return nil
}

func (l *Link) markDown(err error) (wasUp bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	wasUp = l.stats.Up
	l.stats.Up = false
	l.haveLast = false
	l.lastErr = err
	if wasUp {
		l.stats.Losses++
	}
	l.sess.Close()
	return wasUp
}

// resolve returns the port's path: the one configured, or the one found by
// USB id.
func (l *Link) resolve() (string, error) {
	if l.opts.Path != "" {
		return l.opts.Path, nil
	}
	ports, err := l.opts.List()
	if err != nil && len(ports) == 0 {
		return "", err
	}
	p, err := Match(ports, l.opts.VID, l.opts.PID)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// errReopen ends a connection on which the board has stayed silent.
var errReopen = errors.New("the board has not answered; reopening the port")

type chunk struct {
	b   []byte
	err error
}

// serve runs one connection on an open port until it fails or ctx ends.
func (l *Link) serve(ctx context.Context, port Port, path string, h Handler) error {
	done := make(chan struct{})
	defer close(done)
	chunks := make(chan chunk, 16)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := port.Read(buf)
			if n > 0 {
				select {
				case chunks <- chunk{b: append([]byte(nil), buf[:n]...)}:
				case <-done:
					return
				}
			}
			if err == nil && n == 0 {
				continue // a read timeout
			}
			if err != nil {
				select {
				case chunks <- chunk{err: err}:
				case <-done:
				}
				return
			}
		}
	}()

	l.dec.Reset()
	l.sess.Open(l.clock.Now())
	downSince := l.clock.Now()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if err := l.flush(port); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		l.snapshot()
		now := l.clock.Now()
		due := l.sess.Deadline()
		if !l.sess.Up() {
			due = timing.Earliest(due, downSince+l.opts.ReopenAfter)
		}
		wait := time.Hour
		if due != timing.Never {
			wait = max(due-now, 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			l.goDark(port)
			return ctx.Err()
		case c := <-chunks:
			if c.err != nil {
				return fmt.Errorf("read %s: %w", path, c.err)
			}
			now = l.clock.Now()
			l.dec.Feed(c.b, func(f link.Frame, err error) {
				if err != nil {
					l.limited("frame", "dropped a spoiled frame from the board", "err", err, "stats", l.current())
					return
				}
				l.handle(now, l.sess.Receive(now, f), h, &downSince)
			})
		case <-l.wake:
			l.sendPending(l.clock.Now())
		case <-timer.C:
			now = l.clock.Now()
			l.handle(now, l.sess.Advance(now), h, &downSince)
			if !l.sess.Up() && now >= downSince+l.opts.ReopenAfter {
				return errReopen
			}
		}
	}
}

func (l *Link) flush(port Port) error {
	out := l.sess.Output()
	for len(out) > 0 {
		n, err := port.Write(out)
		if err != nil {
			return err
		}
		out = out[n:]
	}
	return nil
}

// goDark sends an all-off LED frame as the daemon stops (best effort).
func (l *Link) goDark(port Port) {
	if !l.sess.Up() {
		return
	}
	wire, err := link.Append(nil, 0, &link.LEDs{})
	if err == nil {
		_, _ = port.Write(wire)
	}
}

// sendPending hands the latest LED frame and queued reports to the session.
func (l *Link) sendPending(now time.Duration) {
	l.mu.Lock()
	var leds *link.LEDs
	if l.ledsDirty && l.ledsHave {
		leds = &link.LEDs{}
		leds.Role, leds.Blink = l.leds.Codes()
		l.ledsDirty = false
	}
	reports := l.reports
	l.reports = nil
	l.mu.Unlock()
	if leds != nil {
		if err := l.sess.Send(now, leds); err != nil {
			l.log.Warn("LED frame not sent", "err", err)
		}
	}
	for _, r := range reports {
		if err := l.sess.Send(now, link.Report{JSON: r}); err != nil {
			l.log.Warn("report not sent", "err", err)
		}
	}
}

func (l *Link) handle(now time.Duration, ev link.Event, h Handler, downSince *time.Duration) {
	switch ev.Kind {
	case link.EventUp:
		l.mu.Lock()
		l.stats.Up, l.stats.Peer = true, ev.Peer.Name
		l.wantReports = ev.Peer.Flags&link.HelloReports != 0
		l.haveLast = false
		l.ledsDirty = l.ledsHave // a board that restarted shows nothing: send the frame again
		l.mu.Unlock()
		// A board that keeps resending its handshake (a reset loop, a
		// firmware fault) is connected again each time: say so at most
		// once every ConnectLogEvery.
		l.connects.Log(l.log, slog.LevelInfo, "up", "board connected", "peer", ev.Peer.Name, "version", ev.Peer.Version, "analog", ev.Peer.Flags&link.HelloAnalog != 0, "reports", ev.Peer.Flags&link.HelloReports != 0)
		h.Up(ev.Peer)
		if err := l.sess.Send(now, h.Status()); err != nil {
			l.log.Warn("status not sent", "err", err)
		}
		l.sendPending(now)
	case link.EventDown:
		l.mu.Lock()
		l.stats.Up = false
		l.stats.Losses++
		l.haveLast = false
		l.lastErr = ev.Err
		l.mu.Unlock()
		*downSince = now
		l.log.Warn("board link silent; the game is kept, waiting for the board", "err", ev.Err)
		h.Down(ev.Err)
	case link.EventRefused:
		l.limited("refused", "refused a frame from the board", "err", ev.Err, "stats", l.current())
		l.mu.Lock()
		lost := l.stats.Up && !l.sess.Up() // a HELLO of another version
		if lost {
			l.stats.Up = false
			l.stats.Losses++
			l.haveLast = false
			l.lastErr = ev.Err
		}
		l.mu.Unlock()
		if lost {
			*downSince = now
			l.log.Warn("board link refused; the game is kept, waiting for the board", "err", ev.Err)
			h.Down(ev.Err)
		}
	case link.EventPeerError:
		l.limited("peer", "the board refused a frame", "error", ev.PeerError.String())
	case link.EventMessage:
		l.message(ev.Frame, h)
	}
}

func (l *Link) message(f link.Frame, h Handler) {
	switch f.Type {
	case link.TypeOccupancy:
		var m link.Occupancy
		if m.Unmarshal(f.Payload) != nil {
			return
		}
		if !l.plausible(m.Occupancy) {
			return
		}
		l.mu.Lock()
		l.last.Occupancy, l.last.Analog, l.haveLast = m.Occupancy, nil, true
		l.mu.Unlock()
		h.Occupancy(m)
	case link.TypeAnalog:
		var m link.Analog
		if m.Unmarshal(f.Payload) != nil {
			return
		}
		if !l.plausible(m.Occupancy) {
			return
		}
		l.mu.Lock()
		l.last.Occupancy, l.last.Analog, l.haveLast = m.Occupancy, append(l.last.Analog[:0], m.Values[:]...), true
		l.mu.Unlock()
		h.Analog(&m)
	case link.TypeButton:
		var m link.Button
		if m.Unmarshal(f.Payload) != nil {
			return
		}
		l.log.Info("board button", "side", m.Side.String(), "button", m.Button.String())
		if err := h.Button(m); err != nil {
			l.log.Warn("board button refused", "side", m.Side.String(), "button", m.Button.String(), "err", err)
			l.sess.Refuse(f.Seq, f.Type, link.ErrRefused, err.Error())
		}
	case link.TypeChoose:
		var m link.Choose
		if m.Unmarshal(f.Payload) != nil {
			return
		}
		l.log.Info("board choice", "side", m.Side.String(), "option", m.Option, "number", m.Index)
		if err := h.Choose(m); err != nil {
			l.log.Warn("board choice refused", "side", m.Side.String(), "option", m.Option, "number", m.Index, "err", err)
			l.sess.Refuse(f.Seq, f.Type, link.ErrRefused, err.Error())
		}
	}
}

// plausible drops scans with more men than a game has: a fault on the
// board's side, never a position.
func (l *Link) plausible(o board.Occupancy) bool {
	if o.Count() <= sensor.MaxMen {
		return true
	}
	l.mu.Lock()
	l.stats.Implausible++
	l.mu.Unlock()
	l.limited("implausible", "dropped a scan with more men than a game has", "men", o.Count(), "occupancy", o.Hex())
	return false
}

// limited logs a warning at most once a second per key, saying how many
// were held back in between.
func (l *Link) limited(key, msg string, args ...any) {
	l.faults.Log(l.log, slog.LevelWarn, key, msg, args...)
}
