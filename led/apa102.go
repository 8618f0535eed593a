package led

import (
	"fmt"

	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/apa102"
)

// NewAPA102 opens a strip of APA102 (or SK9822) clocked LEDs on SPI port p
// (MOSI to DI, SCLK to CI), through periph's apa102 driver with its colour
// correction off: boardd's own brightness and gamma apply, the global 5-bit
// brightness stays at full. One transfer per frame. The strip stays as it is
// until the first Show.
func NewAPA102(p spi.Port, o *StripOpts) (*Strip, error) {
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
	return &Strip{dev: dev, c: c, name: fmt.Sprintf("apa102 strip of %d on %s", n, p)}, nil
}
