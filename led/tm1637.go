package led

import (
	"errors"
	"fmt"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/devices/v3/tm1637"
)

// TimeDisplay shows the two players' remaining times. It is not a Sink of
// the board's LEDs but the face of the chess clock; the game gives it
// both times whenever they may have changed, and it draws only what did.
type TimeDisplay interface {
	// Show displays White's and Black's remaining times.
	Show(white, black time.Duration) error
	// Halt blanks the display.
	Halt() error
	String() string
}

// TM1637Opts configure a pair of TM1637 4-digit 7-segment displays, one per
// player, each on its own clock and data pins.
type TM1637Opts struct {
	WhiteCLK gpio.PinOut
	WhiteDIO gpio.PinIO
	BlackCLK gpio.PinOut
	BlackDIO gpio.PinIO
	// Brightness is tm1637.Brightness1 to tm1637.Brightness14 (or
	// tm1637.Off); zero means tm1637.Brightness10.
	Brightness tm1637.Brightness
}

// TM1637Clocks is a TimeDisplay on two TM1637 displays driven by periph's
// tm1637 driver. It writes a display only when its reading changes. It is
// not safe for concurrent use.
type TM1637Clocks struct {
	dev   [2]*tm1637.Dev
	shown [2][4]byte
	valid [2]bool
	name  string
}

var _ TimeDisplay = (*TM1637Clocks)(nil)

// NewTM1637Clocks opens both displays, sets their brightness and blanks them.
func NewTM1637Clocks(o TM1637Opts) (*TM1637Clocks, error) {
	pins := []struct {
		name string
		pin  any
	}{{"white clk", o.WhiteCLK}, {"white dio", o.WhiteDIO}, {"black clk", o.BlackCLK}, {"black dio", o.BlackDIO}}
	for i, p := range pins {
		if p.pin == nil {
			return nil, fmt.Errorf("led: tm1637: no %s pin", p.name)
		}
		for _, q := range pins[:i] {
			if samePin(p.pin, q.pin) {
				return nil, fmt.Errorf("led: tm1637: %s and %s are the same pin: each display needs its own two pins", q.name, p.name)
			}
		}
	}
	b := o.Brightness
	if b == 0 {
		b = tm1637.Brightness10
	}
	if b != tm1637.Off && (b < tm1637.Brightness1 || b > tm1637.Brightness14) {
		return nil, fmt.Errorf("led: tm1637: brightness %#02x: expected tm1637.Off or Brightness1 to Brightness14 (0x88 to 0x8f)", uint8(b))
	}
	c := &TM1637Clocks{}
	var err error
	if c.dev[0], err = tm1637.New(o.WhiteCLK, o.WhiteDIO); err != nil {
		return nil, fmt.Errorf("led: tm1637: white display: %w", err)
	}
	if c.dev[1], err = tm1637.New(o.BlackCLK, o.BlackDIO); err != nil {
		return nil, fmt.Errorf("led: tm1637: black display: %w", err)
	}
	c.name = fmt.Sprintf("tm1637 clocks (white %s, black %s)", c.dev[0], c.dev[1])
	for i, d := range c.dev {
		if err := d.SetBrightness(b); err != nil {
			return nil, fmt.Errorf("led: %s: %s brightness: %w", c.name, sideName(i), err)
		}
	}
	if err := c.Halt(); err != nil {
		return nil, err
	}
	return c, nil
}

func samePin(a, b any) bool {
	defer func() { _ = recover() }() // uncomparable pin types are never the same pin
	return a == b
}

func sideName(i int) string {
	if i == 0 {
		return "white"
	}
	return "black"
}

// Show displays both times, writing only the displays whose reading
// changed. A display that failed to write is written again next time.
func (c *TM1637Clocks) Show(white, black time.Duration) error {
	var errs []error
	for i, d := range [2]time.Duration{white, black} {
		seg := TM1637Segments(d)
		if c.valid[i] && seg == c.shown[i] {
			continue
		}
		c.valid[i] = false
		if _, err := c.dev[i].Write(seg[:]); err != nil {
			errs = append(errs, fmt.Errorf("led: %s: %s display: %w", c.name, sideName(i), err))
			continue
		}
		c.shown[i], c.valid[i] = seg, true
	}
	return errors.Join(errs...)
}

// Halt blanks both displays.
func (c *TM1637Clocks) Halt() error {
	var errs []error
	for i, d := range c.dev {
		c.valid[i] = false
		if err := d.Halt(); err != nil {
			errs = append(errs, fmt.Errorf("led: %s: %s display: %w", c.name, sideName(i), err))
			continue
		}
		c.shown[i], c.valid[i] = [4]byte{}, true
	}
	return errors.Join(errs...)
}

func (c *TM1637Clocks) String() string { return c.name }

// Segments of the symbols a clock display needs, as the TM1637 takes them
// (bit 0 segment A to bit 6 segment G, bit 7 the colon after the second
// digit on clock modules).
const (
	tm1637Blank = 0x00
	tm1637H     = 0x74 // h: segments C, E, F, G
	tm1637Colon = 0x80
)

// TM1637Segments returns the four digits showing a remaining time d, counted
// up to the whole second so that the display reads 0:00 exactly when the
// flag falls:
//
//	under an hour       minutes:seconds   "29:57", " 9:05", " 0:00"
//	1 to 10 hours       hours h minutes   "1h29"
//	10 hours and more   hours h           "12h "
func TM1637Segments(d time.Duration) [4]byte {
	s := tm1637Seconds(d)
	digit := func(n int64) byte { return tm1637.Digits(int(n))[0] }
	switch {
	case s < 3600:
		m, sec := s/60, s%60
		out := [4]byte{tm1637Blank, digit(m%10) | tm1637Colon, digit(sec / 10), digit(sec % 10)}
		if m >= 10 {
			out[0] = digit(m / 10)
		}
		return out
	case s < 36000:
		h, m := s/3600, s%3600/60
		return [4]byte{digit(h), tm1637H, digit(m / 10), digit(m % 10)}
	}
	h := s / 3600
	if h > 99 {
		h = 99
	}
	return [4]byte{digit(h / 10), digit(h % 10), tm1637H, tm1637Blank}
}

// tm1637Seconds rounds d up to whole seconds, 0 for no time left.
func tm1637Seconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second - 1) / time.Second)
}

// TM1637NextChange returns how long a clock counting down from d runs
// before the display's reading changes (the driver's cue to call Show
// again), or 0 when d is already zero.
func TM1637NextChange(d time.Duration) time.Duration {
	s := tm1637Seconds(d)
	if s == 0 {
		return 0
	}
	// The reading depends on the rounded-up seconds s; find the largest
	// count below s that reads differently.
	var v int64
	switch {
	case s <= 3600:
		v = s - 1
	case s < 36000:
		v = s/60*60 - 1
	default:
		h := min(s/3600, 99) // every reading from 99 hours up is "99h "
		v = h*3600 - 1
	}
	return d - time.Duration(v)*time.Second
}
