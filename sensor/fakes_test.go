package sensor

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/pin"
	"periph.io/x/conn/v3/spi"
)

// errBus is the error the faulty fakes inject.
var errBus = errors.New("remote I/O error")

// journal is an ordered log of pin writes and bus transactions, shared by the
// fakes of one test so the order of a latch pulse and a transfer is visible.
type journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *journal) add(format string, a ...any) {
	if j == nil {
		return
	}
	j.mu.Lock()
	j.entries = append(j.entries, fmt.Sprintf(format, a...))
	j.mu.Unlock()
}

func (j *journal) String() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return strings.Join(j.entries, " ")
}

func (j *journal) reset() {
	j.mu.Lock()
	j.entries = nil
	j.mu.Unlock()
}

// outPin is a gpiotest pin that journals its writes.
type outPin struct {
	gpiotest.Pin
	j    *journal
	fail bool
}

func newOutPin(name string, j *journal) *outPin {
	return &outPin{Pin: gpiotest.Pin{N: name, Num: -1}, j: j}
}

func (p *outPin) Out(l gpio.Level) error {
	if p.fail {
		return errBus
	}
	if p.j != nil {
		name := "L"
		if l {
			name = "H"
		}
		p.j.add("%s=%s", p.N, name)
	}
	return p.Pin.Out(l)
}

// faultySPI wraps a port; its connection journals each transfer and fails
// the transfers whose 0-based numbers are in fail.
type faultySPI struct {
	spi.Port
	j    *journal
	fail map[int]bool
	n    int
}

func (f *faultySPI) Connect(fr physic.Frequency, m spi.Mode, bits int) (spi.Conn, error) {
	c, err := f.Port.Connect(fr, m, bits)
	if err != nil {
		return nil, err
	}
	return &faultyConn{Conn: c, f: f}, nil
}

type faultyConn struct {
	spi.Conn
	f *faultySPI
}

func (c *faultyConn) Tx(w, r []byte) error {
	n := c.f.n
	c.f.n++
	if c.f.fail[n] {
		c.f.j.add("tx!")
		return errBus
	}
	c.f.j.add("tx")
	return c.Conn.Tx(w, r)
}

// faultyI2C wraps a bus and fails the transactions whose numbers are in fail.
type faultyI2C struct {
	i2c.Bus
	fail map[int]bool
	n    int
}

func (f *faultyI2C) Tx(addr uint16, w, r []byte) error {
	n := f.n
	f.n++
	if f.fail[n] {
		return errBus
	}
	return f.Bus.Tx(addr, w, r)
}

// fillSPI is a port whose connection answers every transfer with a fixed
// reply, for benchmarks.
type fillSPI struct{ reply func(w, r []byte) }

func (f *fillSPI) String() string { return "fill" }
func (f *fillSPI) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) {
	return &fillConn{f}, nil
}

type fillConn struct{ f *fillSPI }

func (c *fillConn) String() string               { return "fill" }
func (c *fillConn) Duplex() conn.Duplex          { return conn.Full }
func (c *fillConn) TxPackets([]spi.Packet) error { return errors.New("no packets") }
func (c *fillConn) Tx(w, r []byte) error {
	c.f.reply(w, r)
	return nil
}

// fillI2C is a bus answering reads with a fixed byte, for benchmarks.
type fillI2C struct{ b byte }

func (f *fillI2C) String() string                  { return "fill" }
func (f *fillI2C) SetSpeed(physic.Frequency) error { return nil }
func (f *fillI2C) Tx(addr uint16, w, r []byte) error {
	for i := range r {
		r[i] = f.b
	}
	return nil
}

// group is a gpio.Group over gpiotest pins that journals its operations;
// read, when set, computes what the pins read (the board behind them).
type group struct {
	name string
	pins []*gpiotest.Pin
	j    *journal
	read func(mask gpio.GPIOValue) gpio.GPIOValue
	fail map[int]bool // operation numbers to fail
	n    int
}

func newGroup(name string, n int, j *journal) *group {
	g := &group{name: name, j: j}
	for i := 0; i < n; i++ {
		g.pins = append(g.pins, &gpiotest.Pin{N: fmt.Sprintf("%s%d", name, i), Num: i, L: gpio.High})
	}
	return g
}

func (g *group) Pins() []pin.Pin {
	out := make([]pin.Pin, len(g.pins))
	for i, p := range g.pins {
		out[i] = p
	}
	return out
}
func (g *group) ByOffset(o int) pin.Pin { return g.pins[o] }
func (g *group) ByName(string) pin.Pin  { return nil }
func (g *group) ByNumber(int) pin.Pin   { return nil }
func (g *group) Halt() error            { return nil }
func (g *group) String() string         { return g.name }
func (g *group) WaitForEdge(time.Duration) (int, gpio.Edge, error) {
	return 0, gpio.NoEdge, gpio.ErrGroupFeatureNotImplemented
}

func (g *group) op() bool {
	n := g.n
	g.n++
	return g.fail[n]
}

func (g *group) Out(v, mask gpio.GPIOValue) error {
	if g.op() {
		g.j.add("%s.out!", g.name)
		return errBus
	}
	if g.j != nil {
		g.j.add("%s.out(%02x/%02x)", g.name, uint64(v), uint64(mask))
	}
	for i, p := range g.pins {
		if mask&(1<<i) != 0 {
			_ = p.Out(v&(1<<i) != 0)
		}
	}
	return nil
}

func (g *group) Read(mask gpio.GPIOValue) (gpio.GPIOValue, error) {
	if g.op() {
		g.j.add("%s.read!", g.name)
		return 0, errBus
	}
	var v gpio.GPIOValue
	if g.read != nil {
		v = g.read(mask) & mask
	} else {
		for i, p := range g.pins {
			if mask&(1<<i) != 0 && p.Read() {
				v |= 1 << i
			}
		}
	}
	if g.j != nil {
		g.j.add("%s.read=%02x", g.name, uint64(v))
	}
	return v, nil
}
