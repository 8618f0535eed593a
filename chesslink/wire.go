package chesslink

import (
	"fmt"
	"math/bits"
	"strconv"
)

// Parity says what bit 7 of every byte the emulator sends carries.
type Parity uint8

// The two ways of sending.
const (
	// ParityOdd sets bit 7 so that every byte has an odd number of ones: the
	// 7-data-bit, odd-parity character of the board's serial line (38400 7O1)
	// as it looks on an 8-bit line (a UART opened 8N1, a USB gadget port, a
	// Bluetooth characteristic). It is the default.
	ParityOdd Parity = iota
	// ParityNone sends plain 7-bit ASCII (bit 7 clear), for an app that reads
	// a USB CDC port without masking bit 7.
	ParityNone
)

// String returns "odd" or "none".
func (p Parity) String() string {
	if p == ParityNone {
		return "none"
	}
	return "odd"
}

// withOddParity returns the 7-bit character c with bit 7 set so that the
// byte has an odd number of ones.
func withOddParity(c byte) byte {
	c &= 0x7f
	if bits.OnesCount8(c)%2 == 0 {
		c |= 0x80
	}
	return c
}

// hasOddParity reports whether b has an odd number of ones.
func hasOddParity(b byte) bool { return bits.OnesCount8(b)%2 == 1 }

// Checksum returns the block check of a message body: the XOR of its 7-bit
// characters, command or reply letter included. On the wire it follows the
// body as two upper-case hex digits.
func Checksum(body []byte) byte {
	var x byte
	for _, c := range body {
		x ^= c & 0x7f
	}
	return x
}

const hexDigits = "0123456789ABCDEF"

// appendHex appends v as two upper-case hex digits.
func appendHex(dst []byte, v byte) []byte {
	return append(dst, hexDigits[v>>4], hexDigits[v&15])
}

// hexValue returns the value of an ASCII hex digit (either case), or -1.
func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// hexByte reads two hex digits.
func hexByte(hi, lo byte) (byte, bool) {
	h, l := hexValue(hi), hexValue(lo)
	if h < 0 || l < 0 {
		return 0, false
	}
	return byte(h<<4 | l), true
}

// AppendMessage appends the wire form of a message to dst: the body (its
// letter and data, 7-bit ASCII), then the two upper-case hex digits of its
// Checksum, every byte with bit 7 set as p says.
func AppendMessage(dst, body []byte, p Parity) []byte {
	start := len(dst)
	dst = append(dst, body...)
	dst = appendHex(dst, Checksum(body))
	for i := start; i < len(dst); i++ {
		if p == ParityNone {
			dst[i] &= 0x7f
		} else {
			dst[i] = withOddParity(dst[i])
		}
	}
	return dst
}

// MaxBody is the longest message body: the LED command, L, the slot time and
// 81 LED codes.
const MaxBody = 1 + 2 + 2*LEDCount

// bodyLength returns the body length (letter and data, without check
// digits) of the message starting with letter c, or 0 for a letter that
// starts no message. Commands are the app's upper-case letters; replies the
// board's lower-case ones.
func bodyLength(c byte, replies bool) int {
	if replies {
		switch c {
		case 'l', 'x':
			return 1
		case 'v', 'w', 'r':
			return 5
		case 'i':
			return 1 + 2 + len(identity)
		case 's':
			return 1 + 64
		}
		return 0
	}
	switch c {
	case 'V', 'S', 'X', 'T':
		return 1
	case 'R', 'I':
		return 3
	case 'W':
		return 5
	case 'L':
		return MaxBody
	}
	return 0
}

// fits reports whether c may stand at position i (1 or more) of the body of
// a message starting with letter.
func fits(letter byte, i int, c byte) bool {
	switch letter {
	case 's':
		return isPieceCode(c)
	case 'i':
		if i > 2 {
			return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		}
	}
	return hexValue(c) >= 0
}

// Fault says why the decoder dropped a message.
type Fault uint8

// The ways a message is spoiled.
const (
	FaultChecksum Fault = iota + 1 // its check digits do not match its body
	FaultParity                    // a byte's bit 7 is not odd parity (or parity was required and absent)
	FaultBroken                    // a character that cannot stand where it came cut the message short
)

// String names the fault as logs and counters write it.
func (f Fault) String() string {
	switch f {
	case FaultChecksum:
		return "bad-checksum"
	case FaultParity:
		return "bad-parity"
	case FaultBroken:
		return "broken"
	}
	return fmt.Sprintf("fault(%d)", uint8(f))
}

// DecodeError is a message the decoder dropped: which message, what was
// wrong, and what came.
type DecodeError struct {
	Fault  Fault
	Letter byte   // the letter the message started with
	Got    []byte // what arrived of it (7-bit, check digits included); valid only during the callback
	Want   int    // its full length on the wire
	Cut    byte   // FaultBroken: the character that cut it short
}

// Error says what was dropped, e.g. `chesslink: message "W0" broken off by
// 'V' after 2 of 7 characters`.
func (e *DecodeError) Error() string {
	got := strconv.Quote(string(e.Got))
	switch e.Fault {
	case FaultChecksum:
		return fmt.Sprintf("chesslink: message %s has check digits %q, want %02X", got, e.Got[len(e.Got)-2:], Checksum(e.Got[:len(e.Got)-2]))
	case FaultParity:
		return fmt.Sprintf("chesslink: message %s has bytes without odd parity", got)
	case FaultBroken:
		return fmt.Sprintf("chesslink: message %s broken off by %q after %d of %d characters", got, e.Cut, len(e.Got), e.Want)
	}
	return fmt.Sprintf("chesslink: message %s dropped (%s)", got, e.Fault)
}

// DecoderStats count what a Decoder has seen.
type DecoderStats struct {
	Messages    uint64 // good messages delivered
	Stray       uint64 // bytes outside any message (noise, line ends, unknown letters)
	BadChecksum uint64 // messages dropped for their check digits
	BadParity   uint64 // messages dropped for a byte's parity
	Broken      uint64 // messages cut short by a character that cannot stand where it came
}

// Dropped returns the number of messages dropped.
func (s DecoderStats) Dropped() uint64 { return s.BadChecksum + s.BadParity + s.Broken }

// Decoder splits a byte stream into messages. The protocol has no
// delimiter: a message is known by its first letter, which fixes its length.
// Bytes that start no message are skipped; a character that cannot stand
// where it comes (a letter among hex digits, say a new command after a
// message cut short) drops the message so far and is read afresh, so the
// decoder finds its feet after noise, a partial message or an app that
// reconnected mid-stream. The zero value decodes an app's commands with
// check digits and lenient parity. It is not safe for concurrent use.
type Decoder struct {
	// Replies decodes the board's replies (lower-case letters) instead of an
	// app's commands.
	Replies bool
	// NoCheckDigits expects messages without their two check digits, as the
	// board does when its register 00 disables the block check.
	NoCheckDigits bool
	// RequireParity drops a message unless every byte carries odd parity in
	// bit 7. Without it a message of plain 7-bit ASCII (bit 7 clear in every
	// byte) is accepted too, as an app writing to a USB gadget port sends it:
	// nothing on that path adds the parity bit. Either way a message that
	// mixes the two is dropped.
	RequireParity bool
	Stats         DecoderStats

	buf      [MaxBody + 2]byte
	n, want  int
	odd, low bool // every byte so far had odd parity / bit 7 clear
}

// Reset forgets a message in progress (the port was reopened).
func (d *Decoder) Reset() { d.n, d.want = 0, 0 }

// Pending returns how many bytes of an unfinished message the decoder holds.
func (d *Decoder) Pending() int { return d.n }

// Feed decodes p, calling emit with the body (letter and data, 7-bit,
// without check digits) of each good message, or with a *DecodeError for
// each message dropped. The body is valid only during the call.
func (d *Decoder) Feed(p []byte, emit func(body []byte, err error)) {
	for _, b := range p {
		c := b & 0x7f
		if d.want > 0 && !d.accepts(c) {
			d.Stats.Broken++
			emit(nil, &DecodeError{Fault: FaultBroken, Letter: d.buf[0], Got: d.buf[:d.n], Want: d.want, Cut: c})
			d.want, d.n = 0, 0
		}
		if d.want == 0 {
			n := bodyLength(c, d.Replies)
			if n == 0 {
				d.Stats.Stray++
				continue
			}
			d.want, d.n, d.odd, d.low = n, 0, true, true
			if !d.NoCheckDigits {
				d.want += 2
			}
		}
		d.buf[d.n] = c
		d.n++
		d.odd = d.odd && hasOddParity(b)
		d.low = d.low && b&0x80 == 0
		if d.n == d.want {
			d.finish(emit)
		}
	}
}

// accepts reports whether c may stand next in the message in progress.
func (d *Decoder) accepts(c byte) bool {
	if d.n >= d.bodyLen() {
		return hexValue(c) >= 0
	}
	return fits(d.buf[0], d.n, c)
}

// bodyLen is the body length of the message in progress.
func (d *Decoder) bodyLen() int {
	if d.NoCheckDigits {
		return d.want
	}
	return d.want - 2
}

func (d *Decoder) finish(emit func([]byte, error)) {
	got, body := d.buf[:d.n], d.buf[:d.bodyLen()]
	d.want, d.n = 0, 0
	if !d.odd && (d.RequireParity || !d.low) {
		d.Stats.BadParity++
		emit(nil, &DecodeError{Fault: FaultParity, Letter: got[0], Got: got, Want: len(got)})
		return
	}
	if !d.NoCheckDigits {
		sum, ok := hexByte(got[len(got)-2], got[len(got)-1])
		if !ok || sum != Checksum(body) {
			d.Stats.BadChecksum++
			emit(nil, &DecodeError{Fault: FaultChecksum, Letter: got[0], Got: got, Want: len(got)})
			return
		}
	}
	d.Stats.Messages++
	emit(body, nil)
}
