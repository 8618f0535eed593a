package chesslink

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// unhex reads "D6 B5 B6".
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAppendMessageBytes pins the wire bytes. The first two rows are the
// exchange python-mchess logged with a real board over Bluetooth ("V56" sent
// as d6 b5 b6, "v010374" received as 76 b0 31 b0 b3 37 34); the others were
// worked out independently (XOR of the 7-bit characters, bit 7 set where a
// character has an even number of ones).
func TestAppendMessageBytes(t *testing.T) {
	cases := []struct {
		body, ascii, wire string
	}{
		{"V", "V56", "D6 B5 B6"},
		{"v0103", "v010374", "76 B0 31 B0 B3 37 34"},
		{"S", "S53", "D3 B5 B3"},
		{"X", "X58", "58 B5 38"},
		{"T", "T54", "54 B5 34"},
		{"R01", "R0153", "52 B0 31 B5 B3"},
		{"W0203", "W020356", "57 B0 32 B0 B3 B5 B6"},
		{"I00", "I0049", "49 B0 B0 34 B9"},
		{"l", "l6C", "EC B6 43"},
		{"x", "x78", "F8 37 38"},
		{"w0203", "w020376", "F7 B0 32 B0 B3 37 B6"},
		{"r0114", "r011476", "F2 B0 31 31 34 37 B6"},
		{"i0055mm", "i0055mm69", "E9 B0 B0 B5 B5 6D 6D B6 B9"},
		{"sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr",
			"sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr73",
			"73 52 CE C2 CB 51 C2 CE 52 D0 D0 D0 D0 D0 D0 D0 D0" + strings.Repeat(" AE", 32) + " 70 70 70 70 70 70 70 70 F2 6E 62 6B F1 62 6E F2 37 B3"},
	}
	for _, c := range cases {
		t.Run(c.ascii, func(t *testing.T) {
			got := AppendMessage([]byte("prefix"), []byte(c.body), ParityOdd)
			if want := append([]byte("prefix"), unhex(t, c.wire)...); !bytes.Equal(got, want) {
				t.Errorf("AppendMessage(%q, odd) = % X, want % X", c.body, got[6:], want[6:])
			}
			if got := AppendMessage(nil, []byte(c.body), ParityNone); string(got) != c.ascii {
				t.Errorf("AppendMessage(%q, none) = %q, want %q", c.body, got, c.ascii)
			}
		})
	}
}

func TestChecksumIgnoresBit7(t *testing.T) {
	if a, b := Checksum([]byte("W0203")), Checksum(unhex(t, "57 B0 32 B0 B3")); a != b || a != 0x56 {
		t.Errorf("Checksum = %02X and %02X, want 56 both", a, b)
	}
}

type decoded struct {
	body  string
	fault Fault
}

func decodeAll(t *testing.T, d *Decoder, pieces ...[]byte) []decoded {
	t.Helper()
	var out []decoded
	for _, p := range pieces {
		d.Feed(p, func(body []byte, err error) {
			if err != nil {
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("error %v is not a *DecodeError", err)
				}
				if de.Error() == "" {
					t.Fatal("empty error text")
				}
				out = append(out, decoded{fault: de.Fault})
				return
			}
			out = append(out, decoded{body: string(body)})
		})
	}
	return out
}

func odd(s string) []byte  { return AppendMessage(nil, []byte(s), ParityOdd) }
func none(s string) []byte { return AppendMessage(nil, []byte(s), ParityNone) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// flip7 turns bit 7 of byte i over: a parity error on the line.
func flip7(b []byte, i int) []byte {
	b = append([]byte(nil), b...)
	b[i] ^= 0x80
	return b
}

func TestDecoder(t *testing.T) {
	led := "L20" + strings.Repeat("00", 40) + "FF" + strings.Repeat("00", 40)
	cases := []struct {
		name    string
		d       Decoder
		in      []byte
		want    []decoded
		stray   uint64
		pending int
	}{
		{name: "one command", in: odd("V"), want: []decoded{{body: "V"}}},
		{name: "all commands", in: cat(odd("V"), odd("S"), odd("X"), odd("T"), odd("R02"), odd("W0203"), odd("I00"), odd(led)),
			want: []decoded{{body: "V"}, {body: "S"}, {body: "X"}, {body: "T"}, {body: "R02"}, {body: "W0203"}, {body: "I00"}, {body: led}}},
		{name: "7-bit ascii accepted", in: none("W0203"), want: []decoded{{body: "W0203"}}},
		{name: "7-bit ascii refused when parity required", d: Decoder{RequireParity: true}, in: cat(none("W0203"), odd("V")),
			want: []decoded{{fault: FaultParity}, {body: "V"}}},
		{name: "lower-case hex accepted", in: []byte("W0a0b54"), want: []decoded{{body: "W0a0b"}}},
		{name: "bad checksum", in: cat([]byte("V57"), odd("S")), want: []decoded{{fault: FaultChecksum}, {body: "S"}}},
		{name: "one bad parity bit", in: cat(flip7(odd("W0203"), 3), odd("V")), want: []decoded{{fault: FaultParity}, {body: "V"}}},
		{name: "parity and 7-bit mixed", in: cat(odd("W0203")[:3], none("W0203")[3:]), want: []decoded{{fault: FaultParity}}},
		{name: "noise between messages", in: cat([]byte("\r\n?zz"), odd("V"), []byte{0xff, 0}, odd("S")),
			want: []decoded{{body: "V"}, {body: "S"}}, stray: 7},
		{name: "cut short by a new command", in: cat(odd("W02")[:3], odd("V")), want: []decoded{{fault: FaultBroken}, {body: "V"}}},
		{name: "cut short by noise", in: cat(odd("R0")[:2], []byte("\n"), odd("X")), want: []decoded{{fault: FaultBroken}, {body: "X"}}, stray: 1},
		{name: "LED command cut by a reconnecting app", in: cat(odd(led)[:60], odd("V"), odd("S")),
			want: []decoded{{fault: FaultBroken}, {body: "V"}, {body: "S"}}},
		{name: "unfinished at the end", in: odd("W0203")[:4], pending: 4},
		{name: "no check digits", d: Decoder{NoCheckDigits: true}, in: []byte("VSW0203R01X"),
			want: []decoded{{body: "V"}, {body: "S"}, {body: "W0203"}, {body: "R01"}, {body: "X"}}},
		{name: "no check digits, an app still sending them", d: Decoder{NoCheckDigits: true}, in: cat(odd("V"), odd("R01")),
			want: []decoded{{body: "V"}, {body: "R01"}}, stray: 4},
		{name: "replies", d: Decoder{Replies: true}, in: cat(odd("v0103"), odd("sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr"), odd("l"), odd("i0055mm")),
			want: []decoded{{body: "v0103"}, {body: "sRNBKQBNRPPPPPPPP................................pppppppprnbkqbnr"}, {body: "l"}, {body: "i0055mm"}}},
		{name: "replies ignore commands", d: Decoder{Replies: true}, in: cat(odd("V"), odd("x")), want: []decoded{{body: "x"}}, stray: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.d
			got := decodeAll(t, &d, c.in)
			if !equalDecoded(got, c.want) {
				t.Errorf("decoded %+v, want %+v", got, c.want)
			}
			if d.Stats.Stray != c.stray {
				t.Errorf("stray %d, want %d", d.Stats.Stray, c.stray)
			}
			if d.Pending() != c.pending {
				t.Errorf("pending %d, want %d", d.Pending(), c.pending)
			}
			// Byte by byte gives the same.
			d2 := c.d
			var pieces [][]byte
			for i := range c.in {
				pieces = append(pieces, c.in[i:i+1])
			}
			if got := decodeAll(t, &d2, pieces...); !equalDecoded(got, c.want) {
				t.Errorf("byte by byte: decoded %+v, want %+v", got, c.want)
			}
		})
	}
}

func equalDecoded(a, b []decoded) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDecoderStats(t *testing.T) {
	var d Decoder
	decodeAll(t, &d, cat(odd("V"), []byte("V57"), flip7(odd("S"), 0), odd("W0")[:2], odd("X"), []byte("!")))
	want := DecoderStats{Messages: 2, Stray: 1, BadChecksum: 1, BadParity: 1, Broken: 1}
	if d.Stats != want {
		t.Errorf("stats %+v, want %+v", d.Stats, want)
	}
	if d.Stats.Dropped() != 3 {
		t.Errorf("dropped %d, want 3", d.Stats.Dropped())
	}
}

func TestDecodeErrorText(t *testing.T) {
	var msgs []string
	var d Decoder
	d.Feed(cat([]byte("V57"), odd("W0")[:2], odd("X"), flip7(odd("S"), 1)), func(_ []byte, err error) {
		if err != nil {
			msgs = append(msgs, err.Error())
		}
	})
	want := []string{
		`chesslink: message "V57" has check digits "57", want 56`,
		`chesslink: message "W0" broken off by 'X' after 2 of 7 characters`,
		`chesslink: message "S53" has bytes without odd parity`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseCommand(t *testing.T) {
	led := Command{Letter: CmdLEDs, LEDs: LEDPattern{SlotTime: 0x20}}
	led.LEDs.Codes[0], led.LEDs.Codes[80] = 0xFF, 0x0F
	cases := []struct {
		body string
		want Command
		err  string
	}{
		{body: "V", want: Command{Letter: 'V'}},
		{body: "W02A3", want: Command{Letter: 'W', Address: 2, Value: 0xA3}},
		{body: "R04", want: Command{Letter: 'R', Address: 4}},
		{body: "I0f", want: Command{Letter: 'I', Value: 0x0F}},
		{body: led.String(), want: led},
		{body: "", err: "chesslink: empty command"},
		{body: "Q", err: `chesslink: command "Q": want 0 characters for 'Q'`},
		{body: "W02", err: `chesslink: command "W02": want 5 characters for 'W'`},
		{body: "W0G03", err: `chesslink: command "W0G03": "0G" at character 2 is not two hex digits`},
	}
	for _, c := range cases {
		got, err := ParseCommand([]byte(c.body))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("ParseCommand(%q) error %v, want %q", c.body, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", c.body, got, err, c.want)
		}
		if s := string(got.AppendBody(nil)); !strings.EqualFold(s, c.body) {
			t.Errorf("AppendBody = %q, want %q", s, c.body)
		}
	}
}
