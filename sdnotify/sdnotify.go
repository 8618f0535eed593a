// Package sdnotify speaks systemd's service notification protocol
// (sd_notify(3)): a service started with Type=notify says when it is ready,
// when it reloads and stops, and pings the watchdog, by sending short
// datagrams of KEY=VALUE lines to the socket named by $NOTIFY_SOCKET.
//
// The protocol is a dozen lines over a unixgram socket, so boardd speaks it
// itself rather than take a dependency for it; outside systemd (no
// $NOTIFY_SOCKET) every call is a no-op.
package sdnotify

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Notifier sends notifications to systemd. It is safe for concurrent use.
type Notifier struct {
	addr string
	mu   sync.Mutex
	conn *net.UnixConn
}

// New returns a Notifier for the socket named by $NOTIFY_SOCKET as getenv
// reads it; without one, the Notifier does nothing.
func New(getenv func(string) string) *Notifier {
	addr := getenv("NOTIFY_SOCKET")
	switch {
	case strings.HasPrefix(addr, "@"):
		addr = "\x00" + addr[1:] // the abstract namespace
	case strings.HasPrefix(addr, "/"):
	default:
		addr = "" // unset, or a vsock address boardd does not speak
	}
	return &Notifier{addr: addr}
}

// Enabled reports whether there is a socket to notify.
func (n *Notifier) Enabled() bool { return n.addr != "" }

// Notify sends the given KEY=VALUE assignments as one datagram.
func (n *Notifier) Notify(assignments ...string) error {
	if n.addr == "" {
		return nil
	}
	msg := []byte(strings.Join(assignments, "\n"))
	n.mu.Lock()
	defer n.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if n.conn == nil {
			c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: n.addr, Net: "unixgram"})
			if err != nil {
				return fmt.Errorf("sdnotify: dial %s: %w", printable(n.addr), err)
			}
			n.conn = c
		}
		_, err := n.conn.Write(msg)
		if err == nil {
			return nil
		}
		n.conn.Close()
		n.conn = nil
		if attempt > 0 {
			return fmt.Errorf("sdnotify: send to %s: %w", printable(n.addr), err)
		}
	}
}

// Close releases the socket.
func (n *Notifier) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn == nil {
		return nil
	}
	err := n.conn.Close()
	n.conn = nil
	return err
}

// Ready tells systemd start-up is complete, with a status line.
func (n *Notifier) Ready(status string) error {
	return n.Notify("READY=1", "STATUS="+oneLine(status))
}

// Status updates the service's status line.
func (n *Notifier) Status(status string) error { return n.Notify("STATUS=" + oneLine(status)) }

// Reloading tells systemd the service is reloading its configuration; send
// Ready when done.
func (n *Notifier) Reloading() error {
	return n.Notify("RELOADING=1", "MONOTONIC_USEC="+strconv.FormatInt(monotonicUsec(), 10))
}

// Stopping tells systemd the service is shutting down.
func (n *Notifier) Stopping() error { return n.Notify("STOPPING=1") }

// Watchdog pings the watchdog once.
func (n *Notifier) Watchdog() error { return n.Notify("WATCHDOG=1") }

// WatchdogInterval returns the watchdog timeout systemd set for this process
// ($WATCHDOG_USEC, when $WATCHDOG_PID is unset or names pid), and whether
// there is one. Ping at half of it.
func WatchdogInterval(getenv func(string) string, pid int) (time.Duration, bool) {
	usec := getenv("WATCHDOG_USEC")
	if usec == "" {
		return 0, false
	}
	if p := getenv("WATCHDOG_PID"); p != "" && p != strconv.Itoa(pid) {
		return 0, false
	}
	u, err := strconv.ParseUint(usec, 10, 63)
	if err != nil || u == 0 {
		return 0, false
	}
	return time.Duration(u) * time.Microsecond, true
}

// KeepAlive pings the watchdog at every tick for as long as alive says the
// service is well, until ctx ends. A service whose alive check fails or
// hangs stops pinging, and systemd restarts it when the timeout runs out.
// Errors sending a ping go to fail (which may be nil).
func (n *Notifier) KeepAlive(ctx context.Context, tick <-chan time.Time, alive func(context.Context) error, fail func(error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		if alive != nil {
			if err := alive(ctx); err != nil {
				if fail != nil && ctx.Err() == nil {
					fail(fmt.Errorf("sdnotify: not pinging the watchdog: %w", err))
				}
				continue
			}
		}
		if err := n.Watchdog(); err != nil && fail != nil {
			fail(err)
		}
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func printable(addr string) string {
	if strings.HasPrefix(addr, "\x00") {
		return "@" + addr[1:]
	}
	return addr
}

func monotonicUsec() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return ts.Nano() / 1000
}
