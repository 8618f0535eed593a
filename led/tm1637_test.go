package led

import (
	"errors"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/devices/v3/tm1637"
)

// tmWire records the levels driven on one display's two pins, in order:
// 'C'/'c' clock high/low, 'D'/'d' data high/low.
type tmWire struct{ log strings.Builder }

// tmPin is periph's gpiotest fake pin, recording every level driven.
type tmPin struct {
	gpiotest.Pin
	high, low byte
	w         *tmWire
}

func (p *tmPin) Out(l gpio.Level) error {
	if l == gpio.High {
		p.w.log.WriteByte(p.high)
	} else {
		p.w.log.WriteByte(p.low)
	}
	return p.Pin.Out(l)
}

// tmDisplay is one display's pins and their recording.
type tmDisplay struct {
	w        tmWire
	clk, dio *tmPin
}

func newTMDisplay(name string) *tmDisplay {
	d := &tmDisplay{}
	d.clk = &tmPin{Pin: gpiotest.Pin{N: name + "_CLK"}, high: 'C', low: 'c', w: &d.w}
	d.dio = &tmPin{Pin: gpiotest.Pin{N: name + "_DIO"}, high: 'D', low: 'd', w: &d.w}
	return d
}

func (d *tmDisplay) take() string {
	s := d.w.log.String()
	d.w.log.Reset()
	return s
}

// The TM1637's two-wire protocol, from its datasheet: a start is DIO
// falling while CLK is high; each byte goes least significant bit first,
// DIO set while CLK is low and read on its rise; a ninth clock is the
// acknowledge; a stop is DIO rising while CLK is high.
func tmStart() string { return "dc" }
func tmStop() string  { return "CD" }
func tmByte(b byte) string {
	var s strings.Builder
	for i := 0; i < 8; i++ {
		if b&(1<<i) != 0 {
			s.WriteString("DCc")
		} else {
			s.WriteString("dCc")
		}
	}
	s.WriteString("dCc") // acknowledge clock
	return s.String()
}

// tmWrite is a display write: data command 0x40 (auto-increment), then
// address command 0xC0 with six grid bytes (a 4-digit module uses four).
func tmWrite(seg [4]byte) string {
	s := tmStart() + tmByte(0x40) + tmStop() + tmStart() + tmByte(0xC0)
	for _, b := range seg {
		s += tmByte(b)
	}
	return s + tmByte(0) + tmByte(0) + tmStop()
}

// tmDecode reads the bytes of each start-stop transaction on a wire.
func tmDecode(t *testing.T, log string) [][]byte {
	t.Helper()
	var out [][]byte
	clk, dio := true, true
	var cur []byte
	var n int
	var b byte
	in := false
	for _, ch := range log {
		switch ch {
		case 'C':
			if !clk && in {
				if n < 8 {
					if dio {
						b |= 1 << n
					}
					n++
				} else { // acknowledge
					cur = append(cur, b)
					b, n = 0, 0
				}
			}
			clk = true
		case 'c':
			clk = false
		case 'D':
			if clk && in { // stop
				out = append(out, cur)
				cur, in = nil, false
			}
			dio = true
		case 'd':
			if clk && !in { // start
				in, b, n = true, 0, 0
			}
			dio = false
		}
	}
	if in {
		t.Errorf("wire left inside a transaction: %q", log)
	}
	return out
}

func newTMClocks(t *testing.T, b tm1637.Brightness) (*TM1637Clocks, *tmDisplay, *tmDisplay) {
	t.Helper()
	w, k := newTMDisplay("W"), newTMDisplay("B")
	c, err := NewTM1637Clocks(TM1637Opts{WhiteCLK: w.clk, WhiteDIO: w.dio, BlackCLK: k.clk, BlackDIO: k.dio, Brightness: b})
	if err != nil {
		t.Fatal(err)
	}
	return c, w, k
}

// Opening a display idles both lines high, sets the brightness and blanks
// the digits.
func TestTM1637Open(t *testing.T) {
	_, w, k := newTMClocks(t, tm1637.Brightness4)
	want := "CD" + tmStart() + tmByte(0x8A) + tmStop() + tmWrite([4]byte{})
	for _, d := range []*tmDisplay{w, k} {
		if got := d.take(); got != want {
			t.Errorf("open:\n got %s\nwant %s", got, want)
		}
	}
}

// The exact bit sequence on the white display's pins for 1:29:57 (read
// "1h29") while Black's display, unchanged, sees nothing.
func TestTM1637ExactBits(t *testing.T) {
	c, w, k := newTMClocks(t, 0)
	w.take()
	k.take()
	if err := c.Show(89*time.Minute+57*time.Second, 0); err != nil {
		t.Fatal(err)
	}
	const want = "" +
		"dc" + // start
		"dCcdCcdCcdCcdCcdCcDCcdCc" + "dCc" + // 0x40 data command, LSB first; ack
		"CD" + // stop
		"dc" + // start
		"dCcdCcdCcdCcdCcdCcDCcDCc" + "dCc" + // 0xC0 address command
		"dCcDCcDCcdCcdCcdCcdCcdCc" + "dCc" + // 0x06 "1"
		"dCcdCcDCcdCcDCcDCcDCcdCc" + "dCc" + // 0x74 "h"
		"DCcDCcdCcDCcDCcdCcDCcdCc" + "dCc" + // 0x5b "2"
		"DCcDCcDCcDCcdCcDCcDCcdCc" + "dCc" + // 0x6f "9"
		"dCcdCcdCcdCcdCcdCcdCcdCc" + "dCc" + // grid 5 (unused)
		"dCcdCcdCcdCcdCcdCcdCcdCc" + "dCc" + // grid 6 (unused)
		"CD" // stop
	if got := w.take(); got != want {
		t.Errorf("white wire:\n got %s\nwant %s", got, want)
	}
	if want != tmWrite([4]byte{0x06, 0x74, 0x5b, 0x6f}) {
		t.Error("the literal and the protocol builder disagree")
	}
	// Black's display reads 0:00, which Halt left blank: it is written once.
	if got := k.take(); got != tmWrite([4]byte{0, 0x3f | 0x80, 0x3f, 0x3f}) {
		t.Errorf("black wire: %s", got)
	}
	// Nothing changed: nothing is written.
	if err := c.Show(89*time.Minute+57*time.Second+300*time.Millisecond, 0); err != nil {
		t.Fatal(err)
	}
	if got := w.take() + k.take(); got != "" {
		t.Errorf("unchanged times wrote %q", got)
	}
	// Only Black's time changed: only Black's display is written.
	if err := c.Show(89*time.Minute+57*time.Second, 29*time.Minute+57*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := w.take(); got != "" {
		t.Errorf("white display written for Black's change: %s", got)
	}
	tx := tmDecode(t, k.take())
	if len(tx) != 2 || len(tx[0]) != 1 || tx[0][0] != 0x40 || string(tx[1]) != string([]byte{0xC0, 0x5b, 0x6f | 0x80, 0x6d, 0x07, 0, 0}) {
		t.Errorf("black transactions % x, want 40 / c0 5b ef 6d 07 00 00 (29:57)", tx)
	}
	if err := c.Halt(); err != nil {
		t.Fatal(err)
	}
	if got := w.take(); got != tmWrite([4]byte{}) {
		t.Errorf("halt: %s", got)
	}
}

func TestTM1637Segments(t *testing.T) {
	const colon = 0x80
	d := [10]byte{0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f}
	cases := []struct {
		t    time.Duration
		want [4]byte
		text string
	}{
		{0, [4]byte{0, d[0] | colon, d[0], d[0]}, " 0:00"},
		{-time.Second, [4]byte{0, d[0] | colon, d[0], d[0]}, " 0:00"},
		{time.Millisecond, [4]byte{0, d[0] | colon, d[0], d[1]}, " 0:01"},
		{9*time.Minute + 5*time.Second, [4]byte{0, d[9] | colon, d[0], d[5]}, " 9:05"},
		{29*time.Minute + 56*time.Second + time.Millisecond, [4]byte{d[2], d[9] | colon, d[5], d[7]}, "29:57"},
		{59*time.Minute + 59*time.Second, [4]byte{d[5], d[9] | colon, d[5], d[9]}, "59:59"},
		{time.Hour, [4]byte{d[1], 0x74, d[0], d[0]}, "1h00"},
		{89*time.Minute + 57*time.Second, [4]byte{d[1], 0x74, d[2], d[9]}, "1h29"},
		{9*time.Hour + 59*time.Minute + 59*time.Second, [4]byte{d[9], 0x74, d[5], d[9]}, "9h59"},
		{12*time.Hour + 30*time.Minute, [4]byte{d[1], d[2], 0x74, 0}, "12h "},
		{500 * time.Hour, [4]byte{d[9], d[9], 0x74, 0}, "99h "},
	}
	for _, c := range cases {
		if got := TM1637Segments(c.t); got != c.want {
			t.Errorf("%v: % x, want % x (%s)", c.t, got, c.want, c.text)
		}
	}
}

func TestTM1637NextChange(t *testing.T) {
	cases := []struct{ d, want time.Duration }{
		{0, 0},
		{5 * time.Second, time.Second}, // 0:05 → 0:04 after 1 s
		{4500 * time.Millisecond, 500 * time.Millisecond},           // 0:05 until 4 s
		{time.Hour, time.Second},                                    // 1h00 → 59:59
		{time.Hour + 30*time.Second, 31 * time.Second},              // 1h00 until 59:59
		{89*time.Minute + 57*time.Second, 58 * time.Second},         // 1h29 → 1h28
		{10*time.Hour + 5*time.Minute, 5*time.Minute + time.Second}, // 10h → 9h59
		{150 * time.Hour, 51*time.Hour + time.Second},               // 99h until 98 h 59:59
	}
	for _, c := range cases {
		got := TM1637NextChange(c.d)
		if got != c.want {
			t.Errorf("TM1637NextChange(%v) = %v, want %v", c.d, got, c.want)
			continue
		}
		if c.d > 0 && (TM1637Segments(c.d-got) == TM1637Segments(c.d) || TM1637Segments(c.d-got+time.Nanosecond) != TM1637Segments(c.d)) {
			t.Errorf("%v: the reading does not change exactly %v later", c.d, got)
		}
	}
}

func TestTM1637OptsRefused(t *testing.T) {
	w, k := newTMDisplay("W"), newTMDisplay("B")
	cases := []struct {
		o     TM1637Opts
		fault string
	}{
		{TM1637Opts{WhiteDIO: w.dio, BlackCLK: k.clk, BlackDIO: k.dio}, "no white clk pin"},
		{TM1637Opts{WhiteCLK: w.clk, WhiteDIO: w.dio, BlackCLK: k.clk}, "no black dio pin"},
		{TM1637Opts{WhiteCLK: w.clk, WhiteDIO: w.dio, BlackCLK: w.clk, BlackDIO: k.dio}, "white clk and black clk are the same pin"},
		{TM1637Opts{WhiteCLK: w.clk, WhiteDIO: w.dio, BlackCLK: k.clk, BlackDIO: k.dio, Brightness: 0x42}, "brightness 0x42"},
	}
	for _, c := range cases {
		_, err := NewTM1637Clocks(c.o)
		if err == nil || !strings.Contains(err.Error(), c.fault) {
			t.Errorf("%+v: %v, want an error with %q", c.o, err, c.fault)
		}
	}
	bad := &failingPin{}
	_, err := NewTM1637Clocks(TM1637Opts{WhiteCLK: bad, WhiteDIO: w.dio, BlackCLK: k.clk, BlackDIO: k.dio})
	if err == nil || !strings.Contains(err.Error(), "white display") || !errors.Is(err, errPinBroken) {
		t.Errorf("broken clock pin: %v", err)
	}
}

var errPinBroken = errors.New("pin broken")

type failingPin struct{ gpiotest.Pin }

func (p *failingPin) Out(gpio.Level) error { return errPinBroken }

func BenchmarkTM1637ShowUnchanged(b *testing.B) {
	w, k := newTMDisplay("W"), newTMDisplay("B")
	c, err := NewTM1637Clocks(TM1637Opts{WhiteCLK: w.clk, WhiteDIO: w.dio, BlackCLK: k.clk, BlackDIO: k.dio})
	if err != nil {
		b.Fatal(err)
	}
	_ = c.Show(time.Hour, time.Hour)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = c.Show(time.Hour-time.Duration(i%1000)*time.Millisecond, time.Hour)
	}
}
