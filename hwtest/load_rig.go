package hwtest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
)

// LoadRigOptions configure the broker and the hall of a load run.
type LoadRigOptions struct {
	// Dir holds the broker's files, the hall's state and the credentials.
	Dir string
	// Boards is how many board users (load001, load002, …) the broker's
	// password file holds.
	Boards int
	// ACLFile is the broker's access control list (the shipped
	// systemd/mosquitto/boardd.acl); "" lets anyone in without a password.
	ACLFile string
	// Boardd is the boardd binary: the hall runs as `boardd hall`, a
	// process of its own whose CPU and memory are measured. Empty: the
	// hall runs in this process (nothing measured).
	Boardd string
	Logger *slog.Logger
}

// LoadSpyUser is the broker user of a load run's spy (LoadOptions.Spy):
// the broker ties a client id to its user name, as the shipped
// configuration does, so the spy cannot share the hall's.
const LoadSpyUser = "load-spy"

// LoadRig is a broker and a hall for load runs.
type LoadRig struct {
	Broker  *mosquittotest.Broker
	HallURL string
	HallPID int
	o       LoadRigOptions
	cmd     *exec.Cmd
	done    chan struct{}
	stop    func()

	// Verifier is the hall's verify key, for the boards.
	Verifier *actionsig.Verifier
}

// loadPassword is every load user's password: the run tests the broker's
// checks, not the passwords' secrecy.
func loadPassword(user string) string { return user + "-load-password" }

// StartLoadRig starts the broker (with the ACL and a password for the hall
// and every board, and the shipped configuration's queue limits) and the
// hall.
func StartLoadRig(o LoadRigOptions) (*LoadRig, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	// The shipped configuration's queue and TCP settings, the hall's queue
	// grown with the boards as docs/hall.md advises past a thousand boards
	// (50 messages a board: some 25 s of the boards' traffic).
	queue := max(10000, 50*o.Boards)
	// And its client ids tied to the user names: one connection a user,
	// so the spy has a user of its own.
	bo := mosquittotest.Options{
		Dir:   filepath.Join(o.Dir, "broker"),
		Extra: []string{fmt.Sprintf("max_queued_messages %d", queue), "max_inflight_messages 100", "set_tcp_nodelay true", "use_username_as_clientid true"},
	}
	if err := os.MkdirAll(bo.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("hwtest: load rig: %w", err)
	}
	if o.ACLFile != "" {
		// The shipped ACL, and the spy reading every board's events.
		acl, err := os.ReadFile(o.ACLFile)
		if err != nil {
			return nil, fmt.Errorf("hwtest: load rig: %w", err)
		}
		acl = append(acl, "\n# The load run's spy (hwtest).\nuser "+LoadSpyUser+"\ntopic read boardd/v1/+/event\n"...)
		bo.ACLFile = filepath.Join(bo.Dir, "acl")
		if err := os.WriteFile(bo.ACLFile, acl, 0o600); err != nil {
			return nil, fmt.Errorf("hwtest: load rig: %w", err)
		}
		bo.Passwords = map[string]string{"hall": loadPassword("hall"), LoadSpyUser: loadPassword(LoadSpyUser)}
		for i := range o.Boards {
			id := loadID(i)
			bo.Passwords[id] = loadPassword(id)
		}
	} else {
		bo.AllowAnonymous = true
	}
	br, err := mosquittotest.Start(bo)
	if err != nil {
		return nil, err
	}
	r := &LoadRig{Broker: br, o: o}
	if err := r.startHall(); err != nil {
		br.Kill()
		return nil, err
	}
	return r, nil
}

func loadID(i int) string { return fmt.Sprintf("load%03d", i+1) }

// credentials writes user's password file into its own directory.
func (r *LoadRig) credentials(user string) (string, error) {
	dir := filepath.Join(r.o.Dir, "cred", user)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if r.o.ACLFile != "" {
		if err := os.WriteFile(filepath.Join(dir, broker.PasswordFile), []byte(loadPassword(user)+"\n"), 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// BrokerConfig returns board id's connection to the broker.
func (r *LoadRig) BrokerConfig(id string) (*broker.Config, error) {
	dir, err := r.credentials(id)
	if err != nil {
		return nil, fmt.Errorf("hwtest: load rig: %w", err)
	}
	return broker.Load(broker.Options{URL: r.Broker.URL(), Username: id, Dirs: []string{dir}})
}

func (r *LoadRig) startHall() error {
	state, err := r.credentials("hall")
	if err != nil {
		return fmt.Errorf("hwtest: load rig: %w", err)
	}
	var ln net.Listener
	if r.HallURL == "" {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	} else {
		// A restart: the hall comes back on its address (the kernel may
		// hold the port a moment).
		for range 50 {
			if ln, err = net.Listen("tcp", strings.TrimPrefix(r.HallURL, "http://")); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err != nil {
		return fmt.Errorf("hwtest: load rig: %w", err)
	}
	r.HallURL = "http://" + ln.Addr().String()
	if r.o.Boardd == "" {
		cfg, err := broker.Load(broker.Options{URL: r.Broker.URL(), Username: "hall", Dirs: []string{state}})
		if err != nil {
			ln.Close()
			return err
		}
		signer, err := actionsig.Generate()
		if err != nil {
			ln.Close()
			return err
		}
		r.Verifier = signer.Verifier()
		h, err := hall.New(context.Background(), hall.Options{Broker: cfg, Token: "load-token-0123456789abcdef", Signer: signer, Logger: r.o.Logger})
		if err != nil {
			ln.Close()
			return err
		}
		srv, err := hall.NewServer(h, hall.ServerOptions{Logger: r.o.Logger})
		if err != nil {
			h.Close()
			ln.Close()
			return err
		}
		hs := &http.Server{Handler: srv}
		go hs.Serve(ln)
		r.stop = func() {
			srv.Close()
			hs.Close()
			h.Close()
		}
	} else {
		addr := ln.Addr().String()
		ln.Close()
		r.cmd = exec.Command(r.o.Boardd, "hall", "--broker", r.Broker.URL(), "--state-dir", state, "--listen", addr, "--log-level", "warn")
		logf, err := os.OpenFile(filepath.Join(r.o.Dir, "hall.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640)
		if err != nil {
			return fmt.Errorf("hwtest: load rig: %w", err)
		}
		r.cmd.Stdout, r.cmd.Stderr = logf, logf
		r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := r.cmd.Start(); err != nil {
			logf.Close()
			return fmt.Errorf("hwtest: load rig: starting %s hall: %w", r.o.Boardd, err)
		}
		r.HallPID = r.cmd.Process.Pid
		r.done = make(chan struct{})
		go func() {
			r.cmd.Wait()
			logf.Close()
			close(r.done)
		}()
		r.stop = func() {
			r.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-r.done:
			case <-time.After(10 * time.Second):
				r.cmd.Process.Kill()
				<-r.done
			}
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(r.HallURL + "/api/hall")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			r.stop()
			data, _ := os.ReadFile(filepath.Join(r.o.Dir, "hall.log"))
			return fmt.Errorf("hwtest: load rig: the hall does not answer at %s: %s", r.HallURL, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.Verifier == nil {
		v, err := actionsig.LoadVerifier(filepath.Join(state, actionsig.VerifyKeyFile))
		if err != nil {
			r.stop()
			return fmt.Errorf("hwtest: load rig: the hall's verify key: %w", err)
		}
		r.Verifier = v
	}
	return nil
}

// KillHall kills the hall process with SIGKILL (as a power cut or the
// kernel's OOM killer would), waits for it, and starts it again on the same
// address and state directory. It needs the boardd binary (Boardd).
func (r *LoadRig) KillHall() error {
	if r.cmd == nil {
		return errors.New("hwtest: load rig: killing the hall needs the boardd binary (LoadRigOptions.Boardd)")
	}
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("hwtest: load rig: killing the hall: %w", err)
	}
	<-r.done
	return r.startHall()
}

// Close stops the hall and the broker.
func (r *LoadRig) Close() error {
	if r.stop != nil {
		r.stop()
	}
	return r.Broker.Kill()
}

// HallLog returns what the hall process logged ("" for an in-process hall).
func (r *LoadRig) HallLog() string {
	data, err := os.ReadFile(filepath.Join(r.o.Dir, "hall.log"))
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	return string(data)
}
