// Package hallsim simulates an analogue Hall-sensor chessboard from its
// physics and its parts' datasheets: a magnet in each man's base, a linear
// Hall sensor (SS49E type) under each square, eight MCP3008 (10-bit) or
// MCP3208 (12-bit) ADCs reading the 64 sensors on the supply's reference.
//
// Each way a real board's readings stray is one named field of Model, so
// that a test can turn one up at a time and see how far it can go before a
// move is lost: the sensors' offset and gain spread, their drift (each part
// of its own sign) as the board warms after it is switched on, crosstalk (a man's field reaching the sensors of
// the squares around it, which strong magnets make large), men set
// off-centre (the hands' doing, so the synthesiser's), the ADC's noise and
// nonlinearity, and one weak sensor. docs/calibration.md gives the figures
// and where each default comes from.
//
// The magnet is a point dipole at an effective depth below the board's
// surface: the vertical field it makes at a sensor falls with the cube of
// the distance and turns negative beyond about 55 degrees off its axis, so a
// man raises his own square's reading and lowers, a little, his
// neighbours'. Board is the physics alone, read at any time; Rig puts it
// behind the interfaces the calibration wizard and self-test drive.
//
// It knows squares, magnets, sensors and ADCs; nothing of chess.
package hallsim

import (
	"fmt"
	"math"
	"time"

	"github.com/boardd/boardd/board"
)

// Model is a board's design and the spread of its parts. The zero value of a
// field means its default (DefaultModel), except where a field says that
// zero turns its source off; use Off to turn a source off explicitly.
type Model struct {
	// Bits is the ADC's resolution: 10 (MCP3008) or 12 (MCP3208).
	Bits int

	// Pitch is the size of a square, in mm (40: a 32 cm board).
	Pitch float64
	// Depth is the distance from a seated man's magnet to the sensing
	// element below it, in mm (10): the depth of the point dipole that
	// stands for a magnet a few millimetres across under a board top and a
	// sensor package. The field of a man set r mm off-centre is half the
	// centred one at r = Depth/2.
	Depth float64

	// Field is a centred man's field at his own sensor, in gauss (400: a
	// 10 x 3 mm N42 disc at this depth); Black's men carry the opposite pole
	// down. Raising it is how the tests make crosstalk: the sensors of the
	// squares around a man see Field times the dipole's fall-off (-0.6 % a
	// side neighbour at the defaults, -0.24 % a diagonal one), while a man's own sensor saturates at
	// the output's rails.
	Field float64
	// FieldSpread is how much the men's magnets differ: each man's field is
	// Field times 1 ± FieldSpread (0.1).
	FieldSpread float64

	// Supply is the sensors' and the ADCs' supply and reference, in volts
	// (3.3, as docs/hardware.md wires them): the sensors are ratiometric,
	// so supply ripple cancels.
	Supply float64
	// Sensitivity is the sensors' typical sensitivity at 5 V, in mV/G (1.7,
	// the middle of the SS49E's 1.4 to 2.0); it scales with Supply/5.
	Sensitivity float64
	// GainSpread is the sensor-to-sensor spread of sensitivity: each is
	// Sensitivity times 1 ± GainSpread (0.18: 1.4 to 2.0 mV/G).
	GainSpread float64
	// OffsetSpread is the spread of the sensors' quiescent output around
	// Supply/2, as a fraction of Supply/2 (0.1: the SS49E's 2.25 to 2.75 V
	// at 5 V).
	OffsetSpread float64
	// Rail is how close to either supply rail the output can swing, as a
	// fraction of Supply (0.17: about 0.86 to 4.2 V at 5 V); beyond it the
	// sensor saturates.
	Rail float64
	// SensorNoise is the sensor's output noise, in mV rms (0.5; the
	// datasheet says only "low noise", so this is an assumption the sweep
	// in the tests looks past).
	SensorNoise float64

	// Warming is how many degrees the board warms after it is switched on
	// (6 °C: the LEDs, the Pi, a room filling up), approached with time
	// constant WarmUp.
	Warming float64
	// WarmUp is the time constant of the board's warming (15 minutes).
	WarmUp time.Duration
	// NullDrift is the sensors' quiescent drift, in mV/°C at 5 V (1.0,
	// scaled with Supply): each part drifts NullDrift times 0.5 to 1.5, of
	// its own sign, so that neighbours drift apart as the board warms.
	NullDrift float64
	// DriftTogether gives every part's drift the same sign (upwards), as if
	// temperature moved the whole board alike: the common drift an earlier
	// model had.
	DriftTogether bool
	// WeakDrift, when not zero, is the weak sensor's own null drift in
	// mV/°C at 5 V, of either sign, instead of a part's drawn one: a sensor
	// that drifts away from its neighbours (under a man, say).
	WeakDrift float64

	// ADCNoise is the ADC's transition noise, in LSB rms (0.3).
	ADCNoise float64
	// INL is the amplitude of the ADC's integral nonlinearity, a bow across
	// the range, in LSB (1: the MCP3208-B's and MCP3008's maximum).
	INL float64
	// DNL is the spread of each code's width, ± in LSB (0.5; the datasheets'
	// maximum is 1, which still misses no code).
	DNL float64

	// Weak is one square whose sensor answers weakly (its gain times
	// WeakGain): a damaged part, or one seated deeper than the rest.
	// DefaultModel puts it on e4 (the zero Model's square is a1).
	Weak board.Square
	// WeakGain is the weak sensor's sensitivity as a fraction of what it
	// would be (0.4); 1 for no weak sensor, Off for a dead one.
	WeakGain float64

	// Scrambled wires the sensors to the ADC channels in an order of the
	// board's seed, as a builder might, for the calibration to learn;
	// otherwise channel i is square i (docs/hardware.md's order).
	Scrambled bool
}

// Off stands for zero in a Model field whose zero means the default.
const Off = -1

// DefaultModel is a healthy board as built from the datasheets' parts with
// one weak sensor on e4, read by an MCP3208.
func DefaultModel() Model {
	return Model{
		Bits: 12, Pitch: 40, Depth: 10, Field: 400, FieldSpread: 0.1,
		Supply: 3.3, Sensitivity: 1.7, GainSpread: 0.18, OffsetSpread: 0.1, Rail: 0.17, SensorNoise: 0.5,
		Warming: 6, WarmUp: 15 * time.Minute, NullDrift: 1.0,
		ADCNoise: 0.3, INL: 1, DNL: 0.5,
		Weak: board.Square(28), WeakGain: 0.4,
	}
}

// withDefaults fills the zero fields from DefaultModel and turns Off into 0.
func (m Model) withDefaults() Model {
	d := DefaultModel()
	def := func(v *float64, dv float64) {
		switch {
		case *v == Off:
			*v = 0
		case *v == 0:
			*v = dv
		}
	}
	if m.Bits == 0 {
		m.Bits = d.Bits
	}
	def(&m.Pitch, d.Pitch)
	def(&m.Depth, d.Depth)
	def(&m.Field, d.Field)
	def(&m.FieldSpread, d.FieldSpread)
	def(&m.Supply, d.Supply)
	def(&m.Sensitivity, d.Sensitivity)
	def(&m.GainSpread, d.GainSpread)
	def(&m.OffsetSpread, d.OffsetSpread)
	def(&m.Rail, d.Rail)
	def(&m.SensorNoise, d.SensorNoise)
	def(&m.Warming, d.Warming)
	def(&m.NullDrift, d.NullDrift)
	if m.WarmUp <= 0 {
		m.WarmUp = d.WarmUp
	}
	def(&m.ADCNoise, d.ADCNoise)
	def(&m.INL, d.INL)
	def(&m.DNL, d.DNL)
	def(&m.WeakGain, d.WeakGain)
	return m
}

// check refuses a model no board can have.
func (m Model) check() error {
	switch {
	case m.Bits < 8 || m.Bits > 16:
		return fmt.Errorf("hallsim: %d-bit ADC: want 8 to 16 bits", m.Bits)
	case !(m.Pitch >= 10 && m.Pitch <= 100):
		return fmt.Errorf("hallsim: pitch %v mm: want 10 to 100", m.Pitch)
	case !(m.Depth >= 2 && m.Depth <= 40):
		return fmt.Errorf("hallsim: depth %v mm: want 2 to 40", m.Depth)
	case !(m.Field > 0 && m.Field <= 1e5):
		return fmt.Errorf("hallsim: field %v G: want more than 0, at most 100000", m.Field)
	case !(m.Supply >= 2.7 && m.Supply <= 5.5):
		return fmt.Errorf("hallsim: supply %v V: want 2.7 to 5.5", m.Supply)
	case !(m.Rail >= 0 && m.Rail < 0.45):
		return fmt.Errorf("hallsim: rail %v: want 0 to 0.45 of the supply", m.Rail)
	case !(m.DNL >= 0 && m.DNL < 1):
		return fmt.Errorf("hallsim: DNL %v LSB: want less than 1 (no missing codes)", m.DNL)
	case !m.Weak.Valid():
		return fmt.Errorf("hallsim: weak sensor on square %d", m.Weak)
	}
	for name, v := range map[string]float64{"field spread": m.FieldSpread, "gain spread": m.GainSpread, "offset spread": m.OffsetSpread} {
		if !(v >= 0 && v < 1) {
			return fmt.Errorf("hallsim: %s %v: want a fraction from 0 to below 1", name, v)
		}
	}
	for name, v := range map[string]float64{"sensitivity": m.Sensitivity, "sensor noise": m.SensorNoise, "warming": m.Warming,
		"null drift": m.NullDrift, "weak drift": math.Abs(m.WeakDrift), "ADC noise": m.ADCNoise, "INL": m.INL, "weak gain": m.WeakGain} {
		if !(v >= 0 && v <= 1e4) || math.IsNaN(v) {
			return fmt.Errorf("hallsim: %s %v: want 0 or more", name, v)
		}
	}
	return nil
}

// Temperature returns how far a board of this model has warmed when it has
// been on for d, in °C.
func (m Model) Temperature(d time.Duration) float64 {
	return m.withDefaults().warmed(d)
}

// warmed is Temperature for a model with its defaults filled in.
func (m Model) warmed(d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return m.Warming * (1 - math.Exp(-d.Seconds()/m.WarmUp.Seconds()))
}

// Centre returns the centre of square sq on the board's plane, in mm from
// a1's centre.
func (m Model) Centre(sq board.Square) (x, y float64) {
	return float64(sq.File()) * m.Pitch, float64(sq.Rank()) * m.Pitch
}

// OffAxis returns the vertical field of a dipole at lateral distance r and
// height h above its seated place (both in mm), as a fraction of its field
// seated right above the sensor, for a board of depth d: (3cos²θ-1)/2 ·
// (d/R)³, where R is the distance and θ the angle from the vertical.
func OffAxis(d, r, h float64) float64 {
	z := d + h
	r2 := r*r + z*z
	return (3*z*z/r2 - 1) / 2 * d * d * d / (r2 * math.Sqrt(r2))
}

// HalfHeight returns the height above its seat at which a centred man's
// field has fallen to fraction f of its seated value, for depth d.
func HalfHeight(d, f float64) float64 {
	return d * (math.Cbrt(1/f) - 1)
}
