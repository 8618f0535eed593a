package sensor

import (
	"fmt"

	"github.com/boardd/boardd/board"
)

// remap turns raw input bits (bit i set: input i sees a magnet) into board
// occupancy through a wiring order. It works a byte at a time through lookup
// tables, so a scan's remapping costs eight loads and ORs and never
// allocates.
type remap struct {
	squares []board.Square          // squares[i] is the square of input i
	tab     [8][256]board.Occupancy // tab[k][b]: occupancy of byte k of the raw bits holding b
}

// newRemap checks that squares (the square of each of n inputs; nil for the
// identity a1, b1, ... in input order) names n distinct valid squares, and
// builds the tables.
func newRemap(squares []board.Square, n int) (*remap, error) {
	if n < 1 || n > 64 {
		return nil, fmt.Errorf("%d inputs: expected 1 to 64", n)
	}
	if squares == nil {
		squares = make([]board.Square, n)
		for i := range squares {
			squares[i] = board.Square(i)
		}
	}
	if len(squares) != n {
		return nil, fmt.Errorf("wiring order names %d squares: expected one for each of the %d inputs", len(squares), n)
	}
	var seen board.Occupancy
	for i, sq := range squares {
		if !sq.Valid() {
			return nil, fmt.Errorf("wiring order: input %d has no square (%d)", i, sq)
		}
		if seen.Has(sq) {
			return nil, fmt.Errorf("wiring order: square %s is given to two inputs (the second is input %d)", sq, i)
		}
		seen = seen.With(sq)
	}
	m := &remap{squares: append([]board.Square(nil), squares...)}
	for k := 0; k < 8; k++ {
		for b := 0; b < 256; b++ {
			var o board.Occupancy
			for j := 0; j < 8; j++ {
				i := 8*k + j
				if b&(1<<j) != 0 && i < n {
					o = o.With(squares[i])
				}
			}
			m.tab[k][b] = o
		}
	}
	return m, nil
}

// occupancy maps raw input bits to squares.
func (m *remap) occupancy(raw uint64) board.Occupancy {
	var o board.Occupancy
	for k := 0; k < 8 && raw != 0; k++ {
		o |= m.tab[k][byte(raw)]
		raw >>= 8
	}
	return o
}

// ensureAnalog returns f.Analog sized for 64 squares, allocating only the
// first time a frame is used.
func ensureAnalog(f *Frame) []uint16 {
	if cap(f.Analog) < 64 {
		f.Analog = make([]uint16, 64)
	}
	f.Analog = f.Analog[:64]
	return f.Analog
}
