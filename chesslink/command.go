package chesslink

import (
	"fmt"
)

// The command letters an app sends. Each reply is the same letter in lower
// case.
const (
	CmdVersion  = 'V' // V: the firmware version; reply v and 4 hex digits
	CmdStatus   = 'S' // S: the placement; reply s and 64 piece codes
	CmdLEDs     = 'L' // L, slot time, 81 LED codes: light the LEDs; reply l
	CmdLEDsOff  = 'X' // X: all LEDs off; reply x
	CmdReset    = 'T' // T: reset the board; no reply, 3 s of deafness
	CmdWrite    = 'W' // W, address, value: write a register; reply w, address, value
	CmdRead     = 'R' // R, address: read a register; reply r, address, value
	CmdIdentify = 'I' // I, argument: sent by some apps on connect (undocumented); reply i, argument, "55mm"
)

// identity is what follows the argument in the reply to I, as the board
// emulations apps are known to accept send it.
const identity = "55mm"

// Command is one command from an app, decoded.
type Command struct {
	Letter byte // one of the Cmd letters
	// Address is the register of W and R.
	Address byte
	// Value is the value of W and the argument of I.
	Value byte
	// LEDs is the pattern of L (its Orientation and Brightness are left for
	// the board to fill in).
	LEDs LEDPattern
}

// ParseCommand reads the body of a command (its letter and data, without
// check digits) as a Decoder delivers it.
func ParseCommand(body []byte) (Command, error) {
	if len(body) == 0 {
		return Command{}, fmt.Errorf("chesslink: empty command")
	}
	c := Command{Letter: body[0]}
	if n := bodyLength(c.Letter, false); n == 0 || len(body) != n {
		return c, fmt.Errorf("chesslink: command %q: want %d characters for %q", body, n, c.Letter)
	}
	hex := func(i int) (byte, error) {
		v, ok := hexByte(body[i], body[i+1])
		if !ok {
			return 0, fmt.Errorf("chesslink: command %q: %q at character %d is not two hex digits", body, body[i:i+2], i+1)
		}
		return v, nil
	}
	var err error
	switch c.Letter {
	case CmdWrite:
		if c.Address, err = hex(1); err == nil {
			c.Value, err = hex(3)
		}
	case CmdRead:
		c.Address, err = hex(1)
	case CmdIdentify:
		c.Value, err = hex(1)
	case CmdLEDs:
		if c.LEDs.SlotTime, err = hex(1); err != nil {
			break
		}
		for i := range c.LEDs.Codes {
			if c.LEDs.Codes[i], err = hex(3 + 2*i); err != nil {
				break
			}
		}
	}
	return c, err
}

// AppendBody appends the body of the command (letter and data, 7-bit,
// without check digits) to dst; AppendMessage makes it a message. The LED
// codes of L go out as they stand in LEDs.Codes.
func (c Command) AppendBody(dst []byte) []byte {
	dst = append(dst, c.Letter)
	switch c.Letter {
	case CmdWrite:
		dst = appendHex(appendHex(dst, c.Address), c.Value)
	case CmdRead:
		dst = appendHex(dst, c.Address)
	case CmdIdentify:
		dst = appendHex(dst, c.Value)
	case CmdLEDs:
		dst = appendHex(dst, c.LEDs.SlotTime)
		for _, code := range c.LEDs.Codes {
			dst = appendHex(dst, code)
		}
	}
	return dst
}

// String returns the command's body, e.g. "W0203".
func (c Command) String() string { return string(c.AppendBody(nil)) }
