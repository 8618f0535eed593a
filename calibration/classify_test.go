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

// step is a reading of d4 held for a number of frames 10 ms apart, and
// what the classifier must read on its first and last frame. A step of 0
// frames is one frame of which nothing is asserted.
type step struct {
	reading        uint16
	frames         int
	first, last    bool // d4 occupied
	black, colored bool // on the last frame
}

// playSteps feeds steps to a classifier of calibration c (every other
// square reading 1000) and checks each step's first and last frames.
func playSteps(t *testing.T, c *Calibration, opts ClassifierOptions, steps []step) {
	t.Helper()
	k, err := NewClassifier(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]uint16, 64)
	for i := range raw {
		raw[i] = 1000
	}
	d4 := board.Square(27)
	now := time.Duration(0)
	for i, s := range steps {
		raw[27] = s.reading
		for f := range max(s.frames, 1) {
			now += 10 * time.Millisecond
			occ, err := k.Classify(now, raw)
			if err != nil {
				t.Fatal(err)
			}
			if occ.Without(d4) != 0 {
				t.Fatalf("step %d frame %d: occupancy %v, want at most d4", i, f, occ.SquareNames())
			}
			if s.frames == 0 {
				continue
			}
			switch f {
			case 0:
				if occ.Has(d4) != s.first {
					t.Errorf("step %d (%d), first frame: d4 occupied %v, want %v", i, s.reading, occ.Has(d4), s.first)
				}
			case max(s.frames, 1) - 1:
			default:
				continue
			}
			if f == max(s.frames, 1)-1 {
				if occ.Has(d4) != s.last {
					t.Errorf("step %d (%d), frame %d: d4 occupied %v, want %v", i, s.reading, f, occ.Has(d4), s.last)
				}
				if k.Black().Has(d4) != s.black || k.Coloured().Has(d4) != s.colored {
					t.Errorf("step %d (%d), frame %d: black %v coloured %v, want %v %v", i, s.reading, f, k.Black().Has(d4), k.Coloured().Has(d4), s.black, s.colored)
				}
			}
		}
	}
}

func TestClassifierHysteresisAndColour(t *testing.T) {
	// 4 frames (30 ms) of a still level settle it; the calibration's
	// noise of 2 and its gap of 400 make a stillness band of 13 counts
	// towards the empty level, 7 away from it.
	for _, tc := range []struct {
		name  string
		pol   Polarity
		steps []step
	}{
		{"dual: up is White", Dual, []step{
			{1000, 5, false, false, false, false},
			{1239, 10, false, false, false, false}, // settled, short of a man at rest (1240)
			{1240, 1, true, true, false, true},     // at rest, and still since the last step: at once
			{1121, 1, true, true, false, true},     // above half his level (1120): still occupied
			{1119, 1, false, false, false, false},  // below: lifted at once
			{1150, 10, false, false, false, false}, // between off and rest: stays empty
		}},
		{"dual: down is Black", Dual, []step{
			{761, 10, false, false, false, false},
			{760, 1, true, true, true, true}, // still since the last step
			{879, 1, true, true, true, true},
			{881, 1, false, false, false, false}, // lifted: above half his level (880)
		}},
		{"dual: from one colour to the other through a settled level", Dual, []step{
			{1000, 1, false, false, false, false},
			{1400, 4, false, true, false, true},
			{600, 4, false, true, true, true},
			{1400, 4, false, true, false, true},
		}},
		{"single: both men read up; down is mirrored without colour", Single, []step{
			{1179, 10, false, false, false, false}, // weaker man at 1300: at rest from 1180
			{1180, 1, true, true, false, false},
			{1091, 1, true, true, false, false}, // half his level is 1090 (off 1075)
			{1089, 1, false, false, false, false},
			{800, 4, false, true, false, false}, // a man upside down, settled
		}},
		{"settling takes SettleTime, not frames", Dual, []step{
			{1000, 1, false, false, false, false},
			{1400, 3, false, false, false, false}, // 20 ms still: not yet
			{1400, 1, true, true, false, true},    // 30 ms
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			playSteps(t, plainCalibration(tc.pol), ClassifierOptions{NoTracking: true}, tc.steps)
		})
	}
}

// ramp returns the readings of a man of level top lowered onto d4 over n
// frames along a minimum-jerk path from h0 mm (the field of a point dipole
// 10 mm below), each held one frame.
func ramp(top float64, h0 float64, n int) []step {
	var out []step
	for i := 1; i <= n; i++ {
		tau := float64(i) / float64(n)
		h := h0 * (1 - tau*tau*tau*(10-15*tau+6*tau*tau))
		f := 1000 / math.Pow(10+h, 3)
		out = append(out, step{reading: uint16(1000 + top*f), frames: 1})
	}
	return out
}

// TestClassifierHands: placements count only once the man is at rest; a
// hover, however long, never counts; a lift counts at once; noise at a
// threshold does not chatter.
func TestClassifierHands(t *testing.T) {
	slow := ramp(400, 15, 48) // 480 ms: three times an ordinary hand
	for i := range slow {
		// Never while the level is more than its stillness band away
		// from the empty level (7) short of the man's level at rest.
		if slow[i].reading >= 1400-7 {
			slow[i].frames = 0
		}
	}
	slow = append(slow, step{1400, 3, true, true, false, true}) // at rest: counted

	hover := ramp(400, 15, 20)[:12] // comes down to about 5 mm
	hoverLevel := hover[len(hover)-1].reading
	hover = append(hover, step{hoverLevel, 60, false, false, false, false}) // held still 600 ms: never a man
	hover = append(hover, step{1000, 10, false, false, false, false})       // and away

	lowHover := []step{
		{1000, 5, false, false, false, false},
		{1210, 1, false, false, false, false}, // passes the threshold...
		{1260, 1, false, false, false, false}, // ...still rising
		{1230, 1, false, false, false, false}, // held a few mm up, wavering
		{1270, 1, false, false, false, false},
		{1240, 1, false, false, false, false},
		{1275, 1, false, false, false, false},
		{1100, 1, false, false, false, false}, // and away
		{1000, 5, false, false, false, false},
	}

	fastLift := []step{
		{1000, 1, false, false, false, false},
		{1400, 4, false, true, false, true},
		{1250, 1, true, true, false, true},    // rising, but more than half his level: still there
		{1190, 1, false, false, false, false}, // below half his level (1200): lifted this very frame
		{1000, 5, false, false, false, false},
	}

	// A weak man whose level at rest sits just past Rest (1240), with noise
	// of ±6 counts around it: counted once, never dropped.
	var noisy []step
	noisy = append(noisy, step{1000, 5, false, false, false, false})
	for i := range 60 {
		r := uint16(1247 + []int{0, 5, -6, 3, -4, 6, -2, 1, -5, 4}[i%10])
		s := step{reading: r, frames: 1, first: i >= 3, last: i >= 3}
		if i >= 3 {
			s.colored = true
		}
		noisy = append(noisy, s)
	}
	// And an empty square whose noise reaches past Rest but does not stay
	// still there: never a man.
	var flicker []step
	for i := range 60 {
		flicker = append(flicker, step{reading: uint16(1235 + []int{0, 30, -15, 35, 5, -25}[i%6]), frames: 1})
	}

	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"slow ramp counts once settled", slow},
		{"hover above the square: no placement", hover},
		{"low hover, still moving: no placement", lowHover},
		{"fast lift counts at once", fastLift},
		{"noise at the threshold, man at rest", noisy},
		{"noise past the threshold, nobody settles", flicker},
	} {
		t.Run(tc.name, func(t *testing.T) {
			playSteps(t, plainCalibration(Dual), ClassifierOptions{}, tc.steps)
		})
	}

	// Without the settle test the slow ramp counts long before the man is
	// down, and the low hover counts: the cases above test something.
	for _, tc := range []struct {
		name  string
		steps []step
		frame int // the frame at which d4 first reads a man, counting from 0
		after int // at or before which frame a settled classifier reads him
	}{
		{"slow ramp", slow, -1, 0},
		{"low hover", lowHover, -1, 0},
	} {
		k, _ := NewClassifier(plainCalibration(Dual), ClassifierOptions{NoSettle: true})
		raw := make([]uint16, 64)
		for i := range raw {
			raw[i] = 1000
		}
		seen := -1
		n := 0
		for _, s := range tc.steps {
			for range max(s.frames, 1) {
				raw[27] = s.reading
				occ, _ := k.Classify(time.Duration(n)*10*time.Millisecond, raw)
				if occ.Has(27) && seen < 0 {
					seen = n
				}
				n++
			}
		}
		if tc.name == "slow ramp" && (seen < 0 || seen > 40) {
			t.Errorf("unsettled classifier read the slow ramp's man at frame %d: want well before his landing (48)", seen)
		}
		if tc.name == "low hover" && seen < 0 {
			t.Errorf("unsettled classifier never read the low hover: the case tests nothing")
		}
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
			for i := 1; i <= 5; i++ { // settled after SettleTime
				r.clock.Set(now + time.Duration(i)*10*time.Millisecond)
				r.board.Scan(&f)
				occ, _ := tracked.Classify(r.clock.Now(), f.Analog)
				if i == 5 && occ != board.Occupancy(0).With(mustSquare("a8")) {
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

// TestDriftUnderAMan: a man stands on e4 for an hour from the moment the
// board is switched on while e4's sensor alone drifts, either way, by more
// than half the man's swing. The tracked classifier keeps him and reads his
// lift at once; the same frames through a classifier that does not track
// (as one that tracks only the drift common to the board, which is none
// here) must lose him early or keep a phantom after the lift, or the test
// proves nothing.
func TestDriftUnderAMan(t *testing.T) {
	for _, drift := range []float64{-300, 300} {
		t.Run(fmt.Sprintf("%+.0f counts an hour", drift), func(t *testing.T) {
			man := mustSquare("e4")
			r := newRig(t, SimOptions{Seed: 16, SquareDrift: map[board.Square]float64{man: drift}})
			c, _ := r.calibrate(t, WizardOptions{})
			// The man's swing at e4, to size the drift against.
			swing := c.Squares[man].White.Mean - c.Squares[man].Empty.Mean
			if math.Abs(drift) < 0.5*math.Abs(swing) {
				t.Fatalf("drift %v is less than half the swing %v: the test proves nothing", drift, swing)
			}
			r.board.Place(man, board.White)
			k, _ := NewClassifier(c, ClassifierOptions{})
			static, _ := NewClassifier(c, ClassifierOptions{NoTracking: true})
			staticWrong := false
			var f sensor.Frame
			start := r.clock.Now()
			for now := start; now <= start+time.Hour; now += time.Second {
				r.clock.Set(now)
				r.board.Scan(&f)
				if occ, _ := k.Classify(now, f.Analog); occ != board.Occupancy(0).With(man) {
					t.Fatalf("after %v: occupancy %v, want e4 (tracked drift %+.0f)", now-start, occ.SquareNames(), k.Drift(man))
				}
				if occ, _ := static.Classify(now, f.Analog); occ != board.Occupancy(0).With(man) {
					staticWrong = true
				}
			}
			if d := k.Drift(man); math.Abs(d-drift) > 0.1*math.Abs(drift) {
				t.Errorf("e4's tracked drift under the man %+.0f, want about %+.0f", d, drift)
			}
			r.board.Lift(man)
			now := r.clock.Now() + 10*time.Millisecond
			r.clock.Set(now)
			r.board.Scan(&f)
			if occ, _ := k.Classify(now, f.Analog); occ != 0 {
				t.Errorf("the frame after the lift reads %v, want an empty board", occ.SquareNames())
			}
			for i := range 10 {
				r.clock.Set(now + time.Duration(i)*10*time.Millisecond)
				r.board.Scan(&f)
				if occ, _ := static.Classify(r.clock.Now(), f.Analog); occ != 0 {
					staticWrong = true
				}
			}
			if !staticWrong {
				t.Errorf("without tracking the man was kept and his lift seen: the drift is too small to test anything")
			}
		})
	}
}
