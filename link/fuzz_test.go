package link

import (
	"bytes"
	"testing"
	"time"
)

// FuzzDecoder feeds arbitrary bytes to the decoder, whole and in two pieces:
// it never panics, accounts for every delimiter, hands out only frames that
// re-encode to themselves, and gives the same frames however the bytes are
// cut. The seed corpus is in testdata/fuzz/FuzzDecoder.
func FuzzDecoder(f *testing.F) {
	for _, m := range []Message{Occupancy{Time: 1, Occupancy: 0xffff00000000ffff}, Button{Side: SideWhite, Button: ButtonClock}, Hello{Version: 1, Name: "board"}} {
		w, _ := Append(nil, 3, m)
		f.Add(w, uint16(len(w)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		type got struct {
			typ   Type
			seq   uint8
			p     string
			fault Fault
		}
		run := func(pieces ...[]byte) ([]got, DecoderStats) {
			var d Decoder
			var out []got
			for _, p := range pieces {
				d.Feed(p, func(fr Frame, err error) {
					if err != nil {
						fault, ok := IsFrameError(err)
						if !ok {
							t.Fatalf("error %v is not a FrameError", err)
						}
						out = append(out, got{fault: fault})
						return
					}
					if len(fr.Payload) > MaxPayload {
						t.Fatalf("payload of %d bytes", len(fr.Payload))
					}
					re, err := AppendFrame(nil, fr.Type, fr.Seq, fr.Payload)
					if err != nil {
						t.Fatal(err)
					}
					var d2 Decoder
					n := 0
					d2.Feed(re, func(fr2 Frame, err error) {
						n++
						if err != nil || fr2.Type != fr.Type || fr2.Seq != fr.Seq || !bytes.Equal(fr2.Payload, fr.Payload) {
							t.Fatalf("frame does not survive re-encoding: %+v vs %+v (%v)", fr, fr2, err)
						}
					})
					if n != 1 {
						t.Fatalf("re-encoded frame decodes to %d frames", n)
					}
					out = append(out, got{typ: fr.Type, seq: fr.Seq, p: string(fr.Payload)})
				})
			}
			return out, d.Stats
		}
		whole, st := run(data)
		c := int(cut) % (len(data) + 1)
		split, st2 := run(data[:c], data[c:])
		if len(whole) != len(split) || st != st2 {
			t.Fatalf("cut at %d changes the result: %d vs %d frames, %+v vs %+v", c, len(whole), len(split), st, st2)
		}
		for i := range whole {
			if whole[i] != split[i] {
				t.Fatalf("frame %d differs when cut at %d", i, c)
			}
		}
		delims := uint64(bytes.Count(data, []byte{Delimiter}))
		if st.Frames+st.Dropped()+st.Empty != delims {
			t.Fatalf("%d delimiters but %d frames, %d dropped, %d empty", delims, st.Frames, st.Dropped(), st.Empty)
		}
		if st.Bytes != uint64(len(data)) {
			t.Fatalf("bytes %d, fed %d", st.Bytes, len(data))
		}
	})
}

// FuzzSession feeds arbitrary frames to a host session after its handshake:
// it never panics, refuses what it cannot take with an ERROR, and whatever it
// delivers parses.
func FuzzSession(f *testing.F) {
	f.Add([]byte{0x12, 0x01, 0x01, 0x04})
	f.Add([]byte{0x10, 0x05, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0x01, 0x00, 0x01, 0x00})
	f.Add([]byte{0x13, 0x09, 0x02, 0x00, 's', 't', 'a', 'n', 'd'})
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) < HeaderSize {
			return
		}
		s := NewSession(SessionOptions{Role: Host, Timeout: time.Second})
		s.Open(0)
		hello, _ := Append(nil, 0, Hello{Version: Version})
		var d Decoder
		d.Feed(hello, func(fr Frame, err error) { s.Receive(0, fr) })
		if !s.Up() {
			t.Fatal("no handshake")
		}
		s.Output()
		ev := s.Receive(time.Millisecond, Frame{Type: Type(body[0]), Seq: body[1], Payload: body[2:]})
		switch ev.Kind {
		case EventMessage:
			if _, err := Parse(ev.Frame); err != nil {
				t.Fatalf("delivered a frame that does not parse: %v", err)
			}
		case EventRefused:
			if len(s.Output()) == 0 && ev.Frame.Type != TypeError {
				t.Fatal("refused without an ERROR")
			}
		}
		s.Advance(2 * time.Second)
	})
}

// FuzzCOBS checks that every byte string survives encoding.
func FuzzCOBS(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2})
	f.Add(bytes.Repeat([]byte{1}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		enc := AppendCOBS(nil, data)
		if bytes.IndexByte(enc, 0) >= 0 {
			t.Fatal("encoding holds a zero")
		}
		if len(enc) > len(data)+len(data)/254+1 {
			t.Fatalf("encoding of %d bytes is %d long", len(data), len(enc))
		}
		dec, err := DecodeCOBS(nil, enc)
		if err != nil || !bytes.Equal(dec, data) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
