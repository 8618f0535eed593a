package daemon

import (
	"context"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/wiring"
)

// startClockDisplay shows the game clocks on two TM1637 displays when the
// configuration wires them ([clock_display]) and a time control is set, or
// lichess's clocks during an online game that has a clock.
func (d *daemon) startClockDisplay() error {
	disp, ok, err := wiring.OpenClockDisplay(d.cfg, &wiring.Periph{})
	if err != nil || !ok {
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

// showClocks keeps the display on the clocks' times, waking when a reading
// is due to change (at most once a second, at least every 50 ms).
func (d *daemon) showClocks(ctx context.Context, disp led.TimeDisplay) {
	warned := false
	for {
		next, err := d.updateClockDisplay(ctx, disp, &warned)
		if err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(next):
		}
	}
}

// updateClockDisplay shows the clocks' times as of now on disp (a first
// failure to write is logged and *warned set) and returns how long until
// the reading may change (50 ms to 1 s). An error means ctx ended.
func (d *daemon) updateClockDisplay(ctx context.Context, disp led.TimeDisplay, warned *bool) (time.Duration, error) {
	white, black, running, err := d.clockTimes(ctx)
	if err != nil {
		return 0, err
	}
	next := time.Second
	if running {
		if err := disp.Show(white, black); err != nil && !*warned {
			d.log.Warn("clock display", "display", disp.String(), "err", err)
			*warned = true
		}
		if n := min(led.TM1637NextChange(white), led.TM1637NextChange(black)); n > 0 {
			next = n
		}
	}
	return min(max(next, 50*time.Millisecond), time.Second), nil
}

// clockTimes returns the times the display shows now: lichess's clocks
// during an online game that has them (the side to move's counted down on
// the board's clock since lichess's last figures), else the board's game
// clocks; ok is false when there are none.
func (d *daemon) clockTimes(ctx context.Context) (white, black time.Duration, ok bool, err error) {
	if op := d.online; op != nil {
		if s, _, _ := op.current(); s != nil {
			if white, black, ok := s.State().ClocksAt(d.clock.Now()); ok {
				return white, black, true, nil
			}
		}
	}
	err = d.runner.Do(ctx, func(p *game.Game, _ time.Duration) {
		if ck := p.Snapshot().Clocks; ck != nil {
			white, black, ok = ck.WhiteLeft, ck.BlackLeft, true
		}
	})
	return white, black, ok, err
}
