package hallsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/boardd/boardd/board"
)

// MaxMen is how many men a Board tracks at once (ids 0 to MaxMen-1).
const MaxMen = 64

// reach is how many squares away from a man his field is reckoned: two
// squares off, at the default geometry, it is 0.1 % of his own.
const reach = 2

// sensorPart is one square's sensor as built.
type sensorPart struct {
	quiet float64 // quiescent output, V
	gain  float64 // sensitivity, V/G
	drift float64 // quiescent drift, V/°C
}

// contribution is a man's field at the sensors around him.
type contribution struct {
	present bool
	sensors [(2*reach + 1) * (2*reach + 1)]int8 // square indexes, -1 for none
	field   [(2*reach + 1) * (2*reach + 1)]float64
}

// Board is the physics of one analogue board: its parts, drawn from the
// Model's spreads by a seed, and the men standing on it or passing over it.
// Read gives the ADC's 64 readings at a time. It is not safe for concurrent
// use.
type Board struct {
	m       Model
	seed    uint64
	rng     *rand.Rand
	parts   [64]sensorPart
	chanOf  [64]int          // square -> ADC channel
	sqOf    [64]board.Square // channel -> square
	steps   [8][]float32     // per chip, code k's lower transition (k = 0..N-1), in LSB
	noise   float64          // sensor and ADC noise together, in LSB rms
	lsb     float64          // volts a code
	lo, hi  float64          // the output's swing, V
	field   [64]float64      // field at each sensor, G
	men     [MaxMen]contribution
	started time.Duration // the board's time when Read's time 0 falls
}

// NewBoard builds the board of model m whose parts come from seed: two
// boards of one model and seed are the same board.
func NewBoard(m Model, seed uint64) (*Board, error) {
	m = m.withDefaults()
	if err := m.check(); err != nil {
		return nil, err
	}
	b := &Board{m: m, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x4a11_5e45))}
	parts := rand.New(rand.NewPCG(seed, 0x9a27))
	scale := m.Supply / 5 // ratiometric sensors
	for sq := range b.parts {
		p := &b.parts[sq]
		p.quiet = m.Supply / 2 * (1 + m.OffsetSpread*(2*parts.Float64()-1))
		p.gain = m.Sensitivity / 1000 * scale * (1 + m.GainSpread*(2*parts.Float64()-1))
		// One draw gives the drift's size, 0.5 to 1.5 of NullDrift, and
		// (unless the board drifts together) its sign.
		u := parts.Float64()
		p.drift = m.NullDrift / 1000 * scale * (0.5 + u)
		if !m.DriftTogether {
			p.drift = m.NullDrift / 1000 * scale * (0.5 + 2*math.Abs(u-0.5))
			if u < 0.5 {
				p.drift = -p.drift
			}
		}
		if board.Square(sq) == m.Weak {
			p.gain *= m.WeakGain
			if m.WeakDrift != 0 {
				p.drift = m.WeakDrift / 1000 * scale
			}
		}
	}
	for sq := range b.chanOf {
		b.chanOf[sq] = sq
	}
	if m.Scrambled {
		perm := parts.Perm(64)
		copy(b.chanOf[:], perm)
	}
	for sq, c := range b.chanOf {
		b.sqOf[c] = board.Square(sq)
	}
	codes := 1 << m.Bits
	for chip := range b.steps {
		// Code k's lower edge sits at k, moved by the chip's bow (INL, of
		// either sign) and each edge's own error (DNL): widths stay positive.
		bow := m.INL * (2*parts.Float64() - 1)
		steps := make([]float32, codes)
		for k := 1; k < codes; k++ {
			steps[k] = float32(float64(k) + bow*math.Sin(math.Pi*float64(k)/float64(codes)) + m.DNL*(parts.Float64()-0.5))
		}
		steps[0] = float32(math.Inf(-1))
		b.steps[chip] = steps
	}
	b.lsb = m.Supply / float64(codes)
	b.noise = math.Hypot(m.SensorNoise/1000/b.lsb, m.ADCNoise)
	b.lo, b.hi = m.Rail*m.Supply, (1-m.Rail)*m.Supply
	return b, nil
}

// Model returns the board's model, defaults filled in.
func (b *Board) Model() Model { return b.m }

// String names the board by its seed and ADC.
func (b *Board) String() string {
	return fmt.Sprintf("hallsim board (seed %d, %d-bit ADC)", b.seed, b.m.Bits)
}

// Channel returns the ADC channel square sq's sensor is wired to.
func (b *Board) Channel(sq board.Square) int { return b.chanOf[sq] }

// SetStarted says how long the board has been on at Read's time 0: its
// temperature (and so its sensors' drift) follows from that moment.
func (b *Board) SetStarted(d time.Duration) { b.started = d }

// Temperature returns how far the board has warmed at time t, in °C.
func (b *Board) Temperature(t time.Duration) float64 {
	return b.m.warmed(t + b.started)
}

// NullDrift returns how far square sq's sensor's quiescent output has moved
// at time t, in mV: its own drift times the board's warming.
func (b *Board) NullDrift(sq board.Square, t time.Duration) float64 {
	return b.parts[sq].drift * b.Temperature(t) * 1000
}

// Put sets man id (0 to MaxMen-1) at (x, y) on the board's plane (mm from
// a1's centre) and h mm above his seat, with field strength (G at his own
// sensor when seated right above it; negative for Black's pole). A man
// already there is moved.
func (b *Board) Put(id int, x, y, h, strength float64) {
	c := &b.men[id]
	b.remove(c)
	c.present = true
	p := b.m.Pitch
	f0, r0 := int(math.Round(x/p)), int(math.Round(y/p))
	n := 0
	for df := -reach; df <= reach; df++ {
		for dr := -reach; dr <= reach; dr++ {
			f, r := f0+df, r0+dr
			if f < 0 || f > 7 || r < 0 || r > 7 {
				c.sensors[n] = -1
				n++
				continue
			}
			sq := board.NewSquare(f, r)
			sx, sy := b.m.Centre(sq)
			v := strength * OffAxis(b.m.Depth, math.Hypot(x-sx, y-sy), h)
			c.sensors[n], c.field[n] = int8(sq), v
			b.field[sq] += v
			n++
		}
	}
}

// Remove takes man id off the board (out of reach of every sensor).
func (b *Board) Remove(id int) { b.remove(&b.men[id]) }

func (b *Board) remove(c *contribution) {
	if !c.present {
		return
	}
	for i, sq := range c.sensors {
		if sq >= 0 {
			b.field[sq] -= c.field[i]
		}
	}
	c.present = false
}

// Clear takes every man off.
func (b *Board) Clear() {
	for i := range b.men {
		b.men[i].present = false
	}
	b.field = [64]float64{}
}

// Field returns the field at square sq's sensor, in gauss.
func (b *Board) Field(sq board.Square) float64 { return b.field[sq] }

// Read converts every sensor at time t: levels[c] is ADC channel c's code.
func (b *Board) Read(t time.Duration, levels *[64]uint16) {
	temp := b.Temperature(t)
	top := 1<<b.m.Bits - 1
	for c := range levels {
		sq := b.sqOf[c]
		p := &b.parts[sq]
		v := p.quiet + p.drift*temp + p.gain*b.field[sq]
		v = min(max(v, b.lo), b.hi)
		x := v/b.lsb + b.noise*b.rng.NormFloat64()
		steps := b.steps[c/8]
		k := int(math.Floor(x))
		k = min(max(k, 0), top)
		for k < top && float64(steps[k+1]) <= x {
			k++
		}
		for k > 0 && float64(steps[k]) > x {
			k--
		}
		levels[c] = uint16(k)
	}
}

// Level returns what square sq's sensor reads on average with field g
// (gauss) at time t, in counts, without noise or the ADC's nonlinearity:
// for tests and figures.
func (b *Board) Level(sq board.Square, g float64, t time.Duration) float64 {
	p := &b.parts[sq]
	v := p.quiet + p.drift*b.Temperature(t) + p.gain*g
	return min(max(v, b.lo), b.hi) / b.lsb
}
