package led

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/devices/v3/ht16k33"
)

// HT16K33 is a single-colour Sink for 64 LEDs on a Holtek HT16K33 over I²C,
// through periph's ht16k33 driver: LED i is common line COM(i/8) and row
// line ROW(i%8). A frame writes only the commons whose LEDs changed, one
// 3-byte I²C write each; a chip that stops answering fails the write.
type HT16K33 struct {
	dev  *ht16k33.Dev
	m    *mono
	name string
}

// NewHT16K33 opens the chip at addr (0x70 to 0x77) on bus b: periph's
// driver starts its oscillator and display, then the brightness is set.
func NewHT16K33(b i2c.Bus, addr uint16, o *MatrixOpts) (*HT16K33, error) {
	if addr < 0x70 || addr > 0x77 {
		return nil, fmt.Errorf("led: ht16k33: address %#02x: expected 0x70 to 0x77", addr)
	}
	m, brightness, err := newMono(o)
	if err != nil {
		return nil, fmt.Errorf("led: ht16k33: %w", err)
	}
	dev, err := ht16k33.NewI2C(b, addr)
	if err != nil {
		return nil, fmt.Errorf("led: ht16k33 at %#02x on %s: %w", addr, b, err)
	}
	if err := dev.SetBrightness(brightness); err != nil {
		return nil, fmt.Errorf("led: ht16k33 at %#02x on %s: brightness: %w", addr, b, err)
	}
	return &HT16K33{dev: dev, m: m, name: fmt.Sprintf("ht16k33 at %#02x on %s", addr, b)}, nil
}

// Show writes the commons whose LEDs changed.
func (s *HT16K33) Show(f *Frame, t time.Duration) error {
	lines, changed := s.m.render(f, t)
	var err error
	if changed {
		err = s.write(lines, s.m.pace.dirty)
	}
	s.m.pace.after(f, t, err)
	return err
}

// write sends the commons that differ from what was last written (all of
// them when all is set).
func (s *HT16K33) write(lines [8]byte, all bool) error {
	for c, b := range lines {
		if !all && b == s.m.lines[c] {
			continue
		}
		if err := s.dev.WriteColumn(c, uint16(b)); err != nil {
			return fmt.Errorf("led: %s: write COM%d: %w", s.name, c, err)
		}
		s.m.lines[c] = b
	}
	return nil
}

// Deadline returns the next blink edge, or a retry after a failed write.
func (s *HT16K33) Deadline() (time.Duration, bool) { return s.m.pace.due, s.m.pace.ok }

// Halt turns every LED off.
func (s *HT16K33) Halt() error {
	s.m.pace.halted()
	return s.write([8]byte{}, true)
}

// String names the HT16K33 for logs.
func (s *HT16K33) String() string { return s.name }
