package led

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/max7219"
)

// MAX7219 is a single-colour Sink for 64 LEDs on one MAX7219 (or MAX7221)
// in no-decode mode, through periph's max7219 driver: LED i is digit line
// DIG(i/8) and segment bit i%8 of it, bit 0 being SEG G, bit 6 SEG A and
// bit 7 SEG DP. A frame is eight 2-byte SPI writes, one per digit. SPI has
// no reply: a missing chip cannot be told from a working one.
type MAX7219 struct {
	dev  *max7219.Dev
	m    *mono
	name string
}

// NewMAX7219 opens the chip on port p: periph's driver wakes it and clears
// it, then it is switched to no-decode mode at the configured intensity.
func NewMAX7219(p spi.Port, o *MatrixOpts) (*MAX7219, error) {
	m, intensity, err := newMono(o)
	if err != nil {
		return nil, fmt.Errorf("led: max7219: %w", err)
	}
	dev, err := max7219.NewSPI(p, 1, 8)
	if err != nil {
		return nil, fmt.Errorf("led: max7219 on %s: %w", p, err)
	}
	if err := dev.SetDecode(max7219.DecodeNone); err != nil {
		return nil, fmt.Errorf("led: max7219 on %s: no-decode mode: %w", p, err)
	}
	if err := dev.SetIntensity(byte(intensity)); err != nil {
		return nil, fmt.Errorf("led: max7219 on %s: intensity: %w", p, err)
	}
	return &MAX7219{dev: dev, m: m, name: fmt.Sprintf("max7219 on %s", p)}, nil
}

// Show writes the eight digits if what is lit at t differs from what the
// chip shows.
func (s *MAX7219) Show(f *Frame, t time.Duration) error {
	lines, changed := s.m.render(f, t)
	var err error
	if changed {
		err = s.write(lines)
	}
	s.m.pace.after(f, t, err)
	return err
}

func (s *MAX7219) write(lines [8]byte) error {
	// periph writes register r+1 (digit r) from data[7-r].
	var data [8]byte
	for d, b := range lines {
		data[7-d] = b
	}
	if err := s.dev.WriteCascadedUnits([][]byte{data[:]}); err != nil {
		return fmt.Errorf("led: %s: write: %w", s.name, err)
	}
	s.m.lines = lines
	return nil
}

// Deadline returns the next blink edge, or a retry after a failed write.
func (s *MAX7219) Deadline() (time.Duration, bool) { return s.m.pace.due, s.m.pace.ok }

// Halt turns every LED off.
func (s *MAX7219) Halt() error {
	s.m.pace.halted()
	return s.write([8]byte{})
}

// String names the MAX7219 for logs.
func (s *MAX7219) String() string { return s.name }
