package main

import (
	"context"
	"time"

	"periph.io/x/devices/v3/tm1637"

	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/pipeline"
)

// startClockDisplay shows the game clocks on two TM1637 displays when the
// configuration wires them ([clock_display]) and a time control is set.
func (d *daemon) startClockDisplay() error {
	c, _, err := d.loadConfig()
	if err != nil {
		return usageError{err}
	}
	cd := c.ClockDisplay
	if !cd.Configured() {
		return nil
	}
	b := &periphBuses{}
	wclk, err := b.Pin(cd.WhiteCLK)
	if err != nil {
		return err
	}
	wdio, err := b.Pin(cd.WhiteDIO)
	if err != nil {
		return err
	}
	bclk, err := b.Pin(cd.BlackCLK)
	if err != nil {
		return err
	}
	bdio, err := b.Pin(cd.BlackDIO)
	if err != nil {
		return err
	}
	o := led.TM1637Opts{WhiteCLK: wclk, WhiteDIO: wdio, BlackCLK: bclk, BlackDIO: bdio, Brightness: tm1637Brightness(cd.Brightness)}
	disp, err := led.NewTM1637Clocks(o)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.showClocks(ctx, disp)
	}()
	d.onClose(func() error {
		cancel()
		<-done
		return disp.Halt()
	})
	d.log.Info("clock display", "display", disp.String())
	return nil
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

// showClocks keeps the display on the clocks' times, waking when a reading
// is due to change (at most once a second, at least every 50 ms).
func (d *daemon) showClocks(ctx context.Context, disp led.TimeDisplay) {
	warned := false
	for {
		var white, black time.Duration
		next, running := time.Second, false
		err := d.runner.Do(ctx, func(p *pipeline.Pipeline, now time.Duration) {
			if tk := p.Clocks(); tk != nil {
				white, black = tk.Clock().Times(now)
				running = true
				if n := min(led.TM1637NextChange(white), led.TM1637NextChange(black)); n > 0 {
					next = n
				}
			}
		})
		if err != nil {
			return
		}
		if running {
			if err := disp.Show(white, black); err != nil && !warned {
				d.log.Warn("clock display", "display", disp.String(), "err", err)
				warned = true
			}
		}
		next = min(max(next, 50*time.Millisecond), time.Second)
		select {
		case <-ctx.Done():
			return
		case <-time.After(next):
		}
	}
}
