package link

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/timing"
)

// Role says which end of the link a session is.
type Role uint8

// The two ends.
const (
	Host  Role = iota + 1 // boardd
	Board                 // the board's microcontroller (or the rig playing it)
)

// String returns "host" or "board".
func (r Role) String() string {
	if r == Board {
		return "board"
	}
	return "host"
}

// sends reports whether an end in role r may send messages of type t.
func (r Role) sends(t Type) bool {
	switch {
	case t < 0x10:
		return true
	case t < 0x20:
		return r == Board
	default:
		return r == Host
	}
}

// Defaults of SessionOptions.
const (
	DefaultAckTimeout    = 250 * time.Millisecond
	DefaultHelloInterval = 500 * time.Millisecond
	DefaultQueueLimit    = 64
	// DuplicateWindow is how long a receiver remembers the last acknowledged
	// frame it accepted, to recognise its retransmission. A sender must not
	// reuse a sequence number sooner (at most 255 frames a second).
	DuplicateWindow = time.Second
)

// SessionOptions configure a Session.
type SessionOptions struct {
	Role Role
	// Hello is what this end announces; its Version is set to Version and
	// the reply flag is managed by the session.
	Hello Hello
	// AckTimeout is how long to wait for an acknowledgement before sending
	// the frame again (DefaultAckTimeout if zero).
	AckTimeout time.Duration
	// HelloInterval is how often HELLO is repeated until the peer answers
	// (DefaultHelloInterval if zero).
	HelloInterval time.Duration
	// Timeout declares the link down after this long without a good frame
	// from the peer; zero never does.
	Timeout time.Duration
	// QueueLimit bounds the acknowledged messages waiting to be sent; beyond
	// it the oldest waiting one is dropped and counted (DefaultQueueLimit if
	// zero).
	QueueLimit int
}

// SessionStats count what a session has seen and done.
type SessionStats struct {
	Received    uint64 // good frames from the peer
	Sent        uint64 // frames sent, retransmissions included
	Retransmits uint64 // frames sent again for want of an acknowledgement
	Lost        uint64 // frames missing from the peer's sequence
	Duplicates  uint64 // retransmissions of frames already accepted (acknowledged again, not delivered)
	NotReady    uint64 // frames before the handshake (ignored)
	Unknown     uint64 // frames of an unknown type or the wrong direction (refused)
	BadPayload  uint64 // frames whose payload did not fit their type (refused)
	BadVersion  uint64 // HELLOs of another protocol version (refused)
	PeerErrors  uint64 // ERROR messages from the peer
	Overflow    uint64 // acknowledged messages dropped from a full queue
	Handshakes  uint64 // times the link came up (a peer restart counts again)
	Timeouts    uint64 // times the link went down for silence
}

// EventKind says what a session call has to tell its driver.
type EventKind uint8

// The events.
const (
	EventNone      EventKind = iota
	EventUp                  // the handshake is done (or the peer restarted): Peer holds its HELLO
	EventDown                // the peer fell silent for the timeout
	EventMessage             // an application message: Frame
	EventRefused             // a frame was refused here: Err says why (an ERROR went back)
	EventPeerError           // the peer refused one of ours: PeerError
)

// Event is what Receive or Advance has to tell the driver.
type Event struct {
	Kind      EventKind
	Frame     Frame // EventMessage; its payload aliases the frame passed in
	Peer      Hello // EventUp
	Err       error // EventRefused, EventDown
	PeerError ErrorMsg
}

// ErrDown is returned by Send for an unacknowledged message while the link is
// down: it is not sent.
var ErrDown = errors.New("link: not connected")

// pending is an acknowledged message waiting to be sent or acknowledged.
type pending struct {
	typ     Type
	seq     uint8
	payload []byte
	sent    bool
	sentAt  time.Duration
}

// Session is one end of the link: the handshake, sequence numbers,
// acknowledgements and retransmissions, duplicate suppression and the
// silence timeout. It does no I/O and reads no clock: its driver hands it
// decoded frames and the time, writes out what Output returns, and calls
// Advance at Deadline. It is not safe for concurrent use.
type Session struct {
	opts    SessionOptions
	up      bool
	peer    Hello
	tx      uint8
	rxNext  uint8
	rxAny   bool
	lastRx  time.Duration
	helloAt time.Duration
	queue   []pending
	last    struct {
		ok      bool
		typ     Type
		seq     uint8
		payload []byte
		at      time.Duration
	}
	out   []byte
	buf   []byte
	Stats SessionStats
}

// NewSession returns a session in role opts.Role, not yet open.
func NewSession(opts SessionOptions) *Session {
	if opts.Role != Board {
		opts.Role = Host
	}
	if opts.AckTimeout <= 0 {
		opts.AckTimeout = DefaultAckTimeout
	}
	if opts.HelloInterval <= 0 {
		opts.HelloInterval = DefaultHelloInterval
	}
	if opts.QueueLimit <= 0 {
		opts.QueueLimit = DefaultQueueLimit
	}
	opts.Hello.Version = Version
	opts.Hello.Flags &^= HelloReply
	return &Session{opts: opts, helloAt: timing.Never}
}

// Up reports whether the handshake is done and the peer has not fallen
// silent.
func (s *Session) Up() bool { return s.up }

// Peer returns the peer's HELLO (valid once Up).
func (s *Session) Peer() Hello { return s.peer }

// Role returns the session's role.
func (s *Session) Role() Role { return s.opts.Role }

// Output returns the bytes to write to the port and forgets them; the slice
// is valid until the next call on the session.
func (s *Session) Output() []byte {
	o := s.out
	s.out = s.out[:0]
	return o
}

// Open starts the session afresh on a newly opened port at time t: the link
// is down until the peer's HELLO, and HELLO is sent now and repeated.
// Acknowledged messages still queued are sent again after the handshake.
func (s *Session) Open(t time.Duration) {
	s.up = false
	s.rxAny = false
	s.last.ok = false
	s.tx = 0
	for i := range s.queue {
		s.queue[i].sent = false
	}
	s.out = append(s.out, Delimiter) // flush whatever half frame the peer holds
	s.sendHello(t, false)
}

// Close marks the link down (the port was lost) without an event.
func (s *Session) Close() {
	s.up = false
	s.helloAt = timing.Never
	for i := range s.queue {
		s.queue[i].sent = false
	}
}

func (s *Session) sendHello(t time.Duration, reply bool) {
	h := s.opts.Hello
	if reply {
		h.Flags |= HelloReply
	} else {
		s.helloAt = t + s.opts.HelloInterval
	}
	s.transmit(TypeHello, s.nextSeq(), h.AppendPayload(s.buf[:0]))
}

func (s *Session) nextSeq() uint8 {
	q := s.tx
	s.tx++
	return q
}

func (s *Session) transmit(t Type, seq uint8, payload []byte) {
	s.Stats.Sent++
	s.out, _ = AppendFrame(s.out, t, seq, payload)
}

func (s *Session) refuse(f Frame, code ErrorCode, err error) Event {
	m := ErrorMsg{Code: code, Seq: f.Seq, Of: f.Type, Detail: err.Error()}
	s.transmit(TypeError, s.nextSeq(), m.AppendPayload(s.buf[:0]))
	return Event{Kind: EventRefused, Frame: f, Err: err}
}

// Send sends m: at once if the link is up and nothing is waiting for an
// acknowledgement, else when its turn comes. An acknowledged message is kept
// until the peer acknowledges it, across reconnections; a newer LEDS
// replaces one still unacknowledged. An unacknowledged message (OCCUPANCY,
// ANALOG, STATUS) is sent only while the link is up; otherwise Send returns
// ErrDown.
func (s *Session) Send(t time.Duration, m Message) error {
	typ := m.Type()
	if !s.opts.Role.sends(typ) || typ == TypeHello || typ == TypeAck || typ == TypeError {
		return fmt.Errorf("link: a %s does not send %s", s.opts.Role, typ)
	}
	payload := m.AppendPayload(s.buf[:0])
	if len(payload) > MaxPayload {
		return ErrPayloadTooLong
	}
	if !typ.Acknowledged() {
		if !s.up {
			return ErrDown
		}
		s.transmit(typ, s.nextSeq(), payload)
		return nil
	}
	p := pending{typ: typ, payload: append([]byte(nil), payload...)}
	if typ.supersedes() {
		for i := range s.queue {
			if s.queue[i].typ == typ {
				s.queue[i] = p
				if i == 0 {
					s.pump(t)
				}
				return nil
			}
		}
	}
	if len(s.queue) >= s.opts.QueueLimit {
		drop := 0
		if s.queue[0].sent {
			drop = 1
		}
		s.queue = append(s.queue[:drop], s.queue[drop+1:]...)
		s.Stats.Overflow++
	}
	s.queue = append(s.queue, p)
	s.pump(t)
	return nil
}

// pump sends the head of the queue if it is not in flight.
func (s *Session) pump(t time.Duration) {
	if !s.up || len(s.queue) == 0 || s.queue[0].sent {
		return
	}
	h := &s.queue[0]
	h.seq, h.sent, h.sentAt = s.nextSeq(), true, t
	s.transmit(h.typ, h.seq, h.payload)
}

// Receive takes one good frame from the decoder at time t, answers it as
// the protocol requires (HELLO, ACK, ERROR go into Output) and returns what
// the driver must know.
func (s *Session) Receive(t time.Duration, f Frame) Event {
	s.Stats.Received++
	s.lastRx = t
	if f.Type == TypeHello {
		return s.hello(t, f)
	}
	s.track(f.Seq)
	if !s.up {
		s.Stats.NotReady++
		return Event{}
	}
	switch f.Type {
	case TypeAck:
		var a Ack
		if err := a.Unmarshal(f.Payload); err != nil {
			s.Stats.BadPayload++
			return s.refuse(f, ErrBadLength, err)
		}
		if len(s.queue) > 0 && s.queue[0].sent && s.queue[0].seq == a.Seq && s.queue[0].typ == a.Of {
			s.queue = append(s.queue[:0], s.queue[1:]...)
			s.pump(t)
		}
		return Event{}
	case TypeError:
		var e ErrorMsg
		if err := e.Unmarshal(f.Payload); err != nil {
			s.Stats.BadPayload++
			return Event{Kind: EventRefused, Frame: f, Err: err}
		}
		s.Stats.PeerErrors++
		if len(s.queue) > 0 && s.queue[0].sent && s.queue[0].seq == e.Seq && s.queue[0].typ == e.Of {
			// The peer will never take it: give up on it.
			s.queue = append(s.queue[:0], s.queue[1:]...)
			s.pump(t)
		}
		return Event{Kind: EventPeerError, PeerError: e}
	}
	if !f.Type.Known() || !s.peerRole().sends(f.Type) {
		s.Stats.Unknown++
		return s.refuse(f, ErrUnknownType, fmt.Errorf("link: a %s does not take %s", s.opts.Role, f.Type))
	}
	if err := check(f); err != nil {
		s.Stats.BadPayload++
		code := ErrBadValue
		var pe *PayloadError
		if errors.As(err, &pe) && strings.HasPrefix(pe.Fault, "want") {
			code = ErrBadLength
		}
		return s.refuse(f, code, err)
	}
	if f.Type.Acknowledged() {
		s.transmit(TypeAck, s.nextSeq(), Ack{Seq: f.Seq, Of: f.Type}.AppendPayload(s.buf[:0]))
		if s.last.ok && s.last.typ == f.Type && s.last.seq == f.Seq && t-s.last.at < DuplicateWindow && bytes.Equal(s.last.payload, f.Payload) {
			s.Stats.Duplicates++
			return Event{}
		}
		s.last.ok, s.last.typ, s.last.seq, s.last.at = true, f.Type, f.Seq, t
		s.last.payload = append(s.last.payload[:0], f.Payload...)
	}
	return Event{Kind: EventMessage, Frame: f}
}

func (s *Session) peerRole() Role {
	if s.opts.Role == Host {
		return Board
	}
	return Host
}

// track follows the peer's sequence numbers and counts the gaps.
func (s *Session) track(seq uint8) {
	if !s.rxAny {
		s.rxAny, s.rxNext = true, seq+1
		return
	}
	d := seq - s.rxNext
	if d >= 128 { // older than expected: a retransmission
		return
	}
	s.Stats.Lost += uint64(d)
	s.rxNext = seq + 1
}

func (s *Session) hello(t time.Duration, f Frame) Event {
	var h Hello
	if err := h.Unmarshal(f.Payload); err != nil {
		s.Stats.BadPayload++
		return s.refuse(f, ErrBadLength, err)
	}
	if h.Version != Version {
		s.Stats.BadVersion++
		s.up = false
		if s.helloAt == timing.Never {
			s.helloAt = t + s.opts.HelloInterval
		}
		err := fmt.Errorf("link: peer %q speaks protocol version %d; this end speaks %d", h.Name, h.Version, Version)
		m := ErrorMsg{Code: ErrVersion, Seq: f.Seq, Of: f.Type, Detail: fmt.Sprintf("want version %d", Version)}
		s.transmit(TypeError, s.nextSeq(), m.AppendPayload(s.buf[:0]))
		return Event{Kind: EventRefused, Frame: f, Err: err}
	}
	reply := h.Flags&HelloReply != 0
	if !reply {
		s.sendHello(t, true)
	}
	s.rxAny, s.rxNext = true, f.Seq+1
	if s.up && reply {
		return Event{} // a late answer to a HELLO repeated before the first answer came
	}
	s.up, s.peer = true, h
	s.helloAt = timing.Never
	s.last.ok = false
	s.Stats.Handshakes++
	for i := range s.queue {
		s.queue[i].sent = false
	}
	s.pump(t)
	return Event{Kind: EventUp, Peer: h}
}

// check validates a payload against its type without keeping anything.
func check(f Frame) error {
	switch f.Type {
	case TypeOccupancy:
		var m Occupancy
		return m.Unmarshal(f.Payload)
	case TypeAnalog:
		var m Analog
		return m.Unmarshal(f.Payload)
	case TypeButton:
		var m Button
		return m.Unmarshal(f.Payload)
	case TypeChoose:
		var m Choose
		return m.Unmarshal(f.Payload)
	case TypeLEDs:
		var m LEDs
		return m.Unmarshal(f.Payload)
	case TypeStatus:
		var m Status
		return m.Unmarshal(f.Payload)
	case TypeReport:
		var m Report
		return m.Unmarshal(f.Payload)
	}
	return nil
}

// Deadline returns when Advance must next be called, or timing.Never.
func (s *Session) Deadline() time.Duration {
	d := s.helloAt
	if s.up {
		if s.opts.Timeout > 0 {
			d = timing.Earliest(d, s.lastRx+s.opts.Timeout)
		}
		if len(s.queue) > 0 && s.queue[0].sent {
			d = timing.Earliest(d, s.queue[0].sentAt+s.opts.AckTimeout)
		}
	}
	return d
}

// Advance runs the session's timers up to t: HELLO repeated while the link
// is down, the frame in flight sent again, and the link declared down when
// the peer has been silent for the timeout (EventDown).
func (s *Session) Advance(t time.Duration) Event {
	if s.up && s.opts.Timeout > 0 && t-s.lastRx >= s.opts.Timeout {
		s.up = false
		s.Stats.Timeouts++
		for i := range s.queue {
			s.queue[i].sent = false
		}
		s.sendHello(t, false)
		return Event{Kind: EventDown, Err: fmt.Errorf("link: no frame from the %s for %v", s.peerRole(), t-s.lastRx)}
	}
	if !s.up && t >= s.helloAt {
		s.sendHello(t, false)
	}
	if s.up && len(s.queue) > 0 && s.queue[0].sent && t >= s.queue[0].sentAt+s.opts.AckTimeout {
		h := &s.queue[0]
		h.sentAt = t
		s.Stats.Retransmits++
		s.transmit(h.typ, h.seq, h.payload)
	}
	return Event{}
}

// Waiting returns the number of acknowledged messages not yet acknowledged.
func (s *Session) Waiting() int { return len(s.queue) }

// Refuse tells the peer that a message already acknowledged (the frame of
// type typ numbered seq) was refused by the application, with code and a
// detail for its logs: an ERROR goes into Output. A CHOOSE naming an option
// not on offer is refused this way with ErrRefused.
func (s *Session) Refuse(seq uint8, typ Type, code ErrorCode, detail string) {
	m := ErrorMsg{Code: code, Seq: seq, Of: typ, Detail: detail}
	s.transmit(TypeError, s.nextSeq(), m.AppendPayload(s.buf[:0]))
}
