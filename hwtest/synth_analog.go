package hwtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/hwtest/hallsim"
	"github.com/boardd/boardd/trace"
)

// AnalogOptions say how a game is rendered as the readings of an analogue
// board (hwtest/hallsim).
type AnalogOptions struct {
	// Board is the board's model, BoardSeed draws its parts: a calibration
	// made on hallsim.NewBoard(Board, BoardSeed) reads the trace.
	Board     hallsim.Model
	BoardSeed uint64
	// Period is the time between scans (10 ms: the daemon's 100 scans a
	// second). Every scan is a frame line.
	Period time.Duration
	// Started is how long the board has been on when the game begins: the
	// trace begins when it is switched on and calibrated, with the men set
	// up, a frame a second (LeadPeriod) until the hands arrive, so that the
	// classifier tracks the sensors' drift as the board warms, as the
	// running daemon's does.
	Started time.Duration
	// OffCentre: the hands set each man down anywhere within this many mm
	// of his square's centre, evenly over the disc (2.5: careful hands;
	// hallsim.Off for dead centre).
	OffCentre float64
	// Calibration is the name the trace's first line gives its calibration
	// file (docs/trace-format.md); empty for none.
	Calibration string
	// Slow is how many times longer than an ordinary hand's the hands take
	// to lower a man onto a square and to raise him from it (1 if zero):
	// an ordinary hand lowers him from the height he is carried at in 50
	// to 120 ms along a minimum-jerk path, slowing to a stop as he lands.
	// A hand is only as slow as the events leave it time for: a fast reply
	// is made fast.
	Slow float64
	// Hover is the chance that a hand holds a man still above a square,
	// 100 to 600 ms, before it sets him down there or, half the time, over
	// an empty square beside it before it moves on to set him down (0 for
	// never), where the events leave the time.
	Hover float64
	// HoverHeight is the lowest a hovering hand holds a man above the
	// board, in mm (4.5); each hover is held between HoverHeight and twice
	// it, trembling by a few tenths of a millimetre.
	HoverHeight float64
}

// Hands near the board. An ordinary hand takes 50 to 120 ms (rampShortest
// to rampLongest) to lower a man from the height he is carried at (a
// trace's clear height) onto his square, and as long to raise him, along
// minimum-jerk paths; AnalogOptions.Slow stretches both. A ramp is never
// shorter than rampLeast, when the events leave no more time.
const (
	rampShortest = 50.0 // ms
	rampLongest  = 120.0
	rampLeast    = 15.0
	// farSpeed is how fast a man rises beyond the carrying height, out of
	// every sensor's reach, in mm/ms.
	farSpeed = 0.3
)

// Hovers: how long and how shakily a hand holds a man above a square.
const (
	hoverShortest = 100.0 // ms
	hoverLongest  = 600.0
	tremorMost    = 0.3  // mm, amplitude
	tremorLow     = 4.0  // Hz
	tremorHigh    = 10.0 // Hz
)

// seatedWithin is how close to his seat, as a fraction of his field, a man
// being lowered reads as at rest: his level is then within the classifier's
// stillness band of his seated one (about 1 % of a man's swing on a healthy
// sensor), and its settling time runs from there.
const seatedWithin = 0.01

// minJerk is the minimum-jerk path from 0 to 1 over time 0 to 1: it starts
// and ends at rest, without a jolt.
func minJerk(x float64) float64 {
	x = min(max(x, 0), 1)
	return x * x * x * (10 + x*(-15+6*x))
}

// minJerkAt returns the time (0 to 1) at which the minimum-jerk path
// reaches y.
func minJerkAt(y float64) float64 {
	lo, hi := 0.0, 1.0
	for range 50 {
		mid := (lo + hi) / 2
		if minJerk(mid) < y {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// LeadPeriod is the time between the frames of an analogue trace before
// the game begins: the classifier's drift tracking steps by the time
// between frames, so sparse frames track as the daemon's 100 a second do.
const LeadPeriod = time.Second

// analogGap is the least time an analogue trace leaves between two changes
// of one square (a capture's victim lifted, the capturing man set down):
// the debounce, a scan, and the spread of the moments the readings cross
// their thresholds as men of different strengths rise and fall.
const analogGap = 60 * time.Millisecond

// spell is one stay of a man on a square: lowered from the carrying height
// onto (x, y) in down ms, landing at a (ms); raised from b in up ms. A
// hover holds him hover mm above the square for hold ms before his last
// descent, reached from the carrying height in into ms. A pass is a hover
// alone: held until a, then raised from there at b = a, never set down. A
// stay shorter than his descent and ascent (b before a) is a dip that may
// not reach the board.
type spell struct {
	a, b      float64
	down, up  float64
	hover     float64
	into      float64
	hold      float64
	pass      bool
	tremor    float64 // amplitude of the hover's tremor, mm
	freq, phi float64 // its angular frequency (rad/ms) and phase
	x, y      float64
	// cross is when the lift of this stay is read (its event, less the
	// debounce): the rise is timed to it. read is when the placement is
	// read.
	cross, read float64
}

// descent returns how long before a the man leaves the carrying height.
func (s *spell) descent() float64 {
	if s.pass {
		return s.into + s.hold
	}
	d := s.down
	if s.hover > 0 {
		d += s.hold + s.into
	}
	return d
}

// held is the height of a hovering hand at t: the hover and its tremor.
func (s *spell) held(t float64) float64 {
	return s.hover + s.tremor*math.Sin(s.freq*t+s.phi)
}

// coming is how high above the square the man is at t on his way down to
// this stay, top being the carrying height.
func (s *spell) coming(t, top float64) float64 {
	if t >= s.a {
		if s.pass {
			return s.held(t)
		}
		return 0
	}
	end := s.a // the end of the part of the descent t is in
	if !s.pass {
		from := top
		if s.hover > 0 {
			from = s.hover
		}
		if t >= end-s.down {
			return from * (1 - minJerk((t-(end-s.down))/s.down))
		}
		if s.hover == 0 {
			return top + farSpeed*(end-s.down-t)
		}
		end -= s.down
	}
	if t >= end-s.hold {
		return s.held(t)
	}
	if start := end - s.hold - s.into; t >= start {
		return s.hover + (top-s.hover)*(1-minJerk((t-start)/s.into))
	} else {
		return top + farSpeed*(start-t)
	}
}

// going is how high above the square the man is at t on his way up from
// this stay.
func (s *spell) going(t, top float64) float64 {
	if t <= s.b {
		return 0
	}
	from := 0.0
	if s.pass {
		from = s.hover
	}
	if t <= s.b+s.up {
		return from + (top-from)*minJerk((t-s.b)/s.up)
	}
	return top + farSpeed*(t-s.b-s.up)
}

// height is how high above the stay's square the man is at time t (ms),
// going by this stay alone.
func (s *spell) height(t, top float64) float64 {
	return max(s.coming(t, top), s.going(t, top))
}

// analogMan is one man of the trace, with his magnet and his stays.
type analogMan struct {
	colour   board.Color
	strength float64 // signed field at his own sensor, G
	spells   []spell
	cur      int // the spell of the last frame
	// where he was at the last frame, to skip recomputing his field
	x, y, h float64
	away    bool
}

// AnalogTrace is a game rendered as an analogue board's scans, a line at a
// time (Next): frame lines with the 64 levels of every scan, merged with
// the presses and promotion names of the event trace. It is not safe for
// concurrent use.
type AnalogTrace struct {
	opts   AnalogOptions
	board  *hallsim.Board
	men    []analogMan
	events []trace.Line // lifts and places, for the recorded occupancy
	others []trace.Line // presses, promotion names, a setup line
	ev, ot int
	occ    board.Occupancy // as the event trace has it
	now    time.Duration   // the next scan
	end    time.Duration
	hmax   float64 // above this height a man is out of every sensor's reach
	clear  float64 // the height at which a hand carries a man across
	settle time.Duration
	first  bool
	// over is how high the lowest man above each square was at the last
	// frame, in mm (+Inf for none within reach): the truth a test holds
	// the classifier's readings to.
	over [64]float64
	// hovers counts the hovers rendered: over the square set down on, and
	// over another before moving on.
	hovers [2]int
}

// Analog synthesises game g as an analogue trace: the hands of Events (with
// at least analogGap between two changes of one square), each man a magnet
// of his own strength set down off-centre and lifted at a hand's speed,
// read by board opts.Board every opts.Period. Each frame line's recorded
// occupancy is the event trace's, debounced as a frame trace's would be, so
// a reader without the calibration replays the events.
func (s *Synthesiser) Analog(g *Game, gameSeed uint64, opts AnalogOptions) (*AnalogTrace, error) {
	b, err := s.buildWith(g, gameSeed, analogGap)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(s.opts.Seed^0x616e616c6f67, gameSeed))
	return renderAnalog(g.Start, b.lines, b.placed, s.opts.Debounce, opts, rng)
}

// renderAnalog renders an event trace from position start as an analogue
// board's scans. placed gives the colour of the man each place line sets
// down; when it is nil (or a line's colour has no man in hand) the man
// lifted first of those in hand is set down, or, with nobody in hand, a new
// man: White on ranks 1 to 4, Black above.
func renderAnalog(start board.Position, lines []trace.Line, placed []board.Color, debounce time.Duration, opts AnalogOptions, rng *rand.Rand) (*AnalogTrace, error) {
	if opts.Period <= 0 {
		opts.Period = 10 * time.Millisecond
	}
	switch {
	case opts.OffCentre == hallsim.Off:
		opts.OffCentre = 0
	case opts.OffCentre == 0:
		opts.OffCentre = 2.5
	case opts.OffCentre < 0 || math.IsNaN(opts.OffCentre):
		return nil, fmt.Errorf("hwtest: analogue: off-centre %v mm: want 0 or more", opts.OffCentre)
	}
	if opts.Started < 0 {
		return nil, fmt.Errorf("hwtest: analogue: started %v: want 0 or more", opts.Started)
	}
	switch {
	case opts.Slow == 0:
		opts.Slow = 1
	case !(opts.Slow >= 1 && opts.Slow <= 20):
		return nil, fmt.Errorf("hwtest: analogue: hands %v times as slow as ordinary ones: want 1 to 20", opts.Slow)
	}
	if !(opts.Hover >= 0 && opts.Hover <= 1) {
		return nil, fmt.Errorf("hwtest: analogue: hover chance %v: want 0 to 1", opts.Hover)
	}
	switch {
	case opts.HoverHeight == 0:
		opts.HoverHeight = 4.5
	case !(opts.HoverHeight > 0 && opts.HoverHeight <= 20):
		return nil, fmt.Errorf("hwtest: analogue: hover height %v mm: want more than 0, at most 20", opts.HoverHeight)
	}
	hb, err := hallsim.NewBoard(opts.Board, opts.BoardSeed)
	if err != nil {
		return nil, fmt.Errorf("hwtest: analogue: %w", err)
	}
	m := hb.Model()
	a := &AnalogTrace{opts: opts, board: hb, hmax: 5 * m.Depth, clear: 1.5 * m.Depth, settle: debounce, first: true}
	a.occ = start.Occupancy()
	land := func(sq board.Square) (x, y float64) {
		x, y = m.Centre(sq)
		r := opts.OffCentre * math.Sqrt(rng.Float64())
		th := 2 * math.Pi * rng.Float64()
		return x + r*math.Cos(th), y + r*math.Sin(th)
	}
	newMan := func(c board.Color) (int, error) {
		if len(a.men) == hallsim.MaxMen {
			return -1, fmt.Errorf("hwtest: analogue: more than %d men", hallsim.MaxMen)
		}
		strength := m.Field * (1 + m.FieldSpread*(2*rng.Float64()-1))
		if c == board.Black {
			strength = -strength
		}
		a.men = append(a.men, analogMan{colour: c, strength: strength, away: true})
		return len(a.men) - 1, nil
	}
	var on [64]int
	var changed [64]float64 // when each square last changed, ms
	var left [64][2]int     // the man last lifted from each square, and his stay
	for i := range on {
		on[i] = -1
		changed[i] = math.Inf(-1)
		left[i] = [2]int{-1, -1}
	}
	for sq := range 64 {
		man := start.Men[sq]
		if man == board.NoMan {
			continue
		}
		id, err := newMan(man.Color())
		if err != nil {
			return nil, err
		}
		x, y := land(board.Square(sq))
		on[sq] = id
		a.men[id].spells = []spell{{a: math.Inf(-1), b: math.Inf(1), read: math.Inf(-1), x: x, y: y}}
	}
	// A lift is read once a man's field has fallen by half (the classifier
	// reads a lift half way from his level at rest): his rise is timed to
	// pass that height at the lift's moment, less the debounce. A placement
	// is read SettleTime after his level has come within its noise of his
	// seated one: his landing is timed so that this falls at the place's
	// moment, less the debounce.
	ms := func(t time.Duration) float64 { return float64(t) / float64(time.Millisecond) }
	top := a.clear
	liftAt := minJerkAt(hallsim.HalfHeight(m.Depth, 0.5) / top)
	hSeat := hallsim.HalfHeight(m.Depth, 1-seatedWithin)
	seated := func(from float64) float64 { return minJerkAt(1 - hSeat/from) }
	settle := ms(calibration.SettleTime)
	ramp := func() float64 { return opts.Slow * (rampShortest + (rampLongest-rampShortest)*rng.Float64()) }
	const carry = 10.0     // ms at the carrying height, at least, between two stays
	const afterRead = 25.0 // ms a man stays down, at least, after his placement is read
	var hand []int
	places := 0
	for _, l := range lines {
		if l.Kind != trace.Setup {
			l.T += opts.Started
		}
		switch l.Kind {
		case trace.Lift:
			id := on[l.Square]
			if id < 0 {
				return nil, fmt.Errorf("hwtest: analogue: %s lifted at %v from an empty square", l.Square, l.T)
			}
			on[l.Square] = -1
			changed[l.Square] = ms(l.T)
			sp := &a.men[id].spells[len(a.men[id].spells)-1]
			sp.cross = ms(l.T - debounce)
			// He rises only once his placement has been read.
			sp.up = max(min(ramp(), (sp.cross-sp.read-afterRead)/liftAt), rampLeast)
			sp.b = sp.cross - liftAt*sp.up
			left[l.Square] = [2]int{id, len(a.men[id].spells) - 1}
			hand = append(hand, id)
			a.events = append(a.events, l)
		case trace.Place:
			if on[l.Square] >= 0 {
				return nil, fmt.Errorf("hwtest: analogue: %s set down at %v on a man", l.Square, l.T)
			}
			pick := -1
			if places < len(placed) {
				for i, id := range hand {
					if a.men[id].colour == placed[places] {
						pick = i
						break
					}
				}
				if pick < 0 {
					return nil, fmt.Errorf("hwtest: analogue: %s set down at %v with no %v man in hand", l.Square, l.T, placed[places])
				}
			} else if len(hand) > 0 {
				pick = 0
			}
			places++
			var id int
			if pick >= 0 {
				id = hand[pick]
				hand = append(hand[:pick], hand[pick+1:]...)
			} else {
				c := board.White
				if l.Square.Rank() >= 4 {
					c = board.Black
				}
				if id, err = newMan(c); err != nil {
					return nil, err
				}
			}
			x, y := land(l.Square)
			ns := spell{read: ms(l.T - debounce), b: math.Inf(1), down: ramp(), x: x, y: y}
			var prev *spell
			if pick >= 0 && len(a.men[id].spells) > 0 {
				prev = &a.men[id].spells[len(a.men[id].spells)-1]
			}
			// room is the time a descent of d ms from height from, with
			// extra ms before it, leaves the last stay's rise after his
			// lift is read and his carry across.
			landing := func(d, from float64) float64 { return ns.read - settle + (1-seated(from))*d }
			room := func(d, from, extra float64) float64 { return landing(d, from) - d - extra - prev.cross }
			var pass *spell
			if prev != nil && rng.Float64() < opts.Hover {
				h := spell{hover: opts.HoverHeight * (1 + rng.Float64()), hold: hoverShortest + (hoverLongest-hoverShortest)*rng.Float64(),
					into: ns.down / 2, tremor: tremorMost * rng.Float64(), freq: 2 * math.Pi * (tremorLow + (tremorHigh-tremorLow)*rng.Float64()) / 1000,
					phi: 2 * math.Pi * rng.Float64()}
				over := l.Square
				if rng.IntN(2) == 0 {
					over = emptyBeside(l.Square, on[:], rng)
				}
				extra := h.into + h.hold
				if over != l.Square {
					extra += ns.down/2 + carry // his rise from the hover, and across
				}
				need := (1-liftAt)*rampLeast + carry
				if r := room(ns.down, h.hover, extra); r < need {
					cut := min(need-r, h.hold-hoverShortest)
					h.hold -= cut
					extra -= cut
				}
				start := landing(ns.down, h.hover) - ns.down - extra
				if over.Valid() && room(ns.down, h.hover, extra) >= need && changed[over] < start-100 && on[over] < 0 {
					if over == l.Square {
						a.hovers[0]++
						ns.hover, ns.hold, ns.into, ns.tremor, ns.freq, ns.phi = h.hover, h.hold, h.into, h.tremor, h.freq, h.phi
					} else {
						h.pass, h.up = true, ns.down/2
						h.x, h.y = a.board.Model().Centre(over)
						h.x += opts.OffCentre * (rng.Float64() - 0.5)
						h.y += opts.OffCentre * (rng.Float64() - 0.5)
						pass = &h
						a.hovers[1]++
					}
				}
			}
			from, extra := top, 0.0
			if ns.hover > 0 {
				from, extra = ns.hover, ns.hold+ns.into
			}
			if pass != nil {
				extra = pass.into + pass.hold + pass.up + carry
			}
			if prev != nil {
				// As slow as the events leave time for: the last rise
				// first, then this descent.
				if r := room(ns.down, from, extra) - carry; r < (1-liftAt)*prev.up {
					prev.up = max(r/(1-liftAt), rampLeast)
					prev.b = prev.cross - liftAt*prev.up
				}
				if r := room(ns.down, from, extra) - carry - (1-liftAt)*prev.up; r < 0 {
					// room falls by seated(from) for each ms the descent
					// is made longer
					ns.down = max(ns.down+r/seated(from), rampLeast)
				}
			}
			ns.a = landing(ns.down, from)
			if v := left[l.Square]; v[0] >= 0 && v[0] != id {
				// The man last lifted from here is clear of the square,
				// however slow his hand, before this one is lowered onto
				// it: one hand cannot set a man down through another.
				gone := &a.men[v[0]].spells[v[1]]
				if by := ns.a - ns.descent() - carry; gone.b+gone.up > by {
					gone.up = max((by-gone.cross)/(1-liftAt), rampLeast)
					gone.b = gone.cross - liftAt*gone.up
				}
				if over := gone.b + gone.up + carry - (ns.a - ns.descent()); over > 0 {
					// Still in the way: a quicker descent, without a hover.
					if ns.hover > 0 {
						a.hovers[0]--
					}
					if pass != nil {
						a.hovers[1]--
						pass = nil
					}
					ns.hover, ns.hold, ns.into = 0, 0, 0
					ns.down = max(ns.down-over/seated(top), rampLeast)
					ns.a = landing(ns.down, top)
				}
			}
			if pass != nil {
				pass.a = ns.a - ns.descent() - carry - pass.up
				pass.b = pass.a
				a.men[id].spells = append(a.men[id].spells, *pass)
			}
			on[l.Square] = id
			changed[l.Square] = ms(l.T)
			a.men[id].spells = append(a.men[id].spells, ns)
			a.events = append(a.events, l)
		default:
			if l.Kind == trace.Setup {
				l.Calibration = opts.Calibration
			}
			a.others = append(a.others, l)
		}
		a.end = max(a.end, l.T)
	}
	a.end += time.Second
	return a, nil
}

// Board returns the board the trace is read from.
func (a *AnalogTrace) Board() *hallsim.Board { return a.board }

// Next returns the next line, false after the last.
func (a *AnalogTrace) Next() (trace.Line, bool) {
	if a.ot < len(a.others) && (a.others[a.ot].T < a.now || a.others[a.ot].Kind == trace.Setup) {
		l := a.others[a.ot]
		a.ot++
		a.first = false
		return l, true
	}
	if a.now > a.end {
		if a.ot < len(a.others) {
			l := a.others[a.ot]
			a.ot++
			return l, true
		}
		return trace.Line{}, false
	}
	t := a.now
	if a.now+LeadPeriod < a.opts.Started {
		a.now += LeadPeriod
	} else {
		a.now += a.opts.Period
	}
	for a.ev < len(a.events) && a.events[a.ev].T-a.settle <= t {
		e := a.events[a.ev]
		if e.Kind == trace.Lift {
			a.occ = a.occ.Without(e.Square)
		} else {
			a.occ = a.occ.With(e.Square)
		}
		a.ev++
	}
	ms := float64(t) / float64(time.Millisecond)
	for i := range a.over {
		a.over[i] = math.Inf(1)
	}
	p := a.board.Model().Pitch
	for id := range a.men {
		a.move(id, ms)
		if m := &a.men[id]; !m.away {
			f, r := int(math.Round(m.x/p)), int(math.Round(m.y/p))
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				sq := board.NewSquare(f, r)
				a.over[sq] = min(a.over[sq], m.h)
			}
		}
	}
	l := trace.Line{T: t, Kind: trace.Frame, Occupancy: a.occ, Bits: uint8(a.board.Model().Bits)}
	a.board.Read(t, &l.Analog)
	if a.first {
		l.Calibration = a.opts.Calibration
		a.first = false
	}
	return l, true
}

// Height returns how high above square sq the lowest man over it was at
// the last frame line, in mm: 0 for a man at rest, +Inf for none within
// reach of its sensor.
func (a *AnalogTrace) Height(sq board.Square) float64 {
	if !sq.Valid() {
		return math.Inf(1)
	}
	return a.over[sq]
}

// Hovers returns how many times a hand held a man above the square it then
// set him down on, and above another square before moving on.
func (a *AnalogTrace) Hovers() (onto, beside int) { return a.hovers[0], a.hovers[1] }

// Lines renders the whole trace.
func (a *AnalogTrace) Lines() []trace.Line {
	var out []trace.Line
	for {
		l, ok := a.Next()
		if !ok {
			return out
		}
		out = append(out, l)
	}
}

// move puts man id where he is at time t (ms): seated in a stay, coming
// down to one, rising from one, held above a square, or carried from one
// to the next.
func (a *AnalogTrace) move(id int, t float64) {
	m := &a.men[id]
	for m.cur+1 < len(m.spells) && m.spells[m.cur+1].a <= t {
		m.cur++
	}
	k := &m.spells[m.cur]
	h := k.height(t, a.clear)
	x, y := k.x, k.y
	if m.cur+1 < len(m.spells) {
		n := &m.spells[m.cur+1]
		h = min(h, n.height(t, a.clear))
		// Carried in a straight line from the one stay to the next, once
		// the hand has lifted him clear of the board, and set down
		// straight: across at the top of his path when it is lower.
		from, to := k.b+k.up, n.a-n.descent()
		if from >= to {
			from = (from + to) / 2
			to = from
		}
		switch {
		case t >= to:
			x, y = n.x, n.y
		case t > from:
			f := (t - from) / (to - from)
			x, y = k.x+f*(n.x-k.x), k.y+f*(n.y-k.y)
		}
	} else if gone := t - (k.b + k.up); gone > 0 {
		// Taken off the board: once clear of it, carried away from its
		// middle to the side, not straight up over his square.
		cx := 3.5 * a.board.Model().Pitch
		dx, dy := k.x-cx, k.y-cx
		if r := math.Hypot(dx, dy); r > 0 {
			dx, dy = dx/r, dy/r
		} else {
			dx, dy = 1, 0
		}
		x, y = k.x+2*farSpeed*gone*dx, k.y+2*farSpeed*gone*dy
	}
	if h >= a.hmax {
		if !m.away {
			a.board.Remove(id)
			m.away = true
		}
		return
	}
	if !m.away && h == m.h && x == m.x && y == m.y {
		return
	}
	a.board.Put(id, x, y, h, m.strength)
	m.x, m.y, m.h, m.away = x, y, h, false
}

// emptyBeside returns an empty square beside sq (on[s] < 0), drawn by rng,
// or NoSquare when none is.
func emptyBeside(sq board.Square, on []int, rng *rand.Rand) board.Square {
	var near [8]board.Square
	n := 0
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			f, r := sq.File()+df, sq.Rank()+dr
			if (df != 0 || dr != 0) && f >= 0 && f < 8 && r >= 0 && r < 8 && on[board.NewSquare(f, r)] < 0 {
				near[n] = board.NewSquare(f, r)
				n++
			}
		}
	}
	if n == 0 {
		return board.NoSquare
	}
	return near[rng.IntN(n)]
}
