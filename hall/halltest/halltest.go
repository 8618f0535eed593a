// Package halltest runs simulated boards against a club hall, for the hall's
// tests and load runs: each board is what `boardd run` wires for one board
// (a game driven in real time by a runner, its journal in a state
// directory of its own, the console's Local board over the runner, and an
// uplink to the hall's broker), without the hardware and the web server.
// A board stopped and started again on the same directory restores its game
// from the journal, as the daemon does after a reboot.
package halltest

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/uplink"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
	"github.com/boardd/boardd/voice"
)

// Options configure a simulated board.
type Options struct {
	ID  string
	Dir string // the state directory
	// Game are the game's options (the law-set, the gesture timings);
	// Laws defaults to fide2023.
	Game   game.Options
	Broker *broker.Config
	// Verifier is the hall's verify key: the board carries out the actions
	// it signed (nil: none).
	Verifier *actionsig.Verifier
	Logger   *slog.Logger
	// Connection and publishing settings (uplink.Options).
	MinBackoff, MaxBackoff, KeepAlive, StateEvery time.Duration
	// OnMove is told of each move the board makes, with its journal
	// sequence number and the wall time it was made (on the runner's
	// goroutine: it must not block).
	OnMove func(seq uint64, r report.Report, at time.Time)
	// Voice words the board's spoken lines (plain English if zero), and
	// Faults names faults beside the game ("voice"), as a board's voice
	// gives them to its console and its uplink (console.LocalOptions).
	Voice  voice.Words
	Faults func() []string
}

// Board is a running simulated board.
type Board struct {
	o       Options
	Runner  *game.Runner
	Journal *journal.Journal
	Local   *console.Local
	Uplink  *uplink.Uplink
	cancel  context.CancelFunc
	done    chan struct{}

	mu    sync.Mutex
	moves []report.Report
	cond  chan struct{} // closed and replaced at each move
}

// Start starts a board, restoring the game in its directory if there is
// one.
func Start(ctx context.Context, o Options) (*Board, error) {
	if o.Game.Laws == "" {
		o.Game.Laws = "fide2023"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	o.Game.Logger = o.Logger
	j, g, err := journal.Open(journal.Options{Dir: o.Dir, Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	b := &Board{o: o, Journal: j, done: make(chan struct{}), cond: make(chan struct{})}
	fail := func(err error) (*Board, error) {
		j.Close()
		return nil, err
	}
	var p *game.Game
	var rp *journal.Replayed
	var header journal.Header
	var resume time.Duration
	if g == nil {
		opts := o.Game
		opts.Tags = map[string]string{"Date": journal.UnknownDate}
		for k, v := range o.Game.Tags {
			opts.Tags[k] = v
		}
		if header, err = j.Begin(0, journal.NewHeader(j.Game(), opts, time.Time{})); err != nil {
			return fail(err)
		}
		if p, err = game.New(header.Options(o.Game), nil); err != nil {
			return fail(err)
		}
	} else {
		if rp, err = journal.Replay(g, o.Game); err != nil {
			return fail(err)
		}
		p, header, resume = rp.Game, g.Header, rp.Resume
	}
	clock := journal.Clock{Base: timing.NewReal(), Offset: resume}
	b.Runner = game.NewRunner(p, clock)
	rec := journal.NewRecorder(j, journal.RecorderOptions{Game: func() *game.Game { return p }, Occupancy: func() board.Occupancy { return p.Snapshot().Occupancy }, Header: header, Logger: o.Logger})
	b.Runner.OnInput(rec.Input)
	b.Runner.OnReport(rec.Report)
	if rp != nil {
		rec.Restored(rp, rp.Resume)
	}
	if g != nil {
		for _, r := range g.Records {
			if r.Kind == journal.KindReport && r.Report.Type == report.Move {
				b.moves = append(b.moves, r.Report)
			}
		}
		for _, r := range rp.Lost {
			if r.Type == report.Move {
				b.moves = append(b.moves, r)
			}
		}
	}
	b.Runner.OnReport(func(r report.Report) {
		if r.Type != report.Move {
			return
		}
		at := time.Now()
		seq := j.Seq()
		b.mu.Lock()
		b.moves = append(b.moves, r)
		close(b.cond)
		b.cond = make(chan struct{})
		b.mu.Unlock()
		if o.OnMove != nil {
			o.OnMove(seq, r, at)
		}
	})
	runCtx, cancel := context.WithCancel(ctx)
	b.cancel = cancel
	go func() {
		defer close(b.done)
		b.Runner.Run(runCtx)
	}()
	b.Local, err = console.NewLocal(b.Runner, console.LocalOptions{ID: o.ID, Simulated: true, Voice: o.Voice, Faults: o.Faults})
	if err != nil {
		b.stop()
		return nil, err
	}
	b.Uplink, err = uplink.Start(runCtx, uplink.Options{
		Board: o.ID, Broker: o.Broker, Journal: j, Runner: b.Runner, Console: b.Local, StateDir: o.Dir, Verifier: o.Verifier,
		Sensor: "sim", LED: "none", Logger: o.Logger,
		MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, KeepAlive: o.KeepAlive, StateEvery: o.StateEvery,
	})
	if err != nil {
		b.Local.Close()
		b.stop()
		return nil, err
	}
	return b, nil
}

// ID returns the board's id.
func (b *Board) ID() string { return b.o.ID }

// Dir returns the board's state directory.
func (b *Board) Dir() string { return b.o.Dir }

func (b *Board) stop() {
	b.cancel()
	<-b.done
	b.Journal.Close()
}

// Close stops the board (as a SIGTERM stops the daemon): the uplink says
// goodbye, the runner stops, the journal is closed.
func (b *Board) Close() error {
	err := b.Uplink.Close()
	b.Local.Close()
	b.stop()
	return err
}

// Moves returns the move reports of the board's game so far.
func (b *Board) Moves() []report.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]report.Report, len(b.moves))
	copy(out, b.moves)
	return out
}

// WaitMoves waits until the board has made n moves (counted since it
// started, with those restored).
func (b *Board) WaitMoves(ctx context.Context, n int) error {
	for {
		b.mu.Lock()
		have, ch := len(b.moves), b.cond
		b.mu.Unlock()
		if have >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("halltest: board %s: %d moves of %d: %w", b.o.ID, have, n, ctx.Err())
		case <-ch:
		}
	}
}

// Play feeds lines to the board in real time: each at its time (from the
// first), scaled by speed (2 plays twice as fast), through the runner as
// the board's sensors would.
func (b *Board) Play(ctx context.Context, lines []trace.Line, speed float64) error {
	if speed <= 0 {
		speed = 1
	}
	if len(lines) == 0 {
		return nil
	}
	start := time.Now()
	t0 := lines[0].T
	for i, l := range lines {
		at := start.Add(time.Duration(float64(l.T-t0) / speed))
		if d := time.Until(at); d > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
		}
		if err := b.Runner.Submit(ctx, l); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("halltest: board %s: line %d: %w", b.o.ID, i+1, err)
		}
	}
	return nil
}

// PlayMoves feeds moves from (counting from 0) up to to of a game: each
// move's lines, then waits for the board to report the move before the next
// (so that real time cannot change what the board decides). ends are the
// indices in lines of each move's last line.
func (b *Board) PlayMoves(ctx context.Context, lines []trace.Line, ends []int, from, to int) error {
	start := 0
	if from > 0 {
		start = ends[from-1] + 1
	}
	base := len(b.Moves()) - from
	for k := from; k < to; k++ {
		for _, l := range lines[start : ends[k]+1] {
			if err := b.Runner.Submit(ctx, l); err != nil {
				return fmt.Errorf("halltest: board %s: move %d: %w", b.o.ID, k+1, err)
			}
		}
		start = ends[k] + 1
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := b.WaitMoves(wctx, base+k+1)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}
