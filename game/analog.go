package game

import (
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/trace"
)

// AnalogClassifier reads the levels of an analogue frame (a frame line with
// trace.Line.Bits set: 64 levels in channel order from a bits-bit ADC, taken
// at t) into the squares that hold a man, as a calibrated scanner reads an
// analogue board on the running daemon. calibration.TraceClassifier is the
// one boardd uses; the game knows nothing of calibrations.
type AnalogClassifier interface {
	ClassifyAnalog(t time.Duration, bits int, levels *[trace.Channels]uint16) (board.Occupancy, error)
}

// readAnalog puts the occupancy a classifier reads from l's analogue levels
// in l.Occupancy, and marks the levels read (Bits 0) so that they are read
// once. A line without levels, or no classifier, leaves l as it is: its
// frame is the occupancy recorded with the levels.
func readAnalog(a AnalogClassifier, l *trace.Line) error {
	if a == nil || l.Kind != trace.Frame || l.Bits == 0 {
		return nil
	}
	occ, err := a.ClassifyAnalog(l.T, int(l.Bits), &l.Analog)
	if err != nil {
		return err
	}
	l.Occupancy, l.Bits = occ, 0
	return nil
}
