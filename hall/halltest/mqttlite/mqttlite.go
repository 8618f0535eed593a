// Package mqttlite is a minimal MQTT 5 client for simulating thousands of
// boards in one process: one connection, one goroutine reading it, QoS 1
// publications that wait for their acknowledgement, subscriptions, a will
// and keep-alive, and nothing else (no reconnection, no session kept, no
// copies of what is sent). The packets are eclipse/paho.golang's; what
// mqttlite leaves out is the full client's machinery, a goroutine, a context
// and a stored copy for every publication, which made a simulated board of
// the load driver cost more than the hall it was meant to measure.
//
// Boards and the hall use hall/broker (paho's autopaho); mqttlite is for
// tests and load runs.
package mqttlite

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/packets"
)

// Message is a publication: a will, or one received.
type Message struct {
	Topic   string
	Payload []byte
	Retain  bool
}

// Options configure a connection.
type Options struct {
	// Addr is the broker's host:port; TLS, when set, makes it a TLS
	// connection.
	Addr string
	TLS  *tls.Config
	// ClientID, Username and Password are the CONNECT packet's.
	ClientID string
	Username string
	Password []byte
	// KeepAlive is the MQTT keep-alive (whole seconds; 30 s if zero): a
	// ping is sent when nothing was sent for half of it.
	KeepAlive time.Duration
	// Will is published by the broker (QoS 1) when the connection ends
	// without a DISCONNECT.
	Will *Message
	// OnMessage is called for each publication received, in order, on the
	// connection's reading goroutine; it must not block. A QoS 1
	// publication is acknowledged once it returns.
	OnMessage func(Message)
}

// Conn is one connection to a broker, started clean.
type Conn struct {
	o    Options
	conn net.Conn
	done chan struct{}
	ping *time.Timer

	wmu sync.Mutex // one packet written at a time

	mu      sync.Mutex
	nextID  uint16
	pending map[uint16]chan *packets.ControlPacket
	err     error
}

// ErrClosed says the connection is closed (or was lost).
var ErrClosed = errors.New("mqttlite: connection closed")

// Dial connects, sends CONNECT with a clean start and waits for the
// broker's CONNACK: a refusal is an error naming the broker's reason.
func Dial(ctx context.Context, o Options) (*Conn, error) {
	if o.KeepAlive <= 0 {
		o.KeepAlive = 30 * time.Second
	}
	var d net.Dialer
	var conn net.Conn
	var err error
	if o.TLS != nil {
		conn, err = (&tls.Dialer{NetDialer: &d, Config: o.TLS}).DialContext(ctx, "tcp", o.Addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", o.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("mqttlite: %w", err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	c := &Conn{o: o, conn: conn, done: make(chan struct{}), pending: map[uint16]chan *packets.ControlPacket{}}
	cp := packets.NewControlPacket(packets.CONNECT)
	cn := cp.Content.(*packets.Connect)
	cn.ClientID, cn.CleanStart = o.ClientID, true
	cn.KeepAlive = uint16(max(1, min(o.KeepAlive/time.Second, 65535)))
	if o.Username != "" {
		cn.Username, cn.UsernameFlag = o.Username, true
	}
	if o.Password != nil {
		cn.Password, cn.PasswordFlag = o.Password, true
	}
	if w := o.Will; w != nil {
		cn.WillFlag, cn.WillQOS, cn.WillRetain, cn.WillTopic, cn.WillMessage = true, 1, w.Retain, w.Topic, w.Payload
		cn.WillProperties = &packets.Properties{}
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	br := bufio.NewReaderSize(conn, 4096)
	if _, err := cp.WriteTo(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("mqttlite: CONNECT: %w", err)
	}
	ack, err := packets.ReadPacket(br)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("mqttlite: waiting for CONNACK: %w", err)
	}
	ca, ok := ack.Content.(*packets.Connack)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("mqttlite: the broker answered CONNECT with %s", ack.PacketType())
	}
	if ca.ReasonCode != packets.ConnackSuccess {
		conn.Close()
		return nil, fmt.Errorf("mqttlite: the broker refused the connection as %q: %s (%#x)", o.Username, ca.Reason(), ca.ReasonCode)
	}
	conn.SetDeadline(time.Time{})
	c.ping = time.AfterFunc(o.KeepAlive/2, c.keepAlive)
	go c.read(br)
	return c, nil
}

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended (nil while it is up).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// write sends one packet; any write pushes the next ping back.
func (c *Conn) write(cp *packets.ControlPacket) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := cp.WriteTo(c.conn); err != nil {
		c.fail(err)
		return fmt.Errorf("mqttlite: %w", err)
	}
	c.ping.Reset(c.o.KeepAlive / 2)
	return nil
}

func (c *Conn) keepAlive() {
	select {
	case <-c.done:
		return
	default:
	}
	c.write(packets.NewControlPacket(packets.PINGREQ))
}

// fail ends the connection with err, failing whatever waits on it.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	pending := c.pending
	c.pending = map[uint16]chan *packets.ControlPacket{}
	c.mu.Unlock()
	c.ping.Stop()
	c.conn.Close()
	close(c.done)
	for _, ch := range pending {
		close(ch)
	}
}

// read takes the broker's packets until the connection ends.
func (c *Conn) read(br *bufio.Reader) {
	for {
		cp, err := readPacket(br)
		if err != nil {
			c.fail(err)
			return
		}
		switch p := cp.Content.(type) {
		case *packets.Publish:
			if c.o.OnMessage != nil {
				c.o.OnMessage(Message{Topic: p.Topic, Payload: p.Payload, Retain: p.Retain})
			}
			if p.QoS > 0 {
				ack := packets.NewControlPacket(packets.PUBACK)
				ack.Content.(*packets.Puback).PacketID = p.PacketID
				if c.write(ack) != nil {
					return
				}
			}
		case *packets.Puback, *packets.Suback:
			c.mu.Lock()
			ch := c.pending[cp.PacketID()]
			delete(c.pending, cp.PacketID())
			c.mu.Unlock()
			if ch != nil {
				ch <- cp
			}
		case *packets.Disconnect:
			c.fail(fmt.Errorf("mqttlite: the broker disconnected: %s (%#x)", p.Reason(), p.ReasonCode))
			return
		}
	}
}

// readPacket reads the next packet. A PUBACK, what a board receives most,
// is read here without paho's buffers (one for the packet, one for its
// content, each zeroed); any other packet is paho's to read.
func readPacket(br *bufio.Reader) (*packets.ControlPacket, error) {
	first, err := br.ReadByte()
	if err != nil {
		return nil, err
	}
	n, err := readLength(br)
	if err != nil {
		return nil, err
	}
	if first>>4 == packets.PUBACK && n >= 2 && n <= 64 {
		var b [64]byte
		if _, err := io.ReadFull(br, b[:n]); err != nil {
			return nil, err
		}
		ack := packets.NewControlPacket(packets.PUBACK)
		pa := ack.Content.(*packets.Puback)
		pa.PacketID = uint16(b[0])<<8 | uint16(b[1])
		if n > 2 {
			pa.ReasonCode = b[2]
		}
		return ack, nil
	}
	rest := make([]byte, n)
	if _, err := io.ReadFull(br, rest); err != nil {
		return nil, err
	}
	var head [5]byte
	head[0] = first
	h := appendLength(head[:1], n)
	return packets.ReadPacket(io.MultiReader(bytes.NewReader(h), bytes.NewReader(rest)))
}

// readLength reads MQTT's variable byte integer.
func readLength(br *bufio.Reader) (int, error) {
	n, shift := 0, 0
	for i := 0; i < 4; i++ {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		n |= int(b&0x7f) << shift
		if b&0x80 == 0 {
			return n, nil
		}
		shift += 7
	}
	return 0, errors.New("mqttlite: a packet length longer than four bytes")
}

func appendLength(dst []byte, n int) []byte {
	for {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		dst = append(dst, d)
		if n == 0 {
			return dst
		}
	}
}

// send writes a packet that the broker answers, under a new packet id, and
// waits for the answer.
func (c *Conn) send(ctx context.Context, cp *packets.ControlPacket, setID func(uint16)) (*packets.ControlPacket, error) {
	ch := make(chan *packets.ControlPacket, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	for {
		c.nextID++
		if _, used := c.pending[c.nextID]; c.nextID != 0 && !used {
			break
		}
	}
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	setID(id)
	if err := c.write(cp); err != nil {
		return nil, err
	}
	select {
	case ack, ok := <-ch:
		if !ok {
			return nil, ErrClosed
		}
		return ack, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

// Publish sends a QoS 1 publication and waits for the broker's
// acknowledgement: an error when the broker refuses it (not authorised,
// say) or the connection ends first.
func (c *Conn) Publish(ctx context.Context, topic string, payload []byte, retain bool) error {
	cp := packets.NewControlPacket(packets.PUBLISH)
	p := cp.Content.(*packets.Publish)
	p.Topic, p.Payload, p.QoS, p.Retain = topic, payload, 1, retain
	ack, err := c.send(ctx, cp, p.SetIdentifier)
	if err != nil {
		return fmt.Errorf("mqttlite: publish %s: %w", topic, err)
	}
	if pa, ok := ack.Content.(*packets.Puback); ok && pa.ReasonCode >= 0x80 {
		return fmt.Errorf("mqttlite: publish %s: the broker refused it: %s (%#x)", topic, pa.Reason(), pa.ReasonCode)
	}
	return nil
}

// PublishAll sends QoS 1 publications back to back, in one write, and waits
// for the broker's acknowledgements. It returns how many of them, from the
// first, the broker took before the first it refused or the connection's
// end, and why it stopped there.
func (c *Conn) PublishAll(ctx context.Context, ms []Message) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	chs := make([]chan *packets.ControlPacket, len(ms))
	var buf bytes.Buffer
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return 0, ErrClosed
	}
	for i, m := range ms {
		for {
			c.nextID++
			if _, used := c.pending[c.nextID]; c.nextID != 0 && !used {
				break
			}
		}
		chs[i] = make(chan *packets.ControlPacket, 1)
		c.pending[c.nextID] = chs[i]
		cp := packets.NewControlPacket(packets.PUBLISH)
		p := cp.Content.(*packets.Publish)
		p.Topic, p.Payload, p.QoS, p.Retain, p.PacketID = m.Topic, m.Payload, 1, m.Retain, c.nextID
		cp.WriteTo(&buf)
	}
	c.mu.Unlock()
	c.wmu.Lock()
	_, err := c.conn.Write(buf.Bytes())
	if err == nil {
		c.ping.Reset(c.o.KeepAlive / 2)
	}
	c.wmu.Unlock()
	if err != nil {
		c.fail(err)
		return 0, fmt.Errorf("mqttlite: publish: %w", err)
	}
	for i, ch := range chs {
		select {
		case ack, ok := <-ch:
			if !ok {
				return i, fmt.Errorf("mqttlite: publish %s: %w", ms[i].Topic, ErrClosed)
			}
			if pa, ok := ack.Content.(*packets.Puback); ok && pa.ReasonCode >= 0x80 {
				return i, fmt.Errorf("mqttlite: publish %s: the broker refused it: %s (%#x)", ms[i].Topic, pa.Reason(), pa.ReasonCode)
			}
		case <-ctx.Done():
			return i, ctx.Err()
		}
	}
	return len(ms), nil
}

// Subscribe subscribes to topics at QoS 1 and returns the broker's reason
// code for each (0x01 granted; 0x80 and above refused).
func (c *Conn) Subscribe(ctx context.Context, topics ...string) ([]byte, error) {
	cp := packets.NewControlPacket(packets.SUBSCRIBE)
	s := cp.Content.(*packets.Subscribe)
	for _, t := range topics {
		s.Subscriptions = append(s.Subscriptions, packets.SubOptions{Topic: t, QoS: 1})
	}
	ack, err := c.send(ctx, cp, s.SetIdentifier)
	if err != nil {
		return nil, fmt.Errorf("mqttlite: subscribe: %w", err)
	}
	sa, ok := ack.Content.(*packets.Suback)
	if !ok {
		return nil, fmt.Errorf("mqttlite: subscribe: the broker answered with %s", ack.PacketType())
	}
	return sa.Reasons, nil
}

// Close sends DISCONNECT (the will is not published) and closes the
// connection.
func (c *Conn) Close() error {
	select {
	case <-c.done:
		return nil
	default:
	}
	c.write(packets.NewControlPacket(packets.DISCONNECT))
	c.fail(ErrClosed)
	return nil
}

// Drop closes the connection without DISCONNECT, as a board that loses its
// power or its network: the broker publishes the will.
func (c *Conn) Drop() error {
	c.fail(ErrClosed)
	return nil
}
