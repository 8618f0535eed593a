package link

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrPayloadTooLong is returned when a payload exceeds MaxPayload.
var ErrPayloadTooLong = fmt.Errorf("link: payload longer than %d bytes", MaxPayload)

// AppendFrame appends the wire form of one frame to dst: the COBS encoding of
// type, seq, payload and the big-endian CRC-16 of those bytes, then the
// delimiter.
func AppendFrame(dst []byte, typ Type, seq uint8, payload []byte) ([]byte, error) {
	if len(payload) > MaxPayload {
		return dst, ErrPayloadTooLong
	}
	head := [HeaderSize]byte{byte(typ), seq}
	crc := CRC16(CRC16(CRCInit, head[:]), payload)
	w := newCOBSWriter(dst)
	w.write(head[:])
	w.write(payload)
	w.byte(byte(crc >> 8))
	w.byte(byte(crc))
	return append(w.finish(), Delimiter), nil
}

// Fault says what spoiled a frame the decoder had to drop.
type Fault uint8

// The ways a frame can be spoiled on the wire.
const (
	FaultCOBS    Fault = iota + 1 // the COBS encoding is broken (garbage, lost bytes)
	FaultShort                    // the body is shorter than a header and CRC
	FaultTooLong                  // the frame ran past MaxBody before its delimiter
	FaultCRC                      // the CRC does not match
)

// String names the fault as logs and counters write it.
func (f Fault) String() string {
	switch f {
	case FaultCOBS:
		return "bad-cobs"
	case FaultShort:
		return "short"
	case FaultTooLong:
		return "too-long"
	case FaultCRC:
		return "bad-crc"
	}
	return fmt.Sprintf("fault(%d)", uint8(f))
}

// FrameError is a frame dropped by the decoder: what was wrong and how many
// bytes (on the wire, without the delimiter) were thrown away.
type FrameError struct {
	Fault Fault
	Bytes int
}

func (e *FrameError) Error() string {
	return fmt.Sprintf("link: frame dropped: %s (%d bytes)", e.Fault, e.Bytes)
}

// DecoderStats count what a decoder has seen.
type DecoderStats struct {
	Bytes   uint64 // every byte fed
	Frames  uint64 // good frames handed out
	Empty   uint64 // delimiters with nothing before them (filler, allowed)
	BadCOBS uint64 // frames with a broken encoding (garbage, lost bytes)
	Short   uint64 // frames shorter than a header and CRC
	TooLong uint64 // frames longer than MaxBody
	BadCRC  uint64 // frames whose CRC did not match
}

// Dropped returns the number of frames thrown away for any fault.
func (s DecoderStats) Dropped() uint64 { return s.BadCOBS + s.Short + s.TooLong + s.BadCRC }

// Decoder cuts a byte stream into frames at each delimiter and checks them.
// Whatever happens on the wire (garbage, lost or flipped bytes, a frame cut
// short by an unplugged cable), the decoder drops the spoiled frame and is in
// step again at the next delimiter. The zero value is ready to use; a Decoder
// is not safe for concurrent use.
type Decoder struct {
	raw      []byte // the encoded bytes of the frame in progress
	body     []byte // its decoding
	overflow bool   // the frame in progress has run past MaxWire
	dropped  int    // bytes thrown away of an overflowing frame
	Stats    DecoderStats
}

// Reset forgets any frame in progress (after the port is reopened).
func (d *Decoder) Reset() {
	d.raw = d.raw[:0]
	d.overflow = false
	d.dropped = 0
}

// Feed takes the next bytes of the stream and calls yield for each frame that
// ends in them: with the frame, or with a *FrameError for a dropped one. The
// frame's payload is valid only during the call.
func (d *Decoder) Feed(p []byte, yield func(Frame, error)) {
	d.Stats.Bytes += uint64(len(p))
	for len(p) > 0 {
		i := indexZero(p)
		if i < 0 {
			d.take(p)
			return
		}
		d.take(p[:i])
		p = p[i+1:]
		d.end(yield)
	}
}

func indexZero(p []byte) int { return bytes.IndexByte(p, Delimiter) }

func (d *Decoder) take(p []byte) {
	if d.overflow {
		d.dropped += len(p)
		return
	}
	if len(d.raw)+len(p) > MaxWire {
		d.overflow = true
		d.dropped = len(d.raw) + len(p)
		d.raw = d.raw[:0]
		return
	}
	if d.raw == nil {
		d.raw = make([]byte, 0, 256)
	}
	d.raw = append(d.raw, p...)
}

func (d *Decoder) end(yield func(Frame, error)) {
	if d.overflow {
		d.Stats.TooLong++
		n := d.dropped
		d.Reset()
		yield(Frame{}, &FrameError{Fault: FaultTooLong, Bytes: n})
		return
	}
	raw := d.raw
	d.raw = d.raw[:0]
	if len(raw) == 0 {
		d.Stats.Empty++
		return
	}
	body, err := DecodeCOBS(d.body[:0], raw)
	d.body = body
	switch {
	case err != nil:
		d.Stats.BadCOBS++
		yield(Frame{}, &FrameError{Fault: FaultCOBS, Bytes: len(raw)})
		return
	case len(body) < MinBody:
		d.Stats.Short++
		yield(Frame{}, &FrameError{Fault: FaultShort, Bytes: len(raw)})
		return
	case len(body) > MaxBody:
		d.Stats.TooLong++
		yield(Frame{}, &FrameError{Fault: FaultTooLong, Bytes: len(raw)})
		return
	}
	n := len(body) - CRCSize
	if CRC16(CRCInit, body[:n]) != uint16(body[n])<<8|uint16(body[n+1]) {
		d.Stats.BadCRC++
		yield(Frame{}, &FrameError{Fault: FaultCRC, Bytes: len(raw)})
		return
	}
	d.Stats.Frames++
	yield(Frame{Type: Type(body[0]), Seq: body[1], Payload: body[HeaderSize:n]}, nil)
}

// IsFrameError reports whether err is a frame dropped on the wire, and which
// fault dropped it.
func IsFrameError(err error) (Fault, bool) {
	var fe *FrameError
	if errors.As(err, &fe) {
		return fe.Fault, true
	}
	return 0, false
}
