package console

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boardd/boardd/logrepeat"
	"github.com/boardd/boardd/timing"
)

// DefaultAddr is where the console listens unless told otherwise: this
// machine only.
const DefaultAddr = "127.0.0.1:8080"

// Defaults of ListenOptions: a Pi Zero has 512 MB, and an idle connection
// costs a goroutine and its buffers (some 10 KiB).
const (
	DefaultMaxConns          = 512
	DefaultMaxConnsPerClient = 64
)

// ListenOptions configure the console's listener.
type ListenOptions struct {
	// TLS, when set, serves HTTPS (see LoadTLS); nil serves plain HTTP.
	TLS *TLS
	// MaxConns bounds the connections open at once (DefaultMaxConns if
	// zero); MaxConnsPerClient bounds those from one client address
	// (DefaultMaxConnsPerClient if zero; an IPv6 client is its /64). A
	// connection past either is closed at once, before anything is read
	// from it, so that a flood of connections costs nothing to hold.
	MaxConns, MaxConnsPerClient int
	// Logger receives a warning when connections are refused (once a
	// minute at most); none if nil.
	Logger *slog.Logger
	// Clock paces those warnings (real time if nil).
	Clock timing.Clock
}

// Listener is the console's listening socket: plain HTTP or HTTPS, with
// its connections bounded.
type Listener struct {
	net.Listener // the bounded TCP listener (below TLS)
	tls          *TLS
}

// Listen opens the console's TCP address. An address already taken is an
// error that names it and says what to do.
func Listen(addr string, o ListenOptions) (*Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("console: listen address %q: want HOST:PORT, e.g. %s: %w", addr, DefaultAddr, err)
	}
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("console: address %s is already in use (another boardd, or another program, listens there): choose another with --listen ADDR", addr)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("console: address %s: permission denied (ports below 1024 need privileges): choose another with --listen ADDR", addr)
	case err != nil:
		return nil, fmt.Errorf("console: listen on %s: %w", addr, err)
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxConnsPerClient <= 0 {
		o.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = timing.NewReal()
	}
	bounded := &boundedListener{Listener: ln, max: o.MaxConns, perClient: o.MaxConnsPerClient, byClient: map[string]int{}, log: o.Logger, warn: logrepeat.New(o.Clock, time.Minute)}
	return &Listener{Listener: bounded, tls: o.TLS}, nil
}

// TLS reports whether the listener serves HTTPS.
func (l *Listener) TLS() bool { return l.tls != nil }

// Exposed reports whether the listener is reachable from beyond this
// machine: it listens on an address that is not a loopback one.
func (l *Listener) Exposed() bool {
	tcp, ok := l.Addr().(*net.TCPAddr)
	return ok && !tcp.IP.IsLoopback()
}

// Serve serves hs on the listener (HTTPS when it has TLS, with HTTP/2) until
// hs is shut down.
func (l *Listener) Serve(hs *http.Server) error {
	if l.tls == nil {
		return hs.Serve(l.Listener)
	}
	hs.TLSConfig = l.tls.Config()
	return hs.ServeTLS(l.Listener, "", "")
}

// LogExposure says how the console is reached: with TLS, which
// certificate it shows (and whether it has expired); without TLS on an
// address beyond this machine, loudly, that the arbiter's token crosses
// the network in clear.
func (l *Listener) LogExposure(log *slog.Logger) {
	if l.tls != nil {
		leaf := l.tls.Leaf()
		names := append([]string{}, leaf.DNSNames...)
		for _, ip := range leaf.IPAddresses {
			names = append(names, ip.String())
		}
		log.Info("console: HTTPS", "names", strings.Join(names, ","), "expires", leaf.NotAfter.Format(time.DateOnly))
		if time.Now().After(leaf.NotAfter) {
			log.Warn("console: the certificate has expired: browsers will refuse it; make a new one (docs/install.md)", "expired", leaf.NotAfter.Format(time.DateOnly))
		}
		return
	}
	if l.Exposed() {
		log.Warn("THE CONSOLE LISTENS BEYOND THIS MACHINE WITHOUT TLS: the arbiter's token and every ruling cross the network in clear, for anyone on it to read; give a certificate with --tls-cert and --tls-key (docs/install.md, HTTPS for a club)", "listen", l.Addr().String())
	}
}

// URL returns the address a browser opens: https:// with TLS. An
// unspecified host (0.0.0.0, ::) is shown as the certificate's first DNS
// name with TLS (the name the browser must ask for), else as 127.0.0.1.
func (l *Listener) URL() string {
	scheme, name := "http", ""
	if l.tls != nil {
		scheme, name = "https", l.tls.DNSName()
	}
	return siteURL(scheme, l.Addr(), name)
}

// URL returns the plain HTTP address a browser opens for listener address
// addr: an unspecified host (0.0.0.0, ::) is shown as 127.0.0.1.
func URL(addr net.Addr) string { return siteURL("http", addr, "") }

func siteURL(scheme string, addr net.Addr, name string) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + "://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if name != "" {
			host = name
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port) + "/"
}

// boundedListener closes at once the connections past its bounds.
type boundedListener struct {
	net.Listener
	max, perClient int
	log            *slog.Logger
	warn           *logrepeat.Limiter

	mu       sync.Mutex
	open     int
	byClient map[string]int
}

// Accept returns the next connection within the bounds.
func (b *boundedListener) Accept() (net.Conn, error) {
	for {
		c, err := b.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := clientKey(c.RemoteAddr())
		b.mu.Lock()
		full := b.open >= b.max
		mine := b.byClient[client] >= b.perClient
		if !full && !mine {
			b.open++
			b.byClient[client]++
		}
		open, theirs := b.open, b.byClient[client]
		b.mu.Unlock()
		if full || mine {
			c.Close()
			if full {
				b.warn.Log(b.log, slog.LevelWarn, "all", "console: connections refused: as many are open as it takes", "open", open, "max", b.max)
			} else {
				b.warn.Log(b.log, slog.LevelWarn, "client "+client, "console: connections refused: one client has as many open as it may", "client", client, "open", theirs, "max", b.perClient)
			}
			continue
		}
		return &boundedConn{Conn: c, l: b, client: client}, nil
	}
}

func (b *boundedListener) release(client string) {
	b.mu.Lock()
	b.open--
	if b.byClient[client]--; b.byClient[client] <= 0 {
		delete(b.byClient, client)
	}
	b.mu.Unlock()
}

// boundedConn gives its place back when closed.
type boundedConn struct {
	net.Conn
	l      *boundedListener
	client string
	once   sync.Once
}

func (c *boundedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.client) })
	return err
}

// clientKey names the client of a connection for the bounds per client: its
// IP address, or its /64 for IPv6 (a single host may hold a whole /64).
func clientKey(addr net.Addr) string {
	host := addr.String()
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return ipKey(tcp.IP)
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if ip := net.ParseIP(host); ip != nil {
		return ipKey(ip)
	}
	return host
}

func ipKey(ip net.IP) string {
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// HTTPServer returns an http.Server for handler with the timeouts a console
// needs: headers must come promptly, idle connections close, and event
// streams (which lift their own write deadline) may last.
func HTTPServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
}
