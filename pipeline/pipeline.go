// Package pipeline wires the stages of boardd in one direction: raw scan
// frames are debounced into lift and place events, events become gestures,
// the arbiter judges gestures under the law-set, and the LED frame it
// composes goes to the LED sink. Buttons, promotion names and choices enter
// beside the events.
//
// A Pipeline is driven by one goroutine with the time of every input; it
// reads no clock of its own, so a replay and a test run in virtual time and
// the daemon in real time through the same code. Deadline says when it must
// next be advanced for its timers (debounce, settle, waits, LED blink).
package pipeline

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Options configure a pipeline.
type Options struct {
	Laws  string // law-set id
	Setup string // FEN to start from; empty for the initial position
	Odds  string // men given as odds (see arbiter.Options.Odds)
	// TimeControl sets the game clocks (clock.Parse syntax or a preset);
	// empty for no clock.
	TimeControl string
	// ClockAtFirstInput starts the first mover's clock at the first input
	// (a replay); otherwise the other side's clock press starts it.
	ClockAtFirstInput bool
	Tournament        bool          // every penalty exacted by the arbiter
	Debounce          time.Duration // per-square debounce window (sensor.DefaultDebounce if zero)
	Gesture           gesture.Options
	Tags              map[string]string // PGN tags
	// Physical is the occupancy the board reads at time zero; nil means the
	// board already shows the starting position.
	Physical *board.Occupancy
	Logger   *slog.Logger
}

// Pipeline carries inputs through debounce, gesture and arbiter to the LEDs.
type Pipeline struct {
	opts     Options
	deb      *sensor.Debouncer
	rec      *gesture.Recogniser
	game     *arbiter.Game
	sink     led.Sink
	observe  func(arbiter.Report)
	log      *slog.Logger
	events   []sensor.Event
	reports  []arbiter.Report
	frame    led.Frame
	raw      board.Occupancy
	now      time.Duration
	deadline time.Duration
	fault    bool
	tk       *clock.Timekeeper
	begun    bool
}

// New builds a pipeline. Reports go to observe (which may be nil); LED
// frames go to sink (which may be nil).
func New(opts Options, sink led.Sink, observe func(arbiter.Report)) (*Pipeline, error) {
	laws, err := arbiter.Lookup(opts.Laws)
	if err != nil {
		return nil, err
	}
	var control *clock.Control
	if opts.TimeControl != "" {
		c, err := clock.Parse(opts.TimeControl)
		if err != nil {
			return nil, err
		}
		control = &c
		tags := map[string]string{}
		for k, v := range opts.Tags {
			tags[k] = v
		}
		tags["TimeControl"] = clock.Tag(c)
		opts.Tags = tags
	}
	game, err := arbiter.NewGame(arbiter.Options{Laws: laws, Setup: opts.Setup, Odds: opts.Odds, Tournament: opts.Tournament, Clocked: control != nil, Tags: opts.Tags})
	if err != nil {
		return nil, err
	}
	gopts := opts.Gesture
	gopts.RookFirstCastling = laws.RookFirstCastling
	gopts.MoveNeedsClock = control != nil && laws.IllegalMovePenalty
	startPos := game.Position()
	physical := startPos.Occupancy()
	if opts.Physical != nil {
		physical = *opts.Physical
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Pipeline{opts: opts, game: game, sink: sink, observe: observe, log: opts.Logger, raw: physical}
	p.deb = sensor.NewDebouncer(physical, opts.Debounce)
	exp := game.Expectation()
	if physical != startPos.Occupancy() {
		exp = gesture.Expectation{Mode: gesture.Restore, Analysis: exp.Analysis}
	}
	p.rec = gesture.New(gopts, game, exp, physical)
	if control != nil {
		start := game.Position()
		if p.tk, err = clock.NewTimekeeper(laws.ID, *control, start.Turn); err != nil {
			return nil, err
		}
		game.OnIllegal = func(t time.Duration, offender board.Color, count int) {
			if count == 1 {
				p.tk.Illegal(offender)
			}
		}
		game.OnIncorrectClaim = func(t time.Duration, claimant board.Color) {
			p.tk.IncorrectClaim(claimant)
		}
	}
	p.settle(0)
	return p, nil
}

// Clocks returns the game clocks' timekeeper, or nil when no time control
// is set.
func (p *Pipeline) Clocks() *clock.Timekeeper { return p.tk }

// Game returns the arbiter's game (for the console, the journal and tests).
func (p *Pipeline) Game() *arbiter.Game { return p.game }

// Recogniser returns the gesture recogniser.
func (p *Pipeline) Recogniser() *gesture.Recogniser { return p.rec }

// LEDs returns the LED frame last composed.
func (p *Pipeline) LEDs() led.Frame { return p.frame }

// Now returns the time of the last input or deadline handled.
func (p *Pipeline) Now() time.Duration { return p.now }

// Deadline returns when Advance must next be called, or timing.Never.
func (p *Pipeline) Deadline() time.Duration { return p.deadline }

// Frame takes a raw scan. An unchanged frame with no timer due returns at
// once: the common case costs one comparison.
func (p *Pipeline) Frame(t time.Duration, occ board.Occupancy) {
	if occ == p.raw && t < p.deadline {
		return
	}
	p.raw = occ
	p.now = t
	p.events = p.deb.Frame(t, occ, p.events[:0])
	for _, e := range p.events {
		p.rec.Event(e)
	}
	p.rec.Advance(t)
	p.settle(t)
}

// Event takes an already debounced event (a trace's lift and place lines,
// a console click).
func (p *Pipeline) Event(e sensor.Event) {
	p.Advance(e.T)
	p.rec.Event(e)
	if e.Kind == sensor.Lift {
		p.raw = p.raw.Without(e.Square)
	} else {
		p.raw = p.raw.With(e.Square)
	}
	p.deb.Reset(p.raw)
	p.settle(e.T)
}

// Press takes a button press by side.
func (p *Pipeline) Press(t time.Duration, button string, side board.Color) {
	p.Advance(t)
	p.rec.Press(t, button, side)
	p.settle(t)
}

// Promote takes the naming of a promotion piece.
func (p *Pipeline) Promote(t time.Duration, piece board.Kind, side board.Color) {
	p.Advance(t)
	p.rec.Promote(t, piece, side)
	p.settle(t)
}

// Choose applies the option chosen by side ("white", "black" or "arbiter").
func (p *Pipeline) Choose(t time.Duration, option, side string) error {
	p.Advance(t)
	err := p.game.Choose(t, option, side)
	p.rec.SetExpectation(t, p.game.Expectation())
	p.settle(t)
	return err
}

// SetFault marks the board's sensors untrustworthy (true) or trusted again;
// the LEDs show the fault.
func (p *Pipeline) SetFault(t time.Duration, fault bool) {
	p.fault = fault
	p.settle(t)
}

// Fault reports whether the board's sensors are marked untrustworthy.
func (p *Pipeline) Fault() bool { return p.fault }

// Advance fires every timer due by t, in time order.
func (p *Pipeline) Advance(t time.Duration) {
	for p.deadline <= t {
		at := p.deadline
		p.now = at
		if p.tk != nil {
			if f, ok := p.tk.Flag(at); ok && p.game.Result() == nil {
				pos := p.game.Position()
				r := p.tk.Rule(f, pos.CanMate(f.Side.Other()))
				p.game.Finish(f.T, r.Result, r.Reason, r.Law)
				p.rec.SetExpectation(at, p.game.Expectation())
			}
		}
		p.events = p.deb.Advance(at, p.events[:0])
		for _, e := range p.events {
			p.rec.Event(e)
		}
		p.rec.Advance(at)
		p.settle(at)
		if p.deadline <= at {
			break
		}
	}
	if t > p.now {
		p.now = t
	}
}

// Finish ends the input at time t: pending timers fire as if the hands had
// left the board, then the end line is reported.
func (p *Pipeline) Finish(t time.Duration) {
	p.Advance(t)
	if p.tk != nil {
		// The clocks stop where they stand: running out the input is no
		// flag.
		p.tk.End(t)
		p.settle(t)
	}
	for p.deadline != timing.Never {
		p.Advance(p.deadline)
	}
	if p.now > t {
		t = p.now
	}
	p.rec.Flush(t)
	p.settle(t)
	for p.deadline != timing.Never {
		p.Advance(p.deadline)
	}
	if p.now > t {
		t = p.now
	}
	if p.tk != nil {
		p.tk.End(t)
	}
	end := p.game.End(t)
	if p.observe != nil {
		p.observe(end)
	}
}

// time tells the clocks what the arbiter decided, and stamps each move with
// the times left.
func (p *Pipeline) time(reports []arbiter.Report) {
	for i := range reports {
		r := &reports[i]
		switch r.Type {
		case "move":
			side, _ := board.ParseColor(r.Side)
			p.tk.Move(r.T, side)
			r.WhiteClock, r.BlackClock = p.tk.Times(r.T)
			p.game.Comment(r.Ply, p.tk.Clk(r.T, side))
		case "irregularity":
			p.tk.Irregularity(r.T, r.Chooser)
		case "ruling":
			pos := p.game.Position()
			p.tk.Resume(r.T, pos.Turn)
			p.tk.Reconcile(p.game.MoveCount())
		case "result":
			p.tk.End(r.T)
		}
	}
}

// Input dispatches one trace line.
func (p *Pipeline) Input(l trace.Line) error {
	if p.tk != nil && !p.begun && p.opts.ClockAtFirstInput {
		p.begun = true
		p.tk.Begin(l.T)
		p.settle(l.T)
	}
	if p.tk != nil && l.Kind == trace.Press && l.Button == trace.ButtonClock {
		side, _ := board.ParseColor(l.Side)
		p.Advance(l.T)
		p.tk.Press(l.T, side)
	}
	switch l.Kind {
	case trace.Lift:
		p.Event(sensor.Event{T: l.T, Square: l.Square, Kind: sensor.Lift})
	case trace.Place:
		p.Event(sensor.Event{T: l.T, Square: l.Square, Kind: sensor.Place})
	case trace.Frame:
		p.Advance(l.T)
		p.Frame(l.T, l.Occupancy)
	case trace.Press:
		side, _ := board.ParseColor(l.Side)
		p.Press(l.T, l.Button, side)
	case trace.Promote:
		side, _ := board.ParseColor(l.Side)
		p.Promote(l.T, l.Piece, side)
	case trace.Choose:
		if err := p.Choose(l.T, l.Option, l.Side); err != nil {
			p.log.Warn("choice not applied", "option", l.Option, "side", l.Side, "err", err)
		}
	case trace.Setup:
		return fmt.Errorf("setup must come first")
	case trace.Arbiter:
		if err := p.Action(l.T, l.Action, l.Value); err != nil {
			p.log.Warn("arbiter action not applied", "action", l.Action, "value", l.Value, "err", err)
		}
	}
	return nil
}

// Action carries out an arbiter action (new-game, annul, laws, result).
func (p *Pipeline) Action(t time.Duration, action, value string) error {
	p.Advance(t)
	err := p.game.Action(t, action, value)
	if err == nil && action == arbiter.ActionLaws {
		o := p.rec.Options()
		o.RookFirstCastling = p.game.Laws().RookFirstCastling
		p.rec.SetOptions(o)
	}
	p.rec.SetExpectation(t, p.game.Expectation())
	p.settle(t)
	return err
}

// settle hands out reports, recomposes the LED frame and recomputes the
// deadline after an input at time t.
func (p *Pipeline) settle(t time.Duration) {
	p.reports = p.game.Drain(p.reports[:0])
	if p.tk != nil {
		p.time(p.reports)
	}
	if p.observe != nil {
		for _, r := range p.reports {
			p.observe(r)
		}
	}
	waiting, mismatch := p.rec.Syncing()
	f := p.game.Frame(arbiter.BoardView{Occupancy: p.rec.Occupancy(), InHand: p.rec.InHand(), Syncing: waiting, Mismatch: mismatch})
	if p.fault {
		for _, sq := range []board.Square{0, 7, 56, 63} {
			f.Set(sq, led.Fault, led.Fast)
		}
	}
	clockDue := timing.Never
	if p.tk != nil {
		clockDue = p.tk.Deadline()
	}
	sinkDue := timing.Never
	if p.sink != nil {
		if f != p.frame || p.deadline <= t {
			if err := p.sink.Show(&f, t); err != nil {
				p.log.Warn("led sink", "sink", p.sink.String(), "err", err)
			}
		}
		if d, ok := p.sink.Deadline(); ok && d > t {
			sinkDue = d
		}
	}
	p.frame = f
	p.deadline = timing.Earliest(timing.Earliest(p.deb.Deadline(), p.rec.Deadline()), timing.Earliest(sinkDue, clockDue))
}
