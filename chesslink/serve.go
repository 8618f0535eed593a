package chesslink

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// Defaults of the serving Options.
const (
	// DefaultBaud is the board's line speed.
	DefaultBaud       = 38400
	DefaultMinBackoff = 100 * time.Millisecond
	DefaultMaxBackoff = 5 * time.Second
)

// Emulator is the emulated board on a port: it keeps one Session (its
// registers, placement and LEDs outlive a connection, as the board's do when
// an app disconnects) and serves whichever app connects. SetPlacement, LEDs
// and Stats are safe for concurrent use; serve one port at a time.
type Emulator struct {
	opts  Options
	log   *slog.Logger
	clock timing.Clock
	poke  chan struct{}

	mu     sync.Mutex
	sess   *Session
	shown  []LEDPattern // patterns to hand to opts.ShowLEDs once mu is released
	opened uint64
	losses uint64
}

// NewEmulator returns a board that powers up with o.
func NewEmulator(o Options) *Emulator {
	if o.Clock == nil {
		o.Clock = timing.NewReal()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Baud <= 0 {
		o.Baud = DefaultBaud
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.MinBackoff)
	}
	if o.Open == nil {
		o.Open = OpenPort
	}
	e := &Emulator{opts: o, log: o.Logger, clock: o.Clock, poke: make(chan struct{}, 1)}
	so := o
	so.ShowLEDs = func(p LEDPattern) { e.shown = append(e.shown, p) }
	e.sess = NewSession(so)
	return e
}

// do runs f on the session under the lock, then hands the LED patterns it
// set to the board, outside the lock so that ShowLEDs may call the
// Emulator's methods. Only commands set patterns, and only the serving
// goroutine feeds commands, so the patterns reach ShowLEDs in order.
func (e *Emulator) do(f func(s *Session, now time.Duration)) {
	e.mu.Lock()
	f(e.sess, e.clock.Now())
	shown := e.shown
	e.shown = nil
	e.mu.Unlock()
	if e.opts.ShowLEDs != nil {
		for _, p := range shown {
			e.opts.ShowLEDs(p)
		}
	}
}

// SetPlacement makes men the placement the board shows (square 0 is a1):
// what S answers and unsolicited reports send. boardd knows the game, so the
// men carry their kinds although the sensors see only presence.
func (e *Emulator) SetPlacement(men [64]board.Man) error {
	var err error
	e.do(func(s *Session, now time.Duration) { err = s.SetPlacement(now, men) })
	if err == nil {
		e.wake()
	}
	return err
}

// LEDs returns the LED pattern the app set last.
func (e *Emulator) LEDs() LEDPattern {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sess.LEDs()
}

// Stats returns the session's counters and the port's.
func (e *Emulator) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.sess.Stats()
	st.Opens, st.Losses = e.opened, e.losses
	return st
}

func (e *Emulator) wake() {
	select {
	case e.poke <- struct{}{}:
	default:
	}
}

// Serve opens the port at path and serves apps on it until ctx ends. When
// the port cannot be opened, or fails, or disappears (a USB gadget port
// comes and goes with the host; a Bluetooth serial link with its peer), it
// is closed and opened again, waiting MinBackoff, doubling to MaxBackoff
// while attempts keep failing. It returns nil when ctx ends.
func (e *Emulator) Serve(ctx context.Context, path string) error {
	backoff := e.opts.MinBackoff
	failing, quiet := false, false
	for ctx.Err() == nil {
		port, err := e.opts.Open(path, e.opts.Baud)
		if err != nil {
			if !failing {
				e.log.Warn("chesslink: app port cannot be opened; retrying with backoff", "path", path, "err", err)
				failing = true
			} else {
				e.log.Debug("chesslink: app port still cannot be opened", "path", path, "err", err, "next", backoff)
			}
			if !timing.Sleep(ctx, backoff) {
				break
			}
			backoff = min(2*backoff, e.opts.MaxBackoff)
			continue
		}
		failing = false
		e.mu.Lock()
		e.opened++
		e.mu.Unlock()
		if !quiet {
			e.log.Info("chesslink: app port open", "path", path, "baud", e.opts.Baud)
		}
		opened := e.clock.Now()
		commands := e.Stats().Commands
		if e.opts.Connected != nil {
			e.opts.Connected(true)
		}
		err = e.ServeConn(ctx, port)
		port.Close()
		if e.opts.Connected != nil {
			e.opts.Connected(false)
		}
		if ctx.Err() != nil {
			break
		}
		e.mu.Lock()
		e.losses++
		st := e.sess.Stats()
		summary := e.sess.String()
		e.mu.Unlock()
		// A port that fails again at once with no app heard on it (a gadget
		// port whose host is gone) is logged once, then at debug level.
		// "At once" is within the longest wait between attempts, and never
		// less than a second: a busy machine may take a few milliseconds to
		// notice even a dead port.
		switch {
		case st.Commands > commands || e.clock.Now()-opened > max(e.opts.MaxBackoff, time.Second):
			e.log.Warn("chesslink: app port lost; reopening", "path", path, "err", err, "stats", summary)
			backoff, quiet = e.opts.MinBackoff, false
		case !quiet:
			e.log.Warn("chesslink: app port fails as soon as it opens; retrying with backoff", "path", path, "err", err)
			quiet = true
		default:
			e.log.Debug("chesslink: app port still failing", "path", path, "err", err, "next", backoff)
		}
		if !timing.Sleep(ctx, backoff) {
			break
		}
		backoff = min(2*backoff, e.opts.MaxBackoff)
	}
	return nil
}

type chunk struct {
	b   []byte
	err error
}

// ServeConn serves the app on conn until reading or writing fails or ctx
// ends, and returns why. Its reader and writer goroutines end when conn is
// closed: close it after ServeConn returns.
func (e *Emulator) ServeConn(ctx context.Context, conn io.ReadWriter) error {
	done := make(chan struct{})
	defer close(done)
	chunks := make(chan chunk, 16)
	go func() {
		for {
			buf := make([]byte, 512)
			n, err := conn.Read(buf)
			if n > 0 {
				select {
				case chunks <- chunk{b: buf[:n]}:
				case <-done:
					return
				}
			}
			if err == nil && n == 0 {
				continue
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
	writes := make(chan []byte)
	wrote := make(chan error, 1)
	go func() {
		for {
			select {
			case b := <-writes:
				_, err := conn.Write(b)
				select {
				case wrote <- err:
				case <-done:
					return
				}
			case <-done:
				return
			}
		}
	}()

	// What fell due while no port was open went into the void, as a
	// board's line sends with nobody listening.
	e.do(func(s *Session, now time.Duration) { s.Advance(now); s.Reconnect(); s.Advance(now) })
	var buf []byte // owned by the writer while writing
	writing := false
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		var due, now time.Duration
		send := false
		e.do(func(s *Session, n time.Duration) {
			now = n
			if !writing && s.Pending() > 0 {
				buf = s.TakeOutput(buf[:0])
				send = true
			}
			due = s.Deadline()
		})
		if send {
			writes <- buf // the writer is idle: it takes it at once
			writing = true
		}
		wait := time.Hour
		if due != timing.Never {
			wait = max(due-now, 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case c := <-chunks:
			if c.err != nil {
				return fmt.Errorf("chesslink: read: %w", c.err)
			}
			e.do(func(s *Session, now time.Duration) { s.Receive(now, c.b) })
		case err := <-wrote:
			if err != nil {
				return fmt.Errorf("chesslink: write: %w", err)
			}
			writing = false
		case <-e.poke:
		case <-timer.C:
			e.do(func(s *Session, now time.Duration) { s.Advance(now) })
		}
	}
}
