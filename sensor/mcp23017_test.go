package sensor

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

// mcpSetup is what NewMCP23017 says to one chip fresh from power-on (IODIR
// 0xFF, GPPU 0x00): periph's mcp23xxx reads both IODIRs, then each pin's
// pull-up is switched on in turn, GPPU read once per port and written eight
// times.
func mcpSetup(addr uint16) []i2ctest.IO {
	ops := []i2ctest.IO{
		{Addr: addr, W: []byte{0x00}, R: []byte{0xFF}}, // IODIRA
		{Addr: addr, W: []byte{0x01}, R: []byte{0xFF}}, // IODIRB
	}
	for _, gppu := range []byte{0x0C, 0x0D} {
		ops = append(ops, i2ctest.IO{Addr: addr, W: []byte{gppu}, R: []byte{0x00}})
		v := byte(0)
		for bit := 0; bit < 8; bit++ {
			v |= 1 << bit
			ops = append(ops, i2ctest.IO{Addr: addr, W: []byte{gppu, v}})
		}
	}
	return ops
}

// mcpScan is one scan of one chip: GPIOA then GPIOB.
func mcpScan(addr uint16, a, b byte) []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: addr, W: []byte{0x12}, R: []byte{a}},
		{Addr: addr, W: []byte{0x13}, R: []byte{b}},
	}
}

func TestMCP23017Scan(t *testing.T) {
	var ops []i2ctest.IO
	for _, a := range []uint16{0x20, 0x21, 0x22, 0x23} {
		ops = append(ops, mcpSetup(a)...)
	}
	// Scan 1: the starting position's ranks 1, 2, 7 and 8 (chip 0 holds
	// ranks 1 and 2, chip 3 ranks 7 and 8).
	ops = append(ops, mcpScan(0x20, 0x00, 0x00)...)
	ops = append(ops, mcpScan(0x21, 0xFF, 0xFF)...)
	ops = append(ops, mcpScan(0x22, 0xFF, 0xFF)...)
	ops = append(ops, mcpScan(0x23, 0x00, 0x00)...)
	// Scan 2: e2 lifted (chip 0 GPB4 high), a man on e4 (chip 1 GPB4 low).
	ops = append(ops, mcpScan(0x20, 0x00, 0x10)...)
	ops = append(ops, mcpScan(0x21, 0xFF, 0xEF)...)
	ops = append(ops, mcpScan(0x22, 0xFF, 0xFF)...)
	ops = append(ops, mcpScan(0x23, 0x00, 0x00)...)
	bus := &i2ctest.Playback{Ops: ops}
	defer func() {
		if err := bus.Close(); err != nil {
			t.Error(err)
		}
	}()
	s, err := NewMCP23017(bus, &MCP23017Opts{ActiveLow: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Halt()
	start := board.Occupancy(0xFFFF00000000FFFF)
	var f Frame
	if err := s.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if f.Occupancy != start {
		t.Errorf("scan 1: %v, want the starting position", f.Occupancy.SquareNames())
	}
	if err := s.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if want := start.Without(board.NewSquare(4, 1)).With(board.NewSquare(4, 3)); f.Occupancy != want {
		t.Errorf("scan 2: %v, want %v", f.Occupancy.SquareNames(), want.SquareNames())
	}
	if !strings.Contains(s.String(), "0x20,0x21,0x22,0x23") {
		t.Errorf("String %q does not name the chips", s)
	}
}

func TestMCP23017ChipMissingAtStart(t *testing.T) {
	// Chip 0x20 answers; 0x21 never does (the playback runs dry).
	bus := &i2ctest.Playback{Ops: mcpSetup(0x20), DontPanic: true}
	_, err := NewMCP23017(bus, &MCP23017Opts{Addrs: []uint16{0x20, 0x21}})
	if err == nil || !strings.Contains(err.Error(), "mcp23017 at 0x21") {
		t.Fatalf("error %v, want one naming the chip at 0x21", err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
	if p := gpioreg.ByName("MCP23017_20_PORTA_0"); p != nil {
		t.Errorf("the chip that answered is still registered: %s", p)
	}
}

func TestMCP23017Faults(t *testing.T) {
	cases := []struct {
		name string
		scan []i2ctest.IO
		fail map[int]bool
		want string
	}{
		{"chip stops answering after port A", mcpScan(0x20, 0xFF, 0xFF)[:1], nil, "read port B"},
		{"bus error on port A", nil, map[int]bool{20: true}, "mcp23017 at 0x20: read port A: remote I/O error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bus := &i2ctest.Playback{Ops: append(mcpSetup(0x20), c.scan...), DontPanic: true}
			s, err := NewMCP23017(&faultyI2C{Bus: bus, fail: c.fail}, &MCP23017Opts{Addrs: []uint16{0x20}, ActiveLow: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Halt()
			f := Frame{Occupancy: 7}
			err = s.Scan(&f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if f.Occupancy != 7 {
				t.Errorf("a failed scan changed the frame")
			}
			if err := bus.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestNewMCP23017Refuses(t *testing.T) {
	cases := []struct {
		addrs []uint16
		want  string
	}{
		{[]uint16{0x20, 0x21, 0x22, 0x23, 0x24}, "5 chips: expected 1 to 4"},
		{[]uint16{}, "0 chips"},
		{[]uint16{0x40}, "address 0x40: expected 0x20 to 0x27"},
		{[]uint16{0x20, 0x20}, "address 0x20 given twice"},
	}
	for _, c := range cases {
		bus := &i2ctest.Playback{DontPanic: true}
		_, err := NewMCP23017(bus, &MCP23017Opts{Addrs: c.addrs})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.addrs, err, c.want)
		}
		if bus.Count != 0 {
			t.Errorf("%v: refused options still touched the bus", c.addrs)
		}
	}
}

func BenchmarkMCP23017Scan(b *testing.B) {
	s, err := NewMCP23017(&fillI2C{b: 0xFF}, &MCP23017Opts{ActiveLow: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Halt()
	var f Frame
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Scan(&f); err != nil {
			b.Fatal(err)
		}
	}
}
