package sensor

import (
	"errors"
	"fmt"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// ADCChip names a Microchip successive-approximation ADC with eight
// single-ended inputs.
type ADCChip uint8

// The supported ADCs.
const (
	MCP3008 ADCChip = iota + 1 // 10 bits
	MCP3208                    // 12 bits
)

// String returns "mcp3008" or "mcp3208".
func (c ADCChip) String() string {
	switch c {
	case MCP3008:
		return "mcp3008"
	case MCP3208:
		return "mcp3208"
	}
	return fmt.Sprintf("adc(%d)", uint8(c))
}

// Bits returns the chip's resolution.
func (c ADCChip) Bits() int {
	if c == MCP3208 {
		return 12
	}
	return 10
}

// ADCOpts configure analogue linear Hall sensors (SS49E, DRV5053 and the
// like) read through MCP3008 or MCP3208 ADCs sharing one SPI bus. Input i is
// chip i/8, channel i%8.
type ADCOpts struct {
	// Chip is MCP3008 or MCP3208.
	Chip ADCChip
	// ChipSelects are one GPIO per chip, driven low around each conversion,
	// 1 to 8 of them; the port's own chip select is then unused (the port is
	// opened without it). Empty means a single chip on the port's own chip
	// select.
	ChipSelects []gpio.PinOut
	// Speed is the SPI clock; 0 means 1 MHz (both chips manage 1 MHz at
	// 2.7 V).
	Speed physic.Frequency
	// Quiet is the reading with no magnet near; 0 means mid-scale (512 or
	// 2048).
	Quiet uint16
	// Threshold is how far a reading must stray from Quiet, either way, for
	// the square to count as occupied; 0 means an eighth of full scale.
	// Calibration (a Loop's Classify) replaces this rule.
	Threshold uint16
	// Squares[i] is the square of input i; nil means input i is square i.
	Squares []board.Square
}

// ADC is a Scanner for analogue Hall sensors behind MCP3008/MCP3208s. A scan
// makes one 3-byte transfer per channel and fills the frame's Analog
// readings, and its Occupancy by the Quiet/Threshold rule.
type ADC struct {
	conn      spi.Conn
	chip      ADCChip
	cs        []gpio.PinOut
	chips     int
	quiet     int
	threshold int
	squares   []board.Square
	w, r      [3]byte
	name      string
}

// NewADC connects to the ADCs on port p and parks every chip select high.
func NewADC(p spi.Port, o *ADCOpts) (*ADC, error) {
	if o == nil {
		return nil, errors.New("sensor: adc: no options")
	}
	if o.Chip != MCP3008 && o.Chip != MCP3208 {
		return nil, fmt.Errorf("sensor: adc: chip %v: expected mcp3008 or mcp3208", o.Chip)
	}
	chips := len(o.ChipSelects)
	if chips > 8 {
		return nil, fmt.Errorf("sensor: %v: %d chip selects: expected at most 8", o.Chip, chips)
	}
	for i, cs := range o.ChipSelects {
		if cs == nil {
			return nil, fmt.Errorf("sensor: %v: chip select %d is missing", o.Chip, i)
		}
	}
	mode := spi.Mode0
	if chips == 0 {
		chips = 1
	} else {
		mode |= spi.NoCS
	}
	m, err := newRemap(o.Squares, 8*chips)
	if err != nil {
		return nil, fmt.Errorf("sensor: %v: %w", o.Chip, err)
	}
	full := 1 << o.Chip.Bits()
	quiet, threshold := int(o.Quiet), int(o.Threshold)
	if quiet == 0 {
		quiet = full / 2
	}
	if threshold == 0 {
		threshold = full / 8
	}
	if quiet >= full {
		return nil, fmt.Errorf("sensor: %v: quiet reading %d: expected less than %d", o.Chip, quiet, full)
	}
	for _, cs := range o.ChipSelects {
		if err := cs.Out(gpio.High); err != nil {
			return nil, fmt.Errorf("sensor: %v: chip select %s: %w", o.Chip, cs, err)
		}
	}
	speed := o.Speed
	if speed == 0 {
		speed = physic.MegaHertz
	}
	c, err := p.Connect(speed, mode, 8)
	if err != nil {
		return nil, fmt.Errorf("sensor: %v: connect %s: %w", o.Chip, p, err)
	}
	return &ADC{
		conn: c, chip: o.Chip, cs: append([]gpio.PinOut(nil), o.ChipSelects...), chips: chips,
		quiet: quiet, threshold: threshold, squares: m.squares,
		name: fmt.Sprintf("%v x%d on %s", o.Chip, chips, c),
	}, nil
}

// command fills the 3-byte conversion request for a single-ended channel.
func (a *ADC) command(ch int) {
	if a.chip == MCP3208 {
		// 00000 start sgl d2 | d1 d0 000000 | 00000000
		a.w = [3]byte{0x06 | byte(ch>>2), byte(ch&3) << 6, 0}
		return
	}
	// 0000000 start | sgl d2 d1 d0 0000 | 00000000
	a.w = [3]byte{0x01, 0x80 | byte(ch)<<4, 0}
}

// value decodes a reply, checking the null bit the chip drives low before its
// data: a chip that is absent or unpowered leaves MISO high there.
func (a *ADC) value() (uint16, bool) {
	if a.chip == MCP3208 {
		return uint16(a.r[1]&0x0F)<<8 | uint16(a.r[2]), a.r[1]&0x10 == 0
	}
	return uint16(a.r[1]&0x03)<<8 | uint16(a.r[2]), a.r[1]&0x04 == 0
}

// Scan converts every channel of every chip.
func (a *ADC) Scan(f *Frame) error {
	analog := ensureAnalog(f)
	var occ board.Occupancy
	for chip := 0; chip < a.chips; chip++ {
		for ch := 0; ch < 8; ch++ {
			v, err := a.convert(chip, ch)
			if err != nil {
				return err
			}
			sq := a.squares[8*chip+ch]
			analog[sq] = v
			d := int(v) - a.quiet
			if d < 0 {
				d = -d
			}
			if d > a.threshold {
				occ = occ.With(sq)
			}
		}
	}
	f.Occupancy = occ
	return nil
}

func (a *ADC) convert(chip, ch int) (uint16, error) {
	a.command(ch)
	var cs gpio.PinOut
	if len(a.cs) > 0 {
		cs = a.cs[chip]
		if err := cs.Out(gpio.Low); err != nil {
			return 0, fmt.Errorf("sensor: %v chip %d: select: %w", a.chip, chip, err)
		}
	}
	err := a.conn.Tx(a.w[:], a.r[:])
	if cs != nil {
		if cerr := cs.Out(gpio.High); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		return 0, fmt.Errorf("sensor: %v chip %d channel %d: read %s: %w", a.chip, chip, ch, a.conn, err)
	}
	v, ok := a.value()
	if !ok {
		return 0, fmt.Errorf("sensor: %v chip %d channel %d: no null bit in reply % x: chip not answering", a.chip, chip, ch, a.r)
	}
	return v, nil
}

// Halt parks every chip select high.
func (a *ADC) Halt() error {
	var errs []error
	for _, cs := range a.cs {
		if err := cs.Out(gpio.High); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// String names the ADC for logs.
func (a *ADC) String() string { return a.name }
