// Package sensor owns everything between the Hall sensors and the first
// software event: the Scanner drivers that read the 64 sensors into frames,
// the scan loop that keeps the rate, and the per-square debounce that turns
// chattering frames into clean lift and place events.
//
// It knows squares and occupancy, never chess: which man stands where, whose
// move it is and what the laws say belong to gesture and arbiter.
package sensor

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// Frame is one scan of the board: which squares hold a magnet, and, on
// analogue boards, the reading of each square's sensor (Analog[i] for square
// i, nil on digital boards).
type Frame struct {
	T         time.Duration
	Occupancy board.Occupancy
	Analog    []uint16
}

// Scanner reads the 64 sensors. Scan fills f's Occupancy (and Analog, if the
// scanner is analogue) and must not keep f. Drivers are not safe for
// concurrent use; the scan loop owns them.
type Scanner interface {
	Scan(f *Frame) error
	// Halt releases the bus and pins.
	Halt() error
	fmt.Stringer
}

// EventKind says whether a square lost or gained a man.
type EventKind uint8

// The two debounced events.
const (
	Lift  EventKind = 1 // the square lost its man
	Place EventKind = 2 // the square gained a man
)

// String returns "lift" or "place", as the trace format writes them.
func (k EventKind) String() string {
	if k == Lift {
		return "lift"
	}
	return "place"
}

// Event is a debounced change of one square at time T.
type Event struct {
	T      time.Duration
	Square board.Square
	Kind   EventKind
}

func (e Event) String() string { return fmt.Sprintf("%s %s at %v", e.Kind, e.Square, e.T) }
