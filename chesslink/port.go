package chesslink

import (
	"io"

	"go.bug.st/serial"
)

// Port is an open port to the app; go.bug.st/serial's Port is one.
type Port interface {
	io.ReadWriteCloser
}

// OpenPort opens the serial device at path through go.bug.st/serial, raw, at
// baud with 8 data bits and no parity: the board's 7-bit odd-parity
// characters travel as 8-bit bytes whose bit 7 the session sets and checks
// itself, which is also how they arrive over a USB gadget port (where the
// app's line settings change nothing) and over a UART from a host set to
// 7O1. A pseudo-terminal's slave opens the same way.
func OpenPort(path string, baud int) (Port, error) {
	p, err := serial.Open(path, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		return nil, err
	}
	return p, nil
}
