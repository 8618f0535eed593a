package daemon

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/boardd/boardd/trace"
)

// feedInput plays trace lines into the running board, as a test rig or a
// test does: path is a file, a FIFO, or - for standard input. Each line is
// submitted as long after the one before as the trace says (the first at
// once, so a trace may be resumed part-way), and stamped with the daemon's
// time as it is taken. A line late (the machine was busy) never makes the
// next one early: gaps only grow, the hands' rhythm is never hurried. Setup
// lines are refused: a game's start is the journal's.
func (d *daemon) feedInput(ctx context.Context, path string) {
	log := d.log.With("input", path)
	var in io.Reader = d.o.Stdin
	if path != "-" {
		f, err := os.Open(path) // a FIFO blocks here until a writer opens it
		if err != nil {
			log.Error("input not opened", "err", err)
			return
		}
		defer f.Close()
		in = f
	}
	tr := trace.NewReader(in)
	var prevT, prevAt time.Duration
	started := false
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for n := 0; ; n++ {
		l, err := tr.Next()
		if errors.Is(err, io.EOF) {
			log.Info("input ended", "lines", n)
			return
		}
		if err != nil {
			log.Error("input stopped", "err", err)
			return
		}
		if l.Kind == trace.Setup {
			log.Warn("input: setup line ignored: the game's start is the journal's", "line", tr.LineNumber())
			continue
		}
		if !started {
			prevT, prevAt, started = l.T, d.clock.Now(), true
		}
		if wait := prevAt + (l.T - prevT) - d.clock.Now(); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		}
		prevT, prevAt = l.T, d.clock.Now()
		if err := d.runner.Submit(ctx, l); err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Warn("input not applied", "line", tr.LineNumber(), "err", err)
		}
	}
}
