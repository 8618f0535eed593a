package link

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

func TestCRC16CheckValue(t *testing.T) {
	if got := CRC16(CRCInit, []byte("123456789")); got != CRCCheck {
		t.Fatalf("CRC16(123456789) = %#04x, want %#04x", got, CRCCheck)
	}
	// Appending the CRC high byte first leaves a residue of zero.
	body := []byte{0x10, 0x07, 1, 2, 3}
	c := CRC16(CRCInit, body)
	if r := CRC16(CRCInit, append(body, byte(c>>8), byte(c))); r != 0 {
		t.Fatalf("residue %#04x, want 0", r)
	}
}

func TestCOBS(t *testing.T) {
	seq := func(from, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(from + i)
		}
		return b
	}
	tests := []struct {
		name string
		in   []byte
		want []byte // nil: only round-trip
	}{
		{"empty", nil, []byte{0x01}},
		{"one zero", []byte{0}, []byte{0x01, 0x01}},
		{"two zeros", []byte{0, 0}, []byte{0x01, 0x01, 0x01}},
		{"zero inside", []byte{0x11, 0x22, 0x00, 0x33}, []byte{0x03, 0x11, 0x22, 0x02, 0x33}},
		{"no zero", []byte{0x11, 0x22, 0x33, 0x44}, []byte{0x05, 0x11, 0x22, 0x33, 0x44}},
		{"trailing zero", []byte{0x11, 0x00, 0x00, 0x00}, []byte{0x02, 0x11, 0x01, 0x01, 0x01}},
		{"254 non-zero", seq(1, 254), append([]byte{0xff}, seq(1, 254)...)},
		{"255 from zero", seq(0, 255), append([]byte{0x01, 0xff}, seq(1, 254)...)},
		{"255 non-zero", seq(1, 255), append(append([]byte{0xff}, seq(1, 254)...), 0x02, 0xff)},
		{"254 then zero", append(seq(1, 254), 0), append(append([]byte{0xff}, seq(1, 254)...), 0x01, 0x01)},
		{"long", bytes.Repeat([]byte{7, 0, 9}, 400), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := AppendCOBS(nil, tt.in)
			if tt.want != nil && !bytes.Equal(enc, tt.want) {
				t.Fatalf("encode = % x\nwant     % x", enc, tt.want)
			}
			if bytes.IndexByte(enc, 0) >= 0 {
				t.Fatalf("encoding holds a zero: % x", enc)
			}
			dec, err := DecodeCOBS(nil, enc)
			if err != nil || !bytes.Equal(dec, tt.in) {
				t.Fatalf("decode = % x, %v; want % x", dec, err, tt.in)
			}
		})
	}
}

func TestDecodeCOBSBroken(t *testing.T) {
	for _, in := range [][]byte{{0x05, 1, 2}, {0x00}, {0x02, 0x00}, {0xff, 1}} {
		if _, err := DecodeCOBS(nil, in); err == nil {
			t.Errorf("DecodeCOBS(% x) accepted a broken encoding", in)
		}
	}
}

func TestFrameRoundTrip(t *testing.T) {
	payloads := [][]byte{nil, {0}, {1, 2, 3}, bytes.Repeat([]byte{0, 0xff}, MaxPayload/2)}
	for i, p := range payloads {
		wire, err := AppendFrame(nil, TypeReport, uint8(i*77), p)
		if err != nil {
			t.Fatal(err)
		}
		if wire[len(wire)-1] != Delimiter || bytes.IndexByte(wire[:len(wire)-1], 0) >= 0 {
			t.Fatalf("payload %d: delimiter misplaced", i)
		}
		var d Decoder
		var got []Frame
		d.Feed(wire, func(f Frame, err error) {
			if err != nil {
				t.Fatalf("payload %d: %v", i, err)
			}
			f.Payload = append([]byte(nil), f.Payload...)
			got = append(got, f)
		})
		if len(got) != 1 || got[0].Type != TypeReport || got[0].Seq != uint8(i*77) || !bytes.Equal(got[0].Payload, p) {
			t.Fatalf("payload %d: got %+v", i, got)
		}
	}
	if _, err := AppendFrame(nil, TypeReport, 0, make([]byte, MaxPayload+1)); !errors.Is(err, ErrPayloadTooLong) {
		t.Fatalf("oversized payload: err %v", err)
	}
}

// TestOccupancyWire pins the bytes of one frame, as the protocol document
// shows them.
func TestOccupancyWire(t *testing.T) {
	wire, err := Append(nil, 7, Occupancy{Time: 1000, Occupancy: 0xffff00000000ffff})
	if err != nil {
		t.Fatal(err)
	}
	const want = "051007e8030103ffff01010105fffff3b700"
	if got := hex.EncodeToString(wire); got != want {
		t.Fatalf("wire %s\nwant %s", got, want)
	}
}

func TestDecoderResynchronises(t *testing.T) {
	good := func(seq uint8) []byte {
		w, _ := Append(nil, seq, Occupancy{Time: uint32(seq), Occupancy: 0xffff00000000ffff})
		return w
	}
	corrupt := good(2)
	corrupt[5] ^= 0x40
	truncated := good(3)
	truncated = truncated[:len(truncated)/2]
	var stream []byte
	stream = append(stream, 0x41, 0x42, 0x43) // garbage before the first delimiter
	stream = append(stream, 0x00)             // ... ends here (a broken frame)
	stream = append(stream, good(1)...)       // frame 1
	stream = append(stream, corrupt...)       // bad CRC
	stream = append(stream, truncated...)     // cut short (the next frame runs into it)
	stream = append(stream, good(4)...)       // lost with the truncated one
	stream = append(stream, 0x00, 0x00)       // filler
	stream = append(stream, 0x02, 0x10, 0x00) // too short
	stream = append(stream, bytes.Repeat([]byte{0x55}, MaxWire+10)...)
	stream = append(stream, 0x00)       // too long
	stream = append(stream, good(5)...) // frame 5
	for _, chunk := range []int{1, 3, 17, len(stream)} {
		var d Decoder
		var seqs []uint8
		var faults []Fault
		for p := stream; len(p) > 0; {
			n := min(chunk, len(p))
			d.Feed(p[:n], func(f Frame, err error) {
				if err != nil {
					fault, ok := IsFrameError(err)
					if !ok {
						t.Fatalf("error %v is not a FrameError", err)
					}
					faults = append(faults, fault)
					return
				}
				seqs = append(seqs, f.Seq)
			})
			p = p[n:]
		}
		if len(seqs) != 2 || seqs[0] != 1 || seqs[1] != 5 {
			t.Errorf("chunk %d: frames %v, want [1 5]", chunk, seqs)
		}
		s := d.Stats
		if s.Frames != 2 || s.BadCRC+s.BadCOBS != 3 || s.TooLong != 1 || s.Short != 1 || s.Empty != 2 || s.Dropped() != 5 || s.Bytes != uint64(len(stream)) {
			t.Errorf("chunk %d: stats %+v faults %v", chunk, s, faults)
		}
	}
}
