package calibration

import (
	"context"
	"math"
	"sort"
	"time"
)

// Detection: a channel answers a man when its reading moves from its empty
// level by at least DetectSigma times its noise, and at least MinSwing counts.
const (
	DetectSigma = 8
	MinSwing    = 24
)

// Baseline is what each sensor channel reads on the empty board.
type Baseline struct {
	Mean  []float64 `json:"mean"`
	Noise []float64 `json:"noise"`
}

// walkTimeConstant is how slowly the wizard's empty levels follow the
// quiet channels during a walk, so that a long calibration on a drifting
// board measures each man against the empty level of its moment.
const walkTimeConstant = 30 * time.Second

// track moves the empty level of every channel reading within half a
// detection threshold of it a step alpha towards its reading, except the
// channels busy says are in use.
func (b *Baseline) track(r []uint16, alpha float64, busy func(c int) bool) {
	for c, v := range r {
		if busy != nil && busy(c) {
			continue
		}
		if x := float64(v); b.z(c, x) < 0.5 {
			b.Mean[c] += alpha * (x - b.Mean[c])
		}
	}
}

// threshold returns channel c's detection threshold.
func (b *Baseline) threshold(c int) float64 {
	return max(DetectSigma*b.Noise[c], MinSwing)
}

// z returns how many detection thresholds reading r is from channel c's
// empty level.
func (b *Baseline) z(c int, r float64) float64 {
	return math.Abs(r-b.Mean[c]) / b.threshold(c)
}

// stats accumulates the mean and standard deviation of each channel
// (Welford's method).
type stats struct {
	n        int
	mean, m2 []float64
}

func newStats(channels int) *stats {
	return &stats{mean: make([]float64, channels), m2: make([]float64, channels)}
}

func (s *stats) reset() {
	s.n = 0
	clear(s.mean)
	clear(s.m2)
}

func (s *stats) add(r []uint16) {
	s.n++
	for c, v := range r {
		x := float64(v)
		d := x - s.mean[c]
		s.mean[c] += d / float64(s.n)
		s.m2[c] += d * (x - s.mean[c])
	}
}

func (s *stats) level(c int) Level {
	l := Level{Mean: s.mean[c]}
	if s.n > 1 {
		l.Noise = math.Sqrt(s.m2[c] / float64(s.n-1))
	}
	return l
}

func (s *stats) baseline() *Baseline {
	b := &Baseline{Mean: make([]float64, len(s.mean)), Noise: make([]float64, len(s.mean))}
	for c := range s.mean {
		l := s.level(c)
		b.Mean[c], b.Noise[c] = l.Mean, l.Noise
	}
	return b
}

// sampleEmpty reads the empty board for Timing.Empty, handing each frame to
// each (if set) too.
func (s *Session) sampleEmpty(ctx context.Context, each func(t time.Duration, r []uint16)) (*Baseline, error) {
	st := newStats(s.id.Channels)
	start := s.Clock.Now()
	for {
		r, t, err := s.scan(ctx)
		if err != nil {
			return nil, err
		}
		st.add(r)
		if each != nil {
			each(t, r)
		}
		if t-start >= s.Timing.Empty && st.n >= 2 {
			return st.baseline(), nil
		}
	}
}

// Response is one channel's answer to a man: its reading while the man
// stood still, and how many detection thresholds that is from empty.
type Response struct {
	Channel int   `json:"channel"`
	Level   Level `json:"level"`
	// Base is the channel's empty level at the time.
	Base float64 `json:"base"`
	Z    float64 `json:"z"`
}

// Observation is what the sensors did while a man stood on one square.
type Observation struct {
	// Answered is false when no sensor answered before the person skipped
	// the square or the wizard gave up.
	Answered bool `json:"answered"`
	// Responses are the channels that answered, strongest first.
	Responses []Response `json:"responses,omitempty"`
}

// watch waits for a man to be placed, measures every channel while it
// stands still, asks for it to be lifted (calling held first) and waits
// until it is. status is called with the phase to show ("place", "hold",
// "lift"). The person may type s to skip or q to quit.
func (s *Session) watch(ctx context.Context, base *Baseline, status func(phase string), held func(Observation)) (Observation, error) {
	tm := s.Timing
	hold := newStats(s.id.Channels)
	const (
		waiting = iota
		holding
		lifting
	)
	phase, cand := waiting, -1
	var since, backSince time.Duration
	start := s.Clock.Now()
	var obs Observation
	alpha := min(tm.Period.Seconds()/walkTimeConstant.Seconds(), maxAlpha)
	responder := func(c int) bool {
		for _, r := range obs.Responses {
			if r.Channel == c {
				return true
			}
		}
		return false
	}
	status("place")
	for {
		r, t, err := s.scan(ctx)
		if err != nil {
			return obs, err
		}
		if line, ok := s.poll(); ok {
			switch line {
			case "q", "quit":
				return obs, ErrInterrupted
			case "s", "skip":
				if phase != lifting {
					return Observation{}, errSkip
				}
			}
		}
		switch phase {
		case waiting:
			base.track(r, alpha, nil)
			best, bz := -1, 0.0
			for c, v := range r {
				if z := base.z(c, float64(v)); z > bz {
					best, bz = c, z
				}
			}
			if bz < 1 {
				cand = -1
			} else if best != cand {
				cand, since = best, t
			} else if t-since >= tm.Settle {
				phase, since = holding, t
				hold.reset()
				status("hold")
			}
			if phase == waiting && t-start >= tm.GiveUp {
				return Observation{}, nil
			}
		case holding:
			if base.z(cand, float64(r[cand])) < 0.5 {
				// Lifted before it was measured: start again.
				phase, cand = waiting, -1
				status("place")
				continue
			}
			hold.add(r)
			if t-since < tm.Hold {
				continue
			}
			obs = Observation{Answered: true}
			for c := range r {
				l := hold.level(c)
				if z := base.z(c, l.Mean); z >= 1 {
					obs.Responses = append(obs.Responses, Response{Channel: c, Level: l, Base: base.Mean[c], Z: z})
				}
			}
			sort.SliceStable(obs.Responses, func(i, j int) bool { return obs.Responses[i].Z > obs.Responses[j].Z })
			if len(obs.Responses) == 0 {
				// It wandered off during the hold: start again.
				phase, cand = waiting, -1
				status("place")
				continue
			}
			if held != nil {
				held(obs)
			}
			phase, since, backSince = lifting, t, t
			status("lift")
		case lifting:
			base.track(r, alpha, responder)
			if t-since >= tm.GiveUp {
				s.say("The man still reads after %v: going on.", tm.GiveUp)
				return obs, nil
			}
			back := true
			for _, resp := range obs.Responses {
				if base.z(resp.Channel, float64(r[resp.Channel])) >= 0.5 {
					back = false
					break
				}
			}
			if !back {
				backSince = t
			} else if t-backSince >= tm.Lifted {
				return obs, nil
			}
		}
	}
}
