package daemon

import (
	"context"
	"strings"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/serialport"
	"github.com/boardd/boardd/trace"
)

// A board whose microcontroller speaks the link protocol over a serial port
// (--sensor serial:SPEC, --led serial:SPEC; SPEC is a device path, usb, or
// usb:VID:PID, optionally @BAUD; see serialport.ParseSpec). When the sensor
// and the LEDs name the same port they share one link: one serialport.Board
// feeds the scans, buttons and choices to the runner and shows the
// game's LED frames. A link used only for LEDs runs on its own.

// serialBoards returns the daemon's serial boards by port, so that
// serialLEDs, called while the LEDs are started, and serialSensor, called
// once the runner exists, find the same board.
func (d *daemon) serialBoards() map[string]*serialport.Board {
	if d.serial == nil {
		d.serial = map[string]*serialport.Board{}
	}
	return d.serial
}

// serialBoard returns the board on the port spec names, making it the first
// time.
func (d *daemon) serialBoard(spec string) (*serialport.Board, error) {
	o, err := serialport.ParseSpec(spec)
	if err != nil {
		return nil, UsageError{err}
	}
	boards := d.serialBoards()
	if b := boards[o.Key()]; b != nil {
		return b, nil
	}
	o.Clock = d.clock
	o.Logger = d.log.With("board", config.SerialPrefix+spec)
	b, err := serialport.NewBoard(o)
	if err != nil {
		return nil, UsageError{err}
	}
	b.TakePresses(func(ctx context.Context, l trace.Line) bool {
		return d.engine != nil && d.engine.press(ctx, l) || d.online != nil && d.online.press(ctx, l) ||
			d.pairing != nil && d.pairing.press(ctx, l, d.log)
	})
	boards[o.Key()] = b
	return b, nil
}

// serialSensor starts the board on the serial port spec names
// (--sensor serial:SPEC): its scans, buttons and choices go to the runner,
// the game's reports go back to it, and a lost link shows as a fault
// while it reconnects. The game is kept across unplugging.
func (d *daemon) serialSensor(spec string) error {
	b, err := d.serialBoard(spec)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = b.Run(ctx, d.runner)
	}()
	d.onClose(func() error {
		cancel()
		<-done
		d.log.Info("serial board stopped", "board", config.SerialPrefix+spec, "stats", b.Link().Stats().String())
		return nil
	})
	d.log.Info("serial board", "board", config.SerialPrefix+spec)
	return nil
}

// serialLEDs returns the LED sink of the board on the serial port spec
// names (--led serial:SPEC), for the LEDs. If the sensor is on the same
// port, serialSensor starts the link; otherwise the link runs now, for the
// LEDs alone.
func (d *daemon) serialLEDs(spec string) (led.Sink, error) {
	b, err := d.serialBoard(spec)
	if err != nil {
		return nil, err
	}
	if !d.sensorOnPort(spec) {
		ctx, cancel := context.WithCancel(d.ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = b.Link().Run(ctx, serialport.NopHandler{})
		}()
		d.onClose(func() error {
			cancel()
			<-done
			return nil
		})
	}
	d.log.Info("LEDs", "sink", b.Sink().String())
	return b.Sink(), nil
}

// sensorOnPort reports whether the sensor wiring names the same serial port
// as spec.
func (d *daemon) sensorOnPort(spec string) bool {
	c := d.cfg
	if !strings.HasPrefix(c.Sensor.Wiring, config.SerialPrefix) {
		return false
	}
	a, err1 := serialport.ParseSpec(strings.TrimPrefix(c.Sensor.Wiring, config.SerialPrefix))
	b, err2 := serialport.ParseSpec(spec)
	return err1 == nil && err2 == nil && a.Key() == b.Key()
}
