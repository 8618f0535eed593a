// Package link is the serial protocol between boardd and a board's
// microcontroller: frames delimited and made self-synchronising by COBS,
// checked by a CRC-16 on every frame, numbered by a sequence byte, and the
// messages they carry (the version handshake, occupancy and analogue scans,
// button presses and choices, LED frames, status, reports, acknowledgements
// and errors).
//
// The package is a codec and a time-injected session state machine; it does
// no I/O of its own. Package serialport runs it over a real port for the
// daemon, package hwtest runs the board's end of it for the test rig.
// docs/serial-protocol.md is the specification, precise enough to write
// firmware from; this package is its reference implementation.
package link

import "fmt"

// Version is the protocol version this package speaks. A peer announcing any
// other version is refused.
const Version = 1

// Type is the first byte of every frame: which message it carries.
type Type uint8

// The message types. Board-to-host messages are 0x10..0x1f, host-to-board
// messages 0x20..0x2f, messages both ends send 0x01..0x0f.
const (
	TypeHello     Type = 0x01 // both: version handshake
	TypeAck       Type = 0x02 // both: a frame that needed acknowledging arrived
	TypeError     Type = 0x03 // both: a frame was refused
	TypeOccupancy Type = 0x10 // board: one scan, one bit a square
	TypeAnalog    Type = 0x11 // board: one scan with each sensor's reading
	TypeButton    Type = 0x12 // board: a button pressed (acknowledged)
	TypeChoose    Type = 0x13 // board: a player or arbiter picks an option (acknowledged)
	TypeLEDs      Type = 0x20 // host: what every LED must show (acknowledged)
	TypeStatus    Type = 0x21 // host: the law-set and position, after each handshake
	TypeReport    Type = 0x22 // host: one of boardd's report lines (acknowledged; only if asked for)
)

// String returns the message's name as the protocol document writes it.
func (t Type) String() string {
	switch t {
	case TypeHello:
		return "hello"
	case TypeAck:
		return "ack"
	case TypeError:
		return "error"
	case TypeOccupancy:
		return "occupancy"
	case TypeAnalog:
		return "analog"
	case TypeButton:
		return "button"
	case TypeChoose:
		return "choose"
	case TypeLEDs:
		return "leds"
	case TypeStatus:
		return "status"
	case TypeReport:
		return "report"
	}
	return fmt.Sprintf("type(0x%02x)", uint8(t))
}

// Known reports whether t is a message type of this version.
func (t Type) Known() bool {
	switch t {
	case TypeHello, TypeAck, TypeError, TypeOccupancy, TypeAnalog, TypeButton, TypeChoose, TypeLEDs, TypeStatus, TypeReport:
		return true
	}
	return false
}

// Acknowledged reports whether a frame of type t must be answered by an ACK
// (and is retransmitted until it is).
func (t Type) Acknowledged() bool {
	switch t {
	case TypeButton, TypeChoose, TypeLEDs, TypeReport:
		return true
	}
	return false
}

// supersedes reports whether a newer message of type t replaces an older one
// still waiting for its acknowledgement (state, not events).
func (t Type) supersedes() bool { return t == TypeLEDs }

// Frame is one decoded frame: its type, its sequence number and its payload.
// A Frame handed out by a Decoder aliases the decoder's buffer and is valid
// only until the decoder is fed again.
type Frame struct {
	Type    Type
	Seq     uint8
	Payload []byte
}

// Sizes of a frame's body (the bytes before COBS encoding).
const (
	HeaderSize = 2                               // type, seq
	CRCSize    = 2                               // CRC-16, big-endian
	MinBody    = HeaderSize + CRCSize            // an empty payload
	MaxBody    = 1024                            // the longest body a receiver must accept
	MaxPayload = MaxBody - HeaderSize - CRCSize  // 1020
	MaxWire    = MaxBody + (MaxBody+253)/254 + 1 // the longest encoded frame with its delimiter
	Delimiter  = 0x00                            // ends every frame on the wire
)
