package sdnotify

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeSystemd is a notify socket that collects what it is sent.
type fakeSystemd struct {
	conn *net.UnixConn
	addr string
}

func listen(t *testing.T, name string) *fakeSystemd {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &fakeSystemd{conn: c, addr: name}
}

func (f *fakeSystemd) next(t *testing.T) string {
	t.Helper()
	buf := make([]byte, 4096)
	f.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := f.conn.Read(buf)
	if err != nil {
		t.Fatalf("no notification: %v", err)
	}
	return string(buf[:n])
}

func (f *fakeSystemd) none(t *testing.T) {
	t.Helper()
	buf := make([]byte, 4096)
	f.conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, err := f.conn.Read(buf); err == nil {
		t.Fatalf("unexpected notification %q", buf[:n])
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestNotifications(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	sd := listen(t, sock)
	n := New(env(map[string]string{"NOTIFY_SOCKET": sock}))
	defer n.Close()
	if !n.Enabled() {
		t.Fatal("not enabled with NOTIFY_SOCKET set")
	}
	steps := []struct {
		name string
		send func() error
		want []string // lines the datagram must hold (MONOTONIC_USEC checked by prefix)
	}{
		{"ready", func() error { return n.Ready("game 3, move 12\nplaying") }, []string{"READY=1", "STATUS=game 3, move 12 playing"}},
		{"status", func() error { return n.Status("replaying") }, []string{"STATUS=replaying"}},
		{"reloading", n.Reloading, []string{"RELOADING=1", "MONOTONIC_USEC="}},
		{"watchdog", n.Watchdog, []string{"WATCHDOG=1"}},
		{"stopping", n.Stopping, []string{"STOPPING=1"}},
	}
	for _, s := range steps {
		if err := s.send(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := strings.Split(sd.next(t), "\n")
		if len(got) != len(s.want) {
			t.Fatalf("%s: sent %q, want %q", s.name, got, s.want)
		}
		for i := range got {
			if !strings.HasPrefix(got[i], s.want[i]) || (!strings.HasSuffix(s.want[i], "=") && got[i] != s.want[i]) {
				t.Errorf("%s: line %d = %q, want %q", s.name, i, got[i], s.want[i])
			}
		}
	}
}

func TestAbstractSocket(t *testing.T) {
	name := "boardd-test-" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + time.Now().Format("150405.000000000")
	sd := listen(t, "\x00"+name)
	n := New(env(map[string]string{"NOTIFY_SOCKET": "@" + name}))
	defer n.Close()
	if err := n.Ready("up"); err != nil {
		t.Fatal(err)
	}
	if got := sd.next(t); got != "READY=1\nSTATUS=up" {
		t.Errorf("got %q", got)
	}
}

func TestWithoutSystemdNothingIsSent(t *testing.T) {
	for _, v := range []string{"", "vsock:2:1234", "relative"} {
		n := New(env(map[string]string{"NOTIFY_SOCKET": v}))
		if n.Enabled() {
			t.Errorf("NOTIFY_SOCKET=%q: enabled", v)
		}
		if err := n.Ready("x"); err != nil {
			t.Errorf("NOTIFY_SOCKET=%q: %v", v, err)
		}
	}
}

func TestSocketGoneIsAnError(t *testing.T) {
	n := New(env(map[string]string{"NOTIFY_SOCKET": filepath.Join(t.TempDir(), "absent")}))
	err := n.Ready("x")
	if err == nil || !strings.Contains(err.Error(), "absent") {
		t.Errorf("err = %v, want one naming the socket", err)
	}
}

func TestSocketRecreatedIsRedialled(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	sd := listen(t, sock)
	n := New(env(map[string]string{"NOTIFY_SOCKET": sock}))
	defer n.Close()
	if err := n.Watchdog(); err != nil {
		t.Fatal(err)
	}
	sd.next(t)
	sd.conn.Close()
	os.Remove(sock)
	sd2 := listen(t, sock)
	if err := n.Watchdog(); err != nil {
		t.Fatal(err)
	}
	if got := sd2.next(t); got != "WATCHDOG=1" {
		t.Errorf("got %q", got)
	}
}

func TestWatchdogInterval(t *testing.T) {
	cases := []struct {
		usec, pid string
		want      time.Duration
		ok        bool
	}{
		{"", "", 0, false},
		{"20000000", "", 20 * time.Second, true},
		{"20000000", "42", 20 * time.Second, true},
		{"20000000", "43", 0, false},
		{"0", "", 0, false},
		{"soon", "", 0, false},
	}
	for _, c := range cases {
		got, ok := WatchdogInterval(env(map[string]string{"WATCHDOG_USEC": c.usec, "WATCHDOG_PID": c.pid}), 42)
		if got != c.want || ok != c.ok {
			t.Errorf("WATCHDOG_USEC=%q WATCHDOG_PID=%q: %v %v, want %v %v", c.usec, c.pid, got, ok, c.want, c.ok)
		}
	}
}

func TestKeepAlivePingsOnlyWhileAlive(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	sd := listen(t, sock)
	n := New(env(map[string]string{"NOTIFY_SOCKET": sock}))
	defer n.Close()
	tick := make(chan time.Time)
	checked := make(chan struct{}, 1)
	healthy := make(chan bool, 1)
	alive := func(ctx context.Context) error {
		defer func() { checked <- struct{}{} }()
		if <-healthy {
			return nil
		}
		return errors.New("runner loop stuck")
	}
	var failures []error
	failed := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		n.KeepAlive(ctx, tick, alive, func(err error) { failures = append(failures, err); failed <- struct{}{} })
		close(done)
	}()
	for i, well := range []bool{true, false, true} {
		healthy <- well
		tick <- time.Time{}
		<-checked
		if well {
			if got := sd.next(t); got != "WATCHDOG=1" {
				t.Errorf("tick %d: got %q", i, got)
			}
		} else {
			<-failed
			sd.none(t)
		}
	}
	cancel()
	<-done
	if len(failures) != 1 || !strings.Contains(failures[0].Error(), "runner loop stuck") {
		t.Errorf("failures = %v, want the one unhealthy tick", failures)
	}
}
