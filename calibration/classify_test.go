package calibration

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/sensor"
)

// plainCalibration is a calibration by hand: square i on channel i, empty at
// 1000, White at 1400 and Black at 600 (dual), no LEDs.
func plainCalibration(pol Polarity) *Calibration {
	c := &Calibration{Identity: Identity{Scanner: "test", Channels: 64}, Polarity: pol, On: DefaultOn, Off: DefaultOff}
	for i := range c.Squares {
		black := 600.0
		if pol == Single {
			black = 1300
		}
		c.Squares[i] = Square{
			Square: board.Square(i).String(), Channel: i, LED: -1,
			Empty: Level{Mean: 1000, Noise: 2},
			White: &Level{Mean: 1400, Noise: 2},
			Black: &Level{Mean: black, Noise: 2},
		}
	}
	return c
}

func TestClassifierHysteresisAndColour(t *testing.T) {
	type frame struct {
		reading  uint16
		occupied bool
		black    bool
		coloured bool
	}
	for _, tc := range []struct {
		name   string
		pol    Polarity
		frames []frame
	}{
		{"dual: up is White", Dual, []frame{
			{1000, false, false, false},
			{1199, false, false, false}, // short of on (1200)
			{1200, true, false, true},   // on
			{1101, true, false, true},   // above off (1100): still occupied
			{1099, false, false, false}, // below off
			{1150, false, false, false}, // between: stays empty
		}},
		{"dual: down is Black", Dual, []frame{
			{801, false, false, false},
			{800, true, true, true},
			{899, true, true, true},
			{901, false, false, false},
		}},
		{"dual: straight from one colour to the other", Dual, []frame{
			{1400, true, false, true},
			{600, true, true, true},
			{1400, true, false, true},
		}},
		{"single: both men read up; down is mirrored without colour", Single, []frame{
			{1149, false, false, false}, // weaker man at 1300: on at 1150
			{1150, true, false, false},
			{1076, true, false, false}, // off at 1075
			{1074, false, false, false},
			{850, true, false, false}, // a man upside down
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := NewClassifier(plainCalibration(tc.pol), ClassifierOptions{NoTracking: true})
			if err != nil {
				t.Fatal(err)
			}
			raw := make([]uint16, 64)
			for i := range raw {
				raw[i] = 1000
			}
			for i, f := range tc.frames {
				raw[27] = f.reading // d4
				occ, err := k.Classify(time.Duration(i)*time.Millisecond, raw)
				if err != nil {
					t.Fatal(err)
				}
				d4 := board.Square(27)
				if occ.Has(d4) != f.occupied || occ.Without(d4) != 0 {
					t.Errorf("frame %d (%d): occupancy %v, want d4 %v only", i, f.reading, occ.SquareNames(), f.occupied)
				}
				if k.Black().Has(d4) != f.black || k.Coloured().Has(d4) != f.coloured {
					t.Errorf("frame %d (%d): black %v coloured %v, want %v %v", i, f.reading, k.Black().Has(d4), k.Coloured().Has(d4), f.black, f.coloured)
				}
			}
		})
	}
}

func TestClassifierDeadSquareAndShortFrame(t *testing.T) {
	c := plainCalibration(Dual)
	c.Squares[5].Flags = []Flag{FlagDead}
	c.Squares[6].Channel = -1
	k, err := NewClassifier(c, ClassifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]uint16, 64)
	for i := range raw {
		raw[i] = 1400
	}
	occ, err := k.Classify(0, raw)
	if err != nil {
		t.Fatal(err)
	}
	if occ.Has(5) || occ.Has(6) || occ.Count() != 62 {
		t.Errorf("occupancy %v: dead and unmapped squares must read empty", occ.SquareNames())
	}
	if _, err := k.Classify(time.Millisecond, raw[:63]); err == nil {
		t.Errorf("a frame with 63 readings was accepted")
	}
}

// TestDriftHour leaves a White and a Black man on the board for an hour
// while every sensor drifts by 700 counts, far past every threshold, in each
// direction. The tracked classifier must keep both men, with their colours,
// and never see a phantom; the same frames through a classifier that does not
// track must go wrong both ways, or the test proves nothing.
func TestDriftHour(t *testing.T) {
	for _, drift := range []float64{-700, 700} {
		t.Run(fmt.Sprintf("%+.0f counts an hour", drift), func(t *testing.T) {
			r := newRig(t, SimOptions{Seed: 11, Drift: drift})
			c, _ := r.calibrate(t, WizardOptions{})
			white, black := mustSquare("e4"), mustSquare("d5")
			r.board.Place(white, board.White)
			r.board.Place(black, board.Black)
			men := board.Occupancy(0).With(white).With(black)
			tracked, err := NewClassifier(c, ClassifierOptions{})
			if err != nil {
				t.Fatal(err)
			}
			static, _ := NewClassifier(c, ClassifierOptions{NoTracking: true})
			var staticPhantoms, staticLost board.Occupancy
			var f sensor.Frame
			start := r.clock.Now()
			for now := start; now <= start+time.Hour; now += 250 * time.Millisecond {
				r.clock.Set(now)
				if err := r.board.Scan(&f); err != nil {
					t.Fatal(err)
				}
				occ, err := tracked.Classify(now, f.Analog)
				if err != nil {
					t.Fatal(err)
				}
				if occ != men {
					t.Fatalf("after %v: tracked occupancy %v, want %v (drift of e4 %.0f, d5 %.0f)", now-start, occ.SquareNames(), men.SquareNames(), tracked.Drift(white), tracked.Drift(black))
				}
				if tracked.Black() != board.Occupancy(0).With(black) {
					t.Fatalf("after %v: black men on %v, want d5", now-start, tracked.Black().SquareNames())
				}
				socc, _ := static.Classify(now, f.Analog)
				staticPhantoms |= socc &^ men
				staticLost |= men &^ socc
			}
			lostMan := white // drifting down, the White man's reading sinks to empty
			if drift > 0 {
				lostMan = black
			}
			if staticPhantoms.Count() < 30 || !staticLost.Has(lostMan) {
				t.Errorf("without tracking: phantoms on %d squares, lost %v: the drift is too small to test anything", staticPhantoms.Count(), staticLost.SquareNames())
			}
			if d := tracked.Drifted(0.5); d.Count() < 60 {
				t.Errorf("Drifted(0.5) names %d squares after the drift; want nearly all", d.Count())
			}
			// After the hour, the men come off and go elsewhere: still read.
			r.board.Clear()
			r.board.Place(mustSquare("a8"), board.Black)
			now := r.clock.Now()
			for i := 1; i <= 3; i++ {
				r.clock.Set(now + time.Duration(i)*10*time.Millisecond)
				r.board.Scan(&f)
				occ, _ := tracked.Classify(r.clock.Now(), f.Analog)
				if i == 3 && occ != board.Occupancy(0).With(mustSquare("a8")) {
					t.Errorf("after the hour: occupancy %v, want a8", occ.SquareNames())
				}
			}
		})
	}
}

// TestDriftOneSquare: one sensor alone drifts 500 counts an hour, while a
// man stands on the square beside it. The drifting empty square never reads
// a man, and the man is never lost.
func TestDriftOneSquare(t *testing.T) {
	for _, drift := range []float64{-500, 500} {
		lonely := mustSquare("e5")
		r := newRig(t, SimOptions{Seed: 15, SquareDrift: map[board.Square]float64{lonely: drift}})
		c, _ := r.calibrate(t, WizardOptions{})
		man := mustSquare("e4")
		r.board.Place(man, board.White)
		tracked, _ := NewClassifier(c, ClassifierOptions{})
		static, _ := NewClassifier(c, ClassifierOptions{NoTracking: true})
		var staticSaw board.Occupancy
		var f sensor.Frame
		start := r.clock.Now()
		for now := start; now <= start+time.Hour; now += 250 * time.Millisecond {
			r.clock.Set(now)
			r.board.Scan(&f)
			occ, _ := tracked.Classify(now, f.Analog)
			if occ != board.Occupancy(0).With(man) {
				t.Fatalf("drift %+.0f/h, after %v: occupancy %v, want e4 (e5 tracked %+.0f)", drift, now-start, occ.SquareNames(), tracked.Drift(lonely))
			}
			socc, _ := static.Classify(now, f.Analog)
			staticSaw |= socc
		}
		if !staticSaw.Has(lonely) {
			t.Errorf("drift %+.0f/h: without tracking e5 never read a man: the drift is too small to test anything", drift)
		}
		if d := tracked.Drift(lonely); math.Abs(d-drift) > 60 {
			t.Errorf("drift %+.0f/h: e5's tracked level moved %+.0f", drift, d)
		}
	}
}

// TestDriftNeverAbsorbsAMan: a man on a board without drift stays for a
// day, even with a fast tracker.
func TestDriftNeverAbsorbsAMan(t *testing.T) {
	r := newRig(t, SimOptions{Seed: 12})
	c, _ := r.calibrate(t, WizardOptions{})
	k, _ := NewClassifier(c, ClassifierOptions{TimeConstant: time.Second})
	r.board.Place(mustSquare("h1"), board.White)
	var f sensor.Frame
	start := r.clock.Now()
	for now := start; now <= start+24*time.Hour; now += 10 * time.Second {
		r.clock.Set(now)
		r.board.Scan(&f)
		occ, _ := k.Classify(now, f.Analog)
		if occ != board.Occupancy(0).With(mustSquare("h1")) {
			t.Fatalf("after %v: occupancy %v", now-start, occ.SquareNames())
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	r := newRig(b, SimOptions{Seed: 13})
	c, _ := r.calibrate(b, WizardOptions{})
	// A starting position's worth of men, and a few hundred frames of noise.
	for sq := range 16 {
		r.board.Place(board.Square(sq), board.White)
		r.board.Place(board.Square(63-sq), board.Black)
	}
	frames := make([][]uint16, 256)
	var f sensor.Frame
	for i := range frames {
		r.clock.Set(r.clock.Now() + 10*time.Millisecond)
		r.board.Scan(&f)
		frames[i] = append([]uint16(nil), f.Analog...)
	}
	k, _ := NewClassifier(c, ClassifierOptions{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		occ, err := k.Classify(time.Duration(i)*10*time.Millisecond, frames[i%len(frames)])
		if err != nil || occ.Count() != 32 {
			b.Fatalf("occupancy %d squares, err %v", occ.Count(), err)
		}
	}
}

func BenchmarkScanner(b *testing.B) {
	r := newRig(b, SimOptions{Seed: 14})
	c, _ := r.calibrate(b, WizardOptions{})
	s, _ := NewScanner(r.board, c, r.clock, ClassifierOptions{})
	var f sensor.Frame
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.clock.Set(r.clock.Now() + 10*time.Millisecond)
		if err := s.Scan(&f); err != nil {
			b.Fatal(err)
		}
	}
}
