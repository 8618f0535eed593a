package calibration

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
)

// calibrated calibrates a healthy simulated board of the given seed.
func calibrated(t *testing.T, seed uint64) *Calibration {
	t.Helper()
	c, _ := newRig(t, SimOptions{Seed: seed}).calibrate(t, WizardOptions{})
	return c
}

// selftest runs the self-test with calibration c on a board of the seed c
// was made on, with the faults it has developed since.
func selftest(t *testing.T, c *Calibration, seed uint64, faults string, opts SelfTestOptions) (*Report, *rig) {
	t.Helper()
	f, err := ParseFaults(faults)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, SimOptions{Seed: seed, Faults: f})
	rep, err := SelfTest(context.Background(), r.session, c, opts)
	if err != nil {
		t.Fatalf("SelfTest: %v\n%s", err, r.out)
	}
	return rep, r
}

func TestSelfTestFindsAndNamesFaults(t *testing.T) {
	c := calibrated(t, 21)
	type want struct {
		kind     Kind
		severity Severity
		squares  string
	}
	for _, tc := range []struct {
		name   string
		faults string
		fit    bool
		want   []want
	}{
		{"healthy", "", true, nil},
		{"dead sensor", "dead=e4", false, []want{{StuckOff, Fault, "e4"}}},
		{"crossed wire: c4's sensor also reads c3", "cross=c4+c3", false, []want{{Crosstalk, Fault, "c4 c3"}}},
		{"swapped wires", "swap=a2+b2", false, []want{{Crossed, Fault, "b2 a2"}, {Crossed, Fault, "a2 b2"}}},
		{"stuck on", "stuck=h3", false, []want{{StuckOn, Fault, "h3"}}},
		{"noisy", "noisy=b7", true, []want{{Noisy, Warning, "b7"}}},
		{"dead LED", "deadled=f6", false, []want{{DeadLED, Fault, "f6"}}},
		{"everything at once", "dead=e4,cross=c4+c3,stuck=h3,deadled=f6", false, []want{
			{StuckOff, Fault, "e4"}, {Crosstalk, Fault, "c4 c3"}, {StuckOn, Fault, "h3"}, {DeadLED, Fault, "f6"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, r := selftest(t, c, 21, tc.faults, SelfTestOptions{})
			var text bytes.Buffer
			rep.WriteVerdict(&text)
			if rep.Fit() != tc.fit {
				t.Errorf("Fit() = %v, want %v:\n%s", rep.Fit(), tc.fit, &text)
			}
			if len(rep.Findings) != len(tc.want) {
				t.Errorf("%d findings, want %d:\n%s", len(rep.Findings), len(tc.want), &text)
			}
			for _, w := range tc.want {
				found := false
				for _, f := range rep.Findings {
					found = found || f.Kind == w.kind && f.Severity == w.severity && f.names() == w.squares
				}
				if !found {
					t.Errorf("no %s %s finding on %s:\n%s", w.severity, w.kind, w.squares, &text)
				}
			}
			verdict := "verdict: FIT"
			if !tc.fit {
				verdict = "verdict: UNFIT"
			}
			if !strings.Contains(text.String(), verdict) {
				t.Errorf("report does not say %q:\n%s", verdict, &text)
			}
			if !strings.Contains(r.out.String(), "Test  ") || !strings.Contains(r.out.String(), "square 64 of 64") {
				t.Errorf("the walk showed no progress:\n%.1000s", r.out)
			}
		})
	}
}

func TestSelfTestWithoutWalkStillSeesTheEmptyBoard(t *testing.T) {
	rep, r := selftest(t, calibrated(t, 22), 22, "stuck=h3,dead=e4", SelfTestOptions{NoWalk: true, NoLEDs: true})
	if got := rep.Squares(Fault); got != board.Occupancy(0).With(mustSquare("h3")).With(mustSquare("e4")) {
		t.Errorf("faults on %v, want e4 (flat) and h3", got.SquareNames())
	}
	if strings.Contains(r.out.String(), "Rank 8 is lit") || strings.Contains(r.out.String(), "Test  ") {
		t.Errorf("skipped parts ran:\n%s", r.out)
	}
}

func TestSelfTestRefusesAnotherBoardsCalibration(t *testing.T) {
	r := newRig(t, SimOptions{Seed: 23})
	c, _ := r.calibrate(t, WizardOptions{})
	other := newRig(t, SimOptions{Seed: 24})
	_, err := SelfTest(context.Background(), other.session, c, SelfTestOptions{})
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "boardd calibrate") {
		t.Errorf("SelfTest with another board's calibration: %v", err)
	}
}

func TestSelfTestLEDQuestionIsAskedAgainOnNonsense(t *testing.T) {
	r := newRig(t, SimOptions{Seed: 25})
	c, _ := r.calibrate(t, WizardOptions{})
	in := make(chan string, 16)
	in <- "z9"    // not a square
	in <- "c7"    // not on rank 8
	in <- "a8 h8" // a real answer: two dark squares
	for range 7 {
		in <- ""
	}
	in <- "" // the board is empty
	s := r.newSession()
	s.In = in
	s.Observe = nil
	r.out.Reset()
	rep, err := SelfTest(context.Background(), s, c, SelfTestOptions{NoWalk: true})
	if err != nil {
		t.Fatal(err)
	}
	out := r.out.String()
	for _, want := range []string{`"z9" is not a square`, "c7 is not on rank 8", "Rank 1 is lit", "  8  . . . . . . . ."} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
	if got := rep.Squares(Fault); got != board.Occupancy(0).With(mustSquare("a8")).With(mustSquare("h8")) {
		t.Errorf("dead LEDs %v, want a8 h8", got.SquareNames())
	}
}

func TestReportJSON(t *testing.T) {
	rep, _ := selftest(t, calibrated(t, 26), 26, "dead=e4", SelfTestOptions{NoLEDs: true})
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Hardware string
		Fit      bool
		Findings []struct {
			Kind, Severity string
			Squares        []string
		}
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Fit || len(got.Findings) != 1 || got.Findings[0].Kind != "stuck-off" || got.Findings[0].Severity != "fault" || got.Findings[0].Squares[0] != "e4" {
		t.Errorf("JSON report %s", data)
	}
}
