package main

import (
	"fmt"
	"strings"

	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
)

// ledSink builds the LED sink the configuration names, for pipeline.New:
// nil for none or sim (the console shows the LEDs), the serial board's for
// serial:PATH, else a driver on its bus. Halting the LEDs and closing the
// bus are registered with d.onClose.
func (d *daemon) ledSink() (led.Sink, error) {
	c, _, err := d.loadConfig()
	if err != nil {
		return nil, usageError{err}
	}
	w := c.LED.Wiring
	switch {
	case w == config.WiringNone || w == config.WiringSim:
		return nil, nil
	case strings.HasPrefix(w, config.SerialPrefix):
		return d.serialLEDs(strings.TrimPrefix(w, config.SerialPrefix))
	}
	sink, closeSink, err := openLEDs(c, &periphBuses{})
	if err != nil {
		return nil, err
	}
	d.onClose(closeSink)
	d.log.Info("LEDs", "sink", sink.String())
	if !localSensor(c.Sensor.Wiring) {
		return sink, nil
	}
	// A calibration made on this board knows where each square's LED is;
	// startHardware refuses one made on other hardware.
	cal, err := loadRunCalibration(c, d.stateDir)
	if err != nil {
		return nil, usageError{err}
	}
	if cal != nil && cal.LEDs > 0 {
		return calibration.MapLEDs(sink, cal), nil
	}
	return sink, nil
}

// localSensor reports whether the sensor wiring is one openScanner opens.
func localSensor(w string) bool {
	switch w {
	case config.WiringHC165, config.WiringMCP23017, config.WiringMatrix, config.WiringMCP3008, config.WiringMCP3208:
		return true
	}
	return false
}

// openLEDs builds the configured LED sink on b. The closer turns the LEDs
// off and closes the bus.
func openLEDs(c *config.Config, b buses) (led.Sink, func() error, error) {
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
