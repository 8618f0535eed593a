package chesslink

import (
	"bytes"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// FuzzDecoder feeds arbitrary bytes to a decoder, whole and in two pieces:
// it never panics, gives the same messages and counts however the bytes are
// cut, delivers only bodies of the length their letter fixes, and every body
// it delivers encodes to a message that decodes to that body alone. The seed
// corpus is in testdata/fuzz/FuzzDecoder.
func FuzzDecoder(f *testing.F) {
	f.Add(odd("W0203"), uint16(3), uint8(0))
	f.Add(cat(odd("L20"+string(bytes.Repeat([]byte("0F"), 81))), []byte("V57"), flip7(odd("S"), 1)), uint16(90), uint8(4))
	f.Add(odd("sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr"), uint16(30), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, flags uint8) {
		newDecoder := func() Decoder {
			return Decoder{Replies: flags&1 != 0, NoCheckDigits: flags&2 != 0, RequireParity: flags&4 != 0}
		}
		type got struct {
			body  string
			fault Fault
		}
		run := func(pieces ...[]byte) ([]got, DecoderStats) {
			d := newDecoder()
			var out []got
			for _, p := range pieces {
				d.Feed(p, func(body []byte, err error) {
					if err != nil {
						de, ok := err.(*DecodeError)
						if !ok || de.Error() == "" {
							t.Fatalf("error %v is not a *DecodeError", err)
						}
						out = append(out, got{fault: de.Fault})
						return
					}
					if n := bodyLength(body[0], d.Replies); n != len(body) {
						t.Fatalf("body %q of length %d, want %d", body, len(body), n)
					}
					for _, c := range body {
						if c&0x80 != 0 {
							t.Fatalf("body %q has bit 7 set", body)
						}
					}
					wire := AppendMessage(nil, body, ParityOdd)
					if d.NoCheckDigits {
						wire = wire[:len(wire)-2]
					}
					d2 := newDecoder()
					n := 0
					d2.Feed(wire, func(b2 []byte, err error) {
						n++
						if err != nil || !bytes.Equal(b2, body) {
							t.Fatalf("body %q re-encoded decodes to %q, %v", body, b2, err)
						}
					})
					if n != 1 {
						t.Fatalf("body %q re-encoded decodes to %d messages", body, n)
					}
					out = append(out, got{body: string(body)})
				})
			}
			return out, d.Stats
		}
		whole, ws := run(data)
		c := int(cut) % (len(data) + 1)
		split, ss := run(data[:c], data[c:])
		if len(whole) != len(split) || ws != ss {
			t.Fatalf("cut at %d: %v %+v, whole: %v %+v", c, split, ss, whole, ws)
		}
		for i := range whole {
			if whole[i] != split[i] {
				t.Fatalf("cut at %d: message %d is %+v, whole %+v", c, i, split[i], whole[i])
			}
		}
	})
}

// FuzzSession feeds an emulated board arbitrary bytes, a few at a time over
// virtual seconds, with the placement changing under it: it never panics,
// and everything it sends is a well-formed reply with odd parity, whole.
// The seed corpus is in testdata/fuzz/FuzzSession.
func FuzzSession(f *testing.F) {
	f.Add(cat(odd("W0203"), odd("V"), odd("S"), odd("T"), odd("V")))
	f.Add(cat(odd("W0001"), []byte("VSXR02W0207"), odd("L")))
	f.Fuzz(func(t *testing.T, data []byte) {
		var shown int
		s := NewSession(Options{ResetDelay: 100 * time.Millisecond, ShowLEDs: func(p LEDPattern) {
			shown++
			p.Squares()
		}})
		positions := [][64]board.Man{men(t, board.StartFEN), men(t, "8/8/8/8/8/8/8/K6k w - - 0 1")}
		d := Decoder{Replies: true, RequireParity: true}
		var now time.Duration
		for i := 0; i < len(data); i += 7 {
			s.Receive(now, data[i:min(i+7, len(data))])
			if err := s.SetPlacement(now, positions[i/7%2]); err != nil {
				t.Fatal(err)
			}
			now += 13 * time.Millisecond
			if due := s.Deadline(); due < now {
				s.Advance(due)
			}
			s.Advance(now)
			d.Feed(s.TakeOutput(nil), func(body []byte, err error) {
				if err != nil {
					t.Fatalf("the board sent a malformed message: %v", err)
				}
				if body[0] == 's' {
					if _, err := ParseStatus(body, FromH1); err != nil {
						t.Fatal(err)
					}
				}
			})
			if d.Pending() != 0 {
				t.Fatalf("the board sent %d bytes of an unfinished message", d.Pending())
			}
		}
		if d.Stats.Stray != 0 {
			t.Fatalf("the board sent %d stray bytes", d.Stats.Stray)
		}
	})
}
