package link

import (
	"testing"
	"time"

	"github.com/boardd/boardd/timing"
)

// pair joins a host and a board session by a wire in virtual time.
type pair struct {
	t           time.Duration
	host, board *Session
	hd, bd      Decoder
	hostEv      []Event
	boardEv     []Event
	// drop, if set, loses frames on the wire.
	drop func(from Role, f Frame) bool
}

func newPair(hostOpts, boardOpts SessionOptions) *pair {
	hostOpts.Role, boardOpts.Role = Host, Board
	hostOpts.Hello.Name, boardOpts.Hello.Name = "boardd", "board"
	return &pair{host: NewSession(hostOpts), board: NewSession(boardOpts)}
}

func keep(ev Event) Event {
	ev.Frame.Payload = append([]byte(nil), ev.Frame.Payload...)
	return ev
}

// pump carries bytes both ways until neither end has more to say.
func (p *pair) pump() {
	for range 100 {
		hb, bb := append([]byte(nil), p.host.Output()...), append([]byte(nil), p.board.Output()...)
		if len(hb) == 0 && len(bb) == 0 {
			return
		}
		p.bd.Feed(hb, func(f Frame, err error) {
			if err != nil || (p.drop != nil && p.drop(Host, f)) {
				return
			}
			if ev := p.board.Receive(p.t, f); ev.Kind != EventNone {
				p.boardEv = append(p.boardEv, keep(ev))
			}
		})
		p.hd.Feed(bb, func(f Frame, err error) {
			if err != nil || (p.drop != nil && p.drop(Board, f)) {
				return
			}
			if ev := p.host.Receive(p.t, f); ev.Kind != EventNone {
				p.hostEv = append(p.hostEv, keep(ev))
			}
		})
	}
	panic("the sessions never fall quiet")
}

// advance moves time to t, firing both sessions' timers on the way.
func (p *pair) advance(to time.Duration) {
	for {
		next := timing.Earliest(p.host.Deadline(), p.board.Deadline())
		if next > to {
			break
		}
		p.t = max(p.t, next)
		if ev := p.host.Advance(p.t); ev.Kind != EventNone {
			p.hostEv = append(p.hostEv, ev)
		}
		if ev := p.board.Advance(p.t); ev.Kind != EventNone {
			p.boardEv = append(p.boardEv, ev)
		}
		p.pump()
	}
	p.t = to
}

func (p *pair) connect(t *testing.T) {
	t.Helper()
	p.host.Open(p.t)
	p.board.Open(p.t)
	p.pump()
	if !p.host.Up() || !p.board.Up() {
		t.Fatalf("no handshake: host up %v, board up %v", p.host.Up(), p.board.Up())
	}
}

func kinds(evs []Event) []EventKind {
	var out []EventKind
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

func TestHandshake(t *testing.T) {
	p := newPair(SessionOptions{}, SessionOptions{Hello: Hello{Flags: HelloReports}})
	// A frame before the handshake is ignored.
	p.host.Open(0)
	early, _ := Append(nil, 0, Occupancy{Occupancy: 1})
	p.hd.Feed(early, func(f Frame, err error) {
		if ev := p.host.Receive(0, f); ev.Kind != EventNone {
			t.Fatalf("frame before the handshake: %+v", ev)
		}
	})
	if p.host.Stats.NotReady != 1 {
		t.Fatalf("not-ready %d", p.host.Stats.NotReady)
	}
	p.board.Open(0)
	p.pump()
	if err := p.board.Send(0, Occupancy{Occupancy: 1}); err != nil {
		t.Fatal(err)
	}
	p.pump()
	if got := kinds(p.hostEv); len(got) != 2 || got[0] != EventUp || got[1] != EventMessage {
		t.Fatalf("host events %v, want EventUp then the occupancy", got)
	}
	if p.hostEv[0].Peer.Name != "board" || p.hostEv[0].Peer.Flags&HelloReports == 0 {
		t.Fatalf("peer hello %+v", p.hostEv[0].Peer)
	}
	if got := kinds(p.boardEv); len(got) != 1 || got[0] != EventUp {
		t.Fatalf("board events %v, want one EventUp", got)
	}
	if p.host.Stats.Handshakes != 1 || p.board.Stats.Handshakes != 1 {
		t.Fatalf("handshakes %d %d", p.host.Stats.Handshakes, p.board.Stats.Handshakes)
	}
	if p.host.Deadline() != timing.Never {
		t.Fatalf("host still repeating HELLO: deadline %v", p.host.Deadline())
	}
}

func TestHandshakeOneSided(t *testing.T) {
	// The board is already running when the host opens the port: only the
	// host's HELLO starts the link.
	p := newPair(SessionOptions{}, SessionOptions{})
	p.host.Open(0)
	p.pump()
	if !p.host.Up() || !p.board.Up() {
		t.Fatal("no handshake")
	}
	// A HELLO lost: the host repeats it.
	q := newPair(SessionOptions{}, SessionOptions{})
	lost := 0
	q.drop = func(from Role, f Frame) bool {
		if from == Host && f.Type == TypeHello && lost == 0 {
			lost++
			return true
		}
		return false
	}
	q.host.Open(0)
	q.pump()
	if q.host.Up() {
		t.Fatal("up without an answer")
	}
	q.advance(DefaultHelloInterval)
	if !q.host.Up() || !q.board.Up() {
		t.Fatal("HELLO not repeated")
	}
}

func TestSequenceGapsCounted(t *testing.T) {
	p := newPair(SessionOptions{}, SessionOptions{})
	p.connect(t)
	n := 0
	p.drop = func(from Role, f Frame) bool {
		if f.Type == TypeOccupancy {
			n++
			return n == 3 || n == 4
		}
		return false
	}
	for i := range 6 {
		if err := p.board.Send(p.t, Occupancy{Occupancy: 1 << i}); err != nil {
			t.Fatal(err)
		}
		p.pump()
	}
	if got := len(p.hostEv); got != 1+4 {
		t.Fatalf("host got %d events, want EventUp and 4 occupancy frames", got)
	}
	if p.host.Stats.Lost != 2 {
		t.Fatalf("lost %d, want 2", p.host.Stats.Lost)
	}
}

func TestAcknowledgedRetransmittedOnceDelivered(t *testing.T) {
	p := newPair(SessionOptions{}, SessionOptions{})
	p.connect(t)
	acks := 0
	p.drop = func(from Role, f Frame) bool {
		if from == Host && f.Type == TypeAck {
			acks++
			return acks == 1 // the first acknowledgement is lost
		}
		return false
	}
	if err := p.board.Send(p.t, Button{Side: SideWhite, Button: ButtonClock}); err != nil {
		t.Fatal(err)
	}
	if err := p.board.Send(p.t, Choose{Side: SideBlack, Option: "stand"}); err != nil {
		t.Fatal(err)
	}
	p.pump()
	if p.board.Waiting() != 2 {
		t.Fatalf("waiting %d, want 2 (stop and wait)", p.board.Waiting())
	}
	p.advance(p.t + DefaultAckTimeout)
	if p.board.Waiting() != 0 {
		t.Fatalf("waiting %d after the retransmission", p.board.Waiting())
	}
	var got []Type
	for _, ev := range p.hostEv[1:] {
		got = append(got, ev.Frame.Type)
	}
	if len(got) != 2 || got[0] != TypeButton || got[1] != TypeChoose {
		t.Fatalf("host delivered %v, want the button once, then the choice", got)
	}
	if p.host.Stats.Duplicates != 1 || p.board.Stats.Retransmits != 1 {
		t.Fatalf("duplicates %d retransmits %d, want 1 and 1", p.host.Stats.Duplicates, p.board.Stats.Retransmits)
	}
}

func TestLEDsSupersede(t *testing.T) {
	p := newPair(SessionOptions{}, SessionOptions{})
	p.connect(t)
	p.drop = func(from Role, f Frame) bool { return from == Board && f.Type == TypeAck }
	for r := uint8(1); r <= 5; r++ {
		f := &LEDs{}
		f.Role[0] = r
		if err := p.host.Send(p.t, f); err != nil {
			t.Fatal(err)
		}
		p.pump()
	}
	if p.host.Waiting() != 1 {
		t.Fatalf("waiting %d, want only the latest LED frame", p.host.Waiting())
	}
	p.drop = nil
	p.advance(p.t + DefaultAckTimeout)
	if p.host.Waiting() != 0 {
		t.Fatal("latest LED frame never acknowledged")
	}
	last := p.boardEv[len(p.boardEv)-1]
	var m LEDs
	if err := m.Unmarshal(last.Frame.Payload); err != nil || m.Role[0] != 5 {
		t.Fatalf("board shows %v, %v; want option-3 (role 5) on a1", m.Role[0], err)
	}
}

func TestVersionRefused(t *testing.T) {
	host := NewSession(SessionOptions{Role: Host})
	host.Open(0)
	host.Output()
	wire, _ := AppendFrame(nil, TypeHello, 0, []byte{2, 0, 'n', 'e', 'w'})
	var d Decoder
	var ev Event
	d.Feed(wire, func(f Frame, err error) { ev = host.Receive(time.Millisecond, f) })
	if ev.Kind != EventRefused || host.Up() || host.Stats.BadVersion != 1 {
		t.Fatalf("event %+v up %v stats %+v", ev, host.Up(), host.Stats)
	}
	var reply []Message
	var rd Decoder
	rd.Feed(host.Output(), func(f Frame, err error) {
		if err != nil {
			t.Fatalf("the host's reply does not decode: %v", err)
		}
		m, err := Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		reply = append(reply, m)
	})
	if len(reply) != 1 || reply[0].(*ErrorMsg).Code != ErrVersion {
		t.Fatalf("reply %+v, want an ERROR version", reply)
	}
}

func TestTimeoutAndPeerRestart(t *testing.T) {
	p := newPair(SessionOptions{Timeout: time.Second}, SessionOptions{})
	p.connect(t)
	f := &LEDs{}
	f.Role[5] = 12 // touched, steady
	if err := p.host.Send(p.t, f); err != nil {
		t.Fatal(err)
	}
	p.pump()
	// The board dies: nothing more comes from it.
	p.drop = func(from Role, f Frame) bool { return from == Board }
	p.advance(1500 * time.Millisecond)
	if p.host.Up() || p.host.Stats.Timeouts != 1 {
		t.Fatalf("host up %v timeouts %d after a silent second", p.host.Up(), p.host.Stats.Timeouts)
	}
	if got := kinds(p.hostEv); got[len(got)-1] != EventDown {
		t.Fatalf("host events %v, want EventDown last", got)
	}
	// A new LED frame while the board is away waits for it.
	f = &LEDs{Role: f.Role}
	f.Role[6] = 12
	if err := p.host.Send(p.t, f); err != nil {
		t.Fatal(err)
	}
	// The board reboots: its HELLO brings the link back and gets the LEDs.
	p.drop = nil
	p.board = NewSession(SessionOptions{Role: Board, Hello: Hello{Name: "board"}})
	p.boardEv = nil
	p.board.Open(p.t)
	p.pump()
	if !p.host.Up() || p.host.Stats.Handshakes != 2 {
		t.Fatalf("host up %v handshakes %d", p.host.Up(), p.host.Stats.Handshakes)
	}
	if got := kinds(p.boardEv); len(got) != 2 || got[1] != EventMessage || p.boardEv[1].Frame.Type != TypeLEDs {
		t.Fatalf("board events %v, want EventUp and the LEDs", got)
	}
	if p.host.Waiting() != 0 {
		t.Fatal("LEDs not acknowledged after the restart")
	}
}

func TestRefusals(t *testing.T) {
	p := newPair(SessionOptions{}, SessionOptions{})
	p.connect(t)
	inject := func(typ Type, payload []byte) Event {
		wire, _ := AppendFrame(nil, typ, 200, payload)
		var ev Event
		var d Decoder
		d.Feed(wire, func(f Frame, err error) { ev = p.host.Receive(p.t, f) })
		return ev
	}
	if ev := inject(TypeLEDs, make([]byte, 64)); ev.Kind != EventRefused { // wrong direction
		t.Fatalf("LEDS to the host: %+v", ev)
	}
	if ev := inject(0x55, nil); ev.Kind != EventRefused {
		t.Fatalf("unknown type: %+v", ev)
	}
	if ev := inject(TypeOccupancy, []byte{1, 2}); ev.Kind != EventRefused {
		t.Fatalf("short occupancy: %+v", ev)
	}
	if p.host.Stats.Unknown != 2 || p.host.Stats.BadPayload != 1 {
		t.Fatalf("stats %+v", p.host.Stats)
	}
	p.pump()
	if p.board.Stats.PeerErrors != 3 {
		t.Fatalf("board heard %d errors, want 3", p.board.Stats.PeerErrors)
	}
	if err := p.host.Send(p.t, Occupancy{}); err == nil {
		t.Fatal("host sent an occupancy frame")
	}
}

func TestQueueOverflow(t *testing.T) {
	p := newPair(SessionOptions{}, SessionOptions{QueueLimit: 3})
	p.board.Open(0) // nobody answers
	for i := range 5 {
		if err := p.board.Send(0, Button{Side: SideWhite, Button: ButtonID(1 + i%4)}); err != nil {
			t.Fatal(err)
		}
	}
	if p.board.Waiting() != 3 || p.board.Stats.Overflow != 2 {
		t.Fatalf("waiting %d overflow %d", p.board.Waiting(), p.board.Stats.Overflow)
	}
	if err := p.board.Send(0, Occupancy{}); err != ErrDown {
		t.Fatalf("occupancy while down: %v", err)
	}
	p.host.Open(0)
	p.pump()
	var got []ButtonID
	for _, ev := range p.hostEv {
		if ev.Kind == EventMessage {
			var b Button
			_ = b.Unmarshal(ev.Frame.Payload)
			got = append(got, b.Button)
		}
	}
	if len(got) != 3 || got[0] != ButtonClaim || got[2] != ButtonJadoube {
		t.Fatalf("delivered %v, want the three newest in order", got)
	}
}
