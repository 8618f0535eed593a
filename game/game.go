// Package game is the one door to a board's game. Behind it, stages the rest
// of boardd never imports (sensor's Debouncer, packages gesture and arbiter,
// and game/internal/timekeeper; an architecture test keeps it so) carry
// every input in one direction: raw scan frames are debounced into lift and
// place events,
// events are read as gestures (touches, adjustments, completed moves), the
// arbiter judges gestures under the law-set in force, and the timekeeper
// keeps the clocks by the same law-set. Buttons, promotion names, choices and
// arbiter actions enter beside the events.
//
// Out of the door come typed reports (package report), in the order they
// were decided, and an immutable Snapshot of the game for anyone who draws
// or serves it (the LEDs, the console, the serial link, the journal), and
// the game record for PGN.
//
// A Game is driven by one goroutine with the time of every input; it reads
// no clock of its own, so a replay and a test run in virtual time and the
// daemon in real time (Runner) through the same code. Deadline says when it
// must next be advanced for its timers (debounce, settle, waits, clocks).
package game

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game/internal/timekeeper"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Default timings of the stages behind the door.
const (
	DefaultDebounce = sensor.DefaultDebounce // a square's reading must hold this long
	DefaultSettle   = gesture.DefaultSettle
	// DefaultQuickSettle is the settle time of a move nothing can extend.
	DefaultQuickSettle = gesture.DefaultQuickSettle
	DefaultOpenWait    = gesture.DefaultOpenWait
	DefaultJadoube     = gesture.DefaultJadoube
	DefaultBump        = gesture.DefaultBump
)

// Timing tunes how the hands are read. Zero values take the defaults.
type Timing struct {
	// Debounce: how long a square's raw reading must hold before a change
	// counts (DefaultDebounce).
	Debounce time.Duration
	// Settle: how long the board must stay still, with the men consistent
	// with one legal move, before the move counts as made (DefaultSettle).
	Settle time.Duration
	// QuickSettle: how long the board must stay still after a legal move
	// that nothing can still extend (a knight's move, a slider stopped by
	// the edge, ...) before it counts (DefaultQuickSettle; negative: Settle).
	QuickSettle time.Duration
	// OpenWait: how long a reading that can still grow into a longer legal
	// move is kept open, and how long a false move must stand before it is
	// reported (DefaultOpenWait).
	OpenWait time.Duration
	// Jadoube: how long a j'adoube press covers that side's next lift
	// (DefaultJadoube).
	Jadoube time.Duration
	// Bump: the longest a man may be off its square and count as jostled
	// rather than touched (DefaultBump).
	Bump time.Duration
}

// Options configure a game.
type Options struct {
	Laws  string // law-set id (lawset.IDs)
	Setup string // FEN to start from; empty for the initial position
	Odds  string // men given as odds, e.g. "rook" or "pawn-and-move"
	// TimeControl sets the game clocks (clock.Parse syntax or a preset);
	// empty for no clock.
	TimeControl string
	// ClockAtFirstInput starts the first mover's clock at the first input
	// (a replay); otherwise the other side's clock press starts it.
	ClockAtFirstInput bool
	Tournament        bool // every penalty exacted by the arbiter
	// WarnOnly shows and explains each irregularity but exacts no penalty
	// (a casual game, to learn the rules); never with Tournament.
	WarnOnly bool
	Timing   Timing
	Tags     map[string]string // PGN tags
	// Physical is the occupancy the board reads at time zero; nil means the
	// board already shows the starting position.
	Physical *board.Occupancy
	// Remote says which sides are played from off the board from the
	// start (see SetRemote), by colour: a game against an engine.
	Remote [2]bool
	// VisuallyImpaired names the side whose player at this board is
	// visually impaired ("white" or "black"; "" for neither): his lifts are
	// touches by fide2023:D.2.2 and his moves made once announced by
	// D.2.3, the other side's hands read by Article 4. Only a law-set with
	// Appendix D rules takes it (fide2023), and the law-set can then not be
	// changed to one without.
	VisuallyImpaired string
	Logger           *slog.Logger
	// Analog reads the levels of analogue frame lines (Input, Replay); nil
	// replays the occupancy recorded with them.
	Analog AnalogClassifier
	// OpenAnalog, for Replay with no Analog, opens the classifier of the
	// calibration a trace names on its first line; nil ignores the name.
	OpenAnalog func(name string) (AnalogClassifier, error)
}

// Game carries inputs through debounce, gesture, arbiter and clocks.
type Game struct {
	opts     Options
	laws     *lawset.LawSet
	deb      *sensor.Debouncer
	rec      *gesture.Recogniser
	arb      *arbiter.Game
	tk       *timekeeper.Timekeeper
	observe  func(report.Report)
	log      *slog.Logger
	events   []sensor.Event
	reports  []report.Report
	raw      board.Occupancy
	now      time.Duration
	deadline time.Duration
	fault    bool
	unsaved  bool // the journal cannot be written (SetJournalFault)
	held     bool // HoldClocks stopped a running clock
	begun    bool

	hint *board.Move // a move suggested to the player, until a move is made
	// warning is the last warn-only warning, until the next move or ruling.
	warning *report.Report

	// version counts the changes anyone outside could see; the snapshot
	// is built again only when it has moved.
	version uint64
	seen    observed
	snap    *Snapshot
	snapAt  uint64
}

// observed is what settle compares to know that the game changed without a
// report: the board read differently, a wait for the board began or ended.
type observed struct {
	occ      board.Occupancy
	inHand   board.Occupancy
	syncing  bool
	mismatch bool
	fault    bool
	mode     gesture.Mode
	expected *board.Analysis
	promo    [2]board.Kind
	landing  gesture.Pending
	landed   bool
}

// New builds a game. Reports go to observe (which may be nil), in the order
// they were decided.
func New(opts Options, observe func(report.Report)) (*Game, error) {
	laws, err := lawset.Lookup(opts.Laws)
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
	vi, err := visuallyImpaired(opts.VisuallyImpaired)
	if err != nil {
		return nil, err
	}
	arb, err := arbiter.NewGame(arbiter.Options{Laws: laws, Setup: opts.Setup, Odds: opts.Odds, Tournament: opts.Tournament, WarnOnly: opts.WarnOnly, Clocked: control != nil, Tags: opts.Tags, VisuallyImpaired: vi})
	if err != nil {
		return nil, err
	}
	startPos := arb.Position()
	physical := startPos.Occupancy()
	if opts.Physical != nil {
		physical = *opts.Physical
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	g := &Game{opts: opts, laws: laws, arb: arb, observe: observe, log: opts.Logger, raw: physical}
	g.deb = sensor.NewDebouncer(physical, opts.Timing.Debounce)
	exp := arb.Expectation()
	if physical != startPos.Occupancy() {
		exp = gesture.Expectation{Mode: gesture.Restore, Analysis: exp.Analysis}
	}
	if control != nil {
		if g.tk, err = timekeeper.New(laws, *control, startPos.Turn); err != nil {
			return nil, err
		}
		arb.OnIllegal = func(t time.Duration, offender board.Color, count int) {
			if count == 1 {
				g.tk.Illegal(offender)
			}
		}
		arb.OnIncorrectClaim = func(t time.Duration, claimant board.Color) {
			g.tk.IncorrectClaim(claimant)
		}
	}
	for side, remote := range opts.Remote {
		arb.SetRemote(board.Color(side), remote)
	}
	g.rec = gesture.New(g.gestureOptions(), arb, exp, physical)
	g.settle(0)
	return g, nil
}

// visuallyImpaired reads Options.VisuallyImpaired as the arbiter's sides.
func visuallyImpaired(side string) ([2]bool, error) {
	var vi [2]bool
	if side == "" {
		return vi, nil
	}
	c, err := board.ParseColor(side)
	if err != nil {
		return vi, fmt.Errorf("visually impaired side %q: want white or black", side)
	}
	vi[c] = true
	return vi, nil
}

// StartPosition is where a game with options o begins: the set-up
// position, the initial position less the men given as odds, or the
// initial position.
func StartPosition(o Options) (board.Position, error) {
	return arbiter.StartPosition(o.Setup, o.Odds)
}

// gestureOptions are the recogniser's options under the law-set in force.
func (g *Game) gestureOptions() gesture.Options {
	t := g.opts.Timing
	return gesture.Options{
		Settle: t.Settle, QuickSettle: t.QuickSettle, OpenWait: t.OpenWait, Jadoube: t.Jadoube, Bump: t.Bump,
		RookFirstCastling: g.laws.RookFirstCastling,
		MoveNeedsClock:    g.tk != nil && g.laws.ClockCompletesIllegalMove,
	}
}

// Laws returns the law-set in force.
func (g *Game) Laws() *lawset.LawSet { return g.laws }

// Now returns the time of the last input or deadline handled.
func (g *Game) Now() time.Duration { return g.now }

// Deadline returns when Advance must next be called, or timing.Never.
func (g *Game) Deadline() time.Duration { return g.deadline }

// Version counts the changes to what a Snapshot shows; it grows whenever
// the game, the board's reading or a wait changes.
func (g *Game) Version() uint64 { return g.version }

// Frame takes a raw scan. An unchanged frame with no timer due returns at
// once: the common case costs one comparison.
func (g *Game) Frame(t time.Duration, occ board.Occupancy) {
	if occ == g.raw && t < g.deadline {
		return
	}
	g.raw = occ
	g.now = t
	g.events = g.deb.Frame(t, occ, g.events[:0])
	for _, e := range g.events {
		g.rec.Event(e)
	}
	g.rec.Advance(t)
	g.settle(t)
}

// Raw returns the last raw scan taken.
func (g *Game) Raw() board.Occupancy { return g.raw }

// Event takes an already debounced event (a trace's lift and place lines,
// a console click).
func (g *Game) Event(e sensor.Event) {
	g.Advance(e.T)
	g.rec.Event(e)
	if e.Kind == sensor.Lift {
		g.raw = g.raw.Without(e.Square)
	} else {
		g.raw = g.raw.With(e.Square)
	}
	g.deb.Reset(g.raw)
	g.settle(e.T)
}

// Press takes a button press by side: trace.ButtonJadoube, ButtonCheck,
// ButtonClaim or ButtonClock.
//
// The clock press of a side played from off the board, while its announced
// move waits to be carried out, hands the clocks over: its time stops and
// the player's runs while he carries the move out (the engine's clock runs
// until its move is shown, where the player chose so). It is no press of
// anyone's hands, and the arbiter never hears of it.
func (g *Game) Press(t time.Duration, button string, side board.Color) {
	g.Advance(t)
	if button == trace.ButtonClock && g.arb.Remote(side) && g.arb.Position().Turn == side {
		if _, ok := g.arb.Awaiting(); ok {
			if g.tk != nil {
				g.tk.Handover(t, side.Other())
			}
			g.version++
			g.settle(t)
			return
		}
	}
	if g.tk != nil && button == trace.ButtonClock {
		g.tk.Press(t, side)
	}
	g.rec.Press(t, button, side)
	g.settle(t)
}

// Promote takes the naming of a promotion piece.
func (g *Game) Promote(t time.Duration, piece board.Kind, side board.Color) {
	g.Advance(t)
	g.rec.Promote(t, piece, side)
	g.settle(t)
}

// Choose applies the option chosen by a party (white, black, or the
// arbiter on anyone's behalf).
func (g *Game) Choose(t time.Duration, option report.OptionID, by report.Party) error {
	g.Advance(t)
	err := g.arb.Choose(t, option, by)
	g.rec.SetExpectation(t, g.arb.Expectation())
	g.settle(t)
	return err
}

// SetFault marks the board's sensors untrustworthy (true) or trusted again;
// the snapshot says so, and the LEDs show it.
func (g *Game) SetFault(t time.Duration, fault bool) {
	g.fault = fault
	g.settle(t)
}

// Fault reports whether the board's sensors are marked untrustworthy.
func (g *Game) Fault() bool { return g.fault }

// SetJournalFault marks the game as not being saved (true: the journal
// cannot be written, a full disk or no file descriptors left) or saved again;
// the snapshot says so (JournalFault), and the LEDs show it. It is a fault of
// its own, beside the sensors' (SetFault): either clears without touching the
// other. It only notes the change, so the journal may call it from a report
// subscriber, while the game hands out its reports.
func (g *Game) SetJournalFault(fault bool) {
	if g.unsaved != fault {
		g.unsaved = fault
		g.version++
	}
}

// Advance fires every timer due by t, in time order.
func (g *Game) Advance(t time.Duration) {
	for g.deadline <= t {
		at := g.deadline
		g.now = at
		if g.tk != nil {
			if f, ok := g.tk.Flag(at); ok && g.arb.Result() == nil {
				pos := g.arb.Position()
				r := g.tk.Rule(f, pos.CanMate(f.Side.Other()))
				g.arb.Finish(f.T, r.Result, r.Reason, r.Law)
				g.rec.SetExpectation(at, g.arb.Expectation())
			}
		}
		g.events = g.deb.Advance(at, g.events[:0])
		for _, e := range g.events {
			g.rec.Event(e)
		}
		g.rec.Advance(at)
		g.settle(at)
		if g.deadline <= at {
			break
		}
	}
	if t > g.now {
		g.now = t
	}
}

// Finish ends the input at time t: pending timers fire as if the hands had
// left the board, then the end report is made.
func (g *Game) Finish(t time.Duration) {
	g.Advance(t)
	if g.tk != nil {
		// The clocks stop where they stand: running out the input is no
		// flag.
		g.tk.End(t)
		g.settle(t)
	}
	for g.deadline != timing.Never {
		g.Advance(g.deadline)
	}
	if g.now > t {
		t = g.now
	}
	g.rec.Flush(t)
	g.settle(t)
	for g.deadline != timing.Never {
		g.Advance(g.deadline)
	}
	if g.now > t {
		t = g.now
	}
	if g.tk != nil {
		g.tk.End(t)
	}
	pos := g.arb.Position()
	end := report.Report{Type: report.End, T: t, FEN: pos.FEN(), PGN: g.PGN()}
	if g.observe != nil {
		g.observe(end)
	}
}

// time tells the clocks what the arbiter decided, and stamps each move with
// the times left.
func (g *Game) time(reports []report.Report) {
	for i := range reports {
		r := &reports[i]
		switch r.Type {
		case report.Move:
			side, _ := board.ParseColor(r.Side)
			// The mover's clock stops when his hand let the move go, not
			// when the board could be sure it had (fide2023:6.2.1 presses
			// aside: a board without a clock press times the hand).
			g.tk.Move(r.Made, side)
			r.WhiteClock, r.BlackClock = g.tk.Times(r.Made)
			g.arb.Comment(r.Ply, g.tk.Clk(r.Made, side))
		case report.Irregularity:
			g.tk.Irregularity(r.T, r.Chooser)
		case report.Ruling:
			pos := g.arb.Position()
			g.tk.Resume(r.T, pos.Turn)
			g.tk.Reconcile(g.arb.MoveCount())
		case report.Result:
			g.tk.End(r.T)
		case report.Clock:
			// A claim on the move about to be made: both clocks stand
			// until the move is made (fide2023:9.5.1), which starts the
			// opponent's.
			if r.Law != "" {
				g.tk.Hold(r.T)
			}
			r.WhiteClock, r.BlackClock = g.tk.Times(r.T)
		}
	}
}

// Input dispatches one trace line.
func (g *Game) Input(l trace.Line) error {
	if g.tk != nil && !g.begun && g.opts.ClockAtFirstInput {
		g.begun = true
		g.tk.Begin(l.T)
		g.settle(l.T)
	}
	switch l.Kind {
	case trace.Lift:
		g.Event(sensor.Event{T: l.T, Square: l.Square, Kind: sensor.Lift})
	case trace.Place:
		g.Event(sensor.Event{T: l.T, Square: l.Square, Kind: sensor.Place})
	case trace.Frame:
		if err := readAnalog(g.opts.Analog, &l); err != nil {
			return err
		}
		g.Advance(l.T)
		g.Frame(l.T, l.Occupancy)
	case trace.Press:
		side, _ := board.ParseColor(l.Side)
		g.Press(l.T, l.Button, side)
	case trace.Promote:
		side, _ := board.ParseColor(l.Side)
		g.Promote(l.T, l.Piece, side)
	case trace.Choose:
		if err := g.Choose(l.T, report.OptionID(l.Option), report.Party(l.Side)); err != nil {
			g.log.Warn("choice not applied", "option", l.Option, "side", l.Side, "err", err)
		}
	case trace.Setup:
		return fmt.Errorf("setup must come first")
	case trace.Arbiter:
		if err := g.Action(l.T, l.Action, l.Value); err != nil {
			g.log.Warn("arbiter action not applied", "action", l.Action, "value", l.Value, "err", err)
		}
	case trace.Remote:
		g.SetRemote(l.T, board.White, l.Side == trace.SideWhite || l.Side == trace.SideBoth)
		g.SetRemote(l.T, board.Black, l.Side == trace.SideBlack || l.Side == trace.SideBoth)
	case trace.Opponent:
		if err := g.Play(l.T, l.Move); err != nil {
			g.log.Warn("opponent's move not applied", "move", l.Move.UCI(), "err", err)
		}
	case trace.TakeBack:
		side, _ := board.ParseColor(l.Side)
		if err := g.TakeBack(l.T, l.Plies, side); err != nil {
			g.log.Warn("take-back not applied", "moves", l.Plies, "side", l.Side, "err", err)
		}
	}
	return nil
}

// The actions a game against an engine (or an opponent online) adds to the
// arbiter's, on trace.Arbiter lines: the player resigns (value: the side
// resigning), or a draw offer is accepted. Both end the game normally
// (Termination "normal"), not by the arbiter's declaration.
const (
	ActionResign    = "resign"
	ActionAgreeDraw = "agree-draw"
)

// The actions that name the players (the console's players form), on
// trace.Arbiter lines: value is White's or Black's name for the game's
// White or Black tag, "" for unknown. A side played from off the board
// (an engine, an opponent online) is named by whoever plays it, never by
// these.
const (
	ActionNameWhite = "name-white"
	ActionNameBlack = "name-black"
)

// NameTag returns the PGN tag (White or Black) an action names a player
// in, and false for any other action.
func NameTag(action string) (string, bool) {
	switch action {
	case ActionNameWhite:
		return "White", true
	case ActionNameBlack:
		return "Black", true
	}
	return "", false
}

// CheckName says whether ActionNameWhite or ActionNameBlack with value
// would be carried out: the name must pass pgn.CheckPlayerName, and the
// side must be played at the board (a remote side keeps the name its
// player gave it; naming it as it is already named is no change). Any
// other action is not a naming one, and is refused.
func (g *Game) CheckName(action, value string) error {
	tag, ok := NameTag(action)
	if !ok {
		return fmt.Errorf("%q: not an action that names a player", action)
	}
	side := board.White
	if tag == "Black" {
		side = board.Black
	}
	if err := pgn.CheckPlayerName(value); err != nil {
		return fmt.Errorf("%s's name %q: %w", side, value, err)
	}
	if now := tagName(g.arb.Record().Tags[tag]); g.arb.Remote(side) && now != value {
		return fmt.Errorf("%s's name: %s is played from off the board, by %q, who keeps that name", side, tag, now)
	}
	return nil
}

// tagName is a White or Black tag's value as a name: "?" is unknown ("").
func tagName(v string) string {
	if v == "?" {
		return ""
	}
	return v
}

// setName carries out ActionNameWhite or ActionNameBlack.
func (g *Game) setName(action, value string) error {
	if err := g.CheckName(action, value); err != nil {
		return err
	}
	tag, _ := NameTag(action)
	if value == "" {
		value = "?"
	}
	g.arb.SetTag(tag, value)
	g.version++
	return nil
}

// Action carries out an arbiter action: trace.ActionNewGame (value: a FEN,
// which must be a valid set-up, board.Validate; or empty), ActionAnnul, ActionLaws (value: a law-set id), ActionResult
// (value: 1-0, 0-1 or 1/2-1/2) or ActionWarnOnly (value: on or off, between
// games: see SetWarnOnly); or ActionResign (value: white or black) or
// ActionAgreeDraw; or ActionNameWhite or ActionNameBlack (value: the name,
// see CheckName).
//
// Changing the law-set reconfigures every stage at once: the gesture
// reading (which castling orders are open), the arbiter and the clocks'
// rulings. It is refused while a ruling waits for its chooser: that ruling
// was raised under the old code, and must be decided under it first.
func (g *Game) Action(t time.Duration, action, value string) error {
	g.Advance(t)
	var err error
	switch action {
	case trace.ActionNewGame:
		// A set-up from outside must be a position a game can show.
		if value != "" {
			if _, err = board.ParseSetup(value); err != nil {
				err = fmt.Errorf("new-game: %w", err)
				break
			}
		}
		err = g.arb.NewGame(t, value)
	case trace.ActionAnnul:
		g.arb.Annul(t)
	case trace.ActionResult:
		err = g.arb.Declare(t, report.Outcome(value))
	case trace.ActionLaws:
		err = g.setLaws(t, value)
	case trace.ActionWarnOnly:
		err = g.setWarnOnly(value)
	case ActionResign:
		var side board.Color
		if side, err = board.ParseColor(value); err != nil {
			err = fmt.Errorf("resign: value %q: want white or black", value)
			break
		}
		err = g.arb.Resign(t, side)
	case ActionAgreeDraw:
		err = g.arb.AgreeDraw(t)
	case ActionNameWhite, ActionNameBlack:
		err = g.setName(action, value)
	default:
		err = fmt.Errorf("unknown arbiter action %q: want %s, %s, %s, %s, %s, %s, %s, %s or %s", action, trace.ActionNewGame, trace.ActionAnnul, trace.ActionLaws, trace.ActionResult, trace.ActionWarnOnly, ActionResign, ActionAgreeDraw, ActionNameWhite, ActionNameBlack)
	}
	g.rec.SetExpectation(t, g.arb.Expectation())
	g.settle(t)
	return err
}

// setWarnOnly carries out trace.ActionWarnOnly: value on or off.
func (g *Game) setWarnOnly(value string) error {
	var on bool
	switch value {
	case "on":
		on = true
	case "off":
	default:
		return fmt.Errorf("warn-only: value %q: want on or off", value)
	}
	return g.SetWarnOnly(on)
}

// SetWarnOnly switches warn-only, between games: before the game's first
// move, or once it has a result (for the games after it). Mid-game it is
// refused, as it is in tournament mode (a tournament exacts every
// penalty), each with the reason in words.
func (g *Game) SetWarnOnly(on bool) error {
	if on == g.arb.WarnOnly() {
		return nil
	}
	if on && g.opts.Tournament {
		return fmt.Errorf("warn-only: refused: %w", arbiter.ErrWarnOnlyTournament)
	}
	if n := g.arb.MoveCount(); n > 0 && g.arb.Result() == nil {
		moves := "moves"
		if n == 1 {
			moves = "move"
		}
		return fmt.Errorf("warn-only: refused during a game (%d %s made): switch it between games, before the first move or after the result", n, moves)
	}
	if err := g.arb.SetWarnOnly(on); err != nil {
		return err
	}
	g.opts.WarnOnly = on
	g.version++
	return nil
}

// WarnOnly reports whether the game shows irregularities without exacting
// their penalties.
func (g *Game) WarnOnly() bool { return g.arb.WarnOnly() }

// setLaws puts the law-set with the given id in force in every stage at t.
func (g *Game) setLaws(t time.Duration, id string) error {
	ls, err := lawset.Lookup(id)
	if err != nil {
		return err
	}
	if err := g.arb.SetLaws(ls); err != nil {
		return err
	}
	g.laws = ls
	if g.tk != nil {
		g.tk.SetLaws(ls)
		// A claim the old code held the clocks for is dropped with it:
		// the side to move's clock runs again.
		g.tk.Resume(t, g.arb.Position().Turn)
	}
	g.rec.SetOptions(g.gestureOptions())
	g.version++
	return nil
}

// settle hands out reports, notes what changed and recomputes the deadline
// after an input at time t.
func (g *Game) settle(t time.Duration) {
	g.reports = g.arb.Drain(g.reports[:0])
	if g.tk != nil {
		g.time(g.reports)
	}
	if len(g.reports) > 0 {
		g.version++
		for _, r := range g.reports {
			if r.Type == report.Move || r.Type == report.Ruling || r.Type == report.Result {
				g.hint = nil    // the hint was for the position before
				g.warning = nil // the warning was for the move before
			}
		}
		// A warning stands beside the move it came with (reported just
		// after it) until the next.
		for _, r := range g.reports {
			if r.Type == report.Irregularity && r.Chooser == report.WarnOnly {
				w := r
				g.warning = &w
			}
		}
	}
	if g.observe != nil {
		for _, r := range g.reports {
			g.observe(r)
		}
	}
	syncing, mismatch := g.rec.Syncing()
	exp := g.rec.Expectation()
	now := observed{occ: g.rec.Occupancy(), inHand: g.rec.InHand(), syncing: syncing, mismatch: mismatch, fault: g.fault, mode: exp.Mode, expected: exp.Analysis,
		promo: [2]board.Kind{g.rec.Promotion(board.White), g.rec.Promotion(board.Black)}}
	now.landing, now.landed = g.rec.Pending()
	if now != g.seen {
		g.seen = now
		g.version++
	}
	clockDue := timing.Never
	if g.tk != nil {
		clockDue = g.tk.Deadline()
	}
	g.deadline = timing.Earliest(timing.Earliest(g.deb.Deadline(), g.rec.Deadline()), clockDue)
}

// SetRemote says whether side is played from off the board (a chess engine,
// an online opponent): its moves are announced with Play, shown on the LEDs
// and carried out by the player at the board, and the laws never apply to
// that execution; a ruling it would choose is exacted by the arbiter.
func (g *Game) SetRemote(t time.Duration, side board.Color, remote bool) {
	g.Advance(t)
	g.arb.SetRemote(side, remote)
	g.version++
	g.settle(t)
}

// Play announces the remote side's move m, to be carried out on the board;
// a promotion without a piece is a queen.
func (g *Game) Play(t time.Duration, m board.Move) error {
	g.Advance(t)
	side := g.arb.Position().Turn
	if err := g.arb.Play(t, m); err != nil {
		return fmt.Errorf("play %s: %w", m.UCI(), err)
	}
	if aw, ok := g.arb.Awaiting(); ok && aw.Promo != board.NoKind {
		g.rec.Promote(t, aw.Promo, side) // the piece is known: no need to name it
	}
	g.version++
	g.settle(t)
	return nil
}

// TakeBack takes back the last plies moves at the request of the player
// by (against an engine); the board is guided back to the position before.
//
// The request ends by's hand: a legal move of his that his hand has just
// set down, still pending (Snapshot.Landing, or not yet shown), is made
// first, and then it alone is taken back, whatever plies says: never the
// moves before it, and never the move just made thrown away.
func (g *Game) TakeBack(t time.Duration, plies int, by board.Color) error {
	g.Advance(t)
	before := g.arb.MoveCount()
	if g.rec.EndHand(t, by) {
		g.settle(t)
		if g.arb.MoveCount() == before+1 {
			plies = 1
		}
	}
	err := g.arb.TakeBack(t, plies, by)
	g.rec.SetExpectation(t, g.arb.Expectation())
	g.settle(t)
	return err
}

// HoldClocks stops both clocks at t (hold true) while the game cannot go
// on for a cause beside the board: two paired boards whose games differ
// (fide2023:D.2.7), where no one's time may run until the arbiter has put
// the boards right. HoldClocks(t, false) starts the clock of the side to
// move again. Only clocks that were running are stopped, and only those
// HoldClocks stopped are started again; a call that changes nothing is
// harmless, so a caller may say the same twice.
func (g *Game) HoldClocks(t time.Duration, hold bool) {
	g.Advance(t)
	if g.tk == nil {
		return
	}
	switch {
	case hold && !g.held:
		g.held = g.tk.Hold(t)
	case !hold && g.held:
		g.held = false
		g.tk.Resume(t, g.arb.Position().Turn)
	default:
		return
	}
	g.version++
	g.settle(t)
}

// Line returns the position play last went on from (the start, or the
// position after a false move let stand) and the moves played since: the
// game as a chess engine is given it.
func (g *Game) Line() (board.Position, []board.Move) { return g.arb.Line() }

// SetHint shows a move suggested to the player on the LEDs until a move is
// made (nil clears it).
func (g *Game) SetHint(t time.Duration, m *board.Move) {
	g.Advance(t)
	g.hint = m
	g.version++
	g.settle(t)
}

// Annotate notes comment at the move at ply (from 0) of the game record:
// a chess engine's evaluation of its move, written in the PGN. A comment
// that begins with a command ("[%eval 0.35,14] ...") goes with its move if
// the move is taken back.
func (g *Game) Annotate(ply int, comment string) error {
	if ply < 0 || ply >= g.arb.MoveCount() {
		return fmt.Errorf("annotate: no move %d (%d played)", ply, g.arb.MoveCount())
	}
	g.arb.Comment(ply, comment)
	g.version++
	return nil
}

// SetTag sets a PGN tag of the game (the date, once the wall clock is known
// to be right); it holds for the games that follow on this board too.
func (g *Game) SetTag(name, value string) { g.arb.SetTag(name, value) }

// Record returns the game as played, for the PGN writer.
func (g *Game) Record() pgn.Game { return g.arb.Record() }

// PGN returns the game as played in PGN.
func (g *Game) PGN() string {
	rec := g.arb.Record()
	return pgn.Write(&rec)
}
