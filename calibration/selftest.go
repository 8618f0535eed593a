package calibration

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
)

// SelfTestOptions choose the self-test's parts.
type SelfTestOptions struct {
	// NoLEDs skips the LED walk.
	NoLEDs bool
	// NoWalk skips the man walk: stuck-off sensors, crosstalk and crossed
	// wires are then found only where the empty board shows them.
	NoWalk bool
}

// SelfTest checks a calibrated board:
//
//  1. the LED walk: rank by rank, the rank's LEDs light and the person
//     names any that stay dark;
//  2. the empty board: sensors that read a man (stuck-on), flicker, are
//     noisy, flat (dead) or have drifted since calibration;
//  3. the man walk: square by square, the person puts a man on the lit,
//     named square and lifts it: a square nothing answers on is stuck-off, a
//     man read on another square as well is crosstalk, and read only on
//     another square a crossed wire.
//
// It returns the report; Report.Fit says whether the board may be played
// on. A calibration made on other hardware is refused (a *FileError).
func SelfTest(ctx context.Context, s *Session, cal *Calibration, opts SelfTestOptions) (*Report, error) {
	s.init()
	defer s.light(led.Off)
	id, err := s.identify(ctx)
	if err != nil {
		return nil, err
	}
	if err := cal.Check(id); err != nil {
		return nil, err
	}
	rep := &Report{Hardware: id.String()}
	fmt.Fprintf(s.Out, "Self-test of %v.\n", id)
	for sq := range cal.Squares {
		if cal.Squares[sq].Channel < 0 || cal.Squares[sq].Has(FlagDead) {
			rep.add(StuckOff, Fault, "calibration found no working sensor here", board.Square(sq))
		}
	}

	if s.LEDs != nil && cal.LEDs > 0 && !opts.NoLEDs {
		if err := s.ledWalk(ctx, cal, rep); err != nil {
			return nil, err
		}
	}

	if err := s.clear(ctx); err != nil {
		return nil, err
	}
	s.setStatus("Watching the empty board: keep your hands off it...")
	check, err := newEmptyCheck(cal)
	if err != nil {
		return nil, err
	}
	base, err := s.sampleEmpty(ctx, check.frame)
	if err != nil {
		return nil, err
	}
	s.endStatus()
	check.findings(base, rep)

	if !opts.NoWalk {
		s.say("Man walk: put a man (any colour) on each square named, and lift it when the line says so.")
		for sq := range 64 {
			square := board.Square(sq)
			obs, err := s.walkStep(ctx, base, walkStep{
				title: "Test", n: sq + 1, total: 64,
				ask:  fmt.Sprintf("put a man on %s", square),
				step: Step{Kind: StepPlace, Square: square, Colour: board.White},
				led:  cal.LEDIndex(square),
			})
			if err != nil {
				return nil, err
			}
			checkWalk(cal, base, square, obs, rep)
		}
		s.endStatus()
	}
	s.observe(Step{Kind: StepDone})
	rep.sort()
	return rep, nil
}

// ledWalk lights the board rank by rank and asks which squares stay dark.
func (s *Session) ledWalk(ctx context.Context, cal *Calibration, rep *Report) error {
	s.say("LED walk: each rank lights in turn; name the squares of it that stay dark.")
	for r := 7; r >= 0; r-- {
		var idx []int
		for f := 0; f < 8; f++ {
			sq := board.NewSquare(f, r)
			if k := cal.LEDIndex(sq); k >= 0 {
				idx = append(idx, k)
			} else if !rep.has(NoLED, sq) {
				rep.add(NoLED, Warning, "the calibration knows no LED for this square", sq)
			}
		}
		if err := s.light(led.Guide, idx...); err != nil {
			return err
		}
		s.observe(Step{Kind: StepAskDark, Rank: r})
		if s.Picture != nil {
			s.endStatus()
			fmt.Fprint(s.Out, s.Picture())
		}
		for {
			line, err := s.ask(ctx, fmt.Sprintf("Rank %d is lit. Type the squares of rank %d that stay dark (e.g. c%d f%d), or press Enter if all 8 are lit: ", r+1, r+1, r+1, r+1))
			if err != nil {
				return err
			}
			if line == "q" || line == "quit" {
				return ErrInterrupted
			}
			dark, err := parseDark(line, r)
			if err != nil {
				fmt.Fprintln(s.Out, err)
				continue
			}
			for _, sq := range dark {
				rep.add(DeadLED, Fault, fmt.Sprintf("LED %d stays dark", cal.LEDIndex(sq)), sq)
			}
			break
		}
	}
	return s.light(led.Off)
}

// parseDark reads a list of squares of rank r ("c3 f3", or "" for none).
func parseDark(line string, r int) ([]board.Square, error) {
	var out []board.Square
	for _, w := range strings.FieldsFunc(line, func(c rune) bool { return c == ' ' || c == ',' }) {
		sq, err := board.ParseSquare(w)
		if err != nil {
			return nil, fmt.Errorf("%q is not a square: type squares like c%d f%d, or just press Enter", w, r+1, r+1)
		}
		if sq.Rank() != r {
			return nil, fmt.Errorf("%s is not on rank %d, the rank that is lit", sq, r+1)
		}
		out = append(out, sq)
	}
	return out, nil
}

// emptyCheck watches the empty board through the calibration's classifier.
type emptyCheck struct {
	cal      *Calibration
	k        *Classifier
	frames   int
	occupied [64]int
}

func newEmptyCheck(cal *Calibration) (*emptyCheck, error) {
	k, err := NewClassifier(cal, ClassifierOptions{NoTracking: true, NoSettle: true})
	if err != nil {
		return nil, err
	}
	return &emptyCheck{cal: cal, k: k}, nil
}

func (e *emptyCheck) frame(t time.Duration, r []uint16) {
	occ, err := e.k.Classify(t, r)
	if err != nil {
		return
	}
	e.frames++
	for _, sq := range occ.Squares() {
		e.occupied[sq]++
	}
}

// findings adds what the empty board showed, given its measured baseline.
func (e *emptyCheck) findings(base *Baseline, rep *Report) {
	for i := range e.cal.Squares {
		sq := board.Square(i)
		s := &e.cal.Squares[i]
		if s.Channel < 0 || s.Has(FlagDead) {
			continue
		}
		mean, noise := base.Mean[s.Channel], base.Noise[s.Channel]
		th := e.cal.thresholds(s)
		switch n := e.occupied[i]; {
		case n*2 > e.frames:
			rep.add(StuckOn, Fault, fmt.Sprintf("reads a man on an empty board (%.0f, empty level %.0f)", mean, s.Empty.Mean), sq)
			continue
		case n > 0:
			rep.add(Noisy, Fault, fmt.Sprintf("flickers: read a man in %d of %d frames on an empty board (noise %.1f)", n, e.frames, noise), sq)
			continue
		}
		if !e.cal.Digital && noise == 0 && s.Empty.Noise > 0 {
			rep.add(StuckOff, Fault, fmt.Sprintf("channel %d reads a flat %.0f with no noise: dead or disconnected", s.Channel, mean), sq)
			continue
		}
		on := math.Min(th.onUp, th.onDown)
		d := mean - s.Empty.Mean
		margin := on - math.Abs(d)
		switch {
		case noise > 0 && margin < 5*noise:
			rep.add(Noisy, Fault, fmt.Sprintf("noise %.1f counts leaves %.0f counts to the threshold: phantom men likely", noise, margin), sq)
		case noise > math.Max(3*s.Empty.Noise, 2):
			rep.add(Noisy, Warning, fmt.Sprintf("noise %.1f counts (%.1f at calibration)", noise, s.Empty.Noise), sq)
		}
		gap := th.gapUp
		if d < 0 {
			gap = th.gapDown
		}
		if !math.IsInf(gap, 0) && math.Abs(d) > 0.25*gap {
			rep.add(Drifted, Warning, fmt.Sprintf("empty level moved %+.0f counts since calibration (%.0f%% of the way to the threshold): recalibrate soon", d, 100*math.Abs(d)/on), sq)
		}
	}
}

// checkWalk adds what a man on square sq showed.
func checkWalk(cal *Calibration, base *Baseline, sq board.Square, obs Observation, rep *Report) {
	own := cal.Squares[sq].Channel
	if own < 0 || cal.Squares[sq].Has(FlagDead) || rep.has(StuckOn, sq) {
		return // already reported
	}
	owner := make(map[int]board.Square)
	for i := range cal.Squares {
		if c := cal.Squares[i].Channel; c >= 0 {
			owner[c] = board.Square(i)
		}
	}
	var mine *Response
	var others []board.Square
	var stray []int
	for i := range obs.Responses {
		r := &obs.Responses[i]
		switch y, ok := owner[r.Channel]; {
		case r.Channel == own:
			mine = r
		case ok:
			others = append(others, y)
		default:
			stray = append(stray, r.Channel)
		}
	}
	for _, c := range stray {
		rep.add(Crosstalk, Fault, fmt.Sprintf("a man on %s moves channel %d, which belongs to no square", sq, c), sq)
	}
	switch {
	case mine == nil && len(others) == 0:
		if !rep.has(StuckOff, sq) {
			rep.add(StuckOff, Fault, "no answer to a man: dead sensor or broken wire", sq)
		}
		return
	case mine == nil:
		for _, y := range others {
			rep.add(Crossed, Fault, fmt.Sprintf("a man on %s is read on %s instead: crossed wires", sq, y), y, sq)
		}
		return
	}
	for _, y := range others {
		rep.add(Crosstalk, Fault, fmt.Sprintf("%s's sensor also reads a man on %s: crossed or shorted wires", y, sq), y, sq)
	}
	s := &cal.Squares[sq]
	th := cal.thresholds(s)
	d := mine.Level.Mean - base.Mean[own]
	gap, on := th.gapUp, th.onUp
	if d < 0 {
		gap, on = th.gapDown, th.onDown
	}
	switch {
	case math.IsInf(gap, 0):
	case math.Abs(d) < on:
		rep.add(StuckOff, Fault, fmt.Sprintf("a man moves the reading only %.0f counts, short of the threshold %.0f", math.Abs(d), on), sq)
	case math.Abs(d) < 0.7*gap:
		rep.add(Weak, Warning, fmt.Sprintf("a man moves the reading %.0f counts, %.0f%% of the calibrated %.0f", math.Abs(d), 100*math.Abs(d)/gap, gap), sq)
	}
}

// IsRefusal reports whether err is a refused calibration file (missing,
// corrupt, other version or other hardware).
func IsRefusal(err error) bool {
	var fe *FileError
	return errors.As(err, &fe)
}
