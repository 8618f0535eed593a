package led

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/apa102"
)

// APA102 is a Sink for a strip of APA102 (or SK9822) clocked LEDs on an SPI
// port (MOSI to DI, SCLK to CI), through periph's apa102 driver with its
// colour correction off: boardd's own brightness and gamma apply, the
// global 5-bit brightness stays at full. One transfer per frame.
type APA102 struct {
	dev  *apa102.Dev
	c    *colour
	name string
}

// NewAPA102 opens the strip on port p. The strip stays as it is until the
// first Show.
func NewAPA102(p spi.Port, o *StripOpts) (*APA102, error) {
	c, err := newColour(o)
	if err != nil {
		return nil, fmt.Errorf("led: apa102: %w", err)
	}
	n := len(c.squares)
	opts := apa102.PassThruOpts
	opts.NumPixels = n
	dev, err := apa102.New(p, &opts)
	if err != nil {
		return nil, fmt.Errorf("led: apa102 on %s: %w", p, err)
	}
	return &APA102{dev: dev, c: c, name: fmt.Sprintf("apa102 strip of %d on %s", n, p)}, nil
}

// Show writes the strip if what is lit at t differs from what it shows.
func (s *APA102) Show(f *Frame, t time.Duration) error {
	var err error
	if s.c.render(f, t) {
		if _, err = s.dev.Write(s.c.buf); err != nil {
			err = fmt.Errorf("led: %s: write: %w", s.name, err)
		}
	}
	s.c.pace.after(f, t, err)
	return err
}

// Deadline returns the next blink edge, or a retry after a failed write.
func (s *APA102) Deadline() (time.Duration, bool) { return s.c.pace.due, s.c.pace.ok }

// Halt turns every LED off.
func (s *APA102) Halt() error {
	s.c.pace.halted()
	if err := s.dev.Halt(); err != nil {
		return fmt.Errorf("led: %s: halt: %w", s.name, err)
	}
	return nil
}

// String names the APA102 for logs.
func (s *APA102) String() string { return s.name }
