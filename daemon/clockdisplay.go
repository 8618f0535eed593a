package daemon

import (
	"context"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/wiring"
)

// startClockDisplay shows the game clocks on two TM1637 displays when the
// configuration wires them ([clock_display]) and a time control is set.
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
		var white, black time.Duration
		next, running := time.Second, false
		err := d.runner.Do(ctx, func(p *game.Game, now time.Duration) {
			if ck := p.Snapshot().Clocks; ck != nil {
				white, black = ck.WhiteLeft, ck.BlackLeft
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
