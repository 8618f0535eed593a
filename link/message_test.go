package link

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/boardd/boardd/board"
)

func TestMessagesRoundTrip(t *testing.T) {
	leds := &LEDs{}
	leds.Role[sq("e2")] = 1                          // must-move, steady
	leds.Role[sq("e4")], leds.Blink[sq("e4")] = 2, 1 // destination, slow
	leds.Role[sq("h8")], leds.Blink[sq("h8")] = MaxRole, MaxBlink
	analog := &Analog{Time: 0xdeadbeef, Occupancy: 0x8000000000000001}
	for i := range analog.Values {
		analog.Values[i] = uint16(i * 1000)
	}
	msgs := []Message{
		&Hello{Version: Version, Flags: HelloReports | HelloButtons, Name: "rig"},
		&Ack{Seq: 9, Of: TypeLEDs},
		&ErrorMsg{Code: ErrVersion, Seq: 0, Of: TypeHello, Detail: "want version 1"},
		&Occupancy{Time: 123456, Occupancy: 0xffff00000000ffff},
		analog,
		&Button{Side: SideBlack, Button: ButtonClock},
		&Button{Side: SideWhite, Button: PromoteKnight},
		&Choose{Side: SideArbiter, Option: "move-touched"},
		&Choose{Side: SideBlack, Index: 2},
		leds,
		&Status{Laws: "fide2023", FEN: board.StartFEN},
		&Report{JSON: []byte(`{"type":"move","t":450}`)},
	}
	for _, m := range msgs {
		wire, err := Append(nil, 42, m)
		if err != nil {
			t.Fatalf("%s: %v", m.Type(), err)
		}
		var d Decoder
		n := 0
		d.Feed(wire, func(f Frame, err error) {
			n++
			if err != nil || f.Type != m.Type() || f.Seq != 42 {
				t.Fatalf("%s: frame %+v err %v", m.Type(), f, err)
			}
			got, err := Parse(f)
			if err != nil {
				t.Fatalf("%s: %v", m.Type(), err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("%s: parsed %+v, want %+v", m.Type(), got, m)
			}
		})
		if n != 1 {
			t.Fatalf("%s: %d frames", m.Type(), n)
		}
	}
}

func TestMessagesRefuseBadPayloads(t *testing.T) {
	tests := []struct {
		typ     Type
		payload []byte
	}{
		{TypeHello, []byte{1}},
		{TypeAck, []byte{1, 2, 3}},
		{TypeError, []byte{1, 2}},
		{TypeOccupancy, make([]byte, 11)},
		{TypeAnalog, make([]byte, AnalogSize+1)},
		{TypeButton, []byte{1}},
		{TypeButton, []byte{4, 1}},    // no such side
		{TypeButton, []byte{1, 0x09}}, // no such button
		{TypeChoose, []byte{1, 0}},    // neither id nor number
		{TypeChoose, []byte{4, 1}},    // no such side
		{TypeChoose, []byte{1, 0, 'a', ' ', 'b'}},
		{TypeChoose, append([]byte{1, 0}, bytes.Repeat([]byte{'x'}, MaxOption+1)...)},
		{TypeLEDs, make([]byte, 63)},
		{TypeLEDs, append(make([]byte, 63), 0x1f)}, // no such role
		{TypeLEDs, append(make([]byte, 63), 0x61)}, // no such blink
		{TypeStatus, []byte{9, 'f'}},
		{TypeStatus, []byte{1, 'f', 1, 'x', 7}},
		{TypeReport, []byte("not json")},
		{Type(0x7f), nil},
	}
	for _, tt := range tests {
		_, err := Parse(Frame{Type: tt.typ, Payload: tt.payload})
		var pe *PayloadError
		if !errors.As(err, &pe) {
			t.Errorf("%s % x: err %v, want a PayloadError", tt.typ, tt.payload, err)
		}
	}
}

func TestButtonNames(t *testing.T) {
	for _, name := range []string{"jadoube", "check", "claim", "clock", "promote-q", "promote-n"} {
		b, err := ParseButton(name)
		if err != nil || b.String() != name {
			t.Errorf("ParseButton(%q) = %v, %v", name, b, err)
		}
	}
	if _, err := ParseButton("resign"); err == nil {
		t.Error("ParseButton(resign) accepted")
	}
	for _, k := range []board.Kind{board.Queen, board.Rook, board.Bishop, board.Knight} {
		b, ok := PromotionButton(k)
		back, ok2 := b.Promotion()
		if !ok || !ok2 || back != k {
			t.Errorf("promotion button of %v: %v", k, b)
		}
	}
	if _, ok := ButtonClock.Promotion(); ok {
		t.Error("the clock names a promotion piece")
	}
}

func sq(name string) board.Square {
	s, err := board.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}
