package link

import (
	"testing"
)

func BenchmarkAppendOccupancy(b *testing.B) {
	buf := make([]byte, 0, 64)
	m := Occupancy{Time: 1000, Occupancy: 0xffff00000000ffff}
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = Append(buf[:0], 1, m)
	}
}

func BenchmarkAppendLEDs(b *testing.B) {
	buf := make([]byte, 0, 128)
	m := &LEDs{}
	m.Role[12] = 1                 // must-move, steady
	m.Role[28], m.Blink[28] = 2, 1 // destination, slow
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = Append(buf[:0], 1, m)
	}
}

func benchDecode(b *testing.B, m Message) {
	wire, _ := Append(nil, 1, m)
	var d Decoder
	n := 0
	yield := func(f Frame, err error) { n++ }
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		d.Feed(wire, yield)
	}
	if n == 0 {
		b.Fatal("no frame")
	}
}

func BenchmarkDecodeOccupancy(b *testing.B) {
	benchDecode(b, Occupancy{Time: 1000, Occupancy: 0xffff00000000ffff})
}

func BenchmarkDecodeLEDs(b *testing.B) { benchDecode(b, &LEDs{}) }

func BenchmarkDecodeAnalog(b *testing.B) {
	m := &Analog{}
	for i := range m.Values {
		m.Values[i] = uint16(i * 997)
	}
	benchDecode(b, m)
}

// BenchmarkSessionOccupancy is the host's cost per scan frame: decode,
// sequence check, payload check, delivery and unmarshal.
func BenchmarkSessionOccupancy(b *testing.B) {
	host := NewSession(SessionOptions{Role: Host})
	host.Open(0)
	hello, _ := Append(nil, 0, Hello{Version: Version})
	var d Decoder
	d.Feed(hello, func(f Frame, err error) { host.Receive(0, f) })
	host.Output()
	var wires [][]byte
	for i := range 256 {
		w, _ := Append(nil, uint8(i+1), Occupancy{Time: uint32(i), Occupancy: 0xffff00000000ffff})
		wires = append(wires, w)
	}
	var occ Occupancy
	yield := func(f Frame, err error) {
		if ev := host.Receive(0, f); ev.Kind == EventMessage {
			_ = occ.Unmarshal(ev.Frame.Payload)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d.Feed(wires[i&255], yield)
		i++
	}
	if host.Stats.Lost != 0 {
		b.Fatalf("lost %d", host.Stats.Lost)
	}
}

func BenchmarkCRC16(b *testing.B) {
	p := make([]byte, 66)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		CRC16(CRCInit, p)
	}
}
