package sensor

import (
	"errors"
	"fmt"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// HC165Opts configure a chain of 74HC165 parallel-in, serial-out shift
// registers read over SPI.
//
// Wiring (docs/hardware.md draws it): every chip's SH/LD to the Load GPIO,
// CLK to SCLK, CLK INH to the port's chip select (or ground); QH of chip 0 to
// MISO, QH of chip k+1 to SER of chip k, and SER of the last chip to ground
// when Check is on. Input i of the chain is chip i/8, pin A..H = i%8.
type HC165Opts struct {
	// Load is the GPIO wired to every chip's SH/LD (active low: a low pulse
	// latches the inputs).
	Load gpio.PinOut
	// Chips is the number of chips in the chain, 1 to 8; 0 means 8.
	Chips int
	// Speed is the SPI clock; 0 means 1 MHz.
	Speed physic.Frequency
	// Check reads one byte more than the chain holds: it must be 0x00, the
	// grounded SER of the last chip shifted through the whole chain. A
	// broken or unpowered chain (MISO pulled up or floating) fails the check
	// instead of reading as an empty board.
	Check bool
	// ActiveLow says a magnet pulls its input low (Hall switches with
	// pull-ups, the usual wiring).
	ActiveLow bool
	// Squares[i] is the square of input i; nil means input i is square i.
	Squares []board.Square
}

// HC165 is a Scanner reading a 74HC165 chain with one SPI transfer a scan.
type HC165 struct {
	conn   spi.Conn
	load   gpio.PinOut
	chips  int
	check  bool
	invert bool
	m      *remap
	w, r   []byte
	name   string
}

// NewHC165 connects to the chain on port p. It validates the options and
// parks the load pin high; it does not read the chain.
func NewHC165(p spi.Port, o *HC165Opts) (*HC165, error) {
	if o == nil || o.Load == nil {
		return nil, errors.New("sensor: 74hc165: no load pin")
	}
	chips := o.Chips
	if chips == 0 {
		chips = 8
	}
	if chips < 1 || chips > 8 {
		return nil, fmt.Errorf("sensor: 74hc165: %d chips: expected 1 to 8", chips)
	}
	m, err := newRemap(o.Squares, 8*chips)
	if err != nil {
		return nil, fmt.Errorf("sensor: 74hc165: %w", err)
	}
	speed := o.Speed
	if speed == 0 {
		speed = physic.MegaHertz
	}
	if err := o.Load.Out(gpio.High); err != nil {
		return nil, fmt.Errorf("sensor: 74hc165: load pin %s: %w", o.Load, err)
	}
	c, err := p.Connect(speed, spi.Mode0, 8)
	if err != nil {
		return nil, fmt.Errorf("sensor: 74hc165: connect %s: %w", p, err)
	}
	n := chips
	if o.Check {
		n++
	}
	return &HC165{
		conn: c, load: o.Load, chips: chips, check: o.Check, invert: o.ActiveLow, m: m,
		w: make([]byte, n), r: make([]byte, n),
		name: fmt.Sprintf("74hc165 chain of %d on %s, load %s", chips, c, o.Load),
	}, nil
}

// Scan latches the inputs (a low pulse on the load pin) and shifts them in.
func (h *HC165) Scan(f *Frame) error {
	if err := h.load.Out(gpio.Low); err != nil {
		return fmt.Errorf("sensor: 74hc165: latch: %w", err)
	}
	if err := h.load.Out(gpio.High); err != nil {
		return fmt.Errorf("sensor: 74hc165: latch: %w", err)
	}
	if err := h.conn.Tx(h.w, h.r); err != nil {
		return fmt.Errorf("sensor: 74hc165: read %s: %w", h.conn, err)
	}
	if h.check && h.r[h.chips] != 0 {
		return fmt.Errorf("sensor: 74hc165: check byte reads %#02x, expected 0x00: chain broken or unpowered", h.r[h.chips])
	}
	var raw uint64
	for k := 0; k < h.chips; k++ {
		b := h.r[k]
		if h.invert {
			b = ^b
		}
		raw |= uint64(b) << (8 * k)
	}
	f.Occupancy = h.m.occupancy(raw)
	f.Analog = f.Analog[:0]
	return nil
}

// Halt leaves the load pin high; the chain holds no state to reset.
func (h *HC165) Halt() error { return h.load.Out(gpio.High) }

// String names the HC165 for logs.
func (h *HC165) String() string { return h.name }
