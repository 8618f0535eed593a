package lawset

import (
	"time"

	"github.com/boardd/boardd/report"
)

// Ruling is a law-set's decision on time: the result, a few words of reason
// and the law applied ("" when the code has none).
type Ruling struct {
	Result report.Outcome
	Reason string
	Law    report.Law
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
	Law  report.Law
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
