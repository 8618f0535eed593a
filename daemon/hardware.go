package daemon

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/button"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/trace"
	"github.com/boardd/boardd/wiring"
)

// startHardware starts what the configuration wires to the board: the scan
// loop (through the board's calibration, if it has one) feeding
// d.runner.Frame and raising the fault the LEDs show, and the players'
// buttons feeding d.runner.Submit. With the sim or none sensor it starts no
// scanner (the console simulates the board). The LEDs are started before,
// by startLEDs.
func (d *daemon) startHardware() error {
	c := d.cfg
	ctx, cancel := context.WithCancel(d.ctx)
	var wg sync.WaitGroup
	var hw []func() error // closed once the loop and the buttons have stopped
	d.onClose(func() error {
		cancel()
		wg.Wait()
		var errs []error
		for i := len(hw) - 1; i >= 0; i-- {
			errs = append(errs, hw[i]())
		}
		return errors.Join(errs...)
	})
	b := &wiring.Periph{}
	w := c.Sensor.Wiring
	switch {
	case w == config.WiringSim || w == config.WiringNone:
		d.log.Info("no sensor hardware", "sensor", w)
	case strings.HasPrefix(w, config.SerialPrefix):
		if err := d.serialSensor(strings.TrimPrefix(w, config.SerialPrefix)); err != nil {
			return err
		}
	default:
		// With a calibration (boardd calibrate), occupancy comes from it;
		// analogue sensors must have one.
		cal, err := wiring.LoadCalibration(c, d.stateDir)
		if err != nil {
			return UsageError{err}
		}
		sc, closeSc, err := wiring.OpenScanner(c, b)
		if err != nil {
			return err
		}
		hw = append(hw, closeSc)
		if sc, err = wiring.CalibratedScanner(sc, c, cal, d.clock); err != nil {
			var fe *calibration.FileError
			if errors.As(err, &fe) {
				return UsageError{err} // made on other hardware: recalibrate
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
		var hold func(button.Hold)
		if d.voice != nil {
			hold = d.voice.hold
		}
		set, err := wiring.OpenButtons(c, b, d.clock, func(l trace.Line) { d.press(ctx, l) }, hold, d.log)
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
			_ = d.runner.Do(ctx, func(p *game.Game, now time.Duration) { p.SetFault(now, fault) })
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
	if d.engine != nil && d.engine.press(ctx, l) || d.online != nil && d.online.press(ctx, l) ||
		d.pairing != nil && d.pairing.press(ctx, l, d.log) {
		return
	}
	if d.chooseByButton(ctx, l) {
		return
	}
	if err := d.runner.Submit(ctx, l); err != nil && ctx.Err() == nil {
		d.log.Warn("button press not applied", "button", l.Button, "side", l.Side, "err", err)
	}
}
