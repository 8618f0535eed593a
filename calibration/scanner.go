package calibration

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// Scanner is a calibrated scanner: it reads a raw scanner (readings in
// channel order) and fills the frame's Occupancy through a Classifier, with
// Analog reordered by square (Analog[i] for square i; nil on a digital
// board). It is what the daemon's scan loop reads.
type Scanner struct {
	raw     sensor.Scanner
	clock   timing.Clock
	k       *Classifier
	cal     *Calibration
	inner   sensor.Frame
	digital []uint16
	analog  [64]uint16
}

// NewScanner wraps raw with calibration cal; clock stamps each frame for
// drift tracking (nil: the raw scanner's own frame time). The calibration
// must have been made on raw's hardware: Load it with Identify(raw, name).
func NewScanner(raw sensor.Scanner, cal *Calibration, clock timing.Clock, opts ClassifierOptions) (*Scanner, error) {
	k, err := NewClassifier(cal, opts)
	if err != nil {
		return nil, err
	}
	s := &Scanner{raw: raw, clock: clock, k: k, cal: cal}
	if cal.Digital {
		s.digital = make([]uint16, 64)
	}
	return s, nil
}

// Identify scans raw once and returns the identity a calibration for it must
// carry: name (raw's String() if empty) and what a scan holds.
func Identify(raw sensor.Scanner, name string) (Identity, error) {
	if name == "" {
		name = raw.String()
	}
	var f sensor.Frame
	if err := raw.Scan(&f); err != nil {
		return Identity{}, fmt.Errorf("calibration: scan %s: %w", raw, err)
	}
	if f.Analog == nil {
		return Identity{Scanner: name, Channels: 64, Digital: true}, nil
	}
	return Identity{Scanner: name, Channels: len(f.Analog)}, nil
}

// Scan reads one calibrated frame.
func (s *Scanner) Scan(f *sensor.Frame) error {
	if err := s.raw.Scan(&s.inner); err != nil {
		return err
	}
	readings := s.inner.Analog
	if s.cal.Digital {
		for c := range s.digital {
			s.digital[c] = 0
			if s.inner.Occupancy.Has(board.Square(c)) {
				s.digital[c] = digitalLevel
			}
		}
		readings = s.digital
	}
	t := s.inner.T
	if s.clock != nil {
		t = s.clock.Now()
	}
	occ, err := s.k.Classify(t, readings)
	if err != nil {
		return fmt.Errorf("calibration: %s: %w", s.raw, err)
	}
	f.T, f.Occupancy = t, occ
	if s.cal.Digital {
		f.Analog = nil
		return nil
	}
	for sq := range s.analog {
		s.analog[sq] = 0
		if c := s.cal.Squares[sq].Channel; c >= 0 {
			s.analog[sq] = readings[c]
		}
	}
	if cap(f.Analog) < 64 {
		f.Analog = make([]uint16, 64)
	}
	f.Analog = f.Analog[:64]
	copy(f.Analog, s.analog[:])
	return nil
}

// Classifier returns the classifier, for its colours and drift.
func (s *Scanner) Classifier() *Classifier { return s.k }

// Halt halts the raw scanner.
func (s *Scanner) Halt() error { return s.raw.Halt() }

func (s *Scanner) String() string { return s.raw.String() + " (calibrated)" }

// LEDs is a led.Sink that shows square-indexed frames on an LED chain wired
// in the order the calibration learned: square sq's role goes to position
// LED(sq) of the frame the chain's own sink is shown.
type LEDs struct {
	chain led.Sink
	pos   [64]int
	out   led.Frame
}

// MapLEDs wraps chain, a sink whose frames are indexed by position on the
// LED chain, with the calibration's LED map.
func MapLEDs(chain led.Sink, cal *Calibration) *LEDs {
	l := &LEDs{chain: chain}
	for sq := range cal.Squares {
		l.pos[sq] = cal.Squares[sq].LED
	}
	return l
}

// Show shows f with each square's role at its LED's position.
func (l *LEDs) Show(f *led.Frame, t time.Duration) error {
	l.out = led.Frame{}
	for sq, p := range l.pos {
		if p >= 0 && p < 64 {
			l.out.Role[p], l.out.Blink[p] = f.Role[sq], f.Blink[sq]
		}
	}
	return l.chain.Show(&l.out, t)
}

// Deadline is the chain's.
func (l *LEDs) Deadline() (time.Duration, bool) { return l.chain.Deadline() }

// Halt halts the chain.
func (l *LEDs) Halt() error { return l.chain.Halt() }

func (l *LEDs) String() string { return l.chain.String() + " (mapped)" }

var (
	_ sensor.Scanner = (*Scanner)(nil)
	_ led.Sink       = (*LEDs)(nil)
)
