package hwtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/boardd/boardd/board"
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
}

// Hand speeds near the board, in mm/ms: the last centimetre of setting a
// man down, or the first of lifting him, takes 25 to 65 ms.
const (
	slowestHand = 0.15
	fastestHand = 0.4
)

// LeadPeriod is the time between the frames of an analogue trace before
// the game begins: the classifier's drift tracking steps by the time
// between frames, so sparse frames track as the daemon's 100 a second do.
const LeadPeriod = time.Second

// analogGap is the least time an analogue trace leaves between two changes
// of one square (a capture's victim lifted, the capturing man set down):
// the debounce, a scan, and the spread of the moments the readings cross
// their thresholds as men of different strengths rise and fall.
const analogGap = 60 * time.Millisecond

// spell is one stay of a man on a square: he lands at a (ms) coming down
// at va mm/ms and starts to rise at b going up at vb, at (x, y) on the
// board's plane. A stay shorter than his descent and ascent (b before a)
// is a dip that may not reach the board.
type spell struct {
	a, b   float64
	va, vb float64
	x, y   float64
}

// height is how high above the stay's square the man is at time t (ms),
// going by this stay alone: 0 while he stands, rising at vb after b,
// coming down at va before a.
func (s *spell) height(t float64) float64 {
	h := 0.0
	if t < s.a {
		h = s.va * (s.a - t)
	}
	if t > s.b {
		h = max(h, s.vb*(t-s.b))
	}
	return h
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
	speed := func() float64 { return slowestHand + (fastestHand-slowestHand)*rng.Float64() }
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
	for i := range on {
		on[i] = -1
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
		a.men[id].spells = []spell{{a: math.Inf(-1), b: math.Inf(1), x: x, y: y}}
	}
	// The heights at which a centred man of nominal strength reads half his
	// field (a placement is read there) and a quarter (a lift): the events'
	// moments, less the debounce, are put there.
	hOn, hOff := hallsim.HalfHeight(m.Depth, 0.5), hallsim.HalfHeight(m.Depth, 0.25)
	var hand []int
	places := 0
	ms := func(t time.Duration) float64 { return float64(t) / float64(time.Millisecond) }
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
			v := speed()
			sp := &a.men[id].spells[len(a.men[id].spells)-1]
			sp.b, sp.vb = ms(l.T-debounce)-hOff/v, v
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
			on[l.Square] = id
			v := speed()
			x, y := land(l.Square)
			a.men[id].spells = append(a.men[id].spells, spell{a: ms(l.T-debounce) + hOn/v, b: math.Inf(1), va: v, x: x, y: y})
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
	for id := range a.men {
		a.move(id, ms)
	}
	l := trace.Line{T: t, Kind: trace.Frame, Occupancy: a.occ, Bits: uint8(a.board.Model().Bits)}
	a.board.Read(t, &l.Analog)
	if a.first {
		l.Calibration = a.opts.Calibration
		a.first = false
	}
	return l, true
}

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
// down to one, rising from one, or carried from one to the next.
func (a *AnalogTrace) move(id int, t float64) {
	m := &a.men[id]
	for m.cur+1 < len(m.spells) && m.spells[m.cur+1].a <= t {
		m.cur++
	}
	k := &m.spells[m.cur]
	h := k.height(t)
	x, y := k.x, k.y
	if m.cur+1 < len(m.spells) {
		n := &m.spells[m.cur+1]
		h = min(h, n.height(t))
		// Carried in a straight line from the one stay to the next, once
		// the hand has lifted him clear of the board, and set down
		// straight: across at the top of his path when it is lower.
		from, to := k.b+a.clear/k.vb, n.a-a.clear/n.va
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
