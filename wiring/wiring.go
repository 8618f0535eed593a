// Package wiring opens the hardware a configuration wires to the board:
// the sensor scanner, the LED sink, the players' buttons and the clock
// displays, on periph.io's buses and pins (or fakes in tests), and the
// calibration an analogue board reads through. It is shared by the daemon
// and the calibration tools; it decides nothing about the game.
package wiring

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/devices/v3/tm1637"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"

	"github.com/boardd/boardd/button"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Buses opens the buses and pins a configuration names: periph's
// registries on the board (Periph), fakes in tests.
type Buses interface {
	SPI(name string) (spi.PortCloser, error)
	I2C(name string) (i2c.BusCloser, error)
	Pin(name string) (gpio.PinIO, error)
	// Lines requests GPIO lines of chip ("" for the first) as one group:
	// outputs, or inputs with pull-ups.
	Lines(chip string, names []string, output bool) (gpio.Group, io.Closer, error)
}

// Periph opens periph's host drivers (sysfs SPI and I²C, the GPIO character
// device) on first use. The zero value is ready.
type Periph struct {
	once sync.Once
	err  error
}

func (p *Periph) init() error {
	p.once.Do(func() {
		if _, err := host.Init(); err != nil {
			p.err = fmt.Errorf("periph: %w", err)
		}
	})
	return p.err
}

func (p *Periph) SPI(name string) (spi.PortCloser, error) {
	if err := p.init(); err != nil {
		return nil, err
	}
	var present, aliases []string
	for _, r := range spireg.All() {
		present = append(present, r.Name)
		aliases = append(append(aliases, r.Aliases...), strconv.Itoa(r.Number))
	}
	if fault := busMissing("SPI port", name, present, aliases, "is SPI enabled: dtparam=spi=on, dtoverlay=spi1-1cs for SPI1?"); fault != nil {
		return nil, fault
	}
	port, err := spireg.Open(name)
	if err != nil {
		return nil, fmt.Errorf("SPI port %s: %w (is SPI enabled: dtparam=spi=on, dtoverlay=spi1-1cs for SPI1?)", name, err)
	}
	return port, nil
}

// busMissing is the fault of opening the bus name (an "SPI port", an "I²C
// bus") when the host has only the buses present, also known by aliases
// (their other names and numbers): nil if it is among them.
// It says so in boardd's words, with hint, instead of the registry's own
// ("did you forget to call Init()?", a note to periph's programmers that
// says nothing to a board's owner: Init was called).
func busMissing(kind, name string, present, aliases []string, hint string) error {
	if slices.Contains(present, name) || slices.Contains(aliases, name) {
		return nil
	}
	if len(present) == 0 {
		return fmt.Errorf("%s %s: this machine has none (not a Raspberry Pi, or the bus is off: %s)", kind, name, hint)
	}
	return fmt.Errorf("%s %s: not on this machine, which has %s (%s)", kind, name, strings.Join(present, ", "), hint)
}

func (p *Periph) I2C(name string) (i2c.BusCloser, error) {
	if err := p.init(); err != nil {
		return nil, err
	}
	var present, aliases []string
	for _, r := range i2creg.All() {
		present = append(present, r.Name)
		aliases = append(append(aliases, r.Aliases...), strconv.Itoa(r.Number))
	}
	if fault := busMissing("I²C bus", name, present, aliases, "is I²C enabled: dtparam=i2c_arm=on?"); fault != nil {
		return nil, fault
	}
	bus, err := i2creg.Open(name)
	if err != nil {
		return nil, fmt.Errorf("I²C bus %s: %w (is I²C enabled: dtparam=i2c_arm=on?)", name, err)
	}
	return bus, nil
}

func (p *Periph) Pin(name string) (gpio.PinIO, error) {
	if err := p.init(); err != nil {
		return nil, err
	}
	pin := gpioreg.ByName(name)
	if pin == nil {
		return nil, fmt.Errorf("no GPIO named %s (gpioinfo lists the names)", name)
	}
	return pin, nil
}

func (p *Periph) Lines(chip string, names []string, output bool) (gpio.Group, io.Closer, error) {
	if err := p.init(); err != nil {
		return nil, nil, err
	}
	if len(gpioioctl.Chips) == 0 {
		return nil, nil, errors.New("no GPIO character device (/dev/gpiochip*)")
	}
	c := gpioioctl.Chips[0]
	if chip != "" {
		c = nil
		for _, x := range gpioioctl.Chips {
			if x.Name() == strings.TrimPrefix(chip, "/dev/") || x.Path() == chip {
				c = x
			}
		}
		if c == nil {
			return nil, nil, fmt.Errorf("no GPIO chip %s", chip)
		}
	}
	dir, pull := gpioioctl.LineInput, gpio.PullUp
	if output {
		dir, pull = gpioioctl.LineOutput, gpio.PullNoChange
	}
	ls, err := c.LineSet(dir, gpio.NoEdge, pull, names...)
	if err != nil {
		return nil, nil, fmt.Errorf("GPIO lines %s on %s: %w", strings.Join(names, ","), c.Name(), err)
	}
	return ls, ls, nil
}

// closers gathers what must be closed, last opened first.
type closers []func() error

func (cs *closers) add(fn func() error) { *cs = append(*cs, fn) }

func (cs closers) close() error {
	var errs []error
	for i := len(cs) - 1; i >= 0; i-- {
		if err := cs[i](); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// OpenScanner builds the configured scanner on b. The closer halts it and
// closes its buses.
func OpenScanner(c *config.Config, b Buses) (sensor.Scanner, func() error, error) {
	var cs closers
	fail := func(err error) (sensor.Scanner, func() error, error) {
		_ = cs.close()
		return nil, nil, fmt.Errorf("sensor %s: %w", c.Sensor.Wiring, err)
	}
	squares := c.SensorSquares()
	var sc sensor.Scanner
	s := &c.Sensor
	switch s.Wiring {
	case config.WiringHC165:
		port, err := b.SPI(s.HC165.SPI)
		if err != nil {
			return fail(err)
		}
		cs.add(port.Close)
		load, err := b.Pin(s.HC165.Load)
		if err != nil {
			return fail(err)
		}
		h, err := sensor.NewHC165(port, &sensor.HC165Opts{Load: load, Chips: s.HC165.Chips, Speed: s.HC165.Speed,
			Check: s.HC165.Check, ActiveLow: s.HC165.ActiveLow, Squares: squares})
		if err != nil {
			return fail(err)
		}
		sc = h
	case config.WiringMCP23017:
		bus, err := b.I2C(s.MCP23017.I2C)
		if err != nil {
			return fail(err)
		}
		cs.add(bus.Close)
		m, err := sensor.NewMCP23017(bus, &sensor.MCP23017Opts{Addrs: s.MCP23017.Addresses, ActiveLow: s.MCP23017.ActiveLow, Squares: squares})
		if err != nil {
			return fail(err)
		}
		sc = m
	case config.WiringMatrix:
		rows, rc, err := b.Lines(s.Matrix.GPIOChip, s.Matrix.Rows, true)
		if err != nil {
			return fail(err)
		}
		cs.add(rc.Close)
		cols, cc, err := b.Lines(s.Matrix.GPIOChip, s.Matrix.Columns, false)
		if err != nil {
			return fail(err)
		}
		cs.add(cc.Close)
		settle := s.Matrix.Settle
		if settle == 0 {
			settle = time.Nanosecond // the file's 0 means no wait; the driver's 0 means its default
		}
		x, err := sensor.NewMatrix(&sensor.MatrixOpts{Rows: rows, Columns: cols, Settle: settle, Squares: squares})
		if err != nil {
			return fail(err)
		}
		sc = x
	case config.WiringMCP3008, config.WiringMCP3208:
		port, err := b.SPI(s.ADC.SPI)
		if err != nil {
			return fail(err)
		}
		cs.add(port.Close)
		var selects []gpio.PinOut
		for _, name := range s.ADC.ChipSelects {
			p, err := b.Pin(name)
			if err != nil {
				return fail(err)
			}
			selects = append(selects, p)
		}
		chip := sensor.MCP3008
		if s.Wiring == config.WiringMCP3208 {
			chip = sensor.MCP3208
		}
		a, err := sensor.NewADC(port, &sensor.ADCOpts{Chip: chip, ChipSelects: selects, Speed: s.ADC.Speed,
			Quiet: uint16(s.ADC.Quiet), Threshold: uint16(s.ADC.Threshold), Squares: squares})
		if err != nil {
			return fail(err)
		}
		sc = a
	default:
		return fail(fmt.Errorf("no scanner for wiring %q", s.Wiring))
	}
	cs.add(sc.Halt)
	return sc, cs.close, nil
}

// OpenButtons builds the configured buttons on b: each press goes to press,
// as a trace line; each button held down for HoldTime goes to hold when it
// is let go (nil: holds are not sensed).
func OpenButtons(c *config.Config, b Buses, clock timing.Clock, press func(trace.Line), hold func(button.Hold), log *slog.Logger) (*button.Set, error) {
	keys := make([]string, 0, len(c.Buttons.Pins))
	for k := range c.Buttons.Pins {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var list []button.Button
	for _, k := range keys {
		side, name, _ := strings.Cut(k, "_")
		pin, err := b.Pin(c.Buttons.Pins[k])
		if err != nil {
			return nil, fmt.Errorf("buttons.%s: %w", k, err)
		}
		list = append(list, button.Button{Name: name, Side: side, Pin: pin})
	}
	return button.New(button.Opts{Buttons: list, ActiveHigh: c.Buttons.ActiveHigh, Debounce: c.Buttons.Debounce,
		Clock: clock, Press: press, Logger: log, HoldTime: HoldTime, Hold: hold})
}

// HoldTime is how long a button must stay down to be held (the voice's
// requests: docs/hardware.md).
const HoldTime = time.Second

// LocalSensor reports whether the sensor wiring is one OpenScanner opens
// (sensors read on this machine's buses).
func LocalSensor(w string) bool {
	switch w {
	case config.WiringHC165, config.WiringMCP23017, config.WiringMatrix, config.WiringMCP3008, config.WiringMCP3208:
		return true
	}
	return false
}

// OpenLEDs builds the configured LED sink on b. The closer turns the LEDs
// off and closes the bus.
func OpenLEDs(c *config.Config, b Buses) (led.Sink, func() error, error) {
	var cs closers
	fail := func(err error) (led.Sink, func() error, error) {
		_ = cs.close()
		return nil, nil, fmt.Errorf("leds %s: %w", c.LED.Wiring, err)
	}
	l := &c.LED
	strip := &led.StripOpts{Squares: c.LEDSquares(), Brightness: l.Brightness, Gamma: l.Gamma}
	matrix := &led.MatrixOpts{Squares: c.LEDSquares(), Brightness: l.Brightness}
	var sink led.Sink
	switch l.Wiring {
	case config.WiringWS2812, config.WiringSK6812, config.WiringAPA102, config.WiringMAX7219:
		st := map[string]config.Strip{config.WiringWS2812: l.WS2812, config.WiringSK6812: l.SK6812,
			config.WiringAPA102: l.APA102, config.WiringMAX7219: l.MAX7219}[l.Wiring]
		port, err := b.SPI(st.SPI)
		if err != nil {
			return fail(err)
		}
		cs.add(port.Close)
		if st.Speed != 0 {
			if err := port.LimitSpeed(st.Speed); err != nil {
				return fail(err)
			}
		}
		switch l.Wiring {
		case config.WiringAPA102:
			sink, err = led.NewAPA102(port, strip)
		case config.WiringMAX7219:
			sink, err = led.NewMAX7219(port, matrix)
		default:
			sink, err = led.NewWS2812(port, l.Wiring, strip)
		}
		if err != nil {
			return fail(err)
		}
	case config.WiringHT16K33:
		bus, err := b.I2C(l.HT16K33.I2C)
		if err != nil {
			return fail(err)
		}
		cs.add(bus.Close)
		if sink, err = led.NewHT16K33(bus, l.HT16K33.Address, matrix); err != nil {
			return fail(err)
		}
	default:
		return fail(fmt.Errorf("no LED driver for wiring %q", l.Wiring))
	}
	cs.add(sink.Halt)
	return sink, cs.close, nil
}

// BoardName is the name a calibration is made under: the scanner's, and a
// fingerprint of the configured sensor and LED layouts and orientation, so
// that a calibration made before the layouts changed is refused rather than
// believed. boardd run must name the board the same way.
func BoardName(sc sensor.Scanner, c *config.Config) string {
	h := fnv.New32a()
	fmt.Fprint(h, c.SensorSquares(), c.LEDSquares(), c.LED.Wiring)
	return fmt.Sprintf("%s, layout %08x", sc, h.Sum32())
}

// needsCalibration reports whether the configured sensors are analogue:
// such a board reads nothing trustworthy without a calibration.
func needsCalibration(c *config.Config) bool {
	return c.Sensor.Wiring == config.WiringMCP3008 || c.Sensor.Wiring == config.WiringMCP3208
}

// LoadCalibration reads the calibration in stateDir for boardd run. It
// returns nil and no error when there is none and the wiring does not need
// one (a digital board then reads through its configured layout). A missing
// calibration for analogue sensors, or a corrupt or other-version file, is
// refused with a message that says how to recalibrate. Hardware identity is
// checked by CalibratedScanner once the scanner is open.
func LoadCalibration(c *config.Config, stateDir string) (*calibration.Calibration, error) {
	cal, err := calibration.LoadAny(calibration.Path(stateDir))
	switch {
	case errors.Is(err, calibration.ErrMissing) && !needsCalibration(c):
		return nil, nil
	case err != nil:
		return nil, err
	}
	if err := cal.Unfit(); err != nil {
		return nil, err
	}
	return cal, nil
}

// CalibratedScanner checks that cal was made on the raw scanner sc opened
// from configuration c (and the layouts c names), and wraps sc so that its
// frames' occupancy comes from the calibration, with drift tracked on
// clock. A nil cal returns sc unchanged. Wrap the LED sink to match with
// calibration.MapLEDs(sink, cal) when cal.LEDs > 0.
func CalibratedScanner(sc sensor.Scanner, c *config.Config, cal *calibration.Calibration, clock timing.Clock) (sensor.Scanner, error) {
	if cal == nil {
		return sc, nil
	}
	id, err := calibration.Identify(sc, BoardName(sc, c))
	if err != nil {
		return nil, err
	}
	if err := cal.Check(id); err != nil {
		return nil, err
	}
	return calibration.NewScanner(sc, cal, clock, classifierOptions())
}

// classifierOptions are how the running board classifies its sensors'
// readings: the replay of an analogue trace must read them the same way.
func classifierOptions() calibration.ClassifierOptions {
	return calibration.ClassifierOptions{} // the defaults: drift tracked over a minute
}

// TraceClassifier reads a trace's analogue frames through cal as boardd run
// reads an analogue board's scans through it (the same classifier and
// options), for boardd replay --calibration.
func TraceClassifier(cal *calibration.Calibration) (*calibration.TraceClassifier, error) {
	return calibration.NewTraceClassifier(cal, classifierOptions())
}

// OpenClockDisplay builds the two TM1637 clock displays the configuration
// wires ([clock_display]); ok is false when none is wired.
func OpenClockDisplay(c *config.Config, b Buses) (disp *led.TM1637Clocks, ok bool, err error) {
	cd := c.ClockDisplay
	if !cd.Configured() {
		return nil, false, nil
	}
	var pins [4]gpio.PinIO
	for i, name := range []string{cd.WhiteCLK, cd.WhiteDIO, cd.BlackCLK, cd.BlackDIO} {
		if pins[i], err = b.Pin(name); err != nil {
			return nil, false, fmt.Errorf("clock_display: %w", err)
		}
	}
	o := led.TM1637Opts{WhiteCLK: pins[0], WhiteDIO: pins[1], BlackCLK: pins[2], BlackDIO: pins[3], Brightness: tm1637Brightness(cd.Brightness)}
	if disp, err = led.NewTM1637Clocks(o); err != nil {
		return nil, false, fmt.Errorf("clock_display: %w", err)
	}
	return disp, true, nil
}

// tm1637Brightness maps a step from 1 to 8 onto the chip's PWM levels.
func tm1637Brightness(step int) tm1637.Brightness {
	levels := [...]tm1637.Brightness{tm1637.Brightness1, tm1637.Brightness2, tm1637.Brightness4, tm1637.Brightness10,
		tm1637.Brightness11, tm1637.Brightness12, tm1637.Brightness13, tm1637.Brightness14}
	if step < 1 || step > len(levels) {
		return 0 // the driver's default
	}
	return levels[step-1]
}
