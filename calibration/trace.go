package calibration

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// TraceChannels is the number of levels a trace's analogue frame carries.
const TraceChannels = 64

// TraceClassifier reads the analogue frames of a trace (64 levels in channel
// order, from an ADC whose resolution the frame states) through a
// calibration, with the Classifier a calibrated Scanner uses on the running
// board: the same thresholds, hysteresis and drift tracking, timed by the
// frames' times. `boardd replay --calibration` uses it. Classifying does
// not allocate. It is not safe for concurrent use.
type TraceClassifier struct {
	k       *Classifier
	highest float64 // the highest level the calibration learned
	bits    int     // the resolution of the frames so far; 0 before the first
}

// NewTraceClassifier returns a classifier of analogue trace frames for
// calibration c. It refuses a digital board's calibration (it has no levels
// to read analogue frames by) and one with more channels than a frame has.
func NewTraceClassifier(c *Calibration, opts ClassifierOptions) (*TraceClassifier, error) {
	if c.Digital {
		return nil, fmt.Errorf("calibration: %v: a digital board's calibration cannot read analogue levels", c.Identity)
	}
	if c.Channels > TraceChannels {
		return nil, fmt.Errorf("calibration: %v: %d channels, but a trace's analogue frame carries %d levels", c.Identity, c.Channels, TraceChannels)
	}
	k, err := NewClassifier(c, opts)
	if err != nil {
		return nil, err
	}
	tc := &TraceClassifier{k: k}
	for i := range c.Squares {
		s := &c.Squares[i]
		if s.Channel < 0 {
			continue
		}
		for _, l := range []*Level{&s.Empty, s.White, s.Black} {
			if l != nil && l.Mean > tc.highest {
				tc.highest = l.Mean
			}
		}
	}
	return tc, nil
}

// ClassifyAnalog reads one analogue frame taken at t by an ADC of bits bits
// and returns the squares that hold a man. The first frame's resolution must
// reach every level the calibration learned (a 12-bit board's calibration
// cannot read a 10-bit trace), and every later frame must state the same.
func (tc *TraceClassifier) ClassifyAnalog(t time.Duration, bits int, levels *[TraceChannels]uint16) (board.Occupancy, error) {
	if bits != tc.bits {
		if tc.bits != 0 {
			return tc.k.Occupancy(), fmt.Errorf("calibration: %d-bit levels after %d-bit ones: the levels of a trace come from one ADC", bits, tc.bits)
		}
		if bits < 1 || bits > 16 {
			return tc.k.Occupancy(), fmt.Errorf("calibration: %d-bit levels: want 1 to 16 bits", bits)
		}
		if top := float64(int(1)<<bits - 1); tc.highest > top {
			return tc.k.Occupancy(), fmt.Errorf("calibration: its levels reach %.0f counts, more than a %d-bit ADC reads (0 to %.0f): it was made with another ADC", tc.highest, bits, top)
		}
		tc.bits = bits
	}
	return tc.k.Classify(t, levels[:])
}

// Classifier returns the classifier, for its colours and drift.
func (tc *TraceClassifier) Classifier() *Classifier { return tc.k }
