package voice

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/timing"
)

// Program is the speech synthesiser the Speaker runs when none is
// configured: Debian's espeak-ng, found on PATH.
const Program = "espeak-ng"

// Fault is what went wrong with the speech program.
type Fault int

const (
	// FaultMissing: the program could not be started (not installed, not
	// executable).
	FaultMissing Fault = iota + 1
	// FaultCrashed: the program ended with a failure.
	FaultCrashed
	// FaultHung: the program did not finish a line in its time, and was
	// killed.
	FaultHung
	// FaultGarbage: the program wrote something where a speaking
	// synthesiser writes nothing.
	FaultGarbage
	// FaultNoSound: the program found no sound device to speak on (ALSA
	// said so).
	FaultNoSound
)

// String names the fault as the error messages do.
func (f Fault) String() string {
	switch f {
	case FaultMissing:
		return "cannot start"
	case FaultCrashed:
		return "crashed"
	case FaultHung:
		return "hung"
	case FaultGarbage:
		return "wrote garbage"
	case FaultNoSound:
		return "found no sound device (aplay -l lists the cards; docs/voice.md)"
	}
	return fmt.Sprintf("fault %d", int(f))
}

// FaultError reports a speech program that misbehaved on a line: which
// program, what it did, the line, and what it wrote.
type FaultError struct {
	Path   string // the program
	Fault  Fault
	Line   string // the words it was to say
	Output string // what it wrote (trimmed, at most a few hundred bytes)
	Err    error  // the underlying error, if any
}

// Error reads like `voice: speech program "espeak-ng" crashed saying
// "knight from g1 to f3": exit status 1; it wrote "..."`.
func (e *FaultError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "voice: speech program %q %s saying %q", e.Path, e.Fault, e.Line)
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	if e.Output != "" {
		fmt.Fprintf(&b, "; it wrote %q", e.Output)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *FaultError) Unwrap() error { return e.Err }

// SpeakerOptions configure a Speaker; the zero value runs espeak-ng from
// PATH in its English voice.
type SpeakerOptions struct {
	// Path is the speech program; "" finds espeak-ng on PATH.
	Path string
	// Voice is the program's voice (-v): Language.Voice().
	Voice string
	// Args are further arguments before --stdin, such as "-a 150" (the
	// amplitude), "-s 150" (words a minute) or "-w FILE" (a WAV file
	// instead of the sound card).
	Args []string
	// Queue is how many lines may wait (default 16); when it is full the
	// oldest line waiting is dropped, so that the game never waits.
	Queue int
	// Timeout is the time a line may take; default 5 s and 100 ms a
	// character. A program still running then is hung and killed.
	Timeout func(line string) time.Duration
	// Wait waits the timeout (default timing.Wait): tests give their own.
	Wait func(ctx context.Context, d time.Duration) error
	// MaxFaults is how many faults in a row the speaker takes before it
	// gives up speaking until Reset or Retry (default 3); lines said
	// meanwhile are dropped.
	MaxFaults int
	// Retry waits, after the speaker gave up, until it should try the
	// program again (a sound card plugged back, a package installed); it
	// returns an error when it will not (ctx ended). Default: 30 s on the
	// real clock.
	Retry func(ctx context.Context) error
	// Log is where faults are logged (default: discarded).
	Log *slog.Logger
	// Spoken, when set, is told of each line when the program has finished
	// with it: nil, or the *FaultError. It runs on the speaker's
	// goroutine.
	Spoken func(line string, err error)
}

// RetryAfter is how long a speaker that gave up waits before it tries its
// program again, by default.
const RetryAfter = 30 * time.Second

// Speaker reads lines aloud through a speech program, one process a line,
// on a goroutine of its own (Run): Say queues a line and returns at once. A
// program that is missing, crashes, hangs or writes garbage is a fault,
// logged and kept for the console to show (Fault), and the lines go on; after
// MaxFaults in a row the speaker stops trying until Reset, or until Retry
// says to try again.
type Speaker struct {
	o    SpeakerOptions
	path string

	mu     sync.Mutex
	queue  []string
	wake   chan struct{}
	fault  error
	faults int // in a row
	drops  int
}

// NewSpeaker returns a speaker with options o; it speaks once Run runs.
func NewSpeaker(o SpeakerOptions) *Speaker {
	if o.Path == "" {
		o.Path = Program
	}
	if o.Queue <= 0 {
		o.Queue = 16
	}
	if o.Timeout == nil {
		o.Timeout = func(line string) time.Duration { return 5*time.Second + time.Duration(len(line))*100*time.Millisecond }
	}
	if o.Wait == nil {
		o.Wait = timing.Wait
	}
	if o.MaxFaults <= 0 {
		o.MaxFaults = 3
	}
	if o.Retry == nil {
		o.Retry = func(ctx context.Context) error { return timing.Wait(ctx, RetryAfter) }
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Speaker{o: o, path: o.Path, wake: make(chan struct{}, 1)}
}

// Check finds the speech program: an error naming it when it is not there
// to run, as the daemon says at its start.
func (s *Speaker) Check() error {
	if _, err := exec.LookPath(s.path); err != nil {
		return fmt.Errorf("voice: speech program %q: %w (install espeak-ng: apt install espeak-ng)", s.path, err)
	}
	return nil
}

// Say queues a line to be spoken. It never blocks: when the queue is full
// the oldest line waiting is dropped.
func (s *Speaker) Say(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	s.mu.Lock()
	if s.faults >= s.o.MaxFaults {
		s.drops++
		s.mu.Unlock()
		return
	}
	if len(s.queue) >= s.o.Queue {
		s.queue = s.queue[1:]
		s.drops++
	}
	s.queue = append(s.queue, line)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Fault returns the last fault, nil once a line has been spoken since.
func (s *Speaker) Fault() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fault
}

// Dropped returns how many lines were dropped: the queue full, or the
// speaker given up.
func (s *Speaker) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drops
}

// Reset lets a speaker that gave up try again.
func (s *Speaker) Reset() {
	s.mu.Lock()
	s.faults = 0
	s.mu.Unlock()
}

// Run speaks the queued lines, one at a time, until ctx ends.
func (s *Speaker) Run(ctx context.Context) error {
	for {
		s.mu.Lock()
		var line string
		if len(s.queue) > 0 {
			line = s.queue[0]
			s.queue = s.queue[1:]
		}
		s.mu.Unlock()
		if line == "" {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-s.wake:
			}
			continue
		}
		err := s.speak(ctx, line)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.mu.Lock()
		if err != nil {
			s.fault = err
			s.faults++
			if s.faults == s.o.MaxFaults {
				s.drops += len(s.queue)
				s.queue = nil
			}
		} else {
			s.fault, s.faults = nil, 0
		}
		gaveUp := s.faults == s.o.MaxFaults && err != nil
		s.mu.Unlock()
		if err != nil {
			s.o.Log.Warn("voice: a line was not spoken; the game goes on", "err", err)
			if gaveUp {
				s.o.Log.Error("voice: the speech program failed too often in a row; boardd tries it again later", "faults", s.o.MaxFaults)
				go func() {
					if s.o.Retry(ctx) == nil {
						s.o.Log.Info("voice: trying the speech program again")
						s.Reset()
					}
				}()
			}
		}
		if s.o.Spoken != nil {
			s.o.Spoken(line, err)
		}
	}
}

// noSound reports whether a speech program's output says that ALSA found
// no device to play on ("ALSA lib ... cannot find card", "Unknown PCM").
func noSound(out string) bool {
	return strings.Contains(out, "ALSA lib") && (strings.Contains(out, "cannot find card") || strings.Contains(out, "Unknown PCM") || strings.Contains(out, "snd_pcm_open"))
}

// speak runs the program on one line.
func (s *Speaker) speak(ctx context.Context, line string) error {
	lineCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := []string{}
	if s.o.Voice != "" {
		args = append(args, "-v", s.o.Voice)
	}
	args = append(args, s.o.Args...)
	args = append(args, "--stdin")
	cmd := exec.CommandContext(lineCtx, s.path, args...)
	cmd.Stdin = strings.NewReader(line)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	fault := func(f Fault, err error) *FaultError {
		o := strings.TrimSpace(out.String())
		if len(o) > 300 {
			o = o[:300] + "..."
		}
		return &FaultError{Path: s.path, Fault: f, Line: line, Output: o, Err: err}
	}
	if err := cmd.Start(); err != nil {
		return fault(FaultMissing, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	hung := make(chan struct{})
	go func() {
		if s.o.Wait(lineCtx, s.o.Timeout(line)) == nil {
			close(hung)
		}
	}()
	select {
	case err := <-done:
		switch {
		case noSound(out.String()):
			return fault(FaultNoSound, err)
		case err != nil:
			return fault(FaultCrashed, err)
		case out.Len() > 0:
			return fault(FaultGarbage, nil)
		}
		return nil
	case <-hung:
		cancel()
		err := <-done
		return fault(FaultHung, fmt.Errorf("no end after %v: killed (%v)", s.o.Timeout(line), err))
	case <-ctx.Done():
		<-done
		return ctx.Err()
	}
}
