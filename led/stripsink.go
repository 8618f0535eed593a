package led

import (
	"fmt"
	"time"
)

// stripDevice is what a colour strip's periph driver offers: a write of the
// whole strip's pixels and a halt.
type stripDevice interface {
	Write(pixels []byte) (int, error)
	Halt() error
}

// Strip is a Sink for a strip of colour LEDs under the squares, whatever
// its chip (NewWS2812, NewAPA102): it renders each frame through the
// strip's wiring order, brightness and gamma, and writes the strip only when
// what is lit changes.
type Strip struct {
	dev  stripDevice
	c    *colour
	name string
}

// Show writes the strip if what is lit at t differs from what it shows.
func (s *Strip) Show(f *Frame, t time.Duration) error {
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
func (s *Strip) Deadline() (time.Duration, bool) { return s.c.pace.due, s.c.pace.ok }

// Halt turns every LED off.
func (s *Strip) Halt() error {
	s.c.pace.halted()
	if err := s.dev.Halt(); err != nil {
		return fmt.Errorf("led: %s: halt: %w", s.name, err)
	}
	return nil
}

// String names the strip for logs.
func (s *Strip) String() string { return s.name }
