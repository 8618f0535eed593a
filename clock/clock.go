package clock

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// Status is what the clocks are doing.
type Status uint8

// The states of a Clock.
const (
	Idle    Status = iota // not started: nobody's time runs
	Running               // one side's time runs
	Held                  // both stopped for the moment (an arbiter's intervention)
	Stopped               // the game is over: the clocks stand where they stopped
	Flagged               // a flag fell: the clocks stand, that side at zero
)

var statusNames = [...]string{"idle", "running", "held", "stopped", "flagged"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// Outcome says what a Press or Moved did.
type Outcome uint8

// Outcomes.
const (
	Ignored   Outcome = iota // nothing changed: not that side's clock, or the clocks are stopped
	Started                  // the press started the first mover's clock
	Completed                // the move was completed: the opponent's clock runs
	Late                     // the side's flag had already fallen: the move came too late
)

var outcomeNames = [...]string{"ignored", "started", "completed", "late"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", o)
}

// Fall is a flag that fell: whose and when.
type Fall struct {
	Side board.Color
	T    time.Duration
}

// player is one side's clock.
type player struct {
	left      time.Duration // remaining time at Clock.since when running, else now
	moves     int           // moves completed
	used      time.Duration // time used on the move in progress
	delayLeft time.Duration // simple delay left on the move in progress
	bonus     time.Duration // the move in progress's delay (Delay, Bronstein)
	mode      Mode          // the move in progress's mode
	lastUsed  time.Duration // time used on the last completed move
}

// Clock is a pair of chess clocks under a time control, on injected time.
// Times passed to it must not run backwards. It is not safe for concurrent
// use; the game's goroutine owns it.
type Clock struct {
	ctl    Control
	first  board.Color
	status Status
	side   board.Color // whose time runs (Running), or ran last (Held)
	since  time.Duration
	p      [2]player
	fall   Fall
}

// New returns idle clocks for a game whose first move is first's (White's
// from the initial position). Each side starts with the first stage's time.
func New(c Control, first board.Color) (*Clock, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	k := &Clock{ctl: c, first: first, side: first}
	for i := range k.p {
		k.p[i].left = c.Stages[0].Time
	}
	return k, nil
}

// Control returns the time control the clocks keep.
func (k *Clock) Control() Control { return k.ctl }

// First returns the side whose move came first in the game.
func (k *Clock) First() board.Color { return k.first }

// Status says what the clocks are doing.
func (k *Clock) Status() Status { return k.status }

// Running returns whose time runs, if anyone's.
func (k *Clock) Running() (board.Color, bool) { return k.side, k.status == Running }

// Moves returns how many moves side has completed on the clock.
func (k *Clock) Moves(side board.Color) int { return k.p[side].moves }

// Stage returns the 0-based stage side is in.
func (k *Clock) Stage(side board.Color) int {
	idx, _ := k.ctl.stageFor(k.p[side].moves)
	return idx
}

// LastMoveTime returns the time side used on his last completed move (for a
// [%emt] comment).
func (k *Clock) LastMoveTime(side board.Color) time.Duration { return k.p[side].lastUsed }

// Start starts the first mover's clock at t (at the first press by the other
// side, or at the first input line of a replay with a time control). It
// reports false if the clocks had already started.
func (k *Clock) Start(t time.Duration) bool {
	if k.status != Idle {
		return false
	}
	k.begin(k.first, t)
	return true
}

// begin starts side's move at t: its clock runs and the move's increment or
// delay is given.
func (k *Clock) begin(side board.Color, t time.Duration) {
	pl := &k.p[side]
	idx, _ := k.ctl.stageFor(pl.moves)
	st := k.ctl.Stages[idx]
	pl.used, pl.delayLeft = 0, 0
	pl.mode, pl.bonus = st.Mode, st.Bonus
	switch st.Mode {
	case Increment:
		pl.left += st.Bonus
	case Delay:
		pl.delayLeft = st.Bonus
	}
	k.status, k.side, k.since = Running, side, t
}

// charge stops the running side's clock at t, taking the time used.
func (k *Clock) charge(t time.Duration) {
	e := t - k.since
	if e < 0 {
		e = 0
	}
	pl := &k.p[k.side]
	pl.used += e
	if pl.delayLeft > 0 {
		d := min(e, pl.delayLeft)
		pl.delayLeft -= d
		e -= d
	}
	pl.left -= e
	k.since = t
}

// complete counts side's move: the Bronstein refund and the next stage's time.
func (k *Clock) complete(side board.Color) {
	pl := &k.p[side]
	if pl.mode == Bronstein {
		pl.left += min(pl.used, pl.bonus)
	}
	pl.lastUsed = pl.used
	pl.used, pl.delayLeft = 0, 0
	bi, bs := k.ctl.stageFor(pl.moves)
	pl.moves++
	if ai, as := k.ctl.stageFor(pl.moves); ai != bi || as != bs {
		pl.left += k.ctl.Stages[ai].Time
	}
}

// checkFlag latches the running side's flag if it fell by t.
func (k *Clock) checkFlag(t time.Duration) bool {
	if k.status == Flagged {
		return true
	}
	if k.status != Running {
		return false
	}
	d := k.Deadline()
	if t < d {
		return false
	}
	k.charge(d)
	k.p[k.side].left = 0
	k.fall = Fall{Side: k.side, T: d}
	k.status = Flagged
	return true
}

// Press is a press of side's clock button at t, as on a clock alone: while
// the clocks are idle a press by the side not to move starts the first
// mover's clock; while side's clock runs it completes his move (his time
// stops, the move's delay refund and any new stage's time are given, and
// the opponent's clock starts with his increment or delay). Any other press
// changes nothing. A press after side's flag fell is Late.
//
// In boardd the law-set decides when a move is complete, so the game
// sends clock presses only while the clocks are idle, and completed moves
// through Moved.
func (k *Clock) Press(t time.Duration, side board.Color) Outcome {
	switch k.status {
	case Idle:
		if side != k.first {
			k.Start(t)
			return Started
		}
		return Ignored
	case Running:
		if side != k.side {
			return Ignored
		}
		if k.checkFlag(t) {
			return Late
		}
		k.charge(t)
		k.complete(side)
		k.begin(side.Other(), t)
		return Completed
	case Flagged:
		if side == k.fall.Side {
			return Late
		}
	}
	return Ignored
}

// Moved records that side's move stands, completed at t (an arbiter `move`
// report). While side's clock runs it is Press. While the clocks were
// switched to the opponent or held for a ruling (a false move that a ruling
// lets stand), the move is counted and the opponent's move begins at t: his
// clock runs on with his increment or delay for it. On idle clocks (the
// first mover moved before anyone started them) the move is counted at no
// cost and the opponent's clock starts. It is Late if a flag fell first.
func (k *Clock) Moved(t time.Duration, side board.Color) Outcome {
	switch k.status {
	case Running:
		if side == k.side {
			return k.Press(t, side)
		}
		if k.checkFlag(t) {
			return Late
		}
		k.charge(t)
	case Held, Idle:
	case Flagged:
		return Late
	default:
		return Ignored
	}
	k.complete(side)
	k.begin(side.Other(), t)
	return Completed
}

// Switch runs side's clock from t and stops the other's, without completing
// a move: no increment, delay or move count. The arbiter uses it while the
// offended player considers a penalty (hastings1895:IV N.B.: his own time
// runs) and to give the clock back to the player who must move again after
// a ruling. It also resumes held clocks. It reports whether anything changed.
func (k *Clock) Switch(t time.Duration, side board.Color) bool {
	switch k.status {
	case Running:
		if k.checkFlag(t) || side == k.side {
			return false
		}
		k.charge(t)
	case Held:
	default:
		return false
	}
	k.status, k.side, k.since = Running, side, t
	return true
}

// Hold stops both clocks at t for an arbiter's intervention (fide2023:6.11);
// Switch resumes them. It reports whether a clock was running.
func (k *Clock) Hold(t time.Duration) bool {
	if k.status != Running || k.checkFlag(t) {
		return false
	}
	k.charge(t)
	k.status = Held
	return true
}

// Stop ends the clocks at t (the game is over, or the replay ran out of
// input): they stand where they are. Running out of input is no flag fall;
// but if the running side's deadline passed before t, his flag fell then and
// Flag reports it.
func (k *Clock) Stop(t time.Duration) {
	switch k.status {
	case Running:
		if k.checkFlag(t) {
			return
		}
		k.charge(t)
	case Flagged, Stopped:
		return
	}
	k.status = Stopped
}

// Retract uncounts side's last completed move (one a ruling took back): the
// stage time that move earned is taken away again; the time used stays
// used. It does not change whose clock runs. It reports false when side has
// no move to retract or the clocks are over.
func (k *Clock) Retract(side board.Color) bool {
	pl := &k.p[side]
	if pl.moves == 0 || k.status == Flagged || k.status == Stopped {
		return false
	}
	ai, as := k.ctl.stageFor(pl.moves)
	pl.moves--
	if bi, bs := k.ctl.stageFor(pl.moves); ai != bi || as != bs {
		pl.left -= k.ctl.Stages[ai].Time
	}
	return true
}

// AddTime gives side d more time (d may be negative to correct a clock):
// fide2023:7.5.5 and 9.5 penalties give time to the opponent. It reports
// false once the clocks are over.
func (k *Clock) AddTime(side board.Color, d time.Duration) bool {
	if k.status == Flagged || k.status == Stopped {
		return false
	}
	k.p[side].left += d
	return true
}

// Set sets side's remaining time at t (an arbiter correcting a clock).
func (k *Clock) Set(t time.Duration, side board.Color, remaining time.Duration) bool {
	if k.status == Flagged || k.status == Stopped {
		return false
	}
	if k.status == Running && k.side == side {
		if k.checkFlag(t) {
			return false
		}
		k.charge(t)
	}
	k.p[side].left = remaining
	return true
}

// Remaining returns side's time at t as his clock would show it: running
// down while his clock runs (frozen during a simple delay), never below
// zero.
func (k *Clock) Remaining(t time.Duration, side board.Color) time.Duration {
	pl := &k.p[side]
	left := pl.left
	if k.status == Running && k.side == side {
		e := t - k.since
		if e < 0 {
			e = 0
		}
		if e <= pl.delayLeft {
			e = 0
		} else {
			e -= pl.delayLeft
		}
		left -= e
	}
	if left < 0 {
		return 0
	}
	return left
}

// Times returns both sides' remaining times at t.
func (k *Clock) Times(t time.Duration) (white, black time.Duration) {
	return k.Remaining(t, board.White), k.Remaining(t, board.Black)
}

// Deadline returns when the running side's flag falls if he does not move,
// or timing.Never when no clock runs. The game wakes at it and asks Flag.
func (k *Clock) Deadline() time.Duration {
	if k.status != Running {
		return timing.Never
	}
	pl := &k.p[k.side]
	return k.since + pl.delayLeft + pl.left
}

// Flag reports the flag that has fallen by t, if any. The first call at or
// after the deadline latches it: the clocks stop, that side at zero, and
// every later call returns the same Fall.
func (k *Clock) Flag(t time.Duration) (Fall, bool) {
	if k.checkFlag(t) {
		return k.fall, true
	}
	return Fall{}, false
}
