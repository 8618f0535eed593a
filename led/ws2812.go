package led

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/nrzled"
)

// WS2812 is a Sink for a strip of WS2812B, SK6812 (RGB) or compatible
// one-wire LEDs, driven through periph's nrzled over an SPI port's MOSI at
// 2.5 MHz: four SPI bits per LED bit, one transfer per frame.
type WS2812 struct {
	dev  *nrzled.Dev
	c    *colour
	name string
}

// NewWS2812 opens the strip on port p; chip names it in logs ("ws2812",
// "sk6812"). The strip stays as it is until the first Show.
func NewWS2812(p spi.Port, chip string, o *StripOpts) (*WS2812, error) {
	c, err := newColour(o)
	if err != nil {
		return nil, fmt.Errorf("led: %s: %w", chip, err)
	}
	n := len(c.squares)
	dev, err := nrzled.NewSPI(p, &nrzled.Opts{NumPixels: n, Channels: 3, Freq: 2500 * physic.KiloHertz})
	if err != nil {
		return nil, fmt.Errorf("led: %s on %s: %w", chip, p, err)
	}
	return &WS2812{dev: dev, c: c, name: fmt.Sprintf("%s strip of %d on %s", chip, n, p)}, nil
}

// Show writes the strip if what is lit at t differs from what it shows.
func (s *WS2812) Show(f *Frame, t time.Duration) error {
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
func (s *WS2812) Deadline() (time.Duration, bool) { return s.c.pace.due, s.c.pace.ok }

// Halt turns every LED off.
func (s *WS2812) Halt() error {
	s.c.pace.halted()
	if err := s.dev.Halt(); err != nil {
		return fmt.Errorf("led: %s: halt: %w", s.name, err)
	}
	return nil
}

// String names the WS2812 for logs.
func (s *WS2812) String() string { return s.name }
