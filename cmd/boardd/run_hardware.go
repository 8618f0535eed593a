package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/button"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/pipeline"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"
)

// startHardware starts what the configuration wires to the board: the scan
// loop (through the board's calibration, if it has one) feeding
// d.runner.Frame and raising the fault the LEDs show, and the players'
// buttons feeding d.runner.Submit. With the sim or none sensor it
// starts no scanner (the console simulates the board). The LED sink is
// built earlier, by ledSink, for the pipeline.
func (d *daemon) startHardware() error {
	c, _, err := d.loadConfig()
	if err != nil {
		return usageError{err}
	}
	ctx, cancel := context.WithCancel(d.ctx)
	var wg sync.WaitGroup
	var hw closers // closed once the loop and the buttons have stopped
	d.onClose(func() error {
		cancel()
		wg.Wait()
		return hw.close()
	})
	b := &periphBuses{}
	wiring := c.Sensor.Wiring
	switch {
	case wiring == config.WiringSim || wiring == config.WiringNone:
		d.log.Info("no sensor hardware", "sensor", wiring)
	case strings.HasPrefix(wiring, config.SerialPrefix):
		if err := d.serialSensor(strings.TrimPrefix(wiring, config.SerialPrefix)); err != nil {
			return err
		}
	default:
		// With a calibration (boardd calibrate), occupancy comes from it;
		// analogue sensors must have one.
		cal, err := loadRunCalibration(c, d.stateDir)
		if err != nil {
			return usageError{err}
		}
		sc, closeSc, err := openScanner(c, b)
		if err != nil {
			return err
		}
		hw.add(closeSc)
		if sc, err = calibratedScanner(sc, c, cal, d.clock); err != nil {
			var fe *calibration.FileError
			if errors.As(err, &fe) {
				return usageError{err} // made on other hardware: recalibrate
			}
			return err // the first scan failed
		}
		loop, err := sensor.NewLoop(sc, d.loopOpts(ctx, c))
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = loop.Run(ctx)
			st := loop.Stats()
			d.log.Info("scan loop stopped", "scanner", sc.String(), "stats", st.String())
		}()
		d.log.Info("scanning", "scanner", sc.String(), "rate", c.Sensor.Rate)
	}
	if len(c.Buttons.Pins) > 0 {
		set, err := openButtons(c, b, d.clock, func(l trace.Line) { d.press(ctx, l) }, d.log)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = set.Run(ctx)
		}()
		d.log.Info("buttons", "set", set.String())
	}
	return nil
}

// loopOpts wires a scan loop to the runner: frames in, faults to the LEDs.
func (d *daemon) loopOpts(ctx context.Context, c *config.Config) sensor.LoopOpts {
	return sensor.LoopOpts{
		Rate:       c.Sensor.Rate,
		Retries:    retries(c.Sensor.Retries),
		FaultAfter: c.Sensor.FaultAfter,
		Clock:      d.clock,
		Frame:      func(f *sensor.Frame) { d.runner.Frame(ctx, f.Occupancy) },
		Fault: func(t time.Duration, fault bool, err error) {
			_ = d.runner.Do(ctx, func(p *pipeline.Pipeline, now time.Duration) { p.SetFault(now, fault) })
		},
		Logger: d.log,
	}
}

// retries maps the file's retries (0 meaning none) onto the loop's (0
// meaning the default).
func retries(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// press submits a button press; a press the game has no use for is logged.
func (d *daemon) press(ctx context.Context, l trace.Line) {
	if err := d.runner.Submit(ctx, l); err != nil && ctx.Err() == nil {
		d.log.Warn("button press not applied", "button", l.Button, "side", l.Side, "err", err)
	}
}

// buses opens the buses and pins a configuration names: periph's
// registries on the board, fakes in tests.
type buses interface {
	SPI(name string) (spi.PortCloser, error)
	I2C(name string) (i2c.BusCloser, error)
	Pin(name string) (gpio.PinIO, error)
	// Lines requests GPIO lines of chip ("" for the first) as one group:
	// outputs, or inputs with pull-ups.
	Lines(chip string, names []string, output bool) (gpio.Group, io.Closer, error)
}

// periphBuses opens periph's host drivers (sysfs SPI and I²C, the GPIO
// character device) on first use.
type periphBuses struct {
	once sync.Once
	err  error
}

func (p *periphBuses) init() error {
	p.once.Do(func() {
		if _, err := host.Init(); err != nil {
			p.err = fmt.Errorf("periph: %w", err)
		}
	})
	return p.err
}

func (p *periphBuses) SPI(name string) (spi.PortCloser, error) {
	if err := p.init(); err != nil {
		return nil, err
	}
	port, err := spireg.Open(name)
	if err != nil {
		return nil, fmt.Errorf("SPI port %s: %w (is SPI enabled: dtparam=spi=on, dtoverlay=spi1-1cs for SPI1?)", name, err)
	}
	return port, nil
}

func (p *periphBuses) I2C(name string) (i2c.BusCloser, error) {
	if err := p.init(); err != nil {
		return nil, err
	}
	bus, err := i2creg.Open(name)
	if err != nil {
		return nil, fmt.Errorf("I²C bus %s: %w (is I²C enabled: dtparam=i2c_arm=on?)", name, err)
	}
	return bus, nil
}

func (p *periphBuses) Pin(name string) (gpio.PinIO, error) {
	if err := p.init(); err != nil {
		return nil, err
	}
	pin := gpioreg.ByName(name)
	if pin == nil {
		return nil, fmt.Errorf("no GPIO named %s (gpioinfo lists the names)", name)
	}
	return pin, nil
}

func (p *periphBuses) Lines(chip string, names []string, output bool) (gpio.Group, io.Closer, error) {
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

// openScanner builds the configured scanner on b. The closer halts it and
// closes its buses.
func openScanner(c *config.Config, b buses) (sensor.Scanner, func() error, error) {
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

// openButtons builds the configured buttons on b.
func openButtons(c *config.Config, b buses, clock timing.Clock, press func(trace.Line), log *slog.Logger) (*button.Set, error) {
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
		Clock: clock, Press: press, Logger: log})
}
