package serialport

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/link"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/trace"
)

// Board joins a board on a serial link to a running game: the board's
// scans go to the runner as frames, its buttons and choices as inputs; the
// game's LED frames (through Sink) and reports go back to the board.
// When the link is lost the game is kept, the fault is logged and shown on
// the LEDs (game.SetFault), and the link reconnects; the board's first
// scan after it comes back is compared with the game and logged, and the
// game resynchronises from it as from any scan: a board changed while
// away is reported as a mismatch and guided back, never read as a move.
type Board struct {
	link   *Link
	log    *slog.Logger
	ctx    context.Context
	runner *game.Runner
	// presses takes button presses before the game (see TakePresses).
	presses func(context.Context, trace.Line) bool

	mu      sync.Mutex
	recheck bool
}

// NewBoard returns a board on the link configured by o. Build the game
// with Sink, then call Run with its runner.
func NewBoard(o Options) (*Board, error) {
	l, err := New(o)
	if err != nil {
		return nil, err
	}
	return &Board{link: l, log: l.log}, nil
}

// TakePresses gives fn the board's button presses before the game: a press
// fn reports taken (a command to the engine playing a side) does not reach
// the game. Call it before Run.
func (b *Board) TakePresses(fn func(context.Context, trace.Line) bool) { b.presses = fn }

// Link returns the board's link (for its statistics).
func (b *Board) Link() *Link { return b.link }

// Sink returns the LED sink that shows the game's frames on the board.
func (b *Board) Sink() led.Sink { return &Sink{link: b.link} }

// Run joins the board to r until ctx ends. Until the first handshake the
// game shows a fault: the board has not been heard yet.
func (b *Board) Run(ctx context.Context, r *game.Runner) error {
	b.ctx, b.runner = ctx, r
	r.OnReport(func(rep report.Report) { b.link.Report(reportJSON(rep)) })
	b.setFault(true)
	return b.link.Run(ctx, b)
}

// reportJSON is the report line sent to the board; an end report too long
// for a frame loses its PGN.
func reportJSON(rep report.Report) []byte {
	j := rep.AppendJSON(nil)
	if len(j) > link.MaxPayload {
		rep.PGN = ""
		j = rep.AppendJSON(j[:0])
	}
	return j
}

func (b *Board) setFault(fault bool) {
	_ = b.runner.Do(b.ctx, func(p *game.Game, now time.Duration) { p.SetFault(now, fault) })
}

// Up clears the fault and arranges for the next scan to be checked against
// the game.
func (b *Board) Up(peer link.Hello) {
	b.mu.Lock()
	b.recheck = true
	b.mu.Unlock()
	b.setFault(false)
}

// Status reports the law-set and the position to the board.
func (b *Board) Status() link.Status {
	var st link.Status
	_ = b.runner.Do(b.ctx, func(p *game.Game, now time.Duration) {
		s := p.Snapshot()
		st = link.Status{Laws: s.Laws.ID, FEN: s.Position.FEN()}
	})
	return st
}

// Down shows the fault; the game stands as it was.
func (b *Board) Down(err error) { b.setFault(true) }

// Occupancy hands a scan to the game.
func (b *Board) Occupancy(m link.Occupancy) { b.scan(m.Occupancy) }

// Analog hands the board's occupancy of an analogue scan to the game.
func (b *Board) Analog(m *link.Analog) { b.scan(m.Occupancy) }

func (b *Board) scan(occ board.Occupancy) {
	b.mu.Lock()
	recheck := b.recheck
	b.recheck = false
	b.mu.Unlock()
	if recheck {
		b.check(occ)
	}
	b.runner.Frame(b.ctx, occ)
}

// check compares the first scan after a (re)connection with what the
// game last knew of the board and with the game, and logs it.
func (b *Board) check(occ board.Occupancy) {
	_ = b.runner.Do(b.ctx, func(p *game.Game, now time.Duration) {
		s := p.Snapshot()
		known := s.Occupancy
		game := s.Position.Occupancy()
		// Checked at each connection: as often as "board connected" at most.
		if occ == known && occ == game {
			b.link.connects.Log(b.log, slog.LevelInfo, "checked", "board checked: it matches the game")
			return
		}
		b.link.connects.Log(b.log, slog.LevelWarn, "checked-differs", "board checked: it differs; the game will reconcile it",
			"changed_while_away", (occ ^ known).SquareNames(),
			"missing_for_game", (game &^ occ).SquareNames(),
			"extra_for_game", (occ &^ game).SquareNames())
	})
}

// Button hands a press or a promotion piece to the game.
func (b *Board) Button(m link.Button) error {
	side := m.Side.String()
	l := trace.Line{Kind: trace.Press, Button: m.Button.String(), Side: side}
	if k, ok := m.Button.Promotion(); ok {
		l = trace.Line{Kind: trace.Promote, Piece: k, Side: side}
	} else if b.presses != nil && b.presses(b.ctx, l) {
		return nil
	}
	return b.runner.Submit(b.ctx, l)
}

// Choose hands a choice to the game; a choice by number is the option
// of that number in the irregularity waiting for a choice.
func (b *Board) Choose(m link.Choose) error {
	id := m.Option
	if id == "" {
		var err error
		_ = b.runner.Do(b.ctx, func(p *game.Game, now time.Duration) {
			pend := p.Snapshot().Pending
			switch {
			case pend == nil:
				err = fmt.Errorf("no choice is waiting")
			case int(m.Index) > len(pend.Options):
				err = fmt.Errorf("option %d of %d", m.Index, len(pend.Options))
			default:
				id = string(pend.Options[m.Index-1].ID)
			}
		})
		if err != nil {
			return err
		}
	}
	return b.runner.Submit(b.ctx, trace.Line{Kind: trace.Choose, Option: id, Side: m.Side.String()})
}

// Sink shows LED frames on a board over its link. The board blinks on its
// own clock, so the sink never needs waking.
type Sink struct {
	link *Link
}

// NewSink returns a sink over l (for a link used only for LEDs).
func NewSink(l *Link) *Sink { return &Sink{link: l} }

// Show sends f if it differs from the last frame; it never blocks.
func (s *Sink) Show(f *led.Frame, t time.Duration) error {
	s.link.ShowLEDs(f)
	return nil
}

// Deadline reports that the board blinks by itself.
func (s *Sink) Deadline() (time.Duration, bool) { return 0, false }

// Halt turns the LEDs off.
func (s *Sink) Halt() error {
	s.link.ShowLEDs(&led.Frame{})
	return nil
}

func (s *Sink) String() string { return "LEDs over the " + s.link.String() }

// Scanner reads the board's latest scan over a link, for a scan loop that
// polls (sensor.Loop): Scan returns at once with the last scan the board
// sent, or ErrDown while the link is down, which the loop counts toward a
// fault.
type Scanner struct {
	link *Link
}

// NewScanner returns a scanner over l; l must be running (Link.Run).
func NewScanner(l *Link) *Scanner { return &Scanner{link: l} }

// Scan fills f with the board's last scan.
func (s *Scanner) Scan(f *sensor.Frame) error { return s.link.Latest(f) }

// Halt does nothing: the link belongs to whoever runs it.
func (s *Scanner) Halt() error { return nil }

func (s *Scanner) String() string { return "scans over the " + s.link.String() }

// NopHandler is a Handler that ignores everything, for a link used only for
// LEDs, or read through a Scanner.
type NopHandler struct{}

// Up does nothing.
func (NopHandler) Up(link.Hello) {}

// Status returns an empty status.
func (NopHandler) Status() link.Status { return link.Status{} }

// Down does nothing.
func (NopHandler) Down(error) {}

// Occupancy does nothing.
func (NopHandler) Occupancy(link.Occupancy) {}

// Analog does nothing.
func (NopHandler) Analog(*link.Analog) {}

// Button refuses the press.
func (NopHandler) Button(link.Button) error { return fmt.Errorf("buttons are not read on this link") }

// Choose refuses the choice.
func (NopHandler) Choose(link.Choose) error { return fmt.Errorf("choices are not read on this link") }
