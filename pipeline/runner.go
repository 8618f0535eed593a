package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Runner drives a Pipeline in real time for the daemon. Every input and
// every query runs on the runner's own goroutine, so the pipeline needs no
// locks; inputs are stamped with the runner's clock as they are taken, and
// the pipeline's timers fire when their deadline comes.
type Runner struct {
	p       *Pipeline
	clock   timing.Clock
	calls   chan func()
	mu      sync.Mutex
	inputs  []func(trace.Line)     // input hooks (the journal), on the loop goroutine
	reports []func(arbiter.Report) // report subscribers, on the loop goroutine
	changes []func()               // told when the LEDs or the board change
	seen    change
}

// change is what OnChange subscribers watch.
type change struct {
	frame led.Frame
	occ   board.Occupancy
}

// OnChange registers a subscriber told, on the loop goroutine, whenever the
// LED frame or the board's occupancy has changed (after an input or a
// timer). Subscribers must not block.
func (r *Runner) OnChange(fn func()) {
	r.mu.Lock()
	r.changes = append(r.changes, fn)
	r.mu.Unlock()
}

func (r *Runner) noticeChange() {
	now := change{frame: r.p.LEDs(), occ: r.p.rec.Occupancy()}
	if now == r.seen {
		return
	}
	r.seen = now
	r.mu.Lock()
	subs := r.changes
	r.mu.Unlock()
	for _, fn := range subs {
		fn()
	}
}

// NewRunner returns a runner of p on clock. Reports from p must be routed to
// the runner with Observe: build p with Runner.Observe as its observer, or
// call NewRunner before any input.
func NewRunner(p *Pipeline, clock timing.Clock) *Runner {
	r := &Runner{p: p, clock: clock, calls: make(chan func(), 64)}
	p.observe = r.publish
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
func (r *Runner) OnReport(fn func(arbiter.Report)) {
	r.mu.Lock()
	r.reports = append(r.reports, fn)
	r.mu.Unlock()
}

func (r *Runner) publish(rep arbiter.Report) {
	r.mu.Lock()
	subs := r.reports
	r.mu.Unlock()
	for _, fn := range subs {
		fn(rep)
	}
}

// Do runs fn on the loop goroutine with the pipeline and the current time,
// and waits for it. It returns ctx's error if the runner stopped first.
func (r *Runner) Do(ctx context.Context, fn func(p *Pipeline, now time.Duration)) error {
	done := make(chan struct{})
	call := func() {
		defer close(done)
		if ctx.Err() != nil {
			return // the caller has gone: do nothing on its behalf
		}
		now := r.clock.Now()
		r.p.Advance(now)
		fn(r.p, now)
	}
	select {
	case r.calls <- call:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Submit applies an input line, stamped with the current time, on the loop
// goroutine, and waits for it. The error is the pipeline's (a choice not
// offered, say) or ctx's.
func (r *Runner) Submit(ctx context.Context, l trace.Line) error {
	var err error
	if derr := r.Do(ctx, func(p *Pipeline, now time.Duration) {
		l.T = now
		r.mu.Lock()
		hooks := r.inputs
		r.mu.Unlock()
		for _, h := range hooks {
			h(l)
		}
		switch l.Kind {
		case trace.Choose:
			err = p.Choose(l.T, l.Option, l.Side)
		case trace.Arbiter:
			err = p.Action(l.T, l.Action, l.Value)
		default:
			err = p.Input(l)
		}
	}); derr != nil {
		return derr
	}
	return err
}

// Frame hands a raw scan to the pipeline without waiting (the scan loop
// calls it at the scan rate). Unchanged frames are dropped before they reach
// the loop.
func (r *Runner) Frame(ctx context.Context, occ board.Occupancy) {
	call := func() {
		now := r.clock.Now()
		r.p.Advance(now)
		if occ != r.p.raw {
			r.mu.Lock()
			hooks := r.inputs
			r.mu.Unlock()
			for _, h := range hooks {
				h(trace.Line{T: now, Kind: trace.Frame, Occupancy: occ})
			}
		}
		r.p.Frame(now, occ)
	}
	select {
	case r.calls <- call:
	case <-ctx.Done():
	}
}

// Run drives the pipeline until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		wait := time.Hour
		if d := r.p.Deadline(); d != timing.Never {
			wait = max(d-r.clock.Now(), 0)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case call := <-r.calls:
			call()
		case <-timer.C:
			r.p.Advance(r.clock.Now())
		}
		r.noticeChange()
	}
}
