package calibration

import (
	"fmt"
	"math"
	"time"

	"github.com/boardd/boardd/board"
)

// DefaultTimeConstant is how slowly a square's tracked levels follow its
// reading: a minute. Temperature drift takes many minutes, so the tracker
// keeps up with it; a man arrives within a fraction of a second, far too fast
// to be mistaken for drift, and a level that is still changing is never
// tracked at all.
const DefaultTimeConstant = time.Minute

// Quiet is the fraction of a square's gap within which a settled reading
// counts as plain drift and is tracked: around the empty level on an empty
// square, around the level of the man at rest on an occupied one. It lies
// below the Off threshold, so a reading in the hysteresis band (a man
// arriving, a man held above the square, a weak man) is never tracked.
const Quiet = 0.2

// SettleTime is how long a square's level must have stayed still, within
// its noise, before a man arriving on it counts: a level still rising is a
// hand still lowering him. A placement is read this long after the man comes
// to rest (a little less for a hand that slows down smoothly at the end); a
// lift is read at once.
const SettleTime = 30 * time.Millisecond

// Rest is the least fraction of a square's gap at which a settled level
// reads as a man at rest: above the On threshold, because a man held still
// a few millimetres above the square (or at the top of a dip, where his
// level hardly changes) reads about half his field, while a man at rest,
// even the weakest magnet set 3 mm off-centre, reads two thirds of it or
// more.
const Rest = 0.6

// settleNoise, settleSlack and settleShare make a square's stillness band:
// a reading within settleNoise times its calibrated noise, plus settleSlack
// counts, plus settleShare of its gap, of the reading that began the still
// spell has not moved. The share lets a level creep a little as men around
// it come and go. Away from the empty level (the way a man being lowered
// moves it) the band is narrower: half the noise and share, the same slack.
const (
	settleNoise = 4.0
	settleSlack = 1.0
	settleShare = 0.01
)

// restLearn is how long after a placement the man's level at rest is
// learned without moving the square's empty level (his last fraction of a
// millimetre, his magnet's own strength), with time constant restTau; after
// that, slow changes of a man's settled level are the sensor's drift.
const (
	restLearn = 300 * time.Millisecond
	restTau   = 50 * time.Millisecond
)

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
	// NoSettle counts a man as soon as his level crosses the On threshold,
	// without waiting for it to stop changing: what the thresholds alone
	// read, as the self-test's empty-board check wants to know.
	NoSettle bool
}

// sqState is one square's decision state on the per-frame path.
type sqState struct {
	ch    int     // channel, -1 for none
	cal   float64 // calibrated empty level
	base  float64 // tracked empty level
	th    thresholds
	quiet [2]float64 // drift band up, down
	tol   float64    // stillness band, counts
	rest0 [2]float64 // the least settled level of a man at rest, up, down
	// away is the stillness band on the side away from the empty level,
	// narrower: a man being lowered moves his level that way, slowly at the
	// end, while noise moves it both ways.
	away float64
	// anchor is the reading that began the current still spell, since its
	// time: the level is settled once it has stayed within tol of anchor
	// for SettleTime.
	anchor float64
	since  time.Duration
	// rest is the settled man's distance from base (positive, in the
	// direction of state), placed when he was counted.
	rest   float64
	placed time.Duration
	state  int8 // 0 empty, +1 read upwards, -1 read downwards
}

// Classifier turns one frame of raw readings (in channel order) into the
// board's occupancy, square by square, and tracks each sensor's drift.
//
// An empty square becomes occupied when its reading has settled (it has
// stayed within its noise for SettleTime) at the level of a man at rest: at
// least Rest of its gap from its empty level, and past the On threshold. A
// level still rising is a hand lowering a man, and a man held above the
// square reads lower than one at rest, so neither counts.
// An occupied square becomes empty as soon as its reading has fallen half
// way from the man's level at rest to the empty level (never less than the
// Off threshold): a lift is never waited for.
//
// Drift is tracked per sensor, from settled readings only: an empty square's
// empty level follows its reading within the Quiet band; an occupied
// square's empty level moves with its man's level at rest, within the Quiet
// band around it, so a man standing all game keeps his own sensor's drift
// tracked. Squares that cannot be tracked on their own reading (their level
// is moving, or in the hysteresis band) follow the drift common to the
// tracked squares.
//
// It is meant for the per-frame path: Classify does not allocate, and reads
// time only from the frames. It is not safe for concurrent use.
type Classifier struct {
	channels int
	tau      float64 // seconds; 0 for no tracking
	noSettle bool
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
	k := &Classifier{channels: c.Channels, noSettle: opts.NoSettle}
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
		st.rest0 = [2]float64{max(st.th.onUp, Rest*st.th.gapUp), max(st.th.onDown, Rest*st.th.gapDown)}
		if opts.NoSettle {
			st.rest0 = [2]float64{st.th.onUp, st.th.onDown}
		}
		st.tol = settleNoise*s.Empty.Noise + settleSlack
		st.away = settleNoise/2*s.Empty.Noise + settleSlack
		if g := min(st.th.gapUp, st.th.gapDown); !math.IsInf(g, 0) {
			st.tol += settleShare * g
			st.away += settleShare / 2 * g
		}
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
	first := !k.started
	alpha, beta := 0.0, 0.0
	if !first && t > k.last {
		dt := (t - k.last).Seconds()
		if k.tau > 0 {
			alpha = min(dt/k.tau, maxAlpha)
		}
		beta = min(dt/restTau.Seconds(), 1)
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
		x := float64(raw[s.ch])
		d := x - s.anchor // positive away from the empty level
		if x < s.base {
			d = -d
		}
		if first || d > s.away || -d > s.tol {
			s.anchor, s.since = x, t
		}
		settled := first || k.noSettle || t-s.since >= SettleTime
		dev := x - s.base
		k.decide(s, dev, settled, t)
		bit := board.Occupancy(1) << uint(i)
		if s.state != 0 {
			occ |= bit
			up := s.state == 1
			if (up && s.th.colourUp) || (!up && s.th.colourDown) {
				coloured |= bit
				if up == s.th.upBlack {
					black |= bit
				}
			}
		}
		// Drift tracking, from settled readings alone.
		off := dev // the reading's distance from the level it should rest at
		band := s.quiet[0]
		if off < 0 {
			band = s.quiet[1]
		}
		switch {
		case !settled:
			follow |= uint64(bit)
			continue
		case s.state != 0 && t-s.placed < restLearn:
			// The man's own level, still being learned: not drift.
			s.rest += beta * (float64(s.state)*dev - s.rest)
			follow |= uint64(bit)
			continue
		case s.state != 0:
			off = dev - float64(s.state)*s.rest
			band = s.quiet[0]
			if s.state < 0 {
				band = s.quiet[1]
			}
		}
		if math.Abs(off) >= band {
			// Empty in the hysteresis band, or a man off his level: never
			// tracked on its own reading.
			follow |= uint64(bit)
			continue
		}
		step := alpha * off
		s.base += step
		sum += step
		n++
	}
	if n > 0 && follow != 0 {
		// Squares that cannot be tracked on their own reading follow the
		// drift common to the tracked ones.
		step := sum / float64(n)
		for i := range k.sq {
			if follow&(1<<uint(i)) != 0 {
				k.sq[i].base += step
			}
		}
	}
	k.occ, k.black, k.coloured = occ, black, coloured
	return occ, nil
}

// decide moves square s's state on a reading dev from its empty level.
func (k *Classifier) decide(s *sqState, dev float64, settled bool, t time.Duration) {
	switch s.state {
	case 1:
		if dev >= max(s.rest/2, s.th.offUp) {
			return
		}
		s.state = 0
	case -1:
		if -dev >= max(s.rest/2, s.th.offDown) {
			return
		}
		s.state = 0
	}
	if !settled {
		return
	}
	switch {
	case dev >= s.rest0[0]:
		s.state, s.rest, s.placed = 1, dev, t
	case -dev >= s.rest0[1]:
		s.state, s.rest, s.placed = -1, -dev, t
	}
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
