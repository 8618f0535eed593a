package hwtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/boardd/boardd/report"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/link"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Defaults of RigOptions.
const (
	DefaultScanPeriod     = 10 * time.Millisecond
	DefaultHeartbeat      = 100 * time.Millisecond
	DefaultConnectTimeout = 10 * time.Second
	DefaultLead           = 300 * time.Millisecond
)

// RigOptions configure a Rig.
type RigOptions struct {
	// Cable reaches boardd; required.
	Cable Cable
	// ScanPeriod is how often the rig, as the board's microcontroller,
	// scans: a change of the men is sent at the next scan
	// (DefaultScanPeriod if zero).
	ScanPeriod time.Duration
	// Heartbeat is how often an unchanged scan is sent anyway; the protocol
	// wants one at least every 250 ms (DefaultHeartbeat if zero).
	Heartbeat time.Duration
	// Baud is the line speed, for the latency floor; 0 for a pty, where a
	// frame takes no time on the wire.
	Baud int
	// Debounce is boardd's debounce window, for the latency floor
	// (game.DefaultDebounce if zero).
	Debounce time.Duration
	// Settle is boardd's settle time, which a placement's answer waits for
	// (game.DefaultSettle if zero).
	Settle time.Duration
	// ConnectTimeout is how long to wait for boardd's handshake and status
	// (DefaultConnectTimeout if zero).
	ConnectTimeout time.Duration
	// Lead is the pause between sending the starting position and the
	// scenario's time zero (DefaultLead if zero).
	Lead time.Duration
	// Clock is the rig's time (a timing.Real if nil).
	Clock timing.Clock
	// Logger receives the rig's doings (discarded if nil).
	Logger *slog.Logger
	// Name is the rig's HELLO name ("boardd-rig" if empty).
	Name string
	// NewGame, if set, starts a new game on boardd before a scenario that
	// does not start where boardd's game stands (its position or its
	// law-set): from the position fen under the law-set laws (empty: the
	// one in force); at is where boardd said its game stands. Without it
	// such a scenario is not played. ConsoleArbiter.NewGame is one.
	NewGame func(ctx context.Context, at, laws, fen string) error
}

// Rig plays scenarios into boardd as a board's microcontroller would: it
// answers boardd's handshake, sends scans at its scan period as the
// scenario's hands lift and place men, presses buttons and makes choices,
// and checks the LED frames and reports boardd sends back, in real time.
// A Rig is used by one goroutine.
type Rig struct {
	opts    RigOptions
	log     *slog.Logger
	clock   timing.Clock
	sess    *link.Session
	dec     link.Decoder
	conn    io.ReadWriteCloser
	chunks  chan rigChunk
	stop    chan struct{}
	status  *link.Status
	occ     board.Occupancy // the board as the hands left it
	sentOcc board.Occupancy
	sentAt  time.Duration
	sentAny bool
	corrupt bool
	options []string // option ids of the irregularity last reported
	chk     *checker
	writes  uint64
	stalls  uint64
}

type rigChunk struct {
	b   []byte
	err error
}

// NewRig returns a rig; it plugs its cable at the first Play.
func NewRig(o RigOptions) (*Rig, error) {
	if o.Cable == nil {
		return nil, errors.New("rig: no cable")
	}
	if o.ScanPeriod <= 0 {
		o.ScanPeriod = DefaultScanPeriod
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.Heartbeat < o.ScanPeriod {
		o.Heartbeat = o.ScanPeriod
	}
	if o.Debounce <= 0 {
		o.Debounce = game.DefaultDebounce
	}
	if o.Settle <= 0 {
		o.Settle = game.DefaultSettle
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.Lead <= 0 {
		o.Lead = DefaultLead
	}
	if o.Clock == nil {
		o.Clock = timing.NewReal()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Name == "" {
		o.Name = "boardd-rig"
	}
	r := &Rig{opts: o, log: o.Logger, clock: o.Clock}
	r.sess = link.NewSession(link.SessionOptions{
		Role:  link.Board,
		Hello: link.Hello{Flags: link.HelloReports | link.HelloButtons, Name: o.Name},
	})
	return r, nil
}

// Close unplugs the rig.
func (r *Rig) Close() error { return r.unplug() }

func (r *Rig) plug() error {
	conn, err := r.opts.Cable.Plug()
	if err != nil {
		return err
	}
	r.conn = conn
	r.chunks = make(chan rigChunk, 64)
	r.stop = make(chan struct{})
	go read(conn, r.chunks, r.stop)
	r.dec.Reset()
	r.sentAny = false
	r.sess.Open(r.clock.Now())
	r.flush()
	r.log.Info("rig plugged in", "cable", r.opts.Cable.String())
	return nil
}

func read(conn io.Reader, out chan<- rigChunk, stop <-chan struct{}) {
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		if n > 0 {
			select {
			case out <- rigChunk{b: append([]byte(nil), buf[:n]...)}:
			case <-stop:
				return
			}
		}
		if err != nil {
			select {
			case out <- rigChunk{err: err}:
			case <-stop:
			}
			return
		}
	}
}

func (r *Rig) unplug() error {
	if r.conn == nil {
		return nil
	}
	close(r.stop)
	r.conn = nil
	r.chunks = nil
	r.sess.Close()
	r.log.Info("rig unplugged", "cable", r.opts.Cable.String())
	return r.opts.Cable.Unplug()
}

// write sends bytes to boardd, spoiling the next frame if told to.
func (r *Rig) write(b []byte) {
	if r.conn == nil || len(b) == 0 {
		return
	}
	if r.corrupt && len(b) > 4 {
		b = append([]byte(nil), b...)
		for i := 2; i < len(b)-1; i++ {
			if b[i] != 0 && b[i] != 0x80 {
				b[i] ^= 0x80
				break
			}
		}
		r.corrupt = false
	}
	r.writes++
	if _, err := r.conn.Write(b); err != nil {
		r.stalls++
		r.log.Warn("rig write failed", "err", err)
	}
}

func (r *Rig) flush() { r.write(r.sess.Output()) }

// receive handles bytes from boardd at time now.
func (r *Rig) receive(now time.Duration, b []byte) {
	r.dec.Feed(b, func(f link.Frame, err error) {
		if err != nil {
			r.log.Warn("rig: spoiled frame from boardd", "err", err)
			return
		}
		ev := r.sess.Receive(now, f)
		switch ev.Kind {
		case link.EventUp:
			r.log.Info("rig: boardd answered", "name", ev.Peer.Name)
			r.sendScan(now) // the board as it stands, at once
		case link.EventRefused:
			r.log.Warn("rig: refused a frame from boardd", "err", ev.Err)
		case link.EventPeerError:
			r.log.Info("rig: boardd refused a frame", "error", ev.PeerError.String())
		case link.EventMessage:
			r.message(now, ev.Frame)
		}
	})
	r.flush()
}

func (r *Rig) message(now time.Duration, f link.Frame) {
	switch f.Type {
	case link.TypeStatus:
		var st link.Status
		if st.Unmarshal(f.Payload) == nil {
			r.status = &st
		}
	case link.TypeLEDs:
		var m link.LEDs
		if m.Unmarshal(f.Payload) == nil && r.chk != nil {
			frame := led.FrameOfCodes(&m.Role, &m.Blink)
			r.chk.gotLEDs(now, &frame)
		}
	case link.TypeReport:
		var m link.Report
		if m.Unmarshal(f.Payload) != nil {
			return
		}
		r.noteOptions(m.JSON)
		if r.chk != nil {
			if err := r.chk.gotReport(now, m.JSON); err != nil {
				r.log.Warn("rig: report", "err", err)
			}
		}
	}
}

// noteOptions keeps the option ids of the last irregularity, for choices
// made by number.
func (r *Rig) noteOptions(j []byte) {
	var rep struct {
		Type    report.Type `json:"type"`
		Options []struct {
			ID string `json:"id"`
		} `json:"options"`
	}
	if json.Unmarshal(j, &rep) != nil || rep.Type != report.Irregularity {
		return
	}
	r.options = r.options[:0]
	for _, o := range rep.Options {
		r.options = append(r.options, o.ID)
	}
}

// sendScan sends the board's occupancy now.
func (r *Rig) sendScan(now time.Duration) {
	if !r.sess.Up() {
		return
	}
	if err := r.sess.Send(now, link.Occupancy{Time: uint32(now / time.Millisecond), Occupancy: r.occ}); err == nil {
		r.sentOcc, r.sentAt, r.sentAny = r.occ, now, true
	}
	r.flush()
}

// tick is one scan of the board: a change goes out, and an unchanged board
// every heartbeat.
func (r *Rig) tick(now time.Duration) {
	if !r.sentAny || r.occ != r.sentOcc || now-r.sentAt >= r.opts.Heartbeat {
		r.sendScan(now)
	}
}

// wait runs the link until cond holds or the time until passes; it returns
// ctx's error, or an error if the cable fails.
func (r *Rig) wait(ctx context.Context, until time.Duration, cond func() bool) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	nextTick := r.clock.Now()
	for !cond() {
		now := r.clock.Now()
		if now >= until {
			return nil
		}
		if now >= nextTick {
			r.tick(now)
			nextTick = now + r.opts.ScanPeriod
		}
		r.sess.Advance(now)
		r.flush()
		due := timing.Earliest(timing.Earliest(until, nextTick), r.sess.Deadline())
		timer.Reset(max(due-now, 0))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case c := <-r.chunks:
			if c.err != nil {
				return fmt.Errorf("rig: %s: %w", r.opts.Cable, c.err)
			}
			r.receive(r.clock.Now(), c.b)
		case <-timer.C:
		}
	}
	return nil
}

// Result is how a scenario went.
type Result struct {
	Scenario string
	Path     string
	Err      error // the scenario could not be played (no handshake, wrong game)
	Checks   []Check
	Latency  Latency
	Floor    Floor
	Decoder  link.DecoderStats // boardd's frames as the rig decoded them
	Session  link.SessionStats
	Duration time.Duration // from time zero to the end
}

// Passed reports whether the scenario ran and every check passed.
func (res *Result) Passed() bool {
	if res.Err != nil {
		return false
	}
	for _, c := range res.Checks {
		if !c.Pass {
			return false
		}
	}
	return true
}

// Floor is the least latency the hardware allows from a man moved to its
// LED answer: the wait for the next scan, the scan's and the LED frame's
// time on the wire, and boardd's debounce window.
type Floor struct {
	ScanPeriod    time.Duration // the wait for the next scan is up to this
	OccupancyWire time.Duration // an OCCUPANCY frame on the wire
	LEDWire       time.Duration // an LEDS frame on the wire
	Debounce      time.Duration
	Settle        time.Duration // a placement is answered only after it
	Baud          int
}

// Min returns the floor with no wait for the scan; Max with a whole period.
func (f Floor) Min() time.Duration { return f.OccupancyWire + f.LEDWire + f.Debounce }

// Max returns the floor when the move just missed a scan.
func (f Floor) Max() time.Duration { return f.Min() + f.ScanPeriod }

func (f Floor) String() string {
	wire := "no wire time (pty)"
	if f.Baud > 0 {
		wire = fmt.Sprintf("occupancy frame %s + LED frame %s at %d baud", fmtMS(f.OccupancyWire), fmtMS(f.LEDWire), f.Baud)
	}
	return fmt.Sprintf("%s to %s: debounce %s + scan wait 0 to %s + %s; a placement adds the settle time %s",
		fmtMS(f.Min()), fmtMS(f.Max()), fmtMS(f.Debounce), fmtMS(f.ScanPeriod), wire, fmtMS(f.Settle))
}

// wireTime is how long b bytes take at baud, 10 bits a byte (8N1).
func wireTime(b, baud int) time.Duration {
	if baud <= 0 {
		return 0
	}
	return time.Duration(int64(b) * 10 * int64(time.Second) / int64(baud))
}

func (r *Rig) floor() Floor {
	occ, _ := link.Append(nil, 1, link.Occupancy{Time: 1, Occupancy: 0xffff00000000ffff})
	var f led.Frame
	f.Set(12, led.LastMove, led.Steady)
	f.Set(28, led.LastMove, led.Steady)
	m := &link.LEDs{}
	m.Role, m.Blink = f.Codes()
	leds, _ := link.Append(nil, 1, m)
	return Floor{
		ScanPeriod:    r.opts.ScanPeriod,
		OccupancyWire: wireTime(len(occ), r.opts.Baud),
		LEDWire:       wireTime(len(leds), r.opts.Baud),
		Debounce:      r.opts.Debounce,
		Settle:        r.opts.Settle,
		Baud:          r.opts.Baud,
	}
}

// Play plays one scenario in real time and judges it. The returned error is
// ctx's or the cable's; a scenario that could not start (boardd silent, its
// game elsewhere) is a Result with Err set.
func (r *Rig) Play(ctx context.Context, sc *Scenario) (*Result, error) {
	res := &Result{Scenario: sc.Name, Path: sc.Path, Floor: r.floor()}
	start, err := sc.StartPosition()
	if err != nil {
		res.Err = err
		return res, nil
	}
	r.chk = nil
	r.status = nil
	r.options = nil
	r.occ = start.Occupancy()
	decBefore, sessBefore := r.dec.Stats, r.sess.Stats
	defer func() {
		res.Decoder = diffDecoder(r.dec.Stats, decBefore)
		res.Session = diffSession(r.sess.Stats, sessBefore)
	}()
	// A fresh handshake: boardd answers with its status.
	if r.conn == nil {
		if err := r.plug(); err != nil {
			return nil, err
		}
	} else {
		r.sess.Open(r.clock.Now())
		r.flush()
	}
	deadline := r.clock.Now() + r.opts.ConnectTimeout
	if err := r.wait(ctx, deadline, func() bool { return r.sess.Up() && r.status != nil }); err != nil {
		return nil, err
	}
	if r.status == nil {
		res.Err = fmt.Errorf("boardd did not answer on the %s within %s", r.opts.Cable, r.opts.ConnectTimeout)
		return res, nil
	}
	if r.elsewhere(sc, start.FEN()) != nil && r.opts.NewGame != nil {
		if err := r.newGame(ctx, sc, start.FEN()); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.Err = err
			return res, nil
		}
	}
	if err := r.elsewhere(sc, start.FEN()); err != nil {
		res.Err = err
		return res, nil
	}
	r.chk = newChecker(sc)
	r.sendScan(r.clock.Now())
	if err := r.wait(ctx, r.clock.Now()+r.opts.Lead, func() bool { return false }); err != nil {
		return nil, err
	}

	t0 := r.clock.Now()
	r.chk.start(t0)
	r.log.Info("rig: scenario starts", "scenario", sc.Name)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	next := 0
	nextTick := t0
	lastAt := t0
	for {
		now := r.clock.Now()
		for next < len(sc.Events) && now >= t0+sc.Events[next].T {
			if err := r.apply(now, sc, next); err != nil {
				return nil, err
			}
			r.chk.happened(next, now)
			lastAt = now
			next++
		}
		if now >= nextTick {
			if r.conn != nil {
				r.tick(now)
			}
			nextTick = now + r.opts.ScanPeriod
			if nextTick < now+r.opts.ScanPeriod/2 {
				nextTick = now + r.opts.ScanPeriod
			}
		}
		r.sess.Advance(now)
		r.flush()
		r.chk.advance(now)
		if next == len(sc.Events) && r.chk.resolved() && now >= lastAt+sc.Tail {
			break
		}
		due := timing.Earliest(nextTick, r.sess.Deadline())
		if next < len(sc.Events) {
			due = timing.Earliest(due, t0+sc.Events[next].T)
		} else {
			due = timing.Earliest(due, lastAt+sc.Tail)
		}
		if d := r.chk.deadline(); d != timing.Never {
			due = timing.Earliest(due, d+time.Millisecond)
		}
		timer.Reset(max(due-now, 0))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case c := <-r.chunks:
			if c.err != nil {
				// The cable failed under us (boardd's end vanished): keep
				// playing; the scenario's checks will say what was missed.
				r.log.Warn("rig: cable failed", "err", c.err)
				_ = r.unplug()
				continue
			}
			r.receive(r.clock.Now(), c.b)
		case <-timer.C:
		}
	}
	res.Duration = r.clock.Now() - t0
	res.Checks, res.Latency = r.chk.finish()
	return res, nil
}

// elsewhere says how boardd's game, as its last STATUS says, is not where
// scenario sc starts (from the position fen), or returns nil.
func (r *Rig) elsewhere(sc *Scenario, fen string) error {
	switch {
	case sc.Laws != "" && r.status.Laws != sc.Laws:
		return fmt.Errorf("boardd applies %s; the scenario is written for %s (run boardd with --laws %s, or let the rig start new games)", r.status.Laws, sc.Laws, sc.Laws)
	case !samePosition(r.status.FEN, fen):
		return fmt.Errorf("boardd's game stands at %s; the scenario starts from %s (let the rig start new games, or restart boardd)", r.status.FEN, fen)
	}
	return nil
}

// newGame has boardd start a new game where scenario sc starts (the
// position fen), asks for its STATUS again, and sets the men of the start
// on the board, giving boardd the lead time to take them before the
// scenario's checks begin.
func (r *Rig) newGame(ctx context.Context, sc *Scenario, fen string) error {
	r.log.Info("rig: a new game for the scenario", "scenario", sc.Name, "from", r.status.FEN, "to", fen, "laws", sc.Laws)
	if err := r.opts.NewGame(ctx, r.status.FEN, sc.Laws, fen); err != nil {
		return fmt.Errorf("a new game for the scenario: %w", err)
	}
	r.status = nil
	r.sess.Open(r.clock.Now()) // a fresh handshake: boardd answers with its status
	r.flush()
	if err := r.wait(ctx, r.clock.Now()+r.opts.ConnectTimeout, func() bool { return r.sess.Up() && r.status != nil }); err != nil {
		return err
	}
	if r.status == nil {
		return fmt.Errorf("after the new game, boardd did not answer on the %s within %s", r.opts.Cable, r.opts.ConnectTimeout)
	}
	r.sendScan(r.clock.Now())
	return r.wait(ctx, r.clock.Now()+r.opts.Lead, func() bool { return false })
}

// apply carries out event i at now.
func (r *Rig) apply(now time.Duration, sc *Scenario, i int) error {
	ev := sc.Events[i]
	r.log.Debug("rig: event", "line", ev.Line, "event", ev.String())
	l := ev.Input
	switch {
	case ev.Rig == RigUnplug:
		return r.unplug()
	case ev.Rig == RigReplug:
		if r.conn != nil {
			return nil
		}
		return r.plug()
	case ev.Rig == RigGarbage:
		noise := make([]byte, ev.Bytes)
		x := uint32(ev.Line)*2654435761 + 1
		for i := range noise {
			x = x*1664525 + 1013904223
			noise[i] = byte(x >> 24)
		}
		r.write(noise)
	case ev.Rig == RigCorrupt:
		r.corrupt = true
	case ev.Rig == RigBadVersion:
		wire, _ := link.Append(nil, 0, link.Hello{Version: link.Version + 1, Name: "future-board"})
		r.write(wire)
		r.sess.Open(now)
		r.flush()
	case l.Kind == trace.Lift:
		r.occ = r.occ.Without(l.Square)
	case l.Kind == trace.Place:
		r.occ = r.occ.With(l.Square)
	case l.Kind == trace.Frame:
		r.occ = l.Occupancy
		r.sendScan(now)
	case l.Kind == trace.Press:
		b, err := link.ParseButton(l.Button)
		if err != nil {
			return err
		}
		return r.send(now, link.Button{Side: side(l.Side), Button: b})
	case l.Kind == trace.Promote:
		b, _ := link.PromotionButton(l.Piece)
		return r.send(now, link.Button{Side: side(l.Side), Button: b})
	case l.Kind == trace.Choose:
		m := link.Choose{Side: side(l.Side), Option: l.Option}
		if sc.ChooseByNumber {
			for i, id := range r.options {
				if id == l.Option {
					m = link.Choose{Side: side(l.Side), Index: uint8(i + 1)}
				}
			}
		}
		return r.send(now, m)
	}
	return nil
}

func (r *Rig) send(now time.Duration, m link.Message) error {
	err := r.sess.Send(now, m)
	r.flush()
	return err
}

func side(s string) link.Side {
	v, _ := link.ParseSide(s)
	return v
}

// samePosition compares two FENs by placement, side to move, castling and
// en passant (not the move counters).
func samePosition(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) < 4 || len(fb) < 4 {
		return a == b
	}
	for i := range 4 {
		if fa[i] != fb[i] {
			return false
		}
	}
	return true
}

func diffDecoder(a, b link.DecoderStats) link.DecoderStats {
	return link.DecoderStats{Bytes: a.Bytes - b.Bytes, Frames: a.Frames - b.Frames, Empty: a.Empty - b.Empty,
		BadCOBS: a.BadCOBS - b.BadCOBS, Short: a.Short - b.Short, TooLong: a.TooLong - b.TooLong, BadCRC: a.BadCRC - b.BadCRC}
}

func diffSession(a, b link.SessionStats) link.SessionStats {
	return link.SessionStats{Received: a.Received - b.Received, Sent: a.Sent - b.Sent, Retransmits: a.Retransmits - b.Retransmits,
		Lost: a.Lost - b.Lost, Duplicates: a.Duplicates - b.Duplicates, NotReady: a.NotReady - b.NotReady,
		Unknown: a.Unknown - b.Unknown, BadPayload: a.BadPayload - b.BadPayload, BadVersion: a.BadVersion - b.BadVersion,
		PeerErrors: a.PeerErrors - b.PeerErrors, Overflow: a.Overflow - b.Overflow, Handshakes: a.Handshakes - b.Handshakes,
		Timeouts: a.Timeouts - b.Timeouts}
}

// Write prints the result for people: a verdict line, a line per check,
// the latency against its floor and the link's counters.
func (res *Result) Write(w io.Writer) {
	verdict := "PASS"
	if !res.Passed() {
		verdict = "FAIL"
	}
	passed := 0
	for _, c := range res.Checks {
		if c.Pass {
			passed++
		}
	}
	fmt.Fprintf(w, "%s %s (%s): %d/%d checks\n", verdict, res.Scenario, res.Path, passed, len(res.Checks))
	if res.Err != nil {
		fmt.Fprintf(w, "  not played: %v\n", res.Err)
		return
	}
	for _, c := range res.Checks {
		mark := "ok  "
		if !c.Pass {
			mark = "FAIL"
		}
		where := "     "
		if c.Line > 0 {
			where = fmt.Sprintf("%5d", c.Line)
		}
		fmt.Fprintf(w, "  %s line%s %9s  %s\n", mark, where, fmtMS(c.Latency), c.Text)
		if !c.Pass {
			fmt.Fprintf(w, "        %s\n", c.Detail)
		}
	}
	fmt.Fprintf(w, "  latency event to LED: %s\n", res.Latency)
	fmt.Fprintf(w, "  floor: %s\n", res.Floor)
	fmt.Fprintf(w, "  link: %d frames from boardd, %d dropped, %d lost, %d retransmitted, %d refused by boardd\n",
		res.Decoder.Frames, res.Decoder.Dropped(), res.Session.Lost, res.Session.Retransmits, res.Session.PeerErrors)
}
