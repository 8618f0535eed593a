package calibration

import (
	"fmt"
	"math"
	"time"

	"github.com/boardd/boardd/board"
)

// DefaultTimeConstant is how slowly an empty square's tracked level follows
// its reading: a minute. Temperature drift takes many minutes, so the
// tracker keeps up with it; a man arrives within a frame, far too fast to be
// mistaken for drift, and an occupied square is never tracked on its own
// reading at all.
const DefaultTimeConstant = time.Minute

// Quiet is the fraction of a square's gap within which an empty square's
// reading counts as plain drift and is tracked. It lies below the Off
// threshold, so a reading in the hysteresis band (a man arriving, or a weak
// man) is never tracked.
const Quiet = 0.2

// maxAlpha caps one frame's tracking step, so that a long pause between
// frames cannot snap a baseline onto a reading.
const maxAlpha = 0.05

// ClassifierOptions tune a Classifier.
type ClassifierOptions struct {
	// TimeConstant of drift tracking (DefaultTimeConstant if zero).
	TimeConstant time.Duration
	// NoTracking turns drift tracking off: thresholds stay where the
	// calibration put them.
	NoTracking bool
}

// sqState is one square's decision state on the per-frame path.
type sqState struct {
	ch    int     // channel, -1 for none
	cal   float64 // calibrated empty level
	base  float64 // tracked empty level
	th    thresholds
	quiet [2]float64 // drift band up, down
	state int8       // 0 empty, +1 read upwards, -1 read downwards
}

// Classifier turns one frame of raw readings (in channel order) into the
// board's occupancy, square by square with hysteresis, and tracks the drift
// of empty squares. It is meant for the per-frame path: Classify does not
// allocate. It is not safe for concurrent use.
type Classifier struct {
	channels int
	tau      float64 // seconds; 0 for no tracking
	sq       [64]sqState
	last     time.Duration
	started  bool
	occ      board.Occupancy
	black    board.Occupancy
	coloured board.Occupancy
}

// NewClassifier returns a classifier for calibration c, with every square
// empty and at its calibrated level.
func NewClassifier(c *Calibration, opts ClassifierOptions) (*Classifier, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	k := &Classifier{channels: c.Channels}
	if !opts.NoTracking {
		tau := opts.TimeConstant
		if tau <= 0 {
			tau = DefaultTimeConstant
		}
		k.tau = tau.Seconds()
	}
	for i := range c.Squares {
		s := &c.Squares[i]
		st := &k.sq[i]
		st.ch = s.Channel
		st.cal, st.base = s.Empty.Mean, s.Empty.Mean
		st.th = c.thresholds(s)
		if s.Has(FlagDead) {
			st.ch = -1
		}
		st.quiet = [2]float64{Quiet * st.th.gapUp, Quiet * st.th.gapDown}
	}
	return k, nil
}

// Channels returns how many readings a frame must have.
func (k *Classifier) Channels() int { return k.channels }

// Classify takes the readings of one frame at time t (raw[i] is channel i)
// and returns the squares that hold a man.
func (k *Classifier) Classify(t time.Duration, raw []uint16) (board.Occupancy, error) {
	if len(raw) < k.channels {
		return k.occ, fmt.Errorf("calibration: frame has %d readings, the calibration has %d sensors", len(raw), k.channels)
	}
	alpha := 0.0
	if k.tau > 0 && k.started && t > k.last {
		alpha = min((t-k.last).Seconds()/k.tau, maxAlpha)
	}
	k.started, k.last = true, t
	var occ, black, coloured board.Occupancy
	var sum float64
	var n int
	var follow uint64 // squares that follow the common drift
	for i := range k.sq {
		s := &k.sq[i]
		if s.ch < 0 {
			continue
		}
		dev := float64(raw[s.ch]) - s.base
		switch s.state {
		case 0:
			if dev >= s.th.onUp {
				s.state = 1
			} else if -dev >= s.th.onDown {
				s.state = -1
			}
		case 1:
			if dev < s.th.offUp {
				s.state = 0
				if -dev >= s.th.onDown {
					s.state = -1
				}
			}
		default:
			if -dev < s.th.offDown {
				s.state = 0
				if dev >= s.th.onUp {
					s.state = 1
				}
			}
		}
		bit := board.Occupancy(1) << uint(i)
		switch {
		case s.state == 1:
			occ |= bit
			if s.th.colourUp {
				coloured |= bit
				if s.th.upBlack {
					black |= bit
				}
			}
			follow |= uint64(bit)
		case s.state == -1:
			occ |= bit
			if s.th.colourDown {
				coloured |= bit
				if !s.th.upBlack {
					black |= bit
				}
			}
			follow |= uint64(bit)
		case dev < s.quiet[0] && -dev < s.quiet[1]:
			// An empty square reading close to its level: plain drift.
			sum += dev
			n++
			s.base += alpha * dev
		default:
			// Empty but in the hysteresis band: never tracked on its own.
			follow |= uint64(bit)
		}
	}
	if alpha > 0 && n > 0 && follow != 0 {
		// Squares that cannot be tracked on their own reading follow the
		// drift common to the quiet squares (temperature moves them all).
		step := alpha * sum / float64(n)
		for i := range k.sq {
			if follow&(1<<uint(i)) != 0 {
				k.sq[i].base += step
			}
		}
	}
	k.occ, k.black, k.coloured = occ, black, coloured
	return occ, nil
}

// Occupancy returns the occupancy of the last frame.
func (k *Classifier) Occupancy() board.Occupancy { return k.occ }

// Black returns the squares of the last frame read as holding a Black man.
// Only squares in Coloured have a known colour; the others read as White.
func (k *Classifier) Black() board.Occupancy { return k.black }

// Coloured returns the squares of the last frame whose man's colour the
// magnet's polarity told.
func (k *Classifier) Coloured() board.Occupancy { return k.coloured }

// Drift returns how far square sq's tracked empty level has moved from its
// calibrated level, in counts.
func (k *Classifier) Drift(sq board.Square) float64 {
	if !sq.Valid() {
		return 0
	}
	return k.sq[sq].base - k.sq[sq].cal
}

// Drifted returns the squares whose tracked level has moved by more than
// fraction of the gap to the weaker man's level since calibration: time to
// recalibrate.
func (k *Classifier) Drifted(fraction float64) board.Occupancy {
	var o board.Occupancy
	for i := range k.sq {
		s := &k.sq[i]
		d := s.base - s.cal
		gap := s.th.gapUp
		if d < 0 {
			gap = s.th.gapDown
		}
		if s.ch >= 0 && !math.IsInf(gap, 0) && math.Abs(d) > fraction*gap {
			o = o.With(board.Square(i))
		}
	}
	return o
}
