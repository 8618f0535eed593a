package hallsim

import (
	"context"
	"io"
	"math/rand/v2"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// Rig puts a Board where the calibration wizard and the self-test can work
// on it, on injected time: it is a sensor.Scanner (the 64 readings in
// channel order) and the board a calibration.SimPerson handles, setting
// men down centred, each with his own magnet. It has no LEDs, so the wizard
// names every square. It is not safe for concurrent use.
type Rig struct {
	Board   *Board
	clock   timing.Clock
	rng     *rand.Rand
	men     board.Occupancy
	pending []rigAction
	levels  [64]uint16
}

type rigAction struct {
	at time.Duration
	do func()
}

// NewRig puts board b on clock; seed draws the magnets of the men the person
// sets down.
func NewRig(b *Board, clock timing.Clock, seed uint64) *Rig {
	return &Rig{Board: b, clock: clock, rng: rand.New(rand.NewPCG(seed, 0x71c))}
}

// Place sets a man of colour c on square sq, centred, now.
func (r *Rig) Place(sq board.Square, c board.Color) {
	if !sq.Valid() {
		return
	}
	m := r.Board.m
	s := m.Field * (1 + m.FieldSpread*(2*r.rng.Float64()-1))
	if c == board.Black {
		s = -s
	}
	x, y := m.Centre(sq)
	r.Board.Put(int(sq), x, y, 0, s)
	r.men = r.men.With(sq)
}

// Lift takes the man off square sq now.
func (r *Rig) Lift(sq board.Square) {
	if sq.Valid() {
		r.Board.Remove(int(sq))
		r.men = r.men.Without(sq)
	}
}

// Clear takes every man off now.
func (r *Rig) Clear() {
	r.Board.Clear()
	r.men = 0
}

// Men returns the squares holding a man.
func (r *Rig) Men() board.Occupancy { return r.men }

// At schedules fn for the first scan at or after time t.
func (r *Rig) At(t time.Duration, fn func()) { r.pending = append(r.pending, rigAction{t, fn}) }

// Lit reports that no LED is lit: the rig has none.
func (r *Rig) Lit(board.Square) bool { return false }

// LitSquares reports that no LED is lit.
func (r *Rig) LitSquares() board.Occupancy { return 0 }

// Scan runs the actions due and reads the board at the clock's time.
func (r *Rig) Scan(f *sensor.Frame) error {
	now := r.clock.Now()
	for {
		first := -1
		for i, a := range r.pending {
			if a.at <= now && (first < 0 || a.at < r.pending[first].at) {
				first = i
			}
		}
		if first < 0 {
			break
		}
		a := r.pending[first]
		r.pending = append(r.pending[:first], r.pending[first+1:]...)
		a.do()
	}
	r.Board.Read(now, &r.levels)
	if cap(f.Analog) < 64 {
		f.Analog = make([]uint16, 64)
	}
	f.Analog = f.Analog[:64]
	copy(f.Analog, r.levels[:])
	f.T, f.Occupancy = now, 0
	return nil
}

// Halt does nothing: there is no bus.
func (r *Rig) Halt() error { return nil }

// String is the board's name: the calibration made on the rig names it.
func (r *Rig) String() string { return r.Board.String() }

var _ sensor.Scanner = (*Rig)(nil)

// Calibrate runs boardd's calibration wizard on board b as `boardd calibrate
// --sim --sim-auto` runs it on the simulated board: on virtual time, with a
// simulated person setting a man of each colour on each square it names,
// from a board that has been on for b's SetStarted time. It returns the
// calibration and the wizard's report.
func Calibrate(ctx context.Context, b *Board) (*calibration.Calibration, *calibration.Report, error) {
	s, _ := session(b)
	return calibration.Calibrate(ctx, s, calibration.WizardOptions{})
}

// SelfTest runs boardd's self-test on board b with calibration cal, as
// `boardd selftest --sim --sim-auto` does (no LEDs to walk), and returns its
// report.
func SelfTest(ctx context.Context, b *Board, cal *calibration.Calibration) (*calibration.Report, error) {
	s, _ := session(b)
	return calibration.SelfTest(ctx, s, cal, calibration.SelfTestOptions{NoLEDs: true})
}

// session puts b on a rig and a virtual clock with a person who answers.
func session(b *Board) (*calibration.Session, *Rig) {
	clock := &timing.Virtual{}
	rig := NewRig(b, clock, b.seed)
	answers := make(chan string, 64)
	person := &calibration.SimPerson{Board: rig, Clock: clock, Answers: answers}
	return &calibration.Session{
		Scanner: rig, Clock: clock, Wait: calibration.VirtualWait(clock, 0),
		Out: io.Discard, In: answers, Observe: person.Observe,
	}, rig
}
