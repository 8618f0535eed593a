// Package timekeeper is the game's stage that keeps the players' clocks by
// the law-set in force: it tells the clocks of each press, each completed
// move, each irregularity and ruling, rules a flag's fall as the code says,
// and gives the time penalties the code gives.
package timekeeper

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// Timekeeper applies a law-set's rules on time to a Clock as the game's
// events arrive: the game calls it on each clock press, each completed move,
// each irregularity and ruling, each flag deadline and at the end. The
// position comes from the caller. It is not safe for concurrent use.
type Timekeeper struct {
	laws  *lawset.LawSet
	clock *clock.Clock
}

// New returns the timekeeper of a game under laws and control, whose first
// move is first's.
func New(laws *lawset.LawSet, c clock.Control, first board.Color) (*Timekeeper, error) {
	if laws == nil || laws.Flag == nil {
		return nil, fmt.Errorf("timekeeper: no law-set to rule on time")
	}
	k, err := clock.New(c, first)
	if err != nil {
		return nil, err
	}
	return &Timekeeper{laws: laws, clock: k}, nil
}

// Clock returns the clocks the timekeeper keeps.
func (tk *Timekeeper) Clock() *clock.Clock { return tk.clock }

// Laws returns the law-set in force.
func (tk *Timekeeper) Laws() *lawset.LawSet { return tk.laws }

// SetLaws puts another law-set in force (an arbiter changed it mid-game):
// flags, penalties and choices are ruled by it from now on.
func (tk *Timekeeper) SetLaws(laws *lawset.LawSet) { tk.laws = laws }

// Begin starts the first mover's clock at t: a replay with a time control
// calls it at its first input line.
func (tk *Timekeeper) Begin(t time.Duration) bool { return tk.clock.Start(t) }

// Press takes a clock press line. While the clocks are idle a press by the
// side not to move starts them (the player of the black pieces starts
// White's clock); afterwards the law-set's move completion drives the
// clocks through Move, and presses change nothing here.
func (tk *Timekeeper) Press(t time.Duration, side board.Color) clock.Outcome {
	if tk.clock.Status() != clock.Idle {
		return clock.Ignored
	}
	return tk.clock.Press(t, side)
}

// Move takes a completed move that stands (a `move` report) by side at t.
func (tk *Timekeeper) Move(t time.Duration, side board.Color) clock.Outcome {
	return tk.clock.Moved(t, side)
}

// Irregularity takes an irregularity reported at t with the party who must
// choose among its options. Under hastings1895 the chooser's own time runs
// while he considers (IV N.B.); under fide2023 the arbiter stops the clocks
// (6.11); the other codes say nothing and the clock stands as it is. It
// returns the law that decided ("" for none).
func (tk *Timekeeper) Irregularity(t time.Duration, chooser report.Party) report.Law {
	switch tk.laws.DuringChoice {
	case lawset.RunChooser:
		c, err := board.ParseColor(string(chooser))
		if err != nil {
			// The arbiter decides alone: nobody considers, nothing changes.
			return ""
		}
		tk.clock.Switch(t, c)
	case lawset.HoldBoth:
		tk.clock.Hold(t)
	default:
		return ""
	}
	return tk.laws.DuringChoiceLaw
}

// Hold stops both clocks at t: a draw claim waits for the move it rests on
// (fide2023:9.5.1), or two paired boards differ (fide2023:D.2.7). The move
// made, or a Resume, starts a clock again. It reports whether a clock was
// running.
func (tk *Timekeeper) Hold(t time.Duration) bool { return tk.clock.Hold(t) }

// Resume takes the end of a ruling at t: toMove (the side to move in the
// game's position afterwards) has the move, and his clock runs. A ruling
// that lets the offending move stand is followed by its Move, which counts
// it.
func (tk *Timekeeper) Resume(t time.Duration, toMove board.Color) bool {
	return tk.clock.Switch(t, toMove)
}

// Illegal takes a completed illegal move by offender: under fide2023 his
// opponent gets two minutes, one in rapid or blitz (7.5.5). It returns the
// penalty given.
func (tk *Timekeeper) Illegal(offender board.Color) (lawset.Penalty, bool) {
	return tk.penalise(offender, lawset.IllegalMove)
}

// IncorrectClaim takes an incorrect draw claim by claimant: under fide2023
// his opponent gets two minutes, one in rapid or blitz (9.5).
func (tk *Timekeeper) IncorrectClaim(claimant board.Color) (lawset.Penalty, bool) {
	return tk.penalise(claimant, lawset.IncorrectClaim)
}

func (tk *Timekeeper) penalise(offender board.Color, o lawset.Offence) (lawset.Penalty, bool) {
	if tk.laws.TimePenalty == nil {
		return lawset.Penalty{}, false
	}
	p, ok := tk.laws.TimePenalty(o, tk.clock.Control().Category() != clock.Standard)
	if ok {
		ok = tk.clock.AddTime(offender.Other(), p.Time)
	}
	return p, ok
}

// Reconcile brings the clock's move count back to the game's (total moves
// recorded, both sides) after a ruling took recorded moves back: each move
// too many is retracted from the side that made it.
func (tk *Timekeeper) Reconcile(total int) int {
	n := 0
	for {
		w, b := tk.clock.Moves(board.White), tk.clock.Moves(board.Black)
		if w+b <= total {
			return n
		}
		// The last move was the first mover's when both have made as many.
		last := tk.clock.First()
		if w+b > 0 && tk.clock.Moves(last) == tk.clock.Moves(last.Other()) {
			last = last.Other()
		}
		if !tk.clock.Retract(last) {
			return n
		}
		n++
	}
}

// Deadline returns when the running side's flag falls, or timing.Never:
// the game includes it in its own deadline and calls Flag when it comes.
func (tk *Timekeeper) Deadline() time.Duration { return tk.clock.Deadline() }

// Flag reports a flag fallen by t (latched at the deadline).
func (tk *Timekeeper) Flag(t time.Duration) (clock.Fall, bool) { return tk.clock.Flag(t) }

// Rule returns the law-set's ruling on a fall; opponentCanMate is whether
// the flagged side's opponent could still mate in the game's position
// (board.Position.CanMate(f.Side.Other())).
func (tk *Timekeeper) Rule(f clock.Fall, opponentCanMate bool) lawset.Ruling {
	return tk.laws.Flag(f.Side, opponentCanMate)
}

// End stops the clocks at t: the game is over (by result, or the replay's
// input ran out). They stand where they are.
func (tk *Timekeeper) End(t time.Duration) { tk.clock.Stop(t) }

// Times returns both remaining times at t formatted for an output line
// ("1:29:57").
func (tk *Timekeeper) Times(t time.Duration) (white, black string) {
	w, b := tk.clock.Times(t)
	return clock.Format(w), clock.Format(b)
}

// Clk returns the [%clk] command for side's move just completed at t.
func (tk *Timekeeper) Clk(t time.Duration, side board.Color) string {
	return clock.Clk(tk.clock.Remaining(t, side))
}

// Tag returns the PGN TimeControl tag value.
func (tk *Timekeeper) Tag() string { return clock.Tag(tk.clock.Control()) }

// Handover stops the running clock at t and runs to's, without completing
// a move: a side played from off the board has shown its move, and the
// player carries it out on his own time. The move counts (with its
// increment) when it is recorded, through Move.
func (tk *Timekeeper) Handover(t time.Duration, to board.Color) bool {
	return tk.clock.Switch(t, to)
}
