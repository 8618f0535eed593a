package hwtest

import (
	"time"

	"github.com/boardd/boardd/board"
)

// passingStop is one set-down of a moving man before his own square
// (Style.Passing, Style.HesitateTwo), as the builder made it.
type passingStop struct {
	ply    int // the index of the move in the game
	move   board.Move
	kind   board.Kind   // the man set down
	square board.Square // where he was set down
	// lawful: he could lawfully have moved to square from move.From.
	lawful bool
	// firstPlace, lastPlace and lift index the stop's lines: his first
	// placement, his last (after a nudge; else firstPlace) and his lift.
	firstPlace, lastPlace, lift int
	nudged                      bool
	hesitation                  bool // a hesitation over two squares, not a stop in passing
}

// land brings the man in hand (lifted from m.From, any taken man already
// off) to m.To: perhaps a hesitation over another square, else perhaps one
// or two stops in passing and the time in hand; then it sets him down.
func (b *builder) land(m board.Move) error {
	hesitated, err := b.hesitateTwo(m)
	if err != nil {
		return err
	}
	if !hesitated {
		if err := b.passing(m); err != nil {
			return err
		}
		b.holding()
	}
	return b.place(m.To)
}

// hesitateTwo, when Style.HesitateTwo says so and the man has another empty
// square he could lawfully go to, sets him down there for a passing dwell,
// lifts him and holds him 0.3 to 1.5 s. It reports whether it did.
func (b *builder) hesitateTwo(m board.Move) (bool, error) {
	if !b.chance(b.s.opts.Style.HesitateTwo) {
		return false, nil
	}
	var others []board.Square
	for _, lm := range b.analysis.Moves {
		if lm.From == m.From && lm.To != m.To && !b.occ.Has(lm.To) && !containsSquare(others, lm.To) {
			others = append(others, lm.To)
		}
	}
	if len(others) == 0 {
		return false, nil
	}
	b.note("hesitation over two squares")
	b.hand()
	if err := b.stopOn(m, others[b.rng.IntN(len(others))], true, true); err != nil {
		return false, err
	}
	b.wait(b.between(300*time.Millisecond, 1500*time.Millisecond))
	return true, nil
}

// passing, when Style.Passing says so, sets the man in hand down on one or
// two empty squares near m.To or on his way there, and lifts him again
// each time.
func (b *builder) passing(m board.Move) error {
	if !b.chance(b.s.opts.Style.Passing) {
		return nil
	}
	stops := 1
	if b.chance(twoStopsShare) {
		stops = 2
	}
	previous := board.NoSquare
	for i := range stops {
		lawful, unlawful := b.passingSquares(m, previous)
		choice, isLawful := lawful, true
		if len(lawful) == 0 || (len(unlawful) > 0 && b.rng.IntN(2) == 0) {
			choice, isLawful = unlawful, false
		}
		if len(choice) == 0 {
			return nil
		}
		sq := choice[b.rng.IntN(len(choice))]
		if i == 0 {
			b.note("passing")
		} else {
			b.note("passing, two stops")
		}
		b.hand()
		if err := b.stopOn(m, sq, isLawful, false); err != nil {
			return err
		}
		previous = sq
	}
	return nil
}

// analogPassingDwell is the shortest stop in passing on an analogue
// board: long enough for a slow hand (three times the usual descent) to set
// the man down and lift him again.
const analogPassingDwell = 200 * time.Millisecond

// passingDwell is how long a man set down in passing stays.
func (b *builder) passingDwell() time.Duration {
	if b.chance(longPassingShare) {
		b.note("passing, long dwell")
		return b.logBetween(usualPassingDwell, MaxPassingDwell)
	}
	return b.logBetween(MinPassingDwell, usualPassingDwell)
}

// stopOn sets the man moving m down on sq, perhaps nudges him there
// (Style.PassingNudge), lifts him after a passing dwell and records the
// stop.
func (b *builder) stopOn(m board.Move, sq board.Square, lawful, hesitation bool) error {
	stop := passingStop{ply: b.moveIndex, move: m, kind: b.pos.Men[m.From].Kind(), square: sq, lawful: lawful, hesitation: hesitation}
	switch {
	case hesitation:
	case lawful:
		b.note("passing, lawful square")
	default:
		b.note("passing, unlawful square")
	}
	if err := b.place(sq); err != nil {
		return err
	}
	stop.firstPlace = len(b.lines) - 1
	landed := b.t
	dwell := b.passingDwell()
	if b.sqGap >= analogGap {
		// On an analogue board a man set down must reach the board: a stop
		// shorter than a hand's descent and rise is a dip in the air, which
		// no set-down in passing is. The shortest stops are lengthened to
		// what slow hands need to land and leave.
		dwell = max(dwell, analogPassingDwell)
	}
	if b.chance(b.s.opts.Style.PassingNudge) {
		// The nudge is part of the stay, not a second one: a nudge too
		// small for a sensor to see leaves one stay of the whole dwell.
		b.note("passing nudge")
		stop.nudged = true
		b.wait(b.between(dwell/4, dwell/2))
		if err := b.lift(sq); err != nil {
			return err
		}
		b.wait(b.between(20*time.Millisecond, 80*time.Millisecond))
		if err := b.place(sq); err != nil {
			return err
		}
	}
	stop.lastPlace = len(b.lines) - 1
	b.wait(max(landed+dwell-b.t, MinPassingDwell))
	if err := b.lift(sq); err != nil {
		return err
	}
	stop.lift = len(b.lines) - 1
	b.stops = append(b.stops, stop)
	return nil
}

// passingSquares lists the empty squares the man moving m (in hand) could
// be set down on in passing: next to m.To, or between m.From and m.To on
// his line, never m.From, m.To or skip. lawful are those he could lawfully
// move to from m.From, unlawful the others.
func (b *builder) passingSquares(m board.Move, skip board.Square) (lawful, unlawful []board.Square) {
	path := pathBetween(m.From, m.To)
	for sq := board.Square(0); sq < 64; sq++ {
		if sq == m.From || sq == m.To || sq == skip || b.occ.Has(sq) {
			continue
		}
		if kingDistance(sq, m.To) != 1 && !containsSquare(path, sq) {
			continue
		}
		if b.lawfulDestination(m.From, sq) {
			lawful = append(lawful, sq)
		} else {
			unlawful = append(unlawful, sq)
		}
	}
	return lawful, unlawful
}

// lawfulDestination reports whether the man on from may lawfully move to
// to in the position before the move.
func (b *builder) lawfulDestination(from, to board.Square) bool {
	for _, lm := range b.analysis.Moves {
		if lm.From == from && lm.To == to {
			return true
		}
	}
	return false
}

// kingDistance is the number of king's steps from a to b.
func kingDistance(a, b board.Square) int {
	return max(iabs(a.File()-b.File()), iabs(a.Rank()-b.Rank()))
}

func containsSquare(list []board.Square, sq board.Square) bool {
	for _, s := range list {
		if s == sq {
			return true
		}
	}
	return false
}
