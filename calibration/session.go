package calibration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// Timing is how long the wizard and the self-test watch the board for each
// thing, in board time.
type Timing struct {
	Period time.Duration // between scans (10 ms)
	Empty  time.Duration // sampling the empty board (2 s)
	Settle time.Duration // a man must stand still this long before it is measured (150 ms)
	Hold   time.Duration // measuring a man (300 ms)
	Lifted time.Duration // a lifted man's square must read empty this long (100 ms)
	GiveUp time.Duration // waiting for a man before the square counts as not answering (20 s)
}

func (t Timing) withDefaults() Timing {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.Period, 10*time.Millisecond)
	def(&t.Empty, 2*time.Second)
	def(&t.Settle, 150*time.Millisecond)
	def(&t.Hold, 300*time.Millisecond)
	def(&t.Lifted, 100*time.Millisecond)
	def(&t.GiveUp, 20*time.Second)
	return t
}

// StepKind is what the person at the board is asked to do.
type StepKind uint8

// The requests the wizard and self-test make.
const (
	StepClear   StepKind = iota + 1 // take every man off the board, then press Enter
	StepPlace                       // put a man on a square (named, or the lit one)
	StepLift                        // take the man off again
	StepAskDark                     // a rank is lit: say which of its squares stay dark
	StepDone                        // the procedure is over
)

// Step is one request to the person at the board. A simulated person
// (SimPerson) acts on them; a real one reads the terminal and the LEDs.
type Step struct {
	Kind StepKind
	// Square is the square named by StepPlace, or board.NoSquare when the
	// person is to find the lit square.
	Square board.Square
	// Colour is the colour of man StepPlace asks for.
	Colour board.Color
	// Rank is the rank StepAskDark lit, 0 for rank 1.
	Rank int
}

// Session is a board and the person at it, as the wizard and the self-test
// see them.
type Session struct {
	// Scanner reads the sensors raw: readings in channel order, not yet
	// calibrated (a digital scanner's occupancy bits count as channels).
	Scanner sensor.Scanner
	// Name names the hardware in the calibration's Identity; Scanner's
	// String() if empty.
	Name string
	// LEDs shows frames indexed by position on the LED chain, not by square
	// (the LED wiring is what the wizard learns); nil for a board without
	// LEDs. The chain is taken to have 64 LEDs.
	LEDs led.Sink
	// Clock tells board time.
	Clock timing.Clock
	// Wait lets d pass on Clock, or returns ctx's error; timing.Wait (real
	// time) when nil.
	Wait func(ctx context.Context, d time.Duration) error
	// Out is where the person reads; In brings the lines they type (closed
	// when their input ends).
	Out io.Writer
	In  <-chan string
	// Terminal says Out is a terminal: the status line is redrawn in place.
	Terminal bool
	// Observe, if set, is told of every request to the person.
	Observe func(Step)
	// Picture, if set, draws what the board looks like (a simulated board
	// only), printed with questions about the LEDs.
	Picture func() string
	// Timing of the procedures (defaults if zero).
	Timing Timing

	frame    sensor.Frame
	readings []uint16
	id       Identity
	status   string
}

// VirtualWait returns a Wait that moves virtual clock v on by d at a time,
// sleeping d/speed of real time as it goes (not at all when speed <= 0).
func VirtualWait(v *timing.Virtual, speed float64) func(ctx context.Context, d time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if speed > 0 {
			if err := timing.Wait(ctx, time.Duration(float64(d)/speed)); err != nil {
				return err
			}
		}
		v.Set(v.Now() + d)
		return nil
	}
}

// ErrInterrupted is returned when the person quits or the context ends.
var ErrInterrupted = errors.New("interrupted")

// errSkip is a person's request to skip the square in hand.
var errSkip = errors.New("skipped")

func (s *Session) init() {
	s.Timing = s.Timing.withDefaults()
	if s.Wait == nil {
		s.Wait = timing.Wait
	}
	if s.Out == nil {
		s.Out = io.Discard
	}
}

// identify scans once to learn what the scanner reports.
func (s *Session) identify(ctx context.Context) (Identity, error) {
	if err := ctx.Err(); err != nil {
		return Identity{}, ErrInterrupted
	}
	if err := s.Scanner.Scan(&s.frame); err != nil {
		return Identity{}, fmt.Errorf("calibration: scan %s: %w", s.Scanner, err)
	}
	name := s.Name
	if name == "" {
		name = s.Scanner.String()
	}
	id := Identity{Scanner: name, Channels: len(s.frame.Analog)}
	if s.frame.Analog == nil {
		id.Channels, id.Digital = 64, true
	}
	if id.Channels < 1 || id.Channels > 4096 {
		return Identity{}, fmt.Errorf("calibration: %s gives %d readings a frame, want 1 to 4096", s.Scanner, id.Channels)
	}
	s.id = id
	s.readings = make([]uint16, id.Channels)
	return id, nil
}

// digitalLevel is the reading a digital sensor's "on" counts as.
const digitalLevel = 1000

// scan waits a period and reads the board.
func (s *Session) scan(ctx context.Context) ([]uint16, time.Duration, error) {
	if err := s.Wait(ctx, s.Timing.Period); err != nil {
		return nil, 0, ErrInterrupted
	}
	if err := s.Scanner.Scan(&s.frame); err != nil {
		return nil, 0, fmt.Errorf("calibration: scan %s: %w", s.Scanner, err)
	}
	if s.id.Digital {
		for c := range s.readings {
			s.readings[c] = 0
			if s.frame.Occupancy.Has(board.Square(c)) {
				s.readings[c] = digitalLevel
			}
		}
	} else {
		if len(s.frame.Analog) != len(s.readings) {
			return nil, 0, fmt.Errorf("calibration: %s gave %d readings, then %d", s.Scanner, len(s.readings), len(s.frame.Analog))
		}
		copy(s.readings, s.frame.Analog)
	}
	return s.readings, s.Clock.Now(), nil
}

// light shows role r on the LEDs at chain positions idx (the rest dark).
func (s *Session) light(r led.Role, idx ...int) error {
	if s.LEDs == nil {
		return nil
	}
	var f led.Frame
	for _, k := range idx {
		if k >= 0 && k < 64 {
			f.Set(board.Square(k), r, led.Steady)
		}
	}
	if err := s.LEDs.Show(&f, s.Clock.Now()); err != nil {
		return fmt.Errorf("calibration: LEDs %s: %w", s.LEDs, err)
	}
	return nil
}

func (s *Session) observe(st Step) {
	if s.Observe != nil {
		s.Observe(st)
	}
}

// setStatus shows the status line: redrawn in place on a terminal, else
// printed when it changes.
func (s *Session) setStatus(text string) {
	if text == s.status {
		return
	}
	s.status = text
	if s.Terminal {
		fmt.Fprintf(s.Out, "\r\033[K%s", text)
		return
	}
	fmt.Fprintln(s.Out, text)
}

// say prints a line of its own, above the status line.
func (s *Session) say(format string, args ...any) {
	if s.Terminal && s.status != "" {
		fmt.Fprint(s.Out, "\r\033[K")
	}
	fmt.Fprintf(s.Out, format+"\n", args...)
	if s.Terminal && s.status != "" {
		fmt.Fprint(s.Out, s.status)
	}
}

// endStatus leaves the status line where it is and moves on.
func (s *Session) endStatus() {
	if s.Terminal && s.status != "" {
		fmt.Fprintln(s.Out)
	}
	s.status = ""
}

// ask prints a question and waits for the person's line.
func (s *Session) ask(ctx context.Context, question string) (string, error) {
	s.endStatus()
	fmt.Fprint(s.Out, question)
	if !s.Terminal {
		fmt.Fprintln(s.Out)
	}
	select {
	case <-ctx.Done():
		return "", ErrInterrupted
	case line, ok := <-s.In:
		if !ok {
			return "", fmt.Errorf("calibration: input ended while waiting for an answer to %q", strings.TrimSpace(question))
		}
		return strings.TrimSpace(line), nil
	}
}

// poll returns a line the person typed, if any, without waiting.
func (s *Session) poll() (string, bool) {
	select {
	case line, ok := <-s.In:
		if !ok {
			s.In = nil // input ended: stop polling it
			return "", false
		}
		return strings.TrimSpace(line), true
	default:
		return "", false
	}
}

// bar draws a progress bar for n of total done.
func bar(n, total, width int) string {
	if total <= 0 {
		total = 1
	}
	full := n * width / total
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "]"
}
