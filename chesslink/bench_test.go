package chesslink

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

func ledCommand(b *testing.B) []byte {
	c := Command{Letter: CmdLEDs, LEDs: LEDPattern{SlotTime: 0x20}}
	c.LEDs.LightSquare(board.NewSquare(4, 1), 0xCC)
	c.LEDs.LightSquare(board.NewSquare(4, 3), 0x33)
	return AppendMessage(nil, c.AppendBody(nil), ParityOdd)
}

// BenchmarkEncodeStatus encodes a status reply, the board's longest and most
// frequent message (24 a second in the default report mode).
func BenchmarkEncodeStatus(b *testing.B) {
	p, _ := board.ParseFEN(board.StartFEN)
	var body, wire []byte
	b.ReportAllocs()
	for b.Loop() {
		body = AppendStatus(body[:0], &p.Men, FromH1)
		wire = AppendMessage(wire[:0], body, ParityOdd)
	}
	b.SetBytes(int64(len(wire)))
}

// BenchmarkDecodeLEDCommand decodes an LED command, the app's longest
// message (167 bytes).
func BenchmarkDecodeLEDCommand(b *testing.B) {
	wire := ledCommand(b)
	var d Decoder
	n := 0
	emit := func(body []byte, err error) { n++ }
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		d.Feed(wire, emit)
	}
	if n == 0 {
		b.Fatal("nothing decoded")
	}
}

// BenchmarkDecodeStatus decodes status replies, as an app (or a test rig)
// does.
func BenchmarkDecodeStatus(b *testing.B) {
	wire := AppendMessage(nil, []byte("sRNBKQBNRPPPPPPPP"+strings.Repeat(".", 32)+"pppppppprnbkqbnr"), ParityOdd)
	d := Decoder{Replies: true}
	emit := func(body []byte, err error) {}
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		d.Feed(wire, emit)
	}
}

// BenchmarkSessionLEDCommand is a whole LED command through the session:
// decode, parse, hand the pattern to the board, answer.
func BenchmarkSessionLEDCommand(b *testing.B) {
	wire := ledCommand(b)
	s := NewSession(Options{ShowLEDs: func(LEDPattern) {}})
	var out []byte
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		s.Receive(0, wire)
		out = s.TakeOutput(out[:0])
	}
}

// BenchmarkSessionStatus is an S command answered.
func BenchmarkSessionStatus(b *testing.B) {
	wire := AppendMessage(nil, []byte("S"), ParityOdd)
	s := NewSession(Options{})
	p, _ := board.ParseFEN(board.StartFEN)
	s.SetPlacement(0, p.Men)
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		s.Receive(time.Millisecond, wire)
		out = s.TakeOutput(out[:0])
	}
}

// BenchmarkSquares maps the 81 corner LEDs onto the 64 squares.
func BenchmarkSquares(b *testing.B) {
	c, _ := ParseCommand(ledCommand(b)[:MaxBody])
	p := c.LEDs
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Squares()
	}
}
