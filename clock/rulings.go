package clock

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// Law-set ids, as package arbiter names them.
const (
	Sarratt1808  = "sarratt1808"
	Philidor1825 = "philidor1825"
	NYCC         = "nycc"
	Hastings1895 = "hastings1895"
	FIDE2023     = "fide2023"
)

// Law ids of the rulings on time.
const (
	LawFIDEFlag          = "fide2023:6.9"
	LawFIDEInterrupt     = "fide2023:6.11"
	LawFIDEIllegalMove   = "fide2023:7.5.5"
	LawFIDEClaim         = "fide2023:9.5"
	LawHastingsTimeLimit = "hastings1895:time-limit"
	LawHastingsPenalty   = "hastings1895:IV"
	LawNYCCDuration      = "nycc:VIII"
)

// Ruling is a law-set's decision: the result ("1-0", "0-1", "1/2-1/2"), a
// few words of reason and the law applied ("" when the code has none).
type Ruling struct {
	Result string
	Reason string
	Law    string
}

func win(c board.Color) string {
	if c == board.White {
		return "1-0"
	}
	return "0-1"
}

func name(c board.Color) string {
	if c == board.White {
		return "White"
	}
	return "Black"
}

// OnFlag rules on a fallen flag: flagged is the side whose time ran out,
// opponentCanMate whether his opponent could still mate by some series of
// legal moves (board.Position.CanMate(flagged.Other()) on the position at
// the fall).
//
//   - fide2023:6.9: the game is lost, but drawn if the opponent cannot mate.
//   - hastings1895 (the regulations' Time Limit): the player who exceeds the
//     limit forfeits the game.
//   - nycc:VIII: thinking time is unlimited unless the players agree a limit
//     and its penalty; a time control given to boardd is that agreement, and
//     overstepping it loses.
//   - philidor1825, sarratt1808: the codes say nothing of time; the agreed
//     control still decides, with no law to cite.
func OnFlag(laws string, flagged board.Color, opponentCanMate bool) (Ruling, error) {
	who, other := name(flagged), name(flagged.Other())
	switch laws {
	case FIDE2023:
		if !opponentCanMate {
			return Ruling{"1/2-1/2", fmt.Sprintf("%s's flag fell, but %s cannot mate by any series of legal moves", who, other), LawFIDEFlag}, nil
		}
		return Ruling{win(flagged.Other()), fmt.Sprintf("%s's flag fell", who), LawFIDEFlag}, nil
	case Hastings1895:
		return Ruling{win(flagged.Other()), fmt.Sprintf("%s exceeded the time limit and forfeits the game", who), LawHastingsTimeLimit}, nil
	case NYCC:
		return Ruling{win(flagged.Other()), fmt.Sprintf("%s exceeded the time limit the players agreed", who), LawNYCCDuration}, nil
	case Philidor1825, Sarratt1808:
		return Ruling{win(flagged.Other()), fmt.Sprintf("%s exceeded the time limit the players agreed; the code says nothing of time, so no law is cited", who), ""}, nil
	}
	return Ruling{}, fmt.Errorf("clock: unknown law-set %q", laws)
}

// Offence is something a time penalty punishes.
type Offence uint8

// Offences with time penalties.
const (
	IllegalMove    Offence = iota + 1 // a first completed illegal move (fide2023:7.5.5)
	IncorrectClaim                    // an incorrect draw claim (fide2023:9.5)
)

// Penalty is time given to the offender's opponent.
type Penalty struct {
	Time time.Duration
	Law  string
}

// PenaltyFor returns the time a law-set gives the offender's opponent under
// control: two minutes under fide2023 (7.5.5 after a first illegal move, 9.5
// after an incorrect claim), one minute when the control is rapid or blitz
// (the Appendices replace two minutes by one). The other codes give no time;
// ok is false for them.
func PenaltyFor(laws string, c Control, o Offence) (p Penalty, ok bool) {
	if laws != FIDE2023 {
		return Penalty{}, false
	}
	switch o {
	case IllegalMove:
		p.Law = LawFIDEIllegalMove
	case IncorrectClaim:
		p.Law = LawFIDEClaim
	default:
		return Penalty{}, false
	}
	p.Time = 2 * time.Minute
	if c.Category() != Standard {
		p.Time = time.Minute
	}
	return p, true
}

// ChoiceClock says whose time runs while a player chooses among a ruling's
// options.
type ChoiceClock uint8

// What the clocks do during a pending choice.
const (
	// KeepRunning: the code says nothing; the clock stands as the move
	// left it.
	KeepRunning ChoiceClock = iota
	// RunChooser: the chooser's own time runs (hastings1895:IV N.B.).
	RunChooser
	// HoldBoth: the arbiter stops the clocks while he intervenes
	// (fide2023:6.11).
	HoldBoth
)

func (c ChoiceClock) String() string {
	switch c {
	case RunChooser:
		return "run-chooser"
	case HoldBoth:
		return "hold"
	}
	return "keep"
}

// DuringChoice says what the clocks do while a ruling's choice is pending
// under a law-set, and the law that says so.
func DuringChoice(laws string) (ChoiceClock, string) {
	switch laws {
	case Hastings1895:
		return RunChooser, LawHastingsPenalty
	case FIDE2023:
		return HoldBoth, LawFIDEInterrupt
	}
	return KeepRunning, ""
}
