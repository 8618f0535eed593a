package hallsim

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// mean returns the mean and standard deviation of n readings of square
// sq's channel at time t.
func readings(b *Board, sq board.Square, t time.Duration, n int) (mean, sd float64) {
	var levels [64]uint16
	var sum, sum2 float64
	for range n {
		b.Read(t, &levels)
		v := float64(levels[b.Channel(sq)])
		sum += v
		sum2 += v * v
	}
	mean = sum / float64(n)
	return mean, math.Sqrt(max(sum2/float64(n)-mean*mean, 0))
}

func mustBoard(t *testing.T, m Model, seed uint64) *Board {
	t.Helper()
	b, err := NewBoard(m, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// quiet turns off every source of noise and spread, to look at one.
func quiet() Model {
	m := DefaultModel()
	m.FieldSpread, m.GainSpread, m.OffsetSpread, m.SensorNoise = Off, Off, Off, Off
	m.Warming, m.NullDrift, m.ADCNoise, m.INL, m.DNL, m.WeakGain = Off, Off, Off, Off, Off, 1
	return m
}

// TestNoiseSources checks that each named noise source does what its name
// and the datasheet figure behind it say, one at a time on an otherwise
// perfect board.
func TestNoiseSources(t *testing.T) {
	e4 := board.Square(28)
	mid := 2048.0 // a 12-bit ADC's mid-scale: Supply/2 on a ratiometric board
	perLSB := 3.3 / 4096
	gain := 1.7 * 3.3 / 5 / 1000 // V/G at 3.3 V
	swing := 400 * gain / perLSB // a centred man, in counts

	t.Run("perfect board", func(t *testing.T) {
		b := mustBoard(t, quiet(), 1)
		if m, sd := readings(b, e4, 0, 20); m != mid || sd != 0 {
			t.Errorf("empty e4 reads %v ± %v, want exactly %v", m, sd, mid)
		}
		x, y := b.m.Centre(e4)
		b.Put(0, x, y, 0, 400)
		if m, _ := readings(b, e4, 0, 1); math.Abs(m-mid-swing) > 1 {
			t.Errorf("a man on e4 reads %v, want %v", m, mid+swing)
		}
	})
	t.Run("offset spread", func(t *testing.T) {
		m := quiet()
		m.OffsetSpread = 0.1
		b := mustBoard(t, m, 2)
		lo, hi := math.Inf(1), math.Inf(-1)
		for sq := range 64 {
			v, _ := readings(b, board.Square(sq), 0, 1)
			lo, hi = min(lo, v), max(hi, v)
		}
		if lo < mid*0.9-1 || hi > mid*1.1+1 || hi-lo < mid*0.1 {
			t.Errorf("empty levels %v to %v: want spread over %v ± 10%%", lo, hi, mid)
		}
	})
	t.Run("gain spread", func(t *testing.T) {
		m := quiet()
		m.GainSpread = 0.18
		b := mustBoard(t, m, 3)
		lo, hi := math.Inf(1), math.Inf(-1)
		for sq := range 64 {
			x, y := m.Centre(board.Square(sq))
			b.Put(0, x, y, 0, 400)
			v, _ := readings(b, board.Square(sq), 0, 1)
			b.Remove(0)
			lo, hi = min(lo, v-mid), max(hi, v-mid)
		}
		if lo < swing*0.82-1 || hi > swing*1.18+1 || hi-lo < swing*0.2 {
			t.Errorf("a man's swing %v to %v: want %v ± 18%% (1.4 to 2.0 mV/G)", lo, hi, swing)
		}
	})
	t.Run("drift", func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			together bool
		}{{"each part its own sign", false}, {"together", true}} {
			m := quiet()
			m.Warming, m.WarmUp, m.NullDrift, m.DriftTogether = 6, 15*time.Minute, 1, tc.together
			b := mustBoard(t, m, 4)
			if d := b.Temperature(15 * time.Minute); math.Abs(d-6*(1-1/math.E)) > 1e-9 {
				t.Errorf("%s: warmed %v °C in 15 minutes, want 63 %% of 6", tc.name, d)
			}
			if d := b.Temperature(3 * time.Hour); d < 5.99 || d > 6 {
				t.Errorf("%s: warmed %v °C in 3 hours, want 6", tc.name, d)
			}
			up, down := 0, 0
			for sq := range 64 {
				cold, _ := readings(b, board.Square(sq), 0, 1)
				warm, _ := readings(b, board.Square(sq), 3*time.Hour, 1)
				// 0.5 to 1.5 mV/°C at 5 V, 0.66 of it at 3.3 V, over 6 °C.
				d := (warm - cold) * perLSB * 1000
				if math.Abs(d) < 6*0.5*0.66-1 || math.Abs(d) > 6*1.5*0.66+1 {
					t.Errorf("%s: %v drifted %.1f mV", tc.name, board.Square(sq), d)
				}
				if want := b.NullDrift(board.Square(sq), 3*time.Hour); math.Abs(d-want) > 1 {
					t.Errorf("%s: %v drifted %.1f mV, NullDrift says %.1f", tc.name, board.Square(sq), d, want)
				}
				if d > 0 {
					up++
				} else {
					down++
				}
			}
			if tc.together && down > 0 {
				t.Errorf("%s: %d sensors drifted down", tc.name, down)
			}
			if !tc.together && (up < 16 || down < 16) {
				t.Errorf("%s: %d sensors drifted up and %d down: want both signs", tc.name, up, down)
			}
		}
	})
	t.Run("weak sensor's own drift", func(t *testing.T) {
		m := quiet()
		m.Weak, m.WeakGain, m.WeakDrift, m.Warming = e4, 0.4, -20, 6
		b := mustBoard(t, m, 4)
		if d := b.NullDrift(e4, 3*time.Hour); math.Abs(d-(-20*0.66*6)) > 0.5 {
			t.Errorf("e4 drifted %.1f mV, want -20 mV/°C at 5 V over 6 °C", d)
		}
	})
	t.Run("crosstalk", func(t *testing.T) {
		m := quiet()
		b := mustBoard(t, m, 5)
		x, y := m.Centre(e4)
		b.Put(0, x, y, 0, 4000) // a strong magnet
		want := 4000 * OffAxis(m.Depth, m.Pitch, 0)
		if got := b.Field(board.Square(29)); math.Abs(got-want) > 1e-9 || want > -20 {
			t.Errorf("f4 beside a 4000 G man sees %v G, want %v (the dipole's field turns down beside it)", got, want)
		}
		v, _ := readings(b, board.Square(29), 0, 1)
		if d := v - mid; d > -25 {
			t.Errorf("f4 moves %v counts", d)
		}
		own, _ := readings(b, e4, 0, 1)
		if rail := (1 - m.Rail) * 4096; math.Abs(own-rail) > 1 {
			t.Errorf("e4 under 4000 G reads %v, want the rail %v", own, rail)
		}
	})
	t.Run("off-centre", func(t *testing.T) {
		m := quiet()
		b := mustBoard(t, m, 6)
		x, y := m.Centre(e4)
		r := 0.5 * m.Depth
		b.Put(0, x+r, y, 0, 400)
		v, _ := readings(b, e4, 0, 1)
		if f := (v - mid) / swing; f < 0.47 || f > 0.53 {
			t.Errorf("a man %.1f mm off-centre reads %.2f of a centred one, want half", r, f)
		}
	})
	t.Run("noise", func(t *testing.T) {
		m := quiet()
		m.SensorNoise, m.ADCNoise = 0.5, 0.3
		b := mustBoard(t, m, 7)
		want := math.Hypot(0.5e-3/perLSB, 0.3)
		if _, sd := readings(b, e4, 0, 20000); math.Abs(sd-want) > 0.15 {
			t.Errorf("noise %.2f LSB rms, want about %.2f", sd, want)
		}
	})
	t.Run("nonlinearity", func(t *testing.T) {
		m := quiet()
		m.INL, m.DNL = 1, 0.5
		b := mustBoard(t, m, 8)
		worst := 0.0
		for g := -1500.0; g <= 1500; g += 7 {
			x, y := m.Centre(e4)
			b.Put(0, x, y, 0, g)
			v, _ := readings(b, e4, 0, 1)
			worst = max(worst, math.Abs(v-b.Level(e4, g, 0)))
		}
		if worst > 2 || worst < 0.5 {
			t.Errorf("worst error %.2f LSB, want within INL 1 + DNL 0.5 and visible", worst)
		}
	})
	t.Run("weak sensor", func(t *testing.T) {
		m := quiet()
		m.Weak, m.WeakGain = e4, 0.4
		b := mustBoard(t, m, 9)
		x, y := m.Centre(e4)
		b.Put(0, x, y, 0, 400)
		v, _ := readings(b, e4, 0, 1)
		if f := (v - mid) / swing; math.Abs(f-0.4) > 0.01 {
			t.Errorf("a man on the weak e4 moves it %.2f of a healthy swing, want 0.4", f)
		}
	})
}

func TestBoardsAreTheirSeeds(t *testing.T) {
	a := mustBoard(t, DefaultModel(), 11)
	noisy := DefaultModel()
	noisy.ADCNoise = 3 // the playing conditions differ; the parts do not
	b := mustBoard(t, noisy, 11)
	for sq := range 64 {
		if a.parts[sq] != b.parts[sq] {
			t.Fatalf("%v: the parts differ with the noise", board.Square(sq))
		}
	}
	c := mustBoard(t, DefaultModel(), 12)
	if a.parts == c.parts {
		t.Errorf("two seeds, one board")
	}
	m := DefaultModel()
	m.Scrambled = true
	s := mustBoard(t, m, 11)
	seen := map[int]bool{}
	moved := 0
	for sq := range 64 {
		ch := s.Channel(board.Square(sq))
		seen[ch] = true
		if ch != sq {
			moved++
		}
	}
	if len(seen) != 64 || moved < 32 {
		t.Errorf("scrambled wiring: %d channels, %d moved", len(seen), moved)
	}
}

func TestModelRefusals(t *testing.T) {
	for _, tt := range []struct {
		change func(*Model)
		fault  string
	}{
		{func(m *Model) { m.Bits = 20 }, "20-bit ADC"},
		{func(m *Model) { m.DNL = 1 }, "DNL 1 LSB"},
		{func(m *Model) { m.GainSpread = 1.5 }, "gain spread 1.5"},
		{func(m *Model) { m.Supply = 12 }, "supply 12 V"},
		{func(m *Model) { m.Weak = 64 }, "weak sensor on square 64"},
		{func(m *Model) { m.SensorNoise = math.NaN() }, "sensor noise NaN"},
	} {
		m := DefaultModel()
		tt.change(&m)
		if _, err := NewBoard(m, 1); err == nil || !strings.Contains(err.Error(), tt.fault) {
			t.Errorf("error %v, want %q", err, tt.fault)
		}
	}
}

func TestOffAxisIsADipole(t *testing.T) {
	d := 10.0
	for _, tt := range []struct{ r, h, want float64 }{
		{0, 0, 1},
		{0, 10, 1.0 / 8},              // twice as far: an eighth
		{math.Sqrt2 * d, 0, 0},        // the field lies flat: 54.7° off the axis
		{40, 0, -0.0059},              // a side neighbour at 40 mm
		{40 * math.Sqrt2, 0, -0.0024}, // a diagonal one
	} {
		if got := OffAxis(d, tt.r, tt.h); math.Abs(got-tt.want) > 5e-4 {
			t.Errorf("OffAxis(%v, %v, %v) = %v, want %v", d, tt.r, tt.h, got, tt.want)
		}
	}
	if h := HalfHeight(d, 0.5); math.Abs(OffAxis(d, 0, h)-0.5) > 1e-9 {
		t.Errorf("HalfHeight(0.5) = %v", h)
	}
}
