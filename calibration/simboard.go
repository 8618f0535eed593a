package calibration

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// Faults are the defects a SimBoard can be built with.
type Faults struct {
	// DeadSensors read a constant with no noise and never answer a man.
	DeadSensors board.Occupancy
	// StuckOn sensors read as if a man stood on the square.
	StuckOn board.Occupancy
	// Noisy sensors have eight times the normal noise.
	Noisy board.Occupancy
	// Crossed pairs {A, B}: A's sensor wire also carries B's signal, so a
	// man on B is read on A too.
	Crossed [][2]board.Square
	// Swapped pairs {A, B}: the wires of A's and B's sensors are swapped
	// since calibration, so a man on A is read on B and one on B on A.
	Swapped [][2]board.Square
	// DeadLEDs never light.
	DeadLEDs board.Occupancy
}

// ParseFaults reads faults written as a comma-separated list of KIND=SQUARE
// items: dead=e4, stuck=h3, noisy=b7, deadled=f6, cross=c4+c3 (c4's sensor
// also reads a man on c3) and swap=a1+b1 (the two sensors' wires swapped).
// An empty text means no faults.
func ParseFaults(text string) (Faults, error) {
	var f Faults
	if strings.TrimSpace(text) == "" {
		return f, nil
	}
	for _, item := range strings.Split(text, ",") {
		kind, arg, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return f, fmt.Errorf("calibration: fault %q: want KIND=SQUARE (dead, stuck, noisy, deadled, cross=A+B, swap=A+B)", item)
		}
		if kind == "cross" || kind == "swap" {
			a, b, ok := strings.Cut(arg, "+")
			sa, erra := board.ParseSquare(a)
			sb, errb := board.ParseSquare(b)
			if !ok || erra != nil || errb != nil || sa == sb {
				return f, fmt.Errorf("calibration: fault %q: want %s=A+B with two different squares", item, kind)
			}
			if kind == "cross" {
				f.Crossed = append(f.Crossed, [2]board.Square{sa, sb})
			} else {
				f.Swapped = append(f.Swapped, [2]board.Square{sa, sb})
			}
			continue
		}
		sq, err := board.ParseSquare(arg)
		if err != nil {
			return f, fmt.Errorf("calibration: fault %q: %w", item, err)
		}
		switch kind {
		case "dead":
			f.DeadSensors = f.DeadSensors.With(sq)
		case "stuck":
			f.StuckOn = f.StuckOn.With(sq)
		case "noisy":
			f.Noisy = f.Noisy.With(sq)
		case "deadled":
			f.DeadLEDs = f.DeadLEDs.With(sq)
		default:
			return f, fmt.Errorf("calibration: fault %q: unknown kind %q (dead, stuck, noisy, deadled, cross, swap)", item, kind)
		}
	}
	return f, nil
}

// SimOptions describe a simulated board.
type SimOptions struct {
	// Seed fixes the board's gains, offsets, wiring and noise.
	Seed uint64
	// Polarity of the men's magnets (Dual if empty).
	Polarity Polarity
	// Noise is each sensor's noise, in counts (2.5 if zero).
	Noise float64
	// Strength is a man's signal at unit gain, in counts (520 if zero).
	Strength float64
	// Drift is the temperature drift common to all sensors, in counts per
	// hour of board time (each sensor by its own coefficient, 0.9 to 1.1).
	Drift float64
	// SquareDrift adds drift of one square's sensor alone, in counts per
	// hour of board time.
	SquareDrift map[board.Square]float64
	// Digital makes the board report on/off occupancy bits, not readings.
	Digital bool
	// NoLEDs makes a board without LEDs.
	NoLEDs bool
	// Faults to build in.
	Faults Faults
}

type simChannel struct {
	base, gain, coef, own float64
}

type simAction struct {
	at time.Duration
	do func()
}

// SimBoard is a simulated analogue Hall-sensor board with an LED under each
// square, on injected time. Each sensor has its own offset, gain, noise and
// drift; the sensors are wired to channels in a scrambled order and the LEDs
// run in a snake from a8. It is a sensor.Scanner (readings in channel order)
// and a led.Sink (frames indexed by LED position on the chain). Men are put
// on and taken off by Place and Lift, now or at a scheduled time. It is not
// safe for concurrent use.
type SimBoard struct {
	opts     SimOptions
	clock    timing.Clock
	rng      *rand.Rand
	chans    [64]simChannel
	chanOf   [64]int          // physical square -> channel
	sqOf     [64]board.Square // channel -> physical square
	ledOf    [64]int          // physical square -> LED index
	men      [64]float64      // signed magnet signal per square
	colour   [64]board.Color  // colour of the man on each square
	lit      board.Occupancy  // LED indices lit
	pending  []simAction
	readings [64]uint16
}

// NewSimBoard builds a simulated board on clock.
func NewSimBoard(clock timing.Clock, opts SimOptions) *SimBoard {
	if opts.Polarity == "" {
		opts.Polarity = Dual
	}
	if opts.Noise == 0 {
		opts.Noise = 2.5
	}
	if opts.Strength == 0 {
		opts.Strength = 520
	}
	b := &SimBoard{opts: opts, clock: clock, rng: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x5eed))}
	perm := b.rng.Perm(64)
	for sq := range 64 {
		b.chanOf[sq] = perm[sq]
		b.sqOf[perm[sq]] = board.Square(sq)
	}
	for c := range b.chans {
		b.chans[c] = simChannel{
			base: 2048 + 60*b.rng.NormFloat64(),
			gain: 0.75 + 0.5*b.rng.Float64(),
			coef: 0.9 + 0.2*b.rng.Float64(),
			own:  -15 + 30*b.rng.Float64(),
		}
	}
	for k := range 64 {
		row := k / 8 // 0 is rank 8
		file := k % 8
		if row%2 == 1 {
			file = 7 - file
		}
		b.ledOf[board.NewSquare(file, 7-row)] = k
	}
	return b
}

// String names the board; it depends only on the seed and the kind, so a
// calibration made on it fits it again whatever faults are built in.
func (b *SimBoard) String() string {
	kind := "analogue"
	if b.opts.Digital {
		kind = "digital"
	}
	return fmt.Sprintf("sim %s board (seed %d)", kind, b.opts.Seed)
}

// Place puts a man of colour c on square sq now.
func (b *SimBoard) Place(sq board.Square, c board.Color) {
	if !sq.Valid() {
		return
	}
	s := b.opts.Strength * (0.9 + 0.2*b.rng.Float64())
	if c == board.Black && b.opts.Polarity == Dual {
		s = -s
	}
	b.men[sq], b.colour[sq] = s, c
}

// Lift takes the man off square sq now.
func (b *SimBoard) Lift(sq board.Square) {
	if sq.Valid() {
		b.men[sq] = 0
	}
}

// SetFaults replaces the board's faults: a board that was healthy when it
// was calibrated can fail later.
func (b *SimBoard) SetFaults(f Faults) { b.opts.Faults = f }

// Clear takes every man off now.
func (b *SimBoard) Clear() { b.men = [64]float64{} }

// At schedules fn to run when the board is scanned at or after time t.
func (b *SimBoard) At(t time.Duration, fn func()) {
	b.pending = append(b.pending, simAction{at: t, do: fn})
}

// Men returns the squares holding a man.
func (b *SimBoard) Men() board.Occupancy {
	var o board.Occupancy
	for sq, m := range b.men {
		if m != 0 {
			o = o.With(board.Square(sq))
		}
	}
	return o
}

// ChannelOf returns the channel truly wired to square sq's sensor.
func (b *SimBoard) ChannelOf(sq board.Square) int { return b.chanOf[sq] }

// LEDOf returns the index on the LED chain of square sq's LED, or -1 on a
// board without LEDs.
func (b *SimBoard) LEDOf(sq board.Square) int {
	if b.opts.NoLEDs {
		return -1
	}
	return b.ledOf[sq]
}

// HasLEDs reports whether the board has LEDs.
func (b *SimBoard) HasLEDs() bool { return !b.opts.NoLEDs }

// Lit reports whether square sq's LED is lit (a dead LED never is).
func (b *SimBoard) Lit(sq board.Square) bool {
	if b.opts.NoLEDs || !sq.Valid() || b.opts.Faults.DeadLEDs.Has(sq) {
		return false
	}
	return b.lit.Has(board.Square(b.ledOf[sq]))
}

// LitSquares returns the squares whose LEDs are lit.
func (b *SimBoard) LitSquares() board.Occupancy {
	var o board.Occupancy
	for sq := range 64 {
		if b.Lit(board.Square(sq)) {
			o = o.With(board.Square(sq))
		}
	}
	return o
}

// Scan runs the actions that are due and reads every sensor at the clock's
// time.
func (b *SimBoard) Scan(f *sensor.Frame) error {
	now := b.clock.Now()
	b.runDue(now)
	hours := now.Hours()
	fl := b.opts.Faults
	for c := range b.chans {
		ch := &b.chans[c]
		sq := b.sqOf[c]
		for _, x := range fl.Swapped {
			switch sq {
			case x[0]:
				sq = x[1]
			case x[1]:
				sq = x[0]
			}
		}
		if fl.DeadSensors.Has(sq) {
			b.readings[c] = uint16(math.Round(ch.base))
			continue
		}
		field := b.men[sq]
		for _, x := range fl.Crossed {
			if x[0] == sq {
				field += b.men[x[1]]
			}
		}
		if fl.StuckOn.Has(sq) {
			field = b.opts.Strength
		}
		noise := b.opts.Noise
		if fl.Noisy.Has(sq) {
			noise *= 8
		}
		v := ch.base + (ch.coef*b.opts.Drift+ch.own+b.opts.SquareDrift[b.sqOf[c]])*hours + ch.gain*field + noise*b.rng.NormFloat64()
		b.readings[c] = uint16(math.Round(max(0, min(4095, v))))
	}
	f.T = now
	if b.opts.Digital {
		f.Analog = nil
		var o board.Occupancy
		for c := range b.chans {
			if math.Abs(float64(b.readings[c])-b.chans[c].base) > b.opts.Strength*b.chans[c].gain/2 {
				o = o.With(board.Square(c))
			}
		}
		f.Occupancy = o
		return nil
	}
	if cap(f.Analog) < 64 {
		f.Analog = make([]uint16, 64)
	}
	f.Analog = f.Analog[:64]
	copy(f.Analog, b.readings[:])
	f.Occupancy = 0
	return nil
}

func (b *SimBoard) runDue(now time.Duration) {
	for len(b.pending) > 0 {
		// Actions run in the order they fall due (and were scheduled).
		first := -1
		for i, a := range b.pending {
			if a.at <= now && (first < 0 || a.at < b.pending[first].at) {
				first = i
			}
		}
		if first < 0 {
			return
		}
		a := b.pending[first]
		b.pending = append(b.pending[:first], b.pending[first+1:]...)
		a.do()
	}
}

// Show lights the LEDs of frame f, whose index is the position on the LED
// chain (not a square: the board's LED wiring is what calibration learns).
func (b *SimBoard) Show(f *led.Frame, t time.Duration) error {
	var o board.Occupancy
	for k := range 64 {
		if f.Lit(board.Square(k), t) {
			o = o.With(board.Square(k))
		}
	}
	b.lit = o
	return nil
}

// Deadline reports that the simulated LEDs need no waking.
func (b *SimBoard) Deadline() (time.Duration, bool) { return 0, false }

// Halt turns the LEDs off.
func (b *SimBoard) Halt() error {
	b.lit = 0
	return nil
}

// Picture draws the board as a person sees it: '*' a lit square, 'W' and
// 'B' men, '.' an empty dark square; rank 8 at the top.
func (b *SimBoard) Picture() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		fmt.Fprintf(&sb, "  %d ", r+1)
		for f := 0; f < 8; f++ {
			sq := board.NewSquare(f, r)
			c := byte('.')
			switch {
			case b.men[sq] != 0 && b.colour[sq] == board.White:
				c = 'W'
			case b.men[sq] != 0:
				c = 'B'
			case b.Lit(sq):
				c = '*'
			}
			sb.WriteByte(' ')
			sb.WriteByte(c)
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("     a b c d e f g h\n")
	return sb.String()
}

var (
	_ sensor.Scanner = (*SimBoard)(nil)
	_ led.Sink       = (*SimBoard)(nil)
)
