package game

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Replay runs every line of a trace through a new game built with opts,
// in virtual time, and writes each report as a JSON line to out; at the end
// of the input it fires the pending timers and writes the `end` line. A
// `setup` first line sets the starting position. Analogue frames are read
// through opts.Analog, or through the calibration the first line names
// (opts.OpenAnalog); with neither, their recorded occupancy is replayed and
// a warning logged. The error is a *trace.Error naming the line at fault,
// ctx's error, or out's.
func Replay(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	tr := trace.NewReader(in)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	warned := false
	var buf []byte
	var werr error
	observe := func(r report.Report) {
		buf = r.AppendJSON(buf[:0])
		buf = append(buf, '\n')
		if _, err := out.Write(buf); err != nil && werr == nil {
			werr = err
		}
	}
	var g *Game
	var last trace.Line
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if l.Calibration != "" && opts.Analog == nil && opts.OpenAnalog != nil {
			if opts.Analog, err = opts.OpenAnalog(l.Calibration); err != nil {
				return &trace.Error{Line: tr.LineNumber(), Fault: fmt.Sprintf("calibration %q: %v", l.Calibration, err)}
			}
		}
		if l.Bits != 0 && opts.Analog == nil && !warned {
			warned = true
			log.Warn("the trace's analogue frames are replayed as the occupancy recorded with them: give a calibration to read their levels", "line", tr.LineNumber())
		}
		// The levels are read here, before the first frame decides where
		// the board stands, and once only.
		if err := readAnalog(opts.Analog, &l); err != nil {
			return &trace.Error{Line: tr.LineNumber(), Fault: err.Error()}
		}
		if g == nil {
			if l.Kind == trace.Setup {
				opts.Setup = l.FEN
				continue
			}
			if l.Kind == trace.Frame && l.T == 0 {
				// The board as first scanned: a board that does not show
				// the starting position yet (an empty board being set up)
				// is guided to it, and play starts once it matches.
				occ := l.Occupancy
				opts.Physical = &occ
			}
			if g, err = New(opts, observe); err != nil {
				return &trace.Error{Line: tr.LineNumber(), Fault: err.Error()}
			}
		}
		if err := g.Input(l); err != nil {
			return &trace.Error{Line: tr.LineNumber(), Fault: err.Error()}
		}
		last = l
		if werr != nil {
			return werr
		}
	}
	if g == nil {
		var err error
		if g, err = New(opts, observe); err != nil {
			return err
		}
	}
	g.Finish(last.T)
	return werr
}
