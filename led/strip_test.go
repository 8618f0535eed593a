package led

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/spi/spitest"
)

// nrz encodes strip colours as a WS2812 expects them over SPI at 2.5 MHz,
// written out from the datasheet rather than from periph: three idle bytes,
// then G, R, B of each LED, each bit four SPI bits (1110 for a one, 1000 for
// a zero), then three idle bytes.
func nrz(px []RGB) []byte {
	sym := func(bit byte) byte {
		if bit != 0 {
			return 0xE
		}
		return 0x8
	}
	out := []byte{0, 0, 0}
	for _, p := range px {
		for _, v := range []byte{p.G, p.R, p.B} {
			for i := 0; i < 4; i++ {
				out = append(out, sym(v>>(7-2*i)&1)<<4|sym(v>>(6-2*i)&1))
			}
		}
	}
	return append(out, 0, 0, 0)
}

// apa encodes strip colours as APA102 frames at full global brightness: a
// zero start frame, 0xFF B G R per LED, and 0xFF end bytes (one per 16 LEDs,
// plus one).
func apa(px []RGB) []byte {
	out := []byte{0, 0, 0, 0}
	for _, p := range px {
		out = append(out, 0xFF, p.B, p.G, p.R)
	}
	return append(out, bytes.Repeat([]byte{0xFF}, len(px)/16+1)...)
}

// strip returns the colours along a strip of order, with lit squares set.
func strip(order []board.Square, lit map[board.Square]RGB) []RGB {
	px := make([]RGB, len(order))
	for i, s := range order {
		px[i] = lit[s]
	}
	return px
}

// stripScenario is the sequence every colour strip is put through: a frame
// with a blinking square, an unchanged instant, the blink edge, a new frame
// that lights the same LEDs, and Halt.
func stripScenario(t *testing.T, s Sink, pb *spitest.Playback) {
	t.Helper()
	f := testFrame()
	ms := time.Millisecond
	steps := []struct {
		f        *Frame
		at       time.Duration
		writes   int // playback ops consumed by now
		due      time.Duration
		blinking bool
	}{
		{f, 0, 1, 500 * ms, true},         // e4 green, d5 red
		{f, 100 * ms, 1, 500 * ms, true},  // nothing changed: no write
		{f, 500 * ms, 2, 1000 * ms, true}, // d5 goes dark
		{steadyOnly(), 600 * ms, 2, 0, false},
	}
	for i, st := range steps {
		if err := s.Show(st.f, st.at); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if pb.Count != st.writes {
			t.Errorf("step %d at %v: %d writes, want %d", i, st.at, pb.Count, st.writes)
		}
		due, ok := s.Deadline()
		if ok != st.blinking || (ok && due != st.due) {
			t.Errorf("step %d: deadline %v %v, want %v %v", i, due, ok, st.due, st.blinking)
		}
	}
	if err := s.Halt(); err != nil {
		t.Fatal(err)
	}
	// After Halt the next frame is written even though it is unchanged.
	if err := s.Show(steadyOnly(), 700*ms); err != nil {
		t.Fatal(err)
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

func steadyOnly() *Frame {
	var f Frame
	f.Set(sq("e4"), MustMove, Steady)
	return &f
}

func TestWS2812Frames(t *testing.T) {
	order := serpentine()
	green, red := RGB{0, 255, 0}, RGB{255, 0, 0}
	both := nrz(strip(order, map[board.Square]RGB{sq("e4"): green, sq("d5"): red}))
	one := nrz(strip(order, map[board.Square]RGB{sq("e4"): green}))
	halt := append(append([]byte{0, 0, 0}, bytes.Repeat([]byte{0x88}, 64*12)...), 0, 0, 0)
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{
		{W: both}, {W: one}, {W: halt}, {W: one},
	}}}
	s, err := NewWS2812(pb, "ws2812", &StripOpts{Squares: order})
	if err != nil {
		t.Fatal(err)
	}
	if len(both) != 3+64*12+3 {
		t.Fatalf("frame of %d bytes", len(both))
	}
	stripScenario(t, s, pb)
}

func TestAPA102Frames(t *testing.T) {
	// A 65-LED strip whose LED 8 sits under no square (the turn between
	// ranks 1 and 2).
	order := append(append(append([]board.Square{}, serpentine()[:8]...), board.NoSquare), serpentine()[8:]...)
	green, red := RGB{0, 255, 0}, RGB{255, 0, 0}
	both := apa(strip(order, map[board.Square]RGB{sq("e4"): green, sq("d5"): red}))
	one := apa(strip(order, map[board.Square]RGB{sq("e4"): green}))
	halt := []byte{0, 0, 0, 0}
	for i := 0; i < 65; i++ {
		halt = append(halt, 0xE1, 0, 0, 0)
	}
	halt = append(halt, bytes.Repeat([]byte{0xFF}, 5)...)
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{
		{W: both}, {W: one}, {W: halt}, {W: one},
	}}}
	s, err := NewAPA102(pb, &StripOpts{Squares: order})
	if err != nil {
		t.Fatal(err)
	}
	stripScenario(t, s, pb)
}

func TestStripBrightnessGamma(t *testing.T) {
	c, err := newColour(&StripOpts{Brightness: 50, Gamma: 2.2})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[byte]byte{0: 0, 24: 1, 96: 15, 255: 128} {
		if got := c.lut[in]; got != want {
			t.Errorf("palette %d drives %d, want %d", in, got, want)
		}
	}
	// Through the bus: last-move grey 24 at 50% and gamma 2.2 stays lit.
	var f Frame
	f.Set(sq("a1"), LastMove, Steady)
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{
		{W: apa(strip(serpentine(), map[board.Square]RGB{sq("a1"): {1, 1, 1}}))},
	}}}
	s, err := NewAPA102(pb, &StripOpts{Squares: serpentine(), Brightness: 50, Gamma: 2.2})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Show(&f, 0); err != nil {
		t.Fatal(err)
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

func TestStripWriteFailureRetries(t *testing.T) {
	frame := nrz(strip(serpentine(), map[board.Square]RGB{sq("e4"): {0, 255, 0}}))
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{{W: frame}}, DontPanic: true}}
	s, err := NewWS2812(&faultySPI{Port: pb, fail: map[int]bool{0: true}}, "sk6812", &StripOpts{Squares: serpentine()})
	if err != nil {
		t.Fatal(err)
	}
	f := steadyOnly()
	err = s.Show(f, time.Second)
	if err == nil || !strings.Contains(err.Error(), "sk6812 strip of 64") || !strings.Contains(err.Error(), "remote I/O error") {
		t.Fatalf("error %v, want the bus error naming the strip", err)
	}
	if due, ok := s.Deadline(); !ok || due != time.Second+RetryAfter {
		t.Errorf("deadline %v %v after a failed write, want a retry at %v", due, ok, time.Second+RetryAfter)
	}
	// Shown the same frame again, the sink rewrites it.
	if err := s.Show(f, time.Second+RetryAfter); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Deadline(); ok {
		t.Error("a steady frame written keeps a deadline")
	}
	// The port gone (nothing more to say): the next change fails.
	if err := s.Show(testFrame(), 2*time.Second); err == nil {
		t.Error("a write to a port with nothing more to say succeeded")
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

func TestStripOptsRefused(t *testing.T) {
	dup := serpentine()
	dup[5] = dup[4]
	cases := []struct {
		name string
		o    StripOpts
		want string
	}{
		{"square twice", StripOpts{Squares: dup}, "is given to two LEDs (the second is LED 5)"},
		{"too few LEDs", StripOpts{Squares: serpentine()[:60]}, "60 LEDs: expected 64 to 1024"},
		{"square missing", StripOpts{Squares: append(serpentine()[:63], board.NoSquare)}, "no LED for square a8"},
		{"bad square", StripOpts{Squares: append(serpentine()[:63], 70)}, "LED 63 has no square (70)"},
		{"too bright", StripOpts{Brightness: 101}, "brightness 101%: expected 1 to 100"},
		{"silly gamma", StripOpts{Gamma: 9}, "gamma 9: expected 0.5 to 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewWS2812(&spitest.Playback{}, "ws2812", &c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func BenchmarkWS2812Frame(b *testing.B) {
	s, err := NewWS2812(discardSPI{}, "ws2812", &StripOpts{Squares: serpentine(), Brightness: 30, Gamma: 2.2})
	if err != nil {
		b.Fatal(err)
	}
	benchSink(b, s)
}

func BenchmarkAPA102Frame(b *testing.B) {
	s, err := NewAPA102(discardSPI{}, &StripOpts{Squares: serpentine(), Brightness: 30, Gamma: 2.2})
	if err != nil {
		b.Fatal(err)
	}
	benchSink(b, s)
}

// benchSink shows alternating frames, so every Show renders and writes; and
// reports the cost of an unchanged frame (no write) as a sub-benchmark.
func benchSink(b *testing.B, s Sink) {
	frames := blinkFrames()
	b.Run("changed", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := s.Show(frames[i&1], 0); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Show(frames[0], 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
