package mosquittotest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bridge is one of Mosquitto's own bridges in a broker's configuration: the
// broker connects to a remote broker as a client and carries the topics
// named between them (docs/hall.md, "Several rooms").
type Bridge struct {
	// Name is the connection's name (Mosquitto's `connection`).
	Name string
	// Address is the remote broker's host:port.
	Address string
	// Username and Password are the bridge's credentials at the remote
	// broker (remote_username, remote_password).
	Username, Password string
	// ClientID is the bridge's client id at the remote broker (default
	// "bridge-" + Name).
	ClientID string
	// Topics are Mosquitto's `topic` lines without the keyword:
	// "boardd/v1/+/event in 1", "boardd/v1/+/ack out 1".
	Topics []string
	// CleanSession makes the remote broker forget the bridge's
	// subscriptions and queued messages whenever the link drops.
	CleanSession bool
	// RestartTimeout is the least wait before the bridge tries to connect
	// again after losing its link (whole seconds, at least 1; 1 s if zero);
	// it backs off to twice that at most. (Mosquitto's own default is 5 s
	// backing off to 30 s, even with a single restart_timeout given.)
	RestartTimeout time.Duration
	// KeepAlive is the bridge's MQTT keep-alive (whole seconds; 60 if zero).
	KeepAlive time.Duration
	// ProtocolVersion is mqttv311 (the default) or mqttv50.
	ProtocolVersion string
}

// lines returns the bridge's configuration lines.
func (br Bridge) lines() ([]string, error) {
	if br.Name == "" || br.Address == "" || len(br.Topics) == 0 {
		return nil, errors.New("mosquittotest: a bridge needs a name, an address and topics")
	}
	if strings.ContainsAny(br.Name+br.Address+br.Username+br.Password+br.ClientID, "\n\r") {
		return nil, fmt.Errorf("mosquittotest: bridge %s: a setting holds a line break", br.Name)
	}
	id := br.ClientID
	if id == "" {
		id = "bridge-" + br.Name
	}
	restart := max(1, int(br.RestartTimeout/time.Second))
	out := []string{
		"connection " + br.Name,
		"address " + br.Address,
		"remote_clientid " + id,
		"cleansession " + strconv.FormatBool(br.CleanSession),
		"restart_timeout " + strconv.Itoa(restart) + " " + strconv.Itoa(2*restart),
		"start_type automatic",
		"notifications false",
	}
	if br.KeepAlive > 0 {
		out = append(out, "keepalive_interval "+strconv.Itoa(max(5, int(br.KeepAlive/time.Second))))
	}
	if br.ProtocolVersion != "" {
		out = append(out, "bridge_protocol_version "+br.ProtocolVersion)
	}
	if br.Username != "" {
		out = append(out, "remote_username "+br.Username)
		if br.Password != "" {
			out = append(out, "remote_password "+br.Password)
		}
	}
	for _, t := range br.Topics {
		if strings.ContainsAny(t, "\n\r") {
			return nil, fmt.Errorf("mosquittotest: bridge %s: topic %q holds a line break", br.Name, t)
		}
		out = append(out, "topic "+t)
	}
	return out, nil
}

// Link is a TCP relay between two parties (a bridge and the broker it links
// to, say) that a test can cut and restore: the network between two rooms
// of a tournament, as the test sees it.
type Link struct {
	target string
	ln     net.Listener
	done   chan struct{}
	wg     sync.WaitGroup

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
	count int // connections relayed
}

// NewLink listens on a free loopback port and relays every connection to
// target (host:port).
func NewLink(target string) (*Link, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mosquittotest: link: %w", err)
	}
	l := &Link{target: target, ln: ln, done: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	l.wg.Go(l.accept)
	return l, nil
}

// Addr returns the link's address (host:port): connect here to reach the
// target.
func (l *Link) Addr() string { return l.ln.Addr().String() }

// Connections returns how many connections the link has relayed.
func (l *Link) Connections() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count
}

func (l *Link) accept() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		cut := l.cut
		l.mu.Unlock()
		if cut {
			c.Close() // the far side is unreachable
			continue
		}
		l.wg.Go(func() { l.relay(c) })
	}
}

func (l *Link) relay(c net.Conn) {
	far, err := net.DialTimeout("tcp", l.target, 5*time.Second)
	if err != nil {
		c.Close()
		return
	}
	l.mu.Lock()
	if l.cut {
		l.mu.Unlock()
		c.Close()
		far.Close()
		return
	}
	l.conns[c], l.conns[far] = struct{}{}, struct{}{}
	l.count++
	l.mu.Unlock()
	var wg sync.WaitGroup
	pipe := func(dst, src net.Conn) {
		io.Copy(dst, src)
		dst.Close()
		src.Close()
	}
	wg.Go(func() { pipe(far, c) })
	wg.Go(func() { pipe(c, far) })
	wg.Wait()
	l.mu.Lock()
	delete(l.conns, c)
	delete(l.conns, far)
	l.mu.Unlock()
}

// Cut breaks every connection through the link and refuses new ones until
// Restore: the link between the rooms is down.
func (l *Link) Cut() {
	l.mu.Lock()
	l.cut = true
	conns := make([]net.Conn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// Restore lets connections through again.
func (l *Link) Restore() {
	l.mu.Lock()
	l.cut = false
	l.mu.Unlock()
}

// Close stops the link and breaks its connections.
func (l *Link) Close() error {
	err := l.ln.Close()
	l.Cut()
	l.wg.Wait()
	return err
}
