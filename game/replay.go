package game

import (
	"context"
	"io"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Replay runs every line of a trace through a new game built with opts,
// in virtual time, and writes each report as a JSON line to out; at the end
// of the input it fires the pending timers and writes the `end` line. A
// `setup` first line sets the starting position. The error is a
// *trace.Error naming the line at fault, ctx's error, or out's.
func Replay(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	tr := trace.NewReader(in)
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
