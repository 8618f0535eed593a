package led

import (
	"fmt"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/nrzled"
)

// NewWS2812 opens a strip of WS2812B, SK6812 (RGB) or compatible one-wire
// LEDs on SPI port p, driven through periph's nrzled over MOSI at 2.5 MHz:
// four SPI bits per LED bit, one transfer per frame. chip names it in logs
// ("ws2812", "sk6812"). The strip stays as it is until the first Show.
func NewWS2812(p spi.Port, chip string, o *StripOpts) (*Strip, error) {
	c, err := newColour(o)
	if err != nil {
		return nil, fmt.Errorf("led: %s: %w", chip, err)
	}
	n := len(c.squares)
	dev, err := nrzled.NewSPI(p, &nrzled.Opts{NumPixels: n, Channels: 3, Freq: 2500 * physic.KiloHertz})
	if err != nil {
		return nil, fmt.Errorf("led: %s on %s: %w", chip, p, err)
	}
	return &Strip{dev: dev, c: c, name: fmt.Sprintf("%s strip of %d on %s", chip, n, p)}, nil
}
