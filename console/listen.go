package console

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// DefaultAddr is where the console listens unless told otherwise: this
// machine only.
const DefaultAddr = "127.0.0.1:8080"

// Listen opens the console's TCP address. An address already taken is an
// error that names it and says what to do.
func Listen(addr string) (net.Listener, error) {
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
	return ln, nil
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

// URL returns the address a browser opens for listener address addr: an
// unspecified host (0.0.0.0, ::) is shown as 127.0.0.1.
func URL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
