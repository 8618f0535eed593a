package calibration

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// rig is a simulated board with a simulated person who answers every
// question, on virtual time running as fast as the CPU allows.
type rig struct {
	board   *SimBoard
	clock   *timing.Virtual
	person  *SimPerson
	answers chan string
	out     *bytes.Buffer
	session *Session
}

func newRig(t testing.TB, opts SimOptions) *rig {
	t.Helper()
	r := &rig{clock: &timing.Virtual{}, answers: make(chan string, 64), out: &bytes.Buffer{}}
	r.board = NewSimBoard(r.clock, opts)
	r.person = &SimPerson{Board: r.board, Clock: r.clock, Answers: r.answers, Reach: 150 * time.Millisecond}
	r.session = r.newSession()
	return r
}

// newSession returns a fresh session on the rig (a new run of a command).
func (r *rig) newSession() *Session {
	s := &Session{
		Scanner: r.board,
		Clock:   r.clock,
		Wait:    VirtualWait(r.clock, 0),
		Out:     r.out,
		In:      r.answers,
		Observe: r.person.Observe,
		Picture: r.board.Picture,
		// Half the default frame rate keeps the race detector's tests quick.
		Timing: Timing{Period: 20 * time.Millisecond},
	}
	if r.board.HasLEDs() {
		s.LEDs = r.board
	}
	return s
}

func (r *rig) calibrate(t testing.TB, opts WizardOptions) (*Calibration, *Report) {
	t.Helper()
	c, rep, err := Calibrate(context.Background(), r.session, opts)
	if err != nil {
		t.Fatalf("Calibrate: %v\n%s", err, r.out)
	}
	return c, rep
}

func TestCalibrateLearnsWiringAndLevels(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts SimOptions
	}{
		{"dual polarity with LEDs", SimOptions{Seed: 1}},
		{"single polarity with LEDs", SimOptions{Seed: 2, Polarity: Single}},
		{"dual polarity without LEDs", SimOptions{Seed: 3, NoLEDs: true}},
		{"digital sensors", SimOptions{Seed: 4, Digital: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.opts)
			c, rep := r.calibrate(t, WizardOptions{})
			if !rep.Fit() || len(rep.Findings) != 0 {
				var b bytes.Buffer
				rep.Write(&b)
				t.Errorf("healthy board: summary has findings:\n%s", &b)
			}
			for sq := range 64 {
				s := c.Squares[sq]
				if want := r.board.ChannelOf(board.Square(sq)); s.Channel != want {
					t.Errorf("%s: channel %d, want %d", board.Square(sq), s.Channel, want)
				}
				if want := r.board.LEDOf(board.Square(sq)); s.LED != want {
					t.Errorf("%s: LED %d, want %d", board.Square(sq), s.LED, want)
				}
				if s.White == nil || s.Black == nil {
					t.Fatalf("%s: levels not learned: %+v", board.Square(sq), s)
				}
			}
			wantPol := Dual
			if tc.opts.Polarity == Single || tc.opts.Digital {
				wantPol = Single
			}
			if c.Polarity != wantPol {
				t.Errorf("polarity %s, want %s", c.Polarity, wantPol)
			}
			if c.Identity != (Identity{Scanner: r.board.String(), Channels: 64, Digital: tc.opts.Digital}) {
				t.Errorf("identity %+v", c.Identity)
			}
			if !tc.opts.NoLEDs && !tc.opts.Digital {
				notes := strings.Join(c.Notes(), "\n")
				if !strings.Contains(notes, "LEDs: snaking rank by rank from a8 (a1 is LED 63)") {
					t.Errorf("notes do not describe the LED chain:\n%s", notes)
				}
			}
			if !strings.Contains(r.out.String(), "White ") || !strings.Contains(r.out.String(), "square 64 of 64") {
				t.Errorf("no progress shown:\n%.2000s", r.out)
			}
		})
	}
}

func TestCalibrateNamesDeadAndCrossedSensors(t *testing.T) {
	faults, err := ParseFaults("dead=e4,cross=c4+c3,noisy=b7")
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, SimOptions{Seed: 5, Faults: faults})
	c, rep := r.calibrate(t, WizardOptions{})
	e4, c3, c4 := mustSquare("e4"), mustSquare("c3"), mustSquare("c4")
	// The wiring is still learned whole: e4's channel by elimination.
	for sq := range 64 {
		if got, want := c.Squares[sq].Channel, r.board.ChannelOf(board.Square(sq)); got != want {
			t.Errorf("%s: channel %d, want %d", board.Square(sq), got, want)
		}
		if got, want := c.Squares[sq].LED, r.board.LEDOf(board.Square(sq)); got != want {
			t.Errorf("%s: LED %d, want %d", board.Square(sq), got, want)
		}
	}
	if !c.Squares[e4].Has(FlagDead) || !c.Squares[e4].Has(FlagFlat) {
		t.Errorf("e4 flags %v, want dead and flat", c.Squares[e4].Flags)
	}
	if !c.Squares[c4].Has(FlagCrosstalk) || c.Squares[c3].Has(FlagCrosstalk) {
		t.Errorf("crosstalk flags: c4 %v, c3 %v; want c4's sensor flagged", c.Squares[c4].Flags, c.Squares[c3].Flags)
	}
	if !c.Squares[mustSquare("b7")].Has(FlagNoisy) {
		t.Errorf("b7 flags %v, want noisy", c.Squares[mustSquare("b7")].Flags)
	}
	if rep.Fit() {
		t.Errorf("summary says fit with a dead sensor")
	}
	if got := rep.Squares(Fault); got != board.Occupancy(0).With(e4).With(c3).With(c4) {
		t.Errorf("faulty squares %v, want c3 c4 e4", got.SquareNames())
	}
	if err := c.Unfit(); err == nil || !strings.Contains(err.Error(), "e4") {
		t.Errorf("Unfit() = %v, want e4 named", err)
	}
}

func TestCalibrateDeadLEDIsReachedByName(t *testing.T) {
	faults, _ := ParseFaults("deadled=f6")
	r := newRig(t, SimOptions{Seed: 6, Faults: faults})
	c, rep := r.calibrate(t, WizardOptions{})
	f6 := mustSquare("f6")
	if c.Squares[f6].LED != r.board.LEDOf(f6) {
		t.Errorf("f6 LED %d, want %d (by the regular layout)", c.Squares[f6].LED, r.board.LEDOf(f6))
	}
	if c.Squares[f6].Black == nil {
		t.Errorf("f6 has no Black level: the named mop-up did not run")
	}
	if ws := rep.Of(Wiring); len(ws) != 1 || ws[0].Squares[0] != f6 {
		t.Errorf("wiring findings %+v, want one naming f6", ws)
	}
}

func TestCalibrateInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	store := ProgressPath(dir)
	r := newRig(t, SimOptions{Seed: 7})
	ctx, cancel := context.WithCancel(context.Background())
	placed := 0
	observe := r.session.Observe
	r.session.Observe = func(s Step) {
		observe(s)
		if s.Kind == StepPlace {
			if placed++; placed == 70 { // in the Black walk
				cancel()
			}
		}
	}
	_, _, err := Calibrate(ctx, r.session, WizardOptions{Store: store})
	if !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "Black walk, square") {
		t.Fatalf("interrupted Calibrate: %v", err)
	}
	p, err := store.Load()
	if err != nil || p == nil || len(p.White) != 64 || len(p.Black) != 5 {
		t.Fatalf("saved progress: %v, %+v", err, p)
	}
	r.board.Clear()
	r.out.Reset()
	s := r.newSession()
	placed = 0
	s.Observe = func(st Step) {
		r.person.Observe(st)
		if st.Kind == StepPlace {
			placed++
		}
	}
	r.session = s
	c, _ := r.calibrate(t, WizardOptions{Store: store})
	if placed != 59 {
		t.Errorf("resumed wizard asked for %d men, want the 59 left", placed)
	}
	if !strings.Contains(r.out.String(), "Resuming the saved calibration: Black walk, square 6 of 64") {
		t.Errorf("no resume message:\n%.500s", r.out)
	}
	for sq := range 64 {
		if c.Squares[sq].LED != r.board.LEDOf(board.Square(sq)) || c.Squares[sq].Channel != r.board.ChannelOf(board.Square(sq)) {
			t.Fatalf("%s wiring wrong after resume", board.Square(sq))
		}
	}
	if p, _ := store.Load(); p != nil {
		t.Errorf("progress not cleared after the wizard finished")
	}
}

func TestCalibrateResumeRefusesOtherHardware(t *testing.T) {
	dir := t.TempDir()
	store := ProgressPath(dir)
	if err := store.Save(&Progress{Version: progressVersion, Identity: Identity{Scanner: "other", Channels: 64}, LEDs: 64, Baseline: &Baseline{}}); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, SimOptions{Seed: 8})
	r.calibrate(t, WizardOptions{Store: store})
	if !strings.Contains(r.out.String(), `Saved progress was made on "other"`) {
		t.Errorf("no message about the other board's progress:\n%.500s", r.out)
	}
}

func TestCalibrateQuitByTyping(t *testing.T) {
	r := newRig(t, SimOptions{Seed: 9})
	in := make(chan string, 4)
	in <- "" // the board is empty
	in <- "q"
	r.session.In = in
	r.session.Observe = func(s Step) {
		if s.Kind != StepClear {
			r.person.Observe(s)
		}
	}
	_, _, err := Calibrate(context.Background(), r.session, WizardOptions{Store: ProgressPath(t.TempDir())})
	if !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "White walk, square 1 of 64") {
		t.Fatalf("Calibrate after q: %v", err)
	}
}

func mustSquare(s string) board.Square {
	sq, err := board.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return sq
}
