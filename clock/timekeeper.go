package clock

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// Timekeeper applies a law-set's rules on time to a Clock as the game's
// events arrive: it is what the pipeline calls on each clock press, each
// completed move, each irregularity and ruling, each flag deadline and at
// the end. It knows the law-set by id; the position comes from the caller.
// It is not safe for concurrent use.
type Timekeeper struct {
	laws  string
	clock *Clock
}

// NewTimekeeper returns the timekeeper of a game under laws (a law-set id)
// and control, whose first move is first's.
func NewTimekeeper(laws string, c Control, first board.Color) (*Timekeeper, error) {
	if _, err := OnFlag(laws, board.White, true); err != nil {
		return nil, err
	}
	k, err := New(c, first)
	if err != nil {
		return nil, err
	}
	return &Timekeeper{laws: laws, clock: k}, nil
}

// Clock returns the clocks the timekeeper keeps.
func (tk *Timekeeper) Clock() *Clock { return tk.clock }

// Laws returns the law-set id.
func (tk *Timekeeper) Laws() string { return tk.laws }

// Begin starts the first mover's clock at t: a replay with a time control
// calls it at its first input line.
func (tk *Timekeeper) Begin(t time.Duration) bool { return tk.clock.Start(t) }

// Press takes a clock press line. While the clocks are idle a press by the
// side not to move starts them (the player of the black pieces starts
// White's clock); afterwards the law-set's move completion drives the
// clocks through Move, and presses change nothing here.
func (tk *Timekeeper) Press(t time.Duration, side board.Color) Outcome {
	if tk.clock.Status() != Idle {
		return Ignored
	}
	return tk.clock.Press(t, side)
}

// Move takes a completed move that stands (an arbiter `move` report) by
// side at t.
func (tk *Timekeeper) Move(t time.Duration, side board.Color) Outcome {
	return tk.clock.Moved(t, side)
}

// Irregularity takes an irregularity reported at t with the player who must
// choose among its options ("white", "black"; "arbiter" or "" when no
// player chooses). Under hastings1895 the chooser's own time runs while he
// considers (IV N.B.); under fide2023 the arbiter stops the clocks (6.11);
// the other codes say nothing and the clock stands as it is. It returns the
// law that decided ("" for none).
func (tk *Timekeeper) Irregularity(t time.Duration, chooser string) string {
	policy, law := DuringChoice(tk.laws)
	switch policy {
	case RunChooser:
		c, err := board.ParseColor(chooser)
		if err != nil {
			// The arbiter decides alone: nobody considers, nothing changes.
			return ""
		}
		tk.clock.Switch(t, c)
	case HoldBoth:
		tk.clock.Hold(t)
	default:
		return ""
	}
	return law
}

// Resume takes the end of a ruling at t: toMove (the side to move in the
// game's position afterwards) has the move, and his clock runs. A ruling
// that lets the offending move stand is followed by its Move, which counts
// it.
func (tk *Timekeeper) Resume(t time.Duration, toMove board.Color) bool {
	return tk.clock.Switch(t, toMove)
}

// Illegal takes a completed illegal move by offender (arbiter.Game's
// OnIllegal hook): under fide2023 his opponent gets two minutes, one in
// rapid or blitz (7.5.5). It returns the penalty given.
func (tk *Timekeeper) Illegal(offender board.Color) (Penalty, bool) {
	return tk.penalise(offender, IllegalMove)
}

// IncorrectClaim takes an incorrect draw claim by claimant: under fide2023
// his opponent gets two minutes, one in rapid or blitz (9.5).
func (tk *Timekeeper) IncorrectClaim(claimant board.Color) (Penalty, bool) {
	return tk.penalise(claimant, IncorrectClaim)
}

func (tk *Timekeeper) penalise(offender board.Color, o Offence) (Penalty, bool) {
	p, ok := PenaltyFor(tk.laws, tk.clock.Control(), o)
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
		last := tk.clock.first
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
// the pipeline includes it in its own deadline and calls Flag when it comes.
func (tk *Timekeeper) Deadline() time.Duration { return tk.clock.Deadline() }

// Flag reports a flag fallen by t (latched at the deadline).
func (tk *Timekeeper) Flag(t time.Duration) (Fall, bool) { return tk.clock.Flag(t) }

// Rule returns the law-set's ruling on a fall; opponentCanMate is whether
// the flagged side's opponent could still mate in the game's position
// (board.Position.CanMate(f.Side.Other())).
func (tk *Timekeeper) Rule(f Fall, opponentCanMate bool) Ruling {
	r, err := OnFlag(tk.laws, f.Side, opponentCanMate)
	if err != nil { // unreachable: NewTimekeeper checked the law-set
		return Ruling{Result: win(f.Side.Other()), Reason: fmt.Sprintf("%s's flag fell (%v)", name(f.Side), err)}
	}
	return r
}

// End stops the clocks at t: the game is over (by result, or the replay's
// input ran out). They stand where they are.
func (tk *Timekeeper) End(t time.Duration) { tk.clock.Stop(t) }

// Times returns both remaining times at t formatted for an output line
// ("1:29:57").
func (tk *Timekeeper) Times(t time.Duration) (white, black string) {
	w, b := tk.clock.Times(t)
	return Format(w), Format(b)
}

// Clk returns the [%clk] command for side's move just completed at t.
func (tk *Timekeeper) Clk(t time.Duration, side board.Color) string {
	return Clk(tk.clock.Remaining(t, side))
}

// Tag returns the PGN TimeControl tag value.
func (tk *Timekeeper) Tag() string { return Tag(tk.clock.Control()) }
