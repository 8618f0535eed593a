package sensor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/devices/v3/mcp23xxx"
)

// MCP23017Opts configure MCP23017 16-bit GPIO expanders on an I²C bus, their
// 16 pins all inputs with the chip's pull-ups on. Input i is chip i/16, port
// A for i%16 < 8 (GPA0..GPA7), port B otherwise (GPB0..GPB7).
type MCP23017Opts struct {
	// Addrs are the chips' addresses, 0x20 to 0x27, one to four of them;
	// nil means 0x20, 0x21, 0x22 and 0x23 (A2..A0 strapped 000 to 011).
	Addrs []uint16
	// ActiveLow says a magnet pulls its input low.
	ActiveLow bool
	// Squares[i] is the square of input i; nil means input i is square i.
	Squares []board.Square
}

// MCP23017 is a Scanner reading MCP23017 expanders through periph's mcp23xxx
// driver, one I²C transaction per 8-pin port (two per chip) a scan.
type MCP23017 struct {
	devs   []*mcp23xxx.Dev
	ports  []gpio.Group // two per chip: A then B
	addrs  []uint16
	invert bool
	m      *remap
	name   string
}

// NewMCP23017 opens the chips on bus b, makes every pin an input with its
// pull-up on, and checks each chip answers.
func NewMCP23017(b i2c.Bus, o *MCP23017Opts) (*MCP23017, error) {
	if o == nil {
		o = &MCP23017Opts{}
	}
	addrs := o.Addrs
	if addrs == nil {
		addrs = []uint16{0x20, 0x21, 0x22, 0x23}
	}
	if len(addrs) < 1 || len(addrs) > 4 {
		return nil, fmt.Errorf("sensor: mcp23017: %d chips: expected 1 to 4", len(addrs))
	}
	for i, a := range addrs {
		if a < 0x20 || a > 0x27 {
			return nil, fmt.Errorf("sensor: mcp23017: address %#02x: expected 0x20 to 0x27", a)
		}
		for _, prev := range addrs[:i] {
			if prev == a {
				return nil, fmt.Errorf("sensor: mcp23017: address %#02x given twice", a)
			}
		}
	}
	m, err := newRemap(o.Squares, 16*len(addrs))
	if err != nil {
		return nil, fmt.Errorf("sensor: mcp23017: %w", err)
	}
	s := &MCP23017{addrs: append([]uint16(nil), addrs...), invert: o.ActiveLow, m: m}
	names := make([]string, len(addrs))
	for i, a := range addrs {
		names[i] = fmt.Sprintf("%#02x", a)
		dev, err := mcp23xxx.NewI2C(b, mcp23xxx.MCP23017, a)
		if err != nil {
			_ = s.Halt()
			return nil, fmt.Errorf("sensor: mcp23017 at %#02x: %w", a, err)
		}
		s.devs = append(s.devs, dev)
		for port := 0; port < 2; port++ {
			for _, p := range dev.Pins[port] {
				if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
					_ = s.Halt()
					return nil, fmt.Errorf("sensor: mcp23017 at %#02x: pull-up on %s: %w", a, p, err)
				}
			}
			g := dev.Group(port, []int{0, 1, 2, 3, 4, 5, 6, 7})
			if g == nil {
				_ = s.Halt()
				return nil, fmt.Errorf("sensor: mcp23017 at %#02x: port %d has no pin group", a, port)
			}
			s.ports = append(s.ports, *g)
		}
	}
	s.name = fmt.Sprintf("mcp23017 x%d on %s at %s", len(addrs), b, strings.Join(names, ","))
	return s, nil
}

// Scan reads every port.
func (s *MCP23017) Scan(f *Frame) error {
	var raw uint64
	for i, g := range s.ports {
		v, err := g.Read(0)
		if err != nil {
			return fmt.Errorf("sensor: mcp23017 at %#02x: read port %c: %w", s.addrs[i/2], 'A'+i%2, err)
		}
		b := byte(v)
		if s.invert {
			b = ^b
		}
		raw |= uint64(b) << (8 * i)
	}
	f.Occupancy = s.m.occupancy(raw)
	f.Analog = f.Analog[:0]
	return nil
}

// Halt releases the chips' pins (their registration in periph's gpioreg);
// the pins stay inputs.
func (s *MCP23017) Halt() error {
	var errs []error
	for _, d := range s.devs {
		if err := d.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	s.devs = nil
	return errors.Join(errs...)
}

// String names the MCP23017 for logs.
func (s *MCP23017) String() string { return s.name }
