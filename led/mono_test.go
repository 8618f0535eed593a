package led

import (
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi/spitest"
)

// max7219Init is what periph's driver and NewMAX7219 write to wake one chip:
// test off, shutdown, intensity 8, scan all eight digits, run, Code B
// decode, clear each digit (blank 0x0F, digit 8 first), then no-decode and
// the configured intensity.
func max7219Init(intensity byte) []conntest.IO {
	ops := []conntest.IO{{W: []byte{0x0F, 0x00}}, {W: []byte{0x0C, 0x00}}, {W: []byte{0x0A, 0x08}},
		{W: []byte{0x0B, 0x07}}, {W: []byte{0x0C, 0x01}}, {W: []byte{0x09, 0xFF}}}
	for d := byte(8); d >= 1; d-- {
		ops = append(ops, conntest.IO{W: []byte{d, 0x0F}})
	}
	return append(ops, conntest.IO{W: []byte{0x09, 0x00}}, conntest.IO{W: []byte{0x0A, intensity}})
}

// max7219Digits writes the eight digit registers, DIG0 first.
func max7219Digits(lines [8]byte) []conntest.IO {
	var ops []conntest.IO
	for d, b := range lines {
		ops = append(ops, conntest.IO{W: []byte{byte(d + 1), b}})
	}
	return ops
}

func TestMAX7219Frames(t *testing.T) {
	// Identity order: e4 (28) is DIG3 bit 4, d5 (35) is DIG4 bit 3.
	var ops []conntest.IO
	ops = append(ops, max7219Init(8)...)
	ops = append(ops, max7219Digits([8]byte{3: 0x10, 4: 0x08})...) // both lit
	ops = append(ops, max7219Digits([8]byte{3: 0x10})...)          // d5's slow blink dark
	ops = append(ops, max7219Digits([8]byte{})...)                 // Halt
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: ops}}
	s, err := NewMAX7219(pb, &MatrixOpts{Brightness: 50})
	if err != nil {
		t.Fatal(err)
	}
	monoScenario(t, s, func() int { return pb.Count }, len(max7219Init(8)), 8)
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

// monoScenario shows the test frame at 0, 100ms (no change) and 500ms (the
// blink edge), then a steady frame lighting the same LEDs at 600ms, then
// halts; count reports bus operations so far.
func monoScenario(t *testing.T, s Sink, count func() int, setup, perFrame int) {
	t.Helper()
	ms := time.Millisecond
	f := testFrame()
	steps := []struct {
		f      *Frame
		at     time.Duration
		writes int
		due    time.Duration
		ok     bool
	}{
		{f, 0, setup + perFrame, 500 * ms, true},
		{f, 100 * ms, setup + perFrame, 500 * ms, true},
		{f, 500 * ms, setup + 2*perFrame, 1000 * ms, true},
		{steadyOnly(), 600 * ms, setup + 2*perFrame, 0, false},
	}
	for i, st := range steps {
		if err := s.Show(st.f, st.at); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := count(); got != st.writes {
			t.Errorf("step %d at %v: %d bus operations, want %d", i, st.at, got, st.writes)
		}
		due, ok := s.Deadline()
		if ok != st.ok || (ok && due != st.due) {
			t.Errorf("step %d: deadline %v %v, want %v %v", i, due, ok, st.due, st.ok)
		}
	}
	if err := s.Halt(); err != nil {
		t.Fatal(err)
	}
}

func TestMAX7219BusError(t *testing.T) {
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: max7219Init(15), DontPanic: true}}
	s, err := NewMAX7219(&faultySPI{Port: pb, fail: map[int]bool{16: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Show(steadyOnly(), 0)
	if err == nil || !strings.Contains(err.Error(), "max7219") || !strings.Contains(err.Error(), "remote I/O error") {
		t.Fatalf("error %v, want the bus error", err)
	}
	if due, ok := s.Deadline(); !ok || due != RetryAfter {
		t.Errorf("deadline %v %v, want a retry at %v", due, ok, RetryAfter)
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

// ht16k33Init is what periph's driver and NewHT16K33 write: oscillator on,
// display on, blink off, brightness 15, then the configured brightness.
func ht16k33Init(addr uint16, brightness byte) []i2ctest.IO {
	return []i2ctest.IO{{Addr: addr, W: []byte{0x21}}, {Addr: addr, W: []byte{0x81}},
		{Addr: addr, W: []byte{0x81}}, {Addr: addr, W: []byte{0xEF}}, {Addr: addr, W: []byte{0xE0 | brightness}}}
}

func ht16k33Com(addr uint16, com int, rows byte) i2ctest.IO {
	return i2ctest.IO{Addr: addr, W: []byte{byte(2 * com), rows, 0x00}}
}

func TestHT16K33Frames(t *testing.T) {
	const addr = 0x71
	ops := ht16k33Init(addr, 3) // 20% of 15 steps
	// The first frame writes every common (the chip's RAM is unknown).
	for c := 0; c < 8; c++ {
		rows := map[int]byte{3: 0x10, 4: 0x08}[c]
		ops = append(ops, ht16k33Com(addr, c, rows))
	}
	ops = append(ops, ht16k33Com(addr, 4, 0x00)) // the blink edge: COM4 only
	for c := 0; c < 8; c++ {                     // Halt
		ops = append(ops, ht16k33Com(addr, c, 0))
	}
	bus := &i2ctest.Playback{Ops: ops}
	s, err := NewHT16K33(bus, addr, &MatrixOpts{Brightness: 20})
	if err != nil {
		t.Fatal(err)
	}
	count := func() int { return bus.Count }
	ms := time.Millisecond
	f := testFrame()
	for i, st := range []struct {
		at     time.Duration
		writes int
	}{{0, 13}, {100 * ms, 13}, {500 * ms, 14}} {
		if err := s.Show(f, st.at); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if count() != st.writes {
			t.Errorf("step %d: %d transactions, want %d", i, count(), st.writes)
		}
	}
	if err := s.Show(steadyOnly(), 600*ms); err != nil || count() != 14 {
		t.Errorf("unchanged lit set: err %v, %d transactions, want none more", err, count())
	}
	if err := s.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestHT16K33StopsAnswering(t *testing.T) {
	const addr = 0x70
	ops := ht16k33Init(addr, 15)
	ops = append(ops, ht16k33Com(addr, 0, 0), ht16k33Com(addr, 1, 0)) // then silence
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	s, err := NewHT16K33(bus, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Show(steadyOnly(), 0)
	if err == nil || !strings.Contains(err.Error(), "ht16k33 at 0x70") || !strings.Contains(err.Error(), "write COM2") {
		t.Fatalf("error %v, want one naming the chip and COM2", err)
	}
	if due, ok := s.Deadline(); !ok || due != RetryAfter {
		t.Errorf("deadline %v %v, want a retry at %v", due, ok, RetryAfter)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestHT16K33Refused(t *testing.T) {
	if _, err := NewHT16K33(&i2ctest.Playback{}, 0x20, nil); err == nil || !strings.Contains(err.Error(), "address 0x20: expected 0x70 to 0x77") {
		t.Errorf("error %v", err)
	}
	// No chip at the address: the first write is not acknowledged.
	bus := &i2ctest.Playback{DontPanic: true}
	if _, err := NewHT16K33(bus, 0x70, nil); err == nil || !strings.Contains(err.Error(), "ht16k33 at 0x70") {
		t.Errorf("error %v, want the missing chip named", err)
	}
	if _, err := NewHT16K33(&i2ctest.Playback{}, 0x70, &MatrixOpts{Brightness: 120}); err == nil || !strings.Contains(err.Error(), "brightness 120%: expected 1 to 100") {
		t.Errorf("error %v", err)
	}
	if _, err := NewMAX7219(&spitest.Playback{}, &MatrixOpts{Squares: serpentine()[:63]}); err == nil || !strings.Contains(err.Error(), "63 LEDs: expected 64") {
		t.Errorf("error %v", err)
	}
}

func BenchmarkMAX7219Frame(b *testing.B) {
	s, err := NewMAX7219(discardSPI{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchSink(b, s)
}

func BenchmarkHT16K33Frame(b *testing.B) {
	s, err := NewHT16K33(discardI2C{}, 0x70, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchSink(b, s)
}
