package daemon

import (
	"context"
	"strings"

	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/wiring"
)

// startLEDs shows the game's LEDs on the sink the configuration names: none
// for none or sim (the console shows the LEDs), the serial board's for
// serial:PATH, else a driver on its bus, mapped through the board's
// calibration. A led.Driver shows each new frame on its own goroutine, so
// the game never waits for the LEDs' bus; it halts the sink when the daemon
// stops.
func (d *daemon) startLEDs() error {
	sink, err := d.ledSink()
	if err != nil || sink == nil {
		return err
	}
	d.leds = led.NewDriver(sink, d.clock, d.log)
	lighting.Follow(d.runner, d.leds)
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.leds.Run(ctx)
	}()
	d.onClose(func() error {
		cancel()
		<-done
		return nil
	})
	d.log.Info("LEDs", "sink", sink.String())
	return nil
}

// ledSink builds the LED sink the configuration names (nil for none or
// sim). Closing the bus is registered with d.onClose.
func (d *daemon) ledSink() (led.Sink, error) {
	c := d.cfg
	w := c.LED.Wiring
	switch {
	case w == config.WiringNone || w == config.WiringSim:
		return nil, nil
	case strings.HasPrefix(w, config.SerialPrefix):
		return d.serialLEDs(strings.TrimPrefix(w, config.SerialPrefix))
	}
	sink, closeSink, err := wiring.OpenLEDs(c, &wiring.Periph{})
	if err != nil {
		return nil, err
	}
	d.onClose(closeSink)
	if !wiring.LocalSensor(c.Sensor.Wiring) {
		return sink, nil
	}
	// A calibration made on this board knows where each square's LED is;
	// startHardware refuses one made on other hardware.
	cal, err := wiring.LoadCalibration(c, d.stateDir)
	if err != nil {
		return nil, UsageError{err}
	}
	if cal != nil && cal.LEDs > 0 {
		return calibration.MapLEDs(sink, cal), nil
	}
	return sink, nil
}
