package calibration

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/trace"
)

// TestTraceClassifierReadsAsTheScanner: the frames of an hour's play read
// through a TraceClassifier (as boardd replay reads a trace) give, frame by
// frame, the occupancy and colours a calibrated Scanner gives the running
// board: the same classifier, drift tracking included.
func TestTraceClassifierReadsAsTheScanner(t *testing.T) {
	if TraceChannels != trace.Channels {
		t.Fatalf("TraceChannels %d, trace.Channels %d", TraceChannels, trace.Channels)
	}
	r := newRig(t, SimOptions{Seed: 23, Drift: 300})
	c, _ := r.calibrate(t, WizardOptions{})
	s, err := NewScanner(r.board, c, r.clock, ClassifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tc, err := NewTraceClassifier(c, ClassifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw := &recorder{Scanner: r.board}
	s.raw = raw
	var f sensor.Frame
	start := r.clock.Now()
	for i := 0; i < 3600*10; i++ { // an hour at 10 frames a second
		now := r.clock.Now() + 100*time.Millisecond
		r.clock.Set(now)
		if i%50 == 0 { // a man comes and goes every 5 s
			sq := board.Square((i / 50) % 64)
			if r.board.Men().Has(sq) {
				r.board.Lift(sq)
			} else {
				r.board.Place(sq, board.Color(i/50%2))
			}
		}
		// A man counts once his level has settled: the next frame, or
		// one of the next few when noise moved it (the first frame, of a
		// board switched on with men on it, counts at once).
		men, settling := r.board.Men(), board.Occupancy(0)
		if i > 0 && i%50 <= 3 && (i/50)%128 < 64 {
			settling = board.Occupancy(0).With(board.Square((i / 50) % 64))
		}
		if err := s.Scan(&f); err != nil {
			t.Fatal(err)
		}
		var levels [64]uint16
		copy(levels[:], raw.last)
		occ, err := tc.ClassifyAnalog(now, 12, &levels)
		if err != nil {
			t.Fatal(err)
		}
		if occ != f.Occupancy || tc.Classifier().Black() != s.Classifier().Black() {
			t.Fatalf("at %v: the trace reads %v (black %v), the scanner %v (black %v)", now-start,
				occ.SquareNames(), tc.Classifier().Black().SquareNames(), f.Occupancy.SquareNames(), s.Classifier().Black().SquareNames())
		}
		switch {
		case i%50 == 0 && settling != 0 && occ != men&^settling:
			t.Fatalf("at %v: read %v the frame a man was set down, want %v (not yet settled)", now-start, occ.SquareNames(), (men &^ settling).SquareNames())
		case occ != men && occ != men&^settling:
			t.Fatalf("at %v: read %v, the men stand on %v", now-start, occ.SquareNames(), men.SquareNames())
		}
	}
}

// recorder keeps the last raw scan it passed on.
type recorder struct {
	sensor.Scanner
	last []uint16
}

func (r *recorder) Scan(f *sensor.Frame) error {
	err := r.Scanner.Scan(f)
	r.last = append(r.last[:0], f.Analog...)
	return err
}

func TestTraceClassifierRefusals(t *testing.T) {
	twelve := plainCalibration(Dual)
	twelve.Squares[5].White.Mean = 3000
	digital := plainCalibration(Dual)
	digital.Digital = true
	wide := plainCalibration(Dual)
	wide.Channels = 65
	for _, tt := range []struct {
		name  string
		cal   *Calibration
		fault string
	}{
		{"digital", digital, "a digital board's calibration cannot read analogue levels"},
		{"more channels than a frame", wide, "65 channels, but a trace's analogue frame carries 64 levels"},
	} {
		if _, err := NewTraceClassifier(tt.cal, ClassifierOptions{}); err == nil || !strings.Contains(err.Error(), tt.fault) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.fault)
		}
	}
	var levels [64]uint16
	for i := range levels {
		levels[i] = 1000
	}
	tc, err := NewTraceClassifier(twelve, ClassifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tc.ClassifyAnalog(0, 10, &levels); err == nil || !strings.Contains(err.Error(), "its levels reach 3000 counts, more than a 10-bit ADC reads (0 to 1023)") {
		t.Errorf("a 12-bit calibration under 10-bit frames: %v", err)
	}
	if occ, err := tc.ClassifyAnalog(0, 12, &levels); err != nil || occ != 0 {
		t.Errorf("12 bits: %v, %v", occ.SquareNames(), err)
	}
	if _, err := tc.ClassifyAnalog(time.Millisecond, 11, &levels); err == nil || !strings.Contains(err.Error(), "11-bit levels after 12-bit ones") {
		t.Errorf("the resolution changes: %v", err)
	}
}

func BenchmarkTraceClassifier(b *testing.B) {
	r := newRig(b, SimOptions{Seed: 13})
	c, _ := r.calibrate(b, WizardOptions{})
	for sq := range 16 {
		r.board.Place(board.Square(sq), board.White)
		r.board.Place(board.Square(63-sq), board.Black)
	}
	frames := make([][64]uint16, 256)
	var f sensor.Frame
	for i := range frames {
		r.clock.Set(r.clock.Now() + 10*time.Millisecond)
		r.board.Scan(&f)
		copy(frames[i][:], f.Analog)
	}
	tc, _ := NewTraceClassifier(c, ClassifierOptions{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		occ, err := tc.ClassifyAnalog(time.Duration(i)*10*time.Millisecond, 12, &frames[i%len(frames)])
		if err != nil || occ.Count() != 32 {
			b.Fatalf("occupancy %d squares, err %v", occ.Count(), err)
		}
	}
}
