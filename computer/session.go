package computer

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/corentings/chess/v2/uci"
)

// session is one run of the engine's process, driven through the rules
// library's uci.Engine.
//
// The library blocks in Engine.Run until the engine answers, with no timeout,
// and never notices the process ending: it reads the engine's output through
// a pipe that stays open after the process is gone. So every call into the
// library runs on a goroutine of its own (pending), and the player waits for
// it, for the process to end (watched through the process itself), for a
// deadline on the injected clock, or for the caller's cancellation. A call
// abandoned that way leaves the library holding its lock and its goroutine
// parked on the dead pipe for good: the session is then killed and never used
// again (a few kilobytes for each such fault).
type session struct {
	path   string
	eng    *uci.Engine
	proc   *os.Process
	tap    *transcript
	exited chan struct{} // closed when the process has ended
	// exitStatus says how the process ended ("exit status 3", "signal:
	// killed"), or "" when the library's own wait reaped it first; written
	// before exited is closed.
	exitStatus string

	name    string            // the engine's "id name", or its path
	options engineOptions     // what it advertised
	applied map[string]string // option values sent this session, by lower-case name
	game    *game             // the game the engine was last given
	last    *pending          // the last call launched
}

// pending is a call into the library running on its own goroutine.
type pending struct {
	done chan struct{} // closed when the call has returned
	err  error         // the call's error, written before done is closed
}

// launch starts cmds through the library.
func (s *session) launch(cmds ...uci.Cmd) *pending {
	c := &pending{done: make(chan struct{})}
	s.last = c
	go func() {
		c.err = s.eng.Run(cmds...)
		close(c.done)
	}()
	return c
}

// outcome is how a wait for a pending call ended.
type outcome int

const (
	outDone      outcome = iota // the call returned
	outExited                   // the engine's process ended first
	outTimeout                  // the deadline came first
	outCancelled                // the context ended first
)

// deadline returns a channel closed when the clock reaches until, and a
// function to release the timer behind it.
func (p *Player) deadline(until time.Duration) (<-chan struct{}, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	fired := make(chan struct{})
	go func() {
		if p.o.Wait(ctx, until) == nil && ctx.Err() == nil {
			close(fired)
		}
	}()
	return fired, cancel
}

// await waits for c, the end of s's process, the clock reaching until, or
// ctx (context.WithoutCancel or context.Background for a wait that only
// until ends).
func (p *Player) await(ctx context.Context, s *session, c *pending, until time.Duration) outcome {
	select {
	case <-c.done:
		return outDone
	default:
	}
	timer, release := p.deadline(until)
	defer release()
	return settle(ctx, s, c, timer)
}

// settle waits for c, the end of s's process (a call that returned as the
// process ended counts as done), timer, or ctx.
func settle(ctx context.Context, s *session, c *pending, timer <-chan struct{}) outcome {
	select {
	case <-c.done:
		return outDone
	case <-s.exited:
		select {
		case <-c.done:
			return outDone
		default:
			return outExited
		}
	case <-timer:
		return outTimeout
	case <-ctx.Done():
		return outCancelled
	}
}

// fault builds the report of a fault of s while doing what it was doing.
func (s *session) fault(f Fault, during, detail string, err error) *FaultError {
	return &FaultError{Engine: s.name, Path: s.path, Fault: f, During: during, Detail: detail, LastWords: s.tap.lastLines(), Err: err}
}

// exitFault reports the process's end while doing something.
func (s *session) exitFault(during string) *FaultError {
	detail := "its process ended"
	if s.exitStatus != "" {
		detail += " (" + s.exitStatus + ")"
	}
	return s.fault(FaultCrashed, during, detail, nil)
}

// startSession starts the engine and takes it through the handshake: "uci"
// (its name and options), the options of Options.EngineOptions, and
// "isready". Every step has Options.HandshakeTimeout.
func (p *Player) startSession() (*session, error) {
	tap := newTranscript()
	s := &session{path: p.o.Path, name: p.o.Path, tap: tap, exited: make(chan struct{}), applied: map[string]string{}}
	eng, err := uci.New(p.o.Path, uci.Debug, uci.Logger(log.New(tap, "", 0)))
	if err != nil {
		// The library's message loses the path ("executable not found at
		// path  exec: ..."); the cause it wraps keeps it.
		cause := err
		if u := errors.Unwrap(err); u != nil {
			cause = u
		}
		return nil, &FaultError{Engine: p.o.Path, Path: p.o.Path, Fault: FaultMissing, During: "starting", Detail: cause.Error(), Err: err}
	}
	s.eng = eng
	// The library starts the process and waits for it itself, discarding
	// how it ended; the player watches it through its own handle (a pidfd
	// on Linux, so a reused pid is never mistaken for the engine).
	if s.proc, err = os.FindProcess(eng.Getpid()); err != nil {
		_ = eng.Close()
		return nil, &FaultError{Engine: p.o.Path, Path: p.o.Path, Fault: FaultMissing, During: "starting", Detail: err.Error(), Err: err}
	}
	go func() {
		if st, err := s.proc.Wait(); err == nil && st != nil {
			s.exitStatus = st.String()
		}
		close(s.exited)
	}()

	handshake := func(during, awaiting string, cmds ...uci.Cmd) error {
		c := s.launch(cmds...)
		// A handshake is not cut short: the engine would be left half
		// started. The deadline bounds it.
		switch p.await(context.Background(), s, c, p.o.Clock.Now()+p.o.HandshakeTimeout) {
		case outExited:
			return s.exitFault(during)
		case outTimeout:
			return s.fault(FaultHandshake, during, fmt.Sprintf("no %s within %v", awaiting, p.o.HandshakeTimeout), nil)
		}
		if c.err != nil {
			return s.fault(FaultGarbage, during, c.err.Error(), c.err)
		}
		return nil
	}
	if err := handshake("starting", `"uciok" after "uci"`, uci.CmdUCI); err != nil {
		s.kill()
		return nil, err
	}
	if name := eng.ID()["name"]; name != "" {
		s.name = name
	}
	var bad []string
	s.options, bad = tap.engineOptions()
	for _, b := range bad {
		p.log.Warn("engine option line not understood", "engine", s.name, "err", b)
	}
	names := make([]string, 0, len(p.o.EngineOptions))
	for name := range p.o.EngineOptions {
		names = append(names, name)
	}
	sort.Strings(names)
	cmds := make([]uci.Cmd, 0, len(names)+1)
	for _, name := range names {
		o, ok := s.options.get(name)
		if !ok {
			s.kill()
			return nil, fmt.Errorf("computer: engine %s (%s) has no option %q (it has %s)", s.name, s.path, name, s.options)
		}
		cmds = append(cmds, uci.CmdSetOption{Name: o.Name, Value: p.o.EngineOptions[name]})
	}
	cmds = append(cmds, uci.CmdIsReady)
	if err := handshake("starting", `"readyok" after "isready"`, cmds...); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// String lists the options by name, for error messages.
func (e engineOptions) String() string {
	names := make([]string, 0, len(e))
	for _, o := range e {
		names = append(names, fmt.Sprintf("%q", o.Name))
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// kill ends s's process at once. A call still pending in the library stays
// parked (see session); when none is, the library's Close releases its pipes
// and goroutines.
func (s *session) kill() {
	_ = s.proc.Kill() // an error means the process has already ended
	if s.last != nil {
		select {
		case <-s.last.done:
		default:
			return
		}
	}
	go func() { _ = s.eng.Close() }() // one write to a dead pipe, then the pipes close
}

// quit ends s's process politely when no call is pending: "quit", and a
// kill if it has not gone after StopGrace. Then the library's Close releases
// its pipes; it is not used to quit, for it kills the engine straight after
// writing "quit".
func (p *Player) quit(s *session) {
	until := p.o.Clock.Now() + p.o.StopGrace
	select {
	case <-s.exited:
	default:
		if p.await(context.Background(), s, s.launch(uci.CmdQuit), until) == outDone {
			timer, release := p.deadline(until)
			select {
			case <-s.exited:
			case <-timer:
			}
			release()
		}
	}
	s.kill()
}
