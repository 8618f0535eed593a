package calibration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
)

// ProgressFileName is the wizard's progress file in the state directory.
const ProgressFileName = "calibration.progress.json"

// ProgressStore keeps a wizard's progress between runs.
type ProgressStore interface {
	// Load returns the saved progress, or nil when there is none.
	Load() (*Progress, error)
	Save(*Progress) error
	Clear() error
}

// ProgressFile is a ProgressStore in a file, written atomically.
type ProgressFile string

// ProgressPath returns the progress file's path in state directory dir.
func ProgressPath(dir string) ProgressFile {
	return ProgressFile(filepath.Join(dir, ProgressFileName))
}

// Load reads the saved progress; a missing file is no progress.
func (f ProgressFile) Load() (*Progress, error) {
	data, err := os.ReadFile(string(f))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("calibration: read %s: %w", f, err)
	}
	var p Progress
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("calibration: saved progress %s is damaged: %w", f, err)
	}
	return &p, nil
}

// Save writes the progress atomically.
func (f ProgressFile) Save(p *Progress) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("calibration: save progress: %w", err)
	}
	return writeAtomic(string(f), data)
}

// Clear removes the saved progress.
func (f ProgressFile) Clear() error {
	if err := os.Remove(string(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("calibration: remove %s: %w", f, err)
	}
	return nil
}

// WizardOptions tune Calibrate.
type WizardOptions struct {
	// Store keeps progress between runs (nil: progress is not kept).
	Store ProgressStore
	// Restart discards saved progress.
	Restart bool
	// Previous is the board's previous calibration, if any: its LED map
	// lights the named squares of the White walk.
	Previous *Calibration
}

// progressVersion is the progress file's format.
const progressVersion = 1

// Calibrate runs the calibration wizard on session s:
//
//  1. the empty board is measured (each sensor's level and noise);
//  2. the White walk: square by square from a1 to h8, the person puts a
//     White man on the named square and lifts it; the sensor that answers is
//     that square's, and its reading the White level;
//  3. the Black walk: LED by LED along the chain, the person puts a Black
//     man on the lit square and lifts it; the sensor that answers names the
//     square the LED is under, and gives the Black level (on a board without
//     LEDs, the squares are named instead);
//  4. squares the LED walk could not reach are asked for by name.
//
// Progress is saved after every square; an interrupted wizard (q, or ctx
// ending) returns an error wrapping ErrInterrupted and resumes on the next
// run. It returns the calibration and a summary of weak or suspicious
// squares.
func Calibrate(ctx context.Context, s *Session, opts WizardOptions) (*Calibration, *Report, error) {
	s.init()
	defer s.light(led.Off)
	id, err := s.identify(ctx)
	if err != nil {
		return nil, nil, err
	}
	leds := 0
	if s.LEDs != nil {
		leds = 64
	}
	fmt.Fprintf(s.Out, "Calibrating %v", id)
	if leds > 0 {
		fmt.Fprintf(s.Out, " and %d LEDs", leds)
	}
	fmt.Fprintln(s.Out, ".")
	fmt.Fprintln(s.Out, "Type q and Enter (or press Ctrl-C) to stop: progress is kept and the next 'boardd calibrate' resumes.")
	fmt.Fprintln(s.Out, "Type s and Enter to skip a square nothing answers on.")

	var p *Progress
	if opts.Store != nil && !opts.Restart {
		saved, err := opts.Store.Load()
		switch {
		case err != nil:
			s.say("Saved progress ignored (%v); starting over.", err)
		case saved == nil:
		case saved.Version != progressVersion || saved.Identity != id || saved.LEDs != leds:
			s.say("Saved progress was made on %v; starting over.", saved.Identity)
		default:
			p = saved
			s.say("Resuming the saved calibration: %s.", p.where())
		}
	}
	if p == nil {
		p = &Progress{Version: progressVersion, Identity: id, LEDs: leds}
	}
	save := func() error {
		if opts.Store == nil {
			return nil
		}
		return opts.Store.Save(p)
	}
	interrupted := func(err error) error {
		if errors.Is(err, ErrInterrupted) {
			s.endStatus()
			return fmt.Errorf("calibration: %w at %s; run 'boardd calibrate' again to resume", ErrInterrupted, p.where())
		}
		return err
	}

	if p.Baseline == nil {
		if err := s.clear(ctx); err != nil {
			return nil, nil, interrupted(err)
		}
		s.setStatus("Measuring the empty board: keep your hands off it...")
		base, err := s.sampleEmpty(ctx, nil)
		if err != nil {
			return nil, nil, interrupted(err)
		}
		s.endStatus()
		p.Baseline = base
		if err := save(); err != nil {
			return nil, nil, err
		}
	}

	// The White walk, by name; LEDs light the square where the map is known.
	ledOf := func(sq board.Square) int {
		if opts.Previous != nil && opts.Previous.LEDs == leds {
			return opts.Previous.LEDIndex(sq)
		}
		return int(sq) // a first guess: many boards chain LEDs from a1
	}
	if len(p.White) < 64 {
		s.say("White walk: put a White man on each square named, and lift it when the line says so.")
	}
	for len(p.White) < 64 {
		sq := board.Square(len(p.White))
		obs, err := s.walkStep(ctx, p.Baseline, walkStep{
			title: "White", n: int(sq) + 1, total: 64,
			ask:  fmt.Sprintf("put a White man on %s", sq),
			step: Step{Kind: StepPlace, Square: sq, Colour: board.White},
			led:  ledOf(sq),
		})
		if err != nil {
			return nil, nil, interrupted(err)
		}
		p.White = append(p.White, obs)
		if err := save(); err != nil {
			return nil, nil, err
		}
	}

	steps := p.blackSteps()
	if len(p.Black) < steps {
		if leds > 0 {
			s.say("Black walk: put a Black man on the lit square, and lift it when the line says so.")
		} else {
			s.say("Black walk: put a Black man on each square named, and lift it when the line says so.")
		}
	}
	for len(p.Black) < steps {
		k := len(p.Black)
		ws := walkStep{title: "Black", n: k + 1, total: steps,
			ask:  "put a Black man on the lit square",
			step: Step{Kind: StepPlace, Square: board.NoSquare, Colour: board.Black},
			led:  k,
		}
		if leds == 0 {
			ws.ask = fmt.Sprintf("put a Black man on %s", board.Square(k))
			ws.step.Square = board.Square(k)
		}
		obs, err := s.walkStep(ctx, p.Baseline, ws)
		if err != nil {
			return nil, nil, interrupted(err)
		}
		p.Black = append(p.Black, obs)
		if err := save(); err != nil {
			return nil, nil, err
		}
	}

	extra := extraSquares(p)
	if len(p.Extra) < len(extra) {
		s.say("The LED walk did not reach %d square(s); put a Black man on each square named.", len(extra)-len(p.Extra))
	}
	for len(p.Extra) < len(extra) {
		sq := extra[len(p.Extra)]
		obs, err := s.walkStep(ctx, p.Baseline, walkStep{
			title: "Black", n: len(p.Extra) + 1, total: len(extra),
			ask:  fmt.Sprintf("put a Black man on %s", sq),
			step: Step{Kind: StepPlace, Square: sq, Colour: board.Black},
			led:  -1,
		})
		if err != nil {
			return nil, nil, interrupted(err)
		}
		p.Extra = append(p.Extra, obs)
		if err := save(); err != nil {
			return nil, nil, err
		}
	}

	c, rep, err := Build(p)
	if err != nil {
		return nil, nil, err
	}
	s.observe(Step{Kind: StepDone})
	if opts.Store != nil {
		if err := opts.Store.Clear(); err != nil {
			return nil, nil, err
		}
	}
	return c, rep, nil
}

// where says how far the progress has come, for people.
func (p *Progress) where() string {
	switch {
	case p.Baseline == nil:
		return "the empty board"
	case len(p.White) < 64:
		return fmt.Sprintf("White walk, square %d of 64", len(p.White)+1)
	case len(p.Black) < p.blackSteps():
		return fmt.Sprintf("Black walk, square %d of %d", len(p.Black)+1, p.blackSteps())
	}
	return "the last squares"
}

// clear asks the person to clear the board and waits for Enter.
func (s *Session) clear(ctx context.Context) error {
	if err := s.light(led.Off); err != nil {
		return err
	}
	s.observe(Step{Kind: StepClear})
	for {
		line, err := s.ask(ctx, "Take every man off the board, then press Enter: ")
		if err != nil {
			return err
		}
		switch line {
		case "q", "quit":
			return ErrInterrupted
		case "":
			return nil
		}
		fmt.Fprintln(s.Out, "Press Enter when the board is empty, or type q to stop.")
	}
}

// walkStep is one square of a walk.
type walkStep struct {
	title    string
	n, total int
	ask      string
	step     Step
	led      int // LED to light, -1 none
}

// walkStep lights the square, asks for a man, and watches it placed and
// lifted.
func (s *Session) walkStep(ctx context.Context, base *Baseline, w walkStep) (Observation, error) {
	if err := s.light(led.Guide, w.led); err != nil {
		return Observation{}, err
	}
	line := func(what string) string {
		return fmt.Sprintf("%-5s %s square %d of %d: %s", w.title, bar(w.n-1, w.total, 32), w.n, w.total, what)
	}
	status := func(phase string) {
		switch phase {
		case "place":
			s.setStatus(line(w.ask))
		case "hold":
			s.setStatus(line("hold it still..."))
		case "lift":
			s.setStatus(line("now lift it"))
		}
	}
	s.observe(w.step)
	obs, err := s.watch(ctx, base, status, func(Observation) {
		if err := s.light(led.Destination, w.led); err != nil {
			s.say("LEDs: %v", err)
		}
		s.observe(Step{Kind: StepLift})
	})
	switch {
	case errors.Is(err, errSkip):
		s.say("%s square %d of %d skipped.", w.title, w.n, w.total)
		s.observe(Step{Kind: StepLift})
		return Observation{}, nil
	case err != nil:
		return Observation{}, err
	case !obs.Answered:
		s.say("%s square %d of %d: no sensor answered in %v; going on (take the man off).", w.title, w.n, w.total, s.Timing.GiveUp)
		s.observe(Step{Kind: StepLift})
	}
	return obs, nil
}
