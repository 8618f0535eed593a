// Package broker connects boardd to the club hall's MQTT broker (Mosquitto):
// it reads the broker's URL and the credentials that go with it (a user name
// and password, a client certificate, the CA that vouches for the broker)
// and builds the reconnecting client both a board and the hall use.
//
// The client is eclipse/paho.golang's autopaho: an MQTT 5 client kept by the
// Eclipse Foundation that reconnects by itself with a backoff, and lets each
// connection be rebuilt from scratch (clean start), which is what store and
// forward from boardd's own journal wants (docs/hall.md says why).
package broker

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// Files a board or the hall looks for in its credential directories when the
// URL does not name them.
const (
	PasswordFile = "hall-password" // the broker password (one line)
	CAFile       = "hall-ca.pem"   // the CA certificates that vouch for the broker (TLS)
	CertFile     = "hall-cert.pem" // the client certificate (TLS)
	KeyFile      = "hall-key.pem"  // its private key
)

// The URL's query parameters naming credential files.
const (
	ParamPassword = "password-file"
	ParamCA       = "ca"
	ParamCert     = "cert"
	ParamKey      = "key"
)

// Options say where to find the broker and the credentials.
type Options struct {
	// URL is the broker: mqtt://[user@]host[:port] (1883), mqtts://…
	// (TLS, 8883), ws:// or wss:// (WebSocket). The query may name files:
	// password-file, ca, cert and key (and the caller's own parameters,
	// named in Extra). A password in the URL itself is refused: it would
	// show in the process list and the logs.
	URL string
	// Username is the user name when the URL has none (a board's id, or
	// "hall").
	Username string
	// Dirs are searched in order for the files the URL does not name
	// (PasswordFile, CAFile, CertFile, KeyFile): typically
	// $CREDENTIALS_DIRECTORY (systemd's LoadCredential=) and the state
	// directory.
	Dirs []string
	// Extra names query parameters the caller reads itself (Config.Query
	// has them); any other parameter is an error.
	Extra []string
}

// Config is a broker connection's settings, read and checked.
type Config struct {
	URL      *url.URL // without the user name and query
	Username string
	Password []byte
	TLS      *tls.Config // nil for a plain connection
	Query    url.Values  // the Extra parameters given
	// Sources say where each credential came from, for the log.
	Sources []string
}

// Redacted returns the broker URL with the user name, for logs.
func (c *Config) Redacted() string {
	u := *c.URL
	if c.Username != "" {
		u.User = url.User(c.Username)
	}
	return u.String()
}

// Load reads the URL and the credentials it needs. Every fault names the
// URL part or the file and what was expected.
func Load(o Options) (*Config, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("broker: URL %q: %v", o.URL, err)
	}
	if u.Host == "" || u.Opaque != "" {
		return nil, fmt.Errorf("broker: URL %q: want mqtt://host:port, mqtts://host:port, ws://… or wss://…", o.URL)
	}
	tlsScheme := false
	defPort := "1883"
	switch strings.ToLower(u.Scheme) {
	case "mqtt", "tcp":
	case "mqtts", "ssl", "tls":
		tlsScheme, defPort = true, "8883"
	case "ws":
		defPort = "80"
	case "wss":
		tlsScheme, defPort = true, "443"
	default:
		return nil, fmt.Errorf("broker: URL %q: scheme %q: want mqtt, mqtts, ws or wss", o.URL, u.Scheme)
	}
	if u.Port() == "" {
		u.Host = net.JoinHostPort(u.Hostname(), defPort)
	}
	c := &Config{Username: o.Username, Query: url.Values{}}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			return nil, fmt.Errorf("broker: URL %s: a password in the URL shows in the process list and the logs: put it in a file (%s, or ?%s=FILE)", redact(u), PasswordFile, ParamPassword)
		}
		c.Username = u.User.Username()
	}
	q := u.Query()
	for k := range q {
		switch k {
		case ParamPassword, ParamCA, ParamCert, ParamKey:
		default:
			if !contains(o.Extra, k) {
				return nil, fmt.Errorf("broker: URL %s: unknown parameter %q: want %s", redact(u), k, strings.Join(append([]string{ParamPassword, ParamCA, ParamCert, ParamKey}, o.Extra...), ", "))
			}
			c.Query[k] = q[k]
		}
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	c.URL = u

	// find returns the file the parameter names, else the first of the
	// directories that has the default name ("" when none has).
	find := func(param, name string) (string, bool, error) {
		if p := q.Get(param); p != "" {
			if _, err := os.Stat(p); err != nil {
				return "", true, fmt.Errorf("broker: URL parameter %s=%s: %w", param, p, unwrapPath(err))
			}
			return p, true, nil
		}
		for _, d := range o.Dirs {
			if d == "" {
				continue
			}
			p := filepath.Join(d, name)
			if _, err := os.Stat(p); err == nil {
				return p, false, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", false, fmt.Errorf("broker: %s: %w", p, unwrapPath(err))
			}
		}
		return "", false, nil
	}

	if p, _, err := find(ParamPassword, PasswordFile); err != nil {
		return nil, err
	} else if p != "" {
		if err := private(p, "password file"); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("broker: password file: %w", err)
		}
		pw := strings.TrimRight(string(data), "\r\n")
		if pw == "" || strings.ContainsAny(pw, "\r\n") {
			return nil, fmt.Errorf("broker: password file %s: want the password on one line", p)
		}
		if c.Username == "" {
			return nil, fmt.Errorf("broker: password file %s but no user name: give one in the URL (mqtt://NAME@host)", p)
		}
		c.Password = []byte(pw)
		c.Sources = append(c.Sources, "password from "+p)
	}

	caPath, caNamed, err := find(ParamCA, CAFile)
	if err != nil {
		return nil, err
	}
	certPath, certNamed, err := find(ParamCert, CertFile)
	if err != nil {
		return nil, err
	}
	keyPath, keyNamed, err := find(ParamKey, KeyFile)
	if err != nil {
		return nil, err
	}
	if !tlsScheme {
		for _, n := range []struct {
			named bool
			param string
		}{{caNamed, ParamCA}, {certNamed, ParamCert}, {keyNamed, ParamKey}} {
			if n.named {
				return nil, fmt.Errorf("broker: URL %s: %s= is for TLS: use mqtts:// (or wss://)", redact(u), n.param)
			}
		}
		return c, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: u.Hostname()}
	if caPath != "" {
		pem, err := os.ReadFile(caPath)
		if err != nil {
			return nil, fmt.Errorf("broker: CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("broker: CA file %s: no PEM certificate in it", caPath)
		}
		tc.RootCAs = pool
		c.Sources = append(c.Sources, "CA from "+caPath)
	} else {
		c.Sources = append(c.Sources, "the system's CAs")
	}
	switch {
	case certPath != "" && keyPath != "":
		if err := private(keyPath, "client key"); err != nil {
			return nil, err
		}
		pair, err := tls.LoadX509KeyPair(certPath, keyPath)
		if err != nil {
			return nil, fmt.Errorf("broker: client certificate %s with key %s: %w", certPath, keyPath, err)
		}
		tc.Certificates = []tls.Certificate{pair}
		c.Sources = append(c.Sources, "client certificate "+certPath)
	case certPath != "":
		return nil, fmt.Errorf("broker: client certificate %s but no key: give ?%s=FILE or put %s beside it", certPath, ParamKey, KeyFile)
	case keyPath != "":
		return nil, fmt.Errorf("broker: key %s but no client certificate: give ?%s=FILE or put %s beside it", keyPath, ParamCert, CertFile)
	}
	c.TLS = tc
	return c, nil
}

// private checks that the secret at path (what names what it is) is
// readable by its owner alone, wherever it was found ($CREDENTIALS_DIRECTORY,
// the state directory, or named in the URL): a secret the group or others
// may read is refused, naming the file, its mode and the chmod that mends
// it.
func private(path, what string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("broker: %s %s: %w", what, path, unwrapPath(err))
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("broker: %s %s has mode %04o: others may read it; make it readable by boardd alone (chmod 600 %s)", what, path, perm, path)
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func redact(u *url.URL) string {
	v := *u
	if v.User != nil {
		v.User = url.User(v.User.Username())
	}
	v.RawQuery = ""
	return v.String()
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ClientOptions configure a reconnecting client.
type ClientOptions struct {
	Config   *Config
	ClientID string
	// Will is published by the broker when the client vanishes.
	Will *paho.WillMessage
	// OnUp is called on each connection, before anything else is sent on
	// it: subscribe here. It runs on the client's goroutine and must not
	// wait for the broker's answers itself (start a goroutine to).
	OnUp func(c *Client)
	// OnDown is called when a connection is lost.
	OnDown func()
	// OnMessage is called for each message received, in order, on the
	// client's goroutine: it must not block (and must not publish).
	OnMessage func(topic string, payload []byte, retained bool)
	// Backoff bounds the wait between connection attempts: it doubles from
	// MinBackoff up to MaxBackoff (100 ms and 10 s if zero).
	MinBackoff, MaxBackoff time.Duration
	// KeepAlive is the MQTT keep-alive (20 s if zero): a dead link is
	// noticed within about one and a half of it.
	KeepAlive time.Duration
	// PacketTimeout bounds the wait for each acknowledgement (10 s if
	// zero).
	PacketTimeout time.Duration
	Logger        *slog.Logger
}

// Client is a connection to the broker that reconnects by itself.
type Client struct {
	mu     sync.Mutex
	cm     *autopaho.ConnectionManager
	conn   context.Context // the connection's lifetime; nil while down
	cancel context.CancelFunc
	upCh   chan struct{} // closed when the next connection is up
}

// Connect starts a client that connects to the broker and reconnects
// whenever the connection is lost, until ctx ends. Every connection starts
// clean: the broker keeps no session for the client, which resends what it
// must itself (boards from their journal) and subscribes again in OnUp.
func Connect(ctx context.Context, o ClientOptions) (*Client, error) {
	if o.Config == nil {
		return nil, errors.New("broker: no configuration")
	}
	if o.ClientID == "" {
		return nil, errors.New("broker: no client id")
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	minB, maxB := o.MinBackoff, o.MaxBackoff
	if minB <= 0 {
		minB = 100 * time.Millisecond
	}
	if maxB < minB {
		maxB = max(10*time.Second, minB)
	}
	keep := o.KeepAlive
	if keep <= 0 {
		keep = 20 * time.Second
	}
	c := o.Config
	cl := &Client{upCh: make(chan struct{})}
	var failing atomic.Bool
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{c.URL},
		TlsCfg:                        c.TLS,
		KeepAlive:                     uint16(max(1, keep/time.Second)),
		CleanStartOnInitialConnection: true,
		SessionExpiryInterval:         0,
		ConnectTimeout:                10 * time.Second,
		ReconnectBackoff:              backoff(minB, maxB),
		ConnectUsername:               c.Username,
		ConnectPassword:               c.Password,
		WillMessage:                   o.Will,
		ConnectPacketBuilder: func(cp *paho.Connect, _ *url.URL) (*paho.Connect, error) {
			cp.CleanStart = true // every connection: store and forward is boardd's own
			return cp, nil
		},
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			if failing.Swap(false) {
				log.Info("hall broker: connected again", "broker", c.Redacted())
			} else {
				log.Info("hall broker: connected", "broker", c.Redacted())
			}
			cl.mu.Lock()
			cl.cm = cm // before NewConnection returns, perhaps
			cl.conn, cl.cancel = context.WithCancel(context.Background())
			close(cl.upCh)
			cl.mu.Unlock()
			if o.OnUp != nil {
				o.OnUp(cl)
			}
		},
		OnConnectionDown: func() bool {
			cl.lost()
			log.Warn("hall broker: connection lost; reconnecting", "broker", c.Redacted())
			if o.OnDown != nil {
				o.OnDown()
			}
			return true
		},
		OnConnectError: func(err error) {
			if !failing.Swap(true) {
				log.Warn("hall broker: cannot connect; retrying", "broker", c.Redacted(), "err", err)
			} else {
				log.Debug("hall broker: cannot connect", "broker", c.Redacted(), "err", err)
			}
		},
		ClientConfig: paho.ClientConfig{
			ClientID:      o.ClientID,
			PacketTimeout: o.PacketTimeout,
			// The connection is failing: what waits on it gives up now
			// rather than at its time-out (paho forgets the packets of
			// a session that ends with the connection).
			OnClientError:      func(error) { cl.lost() },
			OnServerDisconnect: func(*paho.Disconnect) { cl.lost() },
		},
	}
	if o.Will != nil {
		cfg.WillProperties = &paho.WillProperties{}
	}
	switch strings.ToLower(c.URL.Scheme) {
	case "mqtt", "tcp", "mqtts", "ssl", "tls":
		cfg.AttemptConnection = dial
	}
	if o.OnMessage != nil {
		fn := o.OnMessage
		cfg.OnPublishReceived = []func(paho.PublishReceived) (bool, error){
			func(pr paho.PublishReceived) (bool, error) {
				fn(pr.Packet.Topic, pr.Packet.Payload, pr.Packet.Retain)
				return true, nil
			},
		}
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	cl.mu.Lock()
	cl.cm = cm
	cl.mu.Unlock()
	return cl, nil
}

// dial connects to the broker over TCP, or TLS, with reads buffered: paho
// reads each packet's header a byte at a time, a system call each, which
// is what a hall following two hundred boards spent most of its time on.
func dial(ctx context.Context, cfg autopaho.ClientConfig, u *url.URL) (net.Conn, error) {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	var conn net.Conn
	var err error
	switch strings.ToLower(u.Scheme) {
	case "mqtts", "ssl", "tls":
		conn, err = (&tls.Dialer{NetDialer: &d, Config: cfg.TlsCfg}).DialContext(ctx, "tcp", u.Host)
	default:
		conn, err = d.DialContext(ctx, "tcp", u.Host)
	}
	if err != nil {
		return nil, err
	}
	return &bufConn{Conn: conn, r: bufio.NewReaderSize(conn, 16<<10), Locker: &sync.Mutex{}}, nil
}

// bufConn is a connection whose reads are buffered. It is a sync.Locker, as
// paho wants of a connection it writes to from several goroutines.
type bufConn struct {
	net.Conn
	r *bufio.Reader
	sync.Locker
}

// Read reads through the buffer.
func (c *bufConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// lost ends the current connection's lifetime.
func (c *Client) lost() {
	c.mu.Lock()
	if c.cancel != nil {
		c.cancel()
		c.upCh = make(chan struct{})
	}
	c.conn, c.cancel = nil, nil
	c.mu.Unlock()
}

// ErrDown says the connection is down (or went down while waiting).
var ErrDown = autopaho.ConnectionDownError

// current returns the connection manager and a context that ends with ctx
// or with the connection.
func (c *Client) current(ctx context.Context) (*autopaho.ConnectionManager, context.Context, context.CancelFunc, error) {
	c.mu.Lock()
	cm, conn := c.cm, c.conn
	c.mu.Unlock()
	if conn == nil || cm == nil {
		return nil, nil, nil, ErrDown
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(conn, cancel)
	return cm, ctx, func() { stop(); cancel() }, nil
}

func (c *Client) manager() *autopaho.ConnectionManager {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cm
}

// Publish sends one message with QoS 1 and waits for the broker's
// acknowledgement. It fails at once when the connection is down or goes
// down meanwhile, and when the broker refuses the message (not authorised,
// say).
func (c *Client) Publish(ctx context.Context, topic string, payload []byte, retain bool) error {
	cm, pctx, done, err := c.current(ctx)
	if err != nil {
		return fmt.Errorf("publish %s: %w", topic, err)
	}
	defer done()
	_, err = cm.Publish(pctx, &paho.Publish{QoS: 1, Topic: topic, Payload: payload, Retain: retain})
	if err != nil {
		if pctx.Err() != nil && ctx.Err() == nil {
			err = ErrDown
		}
		return fmt.Errorf("publish %s: %w", topic, err)
	}
	return nil
}

// Subscribe subscribes to topics with QoS 1 and returns the broker's reason
// code for each (0x01 granted; 0x80 and above refused).
func (c *Client) Subscribe(ctx context.Context, topics ...string) ([]byte, error) {
	cm, sctx, done, err := c.current(ctx)
	if err != nil {
		return nil, fmt.Errorf("subscribe: %w", err)
	}
	defer done()
	sub := &paho.Subscribe{}
	for _, t := range topics {
		sub.Subscriptions = append(sub.Subscriptions, paho.SubscribeOptions{Topic: t, QoS: 1})
	}
	ack, err := cm.Subscribe(sctx, sub)
	if ack != nil {
		return ack.Reasons, err
	}
	if err != nil {
		return nil, fmt.Errorf("subscribe: %w", err)
	}
	return nil, nil
}

// AwaitConnection waits until the client is connected.
func (c *Client) AwaitConnection(ctx context.Context) error {
	c.mu.Lock()
	up := c.upCh
	c.mu.Unlock()
	select {
	case <-up:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.Done():
		return errors.New("broker: the client has stopped")
	}
}

// Done is closed when the client has stopped (its context ended).
func (c *Client) Done() <-chan struct{} { return c.manager().Done() }

// backoff doubles the wait after each failed attempt, from lo up to hi; the
// first attempt after a lost connection is at once.
func backoff(lo, hi time.Duration) autopaho.Backoff {
	return func(attempt int) time.Duration {
		if attempt <= 0 {
			return 0
		}
		d := lo
		for i := 1; i < attempt && d < hi; i++ {
			d *= 2
		}
		return min(d, hi)
	}
}
