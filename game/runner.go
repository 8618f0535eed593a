package game

import (
	"context"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Runner drives a Game in real time for the daemon. Every input and every
// query runs on the runner's own goroutine, so the game needs no locks;
// inputs are stamped with the runner's clock as they are taken, and the
// game's timers fire when their deadline comes.
type Runner struct {
	g       *Game
	clock   timing.Clock
	calls   chan func()
	mu      sync.Mutex
	inputs  []func(trace.Line)    // input hooks (the journal), on the loop goroutine
	reports []func(report.Report) // report subscribers, on the loop goroutine
	changes []func(*Snapshot)     // told when the snapshot has changed
	seen    uint64                // the game's version last told
	frameMu sync.Mutex            // guards raw
	raw     board.Occupancy       // the last raw frame handed in
}

// NewRunner returns a runner of g on clock. Reports from g reach the
// runner's subscribers (OnReport) once the runner exists: build g with a nil
// observer, or call NewRunner before any input.
func NewRunner(g *Game, clock timing.Clock) *Runner {
	r := &Runner{g: g, clock: clock, calls: make(chan func(), 64), raw: g.Raw()}
	g.observe = r.publish
	return r
}

// Clock returns the runner's clock.
func (r *Runner) Clock() timing.Clock { return r.clock }

// OnInput registers a hook told of every input line before it is applied
// (the journal records inputs this way). Hooks run on the loop goroutine and
// must not block.
func (r *Runner) OnInput(fn func(trace.Line)) {
	r.mu.Lock()
	r.inputs = append(r.inputs, fn)
	r.mu.Unlock()
}

// OnReport registers a subscriber told of every report. Subscribers run on
// the loop goroutine and must not block.
func (r *Runner) OnReport(fn func(report.Report)) {
	r.mu.Lock()
	r.reports = append(r.reports, fn)
	r.mu.Unlock()
}

// OnChange registers a subscriber told, on the loop goroutine, with the
// snapshot when the runner starts and whenever the game has changed since
// (after an input or a timer): the LEDs are drawn this way. Subscribers must
// not block.
func (r *Runner) OnChange(fn func(*Snapshot)) {
	r.mu.Lock()
	r.changes = append(r.changes, fn)
	r.mu.Unlock()
}

func (r *Runner) publish(rep report.Report) {
	r.mu.Lock()
	subs := r.reports
	r.mu.Unlock()
	for _, fn := range subs {
		fn(rep)
	}
}

func (r *Runner) hooks() []func(trace.Line) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inputs
}

// noticeChange tells the change subscribers of a new snapshot.
func (r *Runner) noticeChange(first bool) {
	if v := r.g.Version(); v == r.seen && !first {
		return
	}
	r.seen = r.g.Version()
	r.mu.Lock()
	subs := r.changes
	r.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	s := r.g.Snapshot()
	for _, fn := range subs {
		fn(s)
	}
}

// Do runs fn on the loop goroutine with the game and the current time,
// and waits for it. It returns nil only if fn ran; otherwise ctx's error
// (the runner stopped, or ctx ended before fn's turn came). fn may read the
// game and apply inputs; it must not keep the game.
func (r *Runner) Do(ctx context.Context, fn func(g *Game, now time.Duration)) error {
	done := make(chan struct{})
	ran := false // written by call before done closes
	call := func() {
		defer close(done)
		if ctx.Err() != nil {
			return // the caller has gone: do nothing on its behalf
		}
		now := r.clock.Now()
		r.g.Advance(now)
		fn(r.g, now)
		ran = true
	}
	select {
	case r.calls <- call:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		if !ran {
			return ctx.Err()
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Snapshot returns the game as it stands, taken on the loop goroutine.
func (r *Runner) Snapshot(ctx context.Context) (*Snapshot, error) {
	ch := make(chan *Snapshot, 1)
	if err := r.Do(ctx, func(g *Game, _ time.Duration) { ch <- g.Snapshot() }); err != nil {
		return nil, err
	}
	return <-ch, nil
}

// PGN returns the game as played in PGN, taken on the loop goroutine.
func (r *Runner) PGN(ctx context.Context) (string, error) {
	ch := make(chan string, 1)
	if err := r.Do(ctx, func(g *Game, _ time.Duration) { ch <- g.PGN() }); err != nil {
		return "", err
	}
	return <-ch, nil
}

// Submit applies an input line, stamped with the current time, on the loop
// goroutine, and waits for it. The error is the game's (a choice not
// offered, say) or ctx's.
func (r *Runner) Submit(ctx context.Context, l trace.Line) error {
	return r.SubmitIf(ctx, l, nil)
}

// SubmitIf is Submit for an input that is right only while the game stands
// as its maker last saw it (an engine's move, for the position it was
// asked about): on the loop goroutine check decides first, and an input it
// refuses is neither journalled nor applied: its error is returned. A nil
// check admits every input.
func (r *Runner) SubmitIf(ctx context.Context, l trace.Line, check func(g *Game) error) error {
	var err error
	if derr := r.Do(ctx, func(g *Game, now time.Duration) {
		if check != nil {
			if err = check(g); err != nil {
				return
			}
		}
		l.T = now
		for _, h := range r.hooks() {
			h(l)
		}
		switch l.Kind {
		case trace.Choose:
			err = g.Choose(l.T, report.OptionID(l.Option), report.Party(l.Side))
		case trace.Arbiter:
			err = g.Action(l.T, l.Action, l.Value)
		default:
			err = g.Input(l)
		}
	}); derr != nil {
		return derr
	}
	return err
}

// Frame hands a raw scan to the game (the scan loop calls it at the scan
// rate). A frame equal to the last one handed in costs one comparison under
// a lock and never reaches the loop: the game's timers run on their own.
// A changed frame is queued for the loop in order; Frame waits only if the
// queue is full.
func (r *Runner) Frame(ctx context.Context, occ board.Occupancy) {
	r.frameMu.Lock()
	same := occ == r.raw
	r.raw = occ
	r.frameMu.Unlock()
	if same {
		return
	}
	call := func() {
		now := r.clock.Now()
		r.g.Advance(now)
		if occ != r.g.Raw() {
			for _, h := range r.hooks() {
				h(trace.Line{T: now, Kind: trace.Frame, Occupancy: occ})
			}
		}
		r.g.Frame(now, occ)
	}
	select {
	case r.calls <- call:
	case <-ctx.Done():
	}
}

// Run drives the game until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	r.g.Advance(r.clock.Now())
	r.noticeChange(true)
	for {
		wait := time.Hour
		if d := r.g.Deadline(); d != timing.Never {
			wait = max(d-r.clock.Now(), 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case call := <-r.calls:
			call()
		case <-timer.C:
			r.g.Advance(r.clock.Now())
		}
		r.noticeChange(false)
	}
}
