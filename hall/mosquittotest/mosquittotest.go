// Package mosquittotest runs a real Mosquitto broker for tests and load
// runs: on a loopback port, from a configuration file it writes into a
// directory of the caller's (a test's t.TempDir()), never the system's
// service. It can kill the broker and start it again on the same port, make
// a test CA and certificates (ca.go) for TLS listeners, and bridge brokers
// with Mosquitto's own bridges over a link a test can cut (bridge.go).
package mosquittotest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrNotInstalled says mosquitto is not on this machine: tests skip with it.
var ErrNotInstalled = errors.New("mosquitto is not installed (apt-get install -y mosquitto; CI installs it)")

// Path returns the mosquitto binary, or ErrNotInstalled.
func Path() (string, error) {
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p, nil
	}
	return "", ErrNotInstalled
}

// TLS is a listener's TLS set-up (files in PEM).
type TLS struct {
	CAFile, CertFile, KeyFile string
	// RequireCertificate makes clients present a certificate signed by the
	// CA; UseIdentityAsUsername then takes the certificate's common name as
	// the user name (the ACL's %u).
	RequireCertificate    bool
	UseIdentityAsUsername bool
}

// Options configure a broker.
type Options struct {
	// Dir holds the configuration, the password file and the log. Required.
	Dir string
	// Port to listen on (127.0.0.1 only); 0 picks a free one.
	Port int
	// AllowAnonymous lets clients in without a user name.
	AllowAnonymous bool
	// Passwords are the users and their passwords (written with
	// mosquitto_passwd); none means no password file.
	Passwords map[string]string
	// ACLFile is an access control list (mosquitto's acl_file); "" for none.
	ACLFile string
	// TLS makes the listener a TLS one.
	TLS *TLS
	// Extra are more configuration lines (max_queued_messages 0, say).
	Extra []string
	// Bridges are bridges to other brokers (bridge.go), written after
	// everything else.
	Bridges []Bridge
}

// Broker is a running mosquitto.
type Broker struct {
	opts Options
	path string
	conf string
	log  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Start writes the configuration and starts mosquitto, returning once it
// accepts connections.
func Start(o Options) (*Broker, error) {
	bin, err := Path()
	if err != nil {
		return nil, err
	}
	if o.Dir == "" {
		return nil, errors.New("mosquittotest: no directory")
	}
	b := &Broker{opts: o, path: bin, conf: filepath.Join(o.Dir, "mosquitto.conf"), log: filepath.Join(o.Dir, "mosquitto.log")}
	var pwfile string
	if len(o.Passwords) > 0 {
		pwfile = filepath.Join(o.Dir, "passwords")
		if err := writePasswords(pwfile, o.Passwords); err != nil {
			return nil, err
		}
	}
	fixed := o.Port != 0
	for attempt := 0; ; attempt++ {
		if !fixed {
			if b.opts.Port, err = freePort(); err != nil {
				return nil, err
			}
		}
		conf, err := b.config(pwfile)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(b.conf, []byte(conf), 0o600); err != nil {
			return nil, fmt.Errorf("mosquittotest: %w", err)
		}
		err = b.start()
		if err == nil {
			return b, nil
		}
		if fixed || attempt == 4 {
			return nil, err
		}
		// Another process may have taken the port meanwhile: try another.
	}
}

func (b *Broker) config(pwfile string) (string, error) {
	o := b.opts
	var c strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&c, format+"\n", args...) }
	w("# written by mosquittotest for one test run")
	if os.Geteuid() == 0 {
		w("user root") // else mosquitto drops to its own user, who cannot read the test's files
	}
	w("persistence false")
	w("log_dest stderr")
	w("log_type error")
	w("log_type warning")
	w("log_type notice")
	w("log_type information")
	w("connection_messages true")
	w("listener %d 127.0.0.1", o.Port)
	w("allow_anonymous %t", o.AllowAnonymous)
	if pwfile != "" {
		w("password_file %s", pwfile)
	}
	if o.ACLFile != "" {
		w("acl_file %s", o.ACLFile)
	}
	if t := o.TLS; t != nil {
		w("cafile %s", t.CAFile)
		w("certfile %s", t.CertFile)
		w("keyfile %s", t.KeyFile)
		w("tls_version tlsv1.2")
		w("require_certificate %t", t.RequireCertificate)
		w("use_identity_as_username %t", t.UseIdentityAsUsername)
	}
	for _, l := range o.Extra {
		w("%s", l)
	}
	for _, br := range o.Bridges {
		lines, err := br.lines()
		if err != nil {
			return "", err
		}
		for _, l := range lines {
			w("%s", l)
		}
	}
	return c.String(), nil
}

// writePasswords makes the password file with mosquitto_passwd, which hashes
// each password as this mosquitto expects.
func writePasswords(path string, users map[string]string) error {
	tool, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		tool = "/usr/bin/mosquitto_passwd"
		if _, serr := os.Stat(tool); serr != nil {
			return fmt.Errorf("mosquittotest: mosquitto_passwd: %w", ErrNotInstalled)
		}
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		return fmt.Errorf("mosquittotest: %w", err)
	}
	names := make([]string, 0, len(users))
	for u := range users {
		names = append(names, u)
	}
	sort.Strings(names)
	for _, u := range names {
		out, err := exec.Command(tool, "-b", path, u, users[u]).CombinedOutput()
		if err != nil {
			return fmt.Errorf("mosquittotest: mosquitto_passwd %s: %v: %s", u, err, out)
		}
	}
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("mosquittotest: finding a free port: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port, nil
}

func (b *Broker) start() error {
	logf, err := os.OpenFile(b.log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("mosquittotest: %w", err)
	}
	cmd := exec.Command(b.path, "-c", b.conf)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("mosquittotest: starting %s: %w", b.path, err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		logf.Close()
		close(done)
	}()
	b.mu.Lock()
	b.cmd, b.done = cmd, done
	b.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-done:
			return fmt.Errorf("mosquittotest: mosquitto exited at start (%v): %s", cmd.ProcessState, b.tail())
		default:
		}
		c, err := net.DialTimeout("tcp", b.Addr(), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			b.Kill()
			return fmt.Errorf("mosquittotest: mosquitto does not accept connections on %s after 10 s: %s", b.Addr(), b.tail())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Addr returns the broker's host:port.
func (b *Broker) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(b.opts.Port)) }

// Port returns the broker's port.
func (b *Broker) Port() int { return b.opts.Port }

// URL returns the broker's URL: mqtt://127.0.0.1:PORT, or mqtts:// for a TLS
// listener.
func (b *Broker) URL() string {
	if b.opts.TLS != nil {
		return "mqtts://" + b.Addr()
	}
	return "mqtt://" + b.Addr()
}

// PID returns the running broker's process id, 0 when it is not running.
func (b *Broker) PID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd == nil || b.cmd.Process == nil {
		return 0
	}
	return b.cmd.Process.Pid
}

// Kill kills the broker (SIGKILL: it saves nothing) and waits for it.
func (b *Broker) Kill() error { return b.signal(syscall.SIGKILL) }

// Stop asks the broker to stop (SIGTERM) and waits for it.
func (b *Broker) Stop() error { return b.signal(syscall.SIGTERM) }

func (b *Broker) signal(sig syscall.Signal) error {
	b.mu.Lock()
	cmd, done := b.cmd, b.done
	b.cmd = nil
	b.mu.Unlock()
	if cmd == nil {
		return nil
	}
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("mosquittotest: %w", err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	return nil
}

// Restart starts the broker again on the same port, with the same
// configuration (after Kill or Stop).
func (b *Broker) Restart() error {
	if b.PID() != 0 {
		return errors.New("mosquittotest: the broker is running")
	}
	// The port was just freed: the kernel may hold it a moment.
	var err error
	for range 50 {
		if err = b.start(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Log returns what the broker has logged.
func (b *Broker) Log() string {
	data, _ := os.ReadFile(b.log)
	return string(data)
}

func (b *Broker) tail() string {
	s := b.Log()
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return strings.TrimSpace(s)
}
