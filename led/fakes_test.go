package led

import (
	"errors"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

var errBus = errors.New("remote I/O error")

// faultySPI wraps a port; its connection fails the transfers whose 0-based
// numbers are in fail.
type faultySPI struct {
	spi.Port
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
		return errBus
	}
	return c.Conn.Tx(w, r)
}

// discardSPI is a port that takes every write, for benchmarks.
type discardSPI struct{}

func (discardSPI) String() string { return "discard" }
func (discardSPI) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) {
	return discardConn{}, nil
}

type discardConn struct{}

func (discardConn) String() string               { return "discard" }
func (discardConn) Duplex() conn.Duplex          { return conn.Full }
func (discardConn) TxPackets([]spi.Packet) error { return errors.New("no packets") }
func (discardConn) Tx(w, r []byte) error         { return nil }

// discardI2C is a bus that takes every write.
type discardI2C struct{}

func (discardI2C) String() string                  { return "discard" }
func (discardI2C) SetSpeed(physic.Frequency) error { return nil }
func (discardI2C) Tx(uint16, []byte, []byte) error { return nil }

// serpentine is a strip laid from a1 along rank 1, back along rank 2 from
// h2, and so on.
func serpentine() []board.Square {
	s := make([]board.Square, 64)
	for i := range s {
		r, f := i/8, i%8
		if r%2 == 1 {
			f = 7 - f
		}
		s[i] = board.NewSquare(f, r)
	}
	return s
}

func sq(name string) board.Square {
	s, err := board.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

// testFrame has e4 must-move (green, steady) and d5 missing (red, slow).
func testFrame() *Frame {
	var f Frame
	f.Set(sq("e4"), MustMove, Steady)
	f.Set(sq("d5"), Missing, Slow)
	return &f
}

// blinkFrames alternates between two frames for benchmarks: every Show
// writes.
func blinkFrames() [2]*Frame {
	a := testFrame()
	b := testFrame()
	b.Set(sq("e5"), Destination, Steady)
	return [2]*Frame{a, b}
}
