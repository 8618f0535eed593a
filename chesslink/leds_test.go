package chesslink

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// TestLEDNumbering pins the corners of the LEDs the protocol description
// names (LED 1 at a8, 9 at a1, 73 at h8, 81 at h1, counting from a8) and the
// same LEDs counted from h1.
func TestLEDNumbering(t *testing.T) {
	cases := []struct {
		o    Orientation
		led  int // 1 to 81
		x, y int
	}{
		{FromA8, 1, 0, 8}, {FromA8, 9, 0, 0}, {FromA8, 73, 8, 8}, {FromA8, 81, 8, 0}, {FromA8, 41, 4, 4},
		{FromH1, 1, 8, 0}, {FromH1, 9, 8, 8}, {FromH1, 73, 0, 0}, {FromH1, 81, 0, 8}, {FromH1, 41, 4, 4},
	}
	for _, c := range cases {
		p := LEDPattern{Orientation: c.o}
		p.Codes[c.led-1] = 0x5A
		for x := range 9 {
			for y := range 9 {
				want := uint8(0)
				if x == c.x && y == c.y {
					want = 0x5A
				}
				if got := p.Corner(x, y); got != want {
					t.Errorf("%s LED %d: Corner(%d,%d) = %02X, want %02X", c.o, c.led, x, y, got, want)
				}
			}
		}
	}
}

// TestLightSquareIndices checks LightSquare against the wire indices apps
// use: counting from h1, h1's corners are LEDs 0, 1, 9, 10 (0-based) and
// a8's 70, 71, 79, 80 (as the chesslinkdriver package lights them); from a8,
// a1's are 7, 8, 16, 17 (as DGT Centaur mods reads them).
func TestLightSquareIndices(t *testing.T) {
	cases := []struct {
		o      Orientation
		square string
		want   []int
	}{
		{FromH1, "h1", []int{0, 1, 9, 10}},
		{FromH1, "a8", []int{70, 71, 79, 80}},
		{FromH1, "e4", []int{30, 31, 39, 40}},
		{FromA8, "a8", []int{0, 1, 9, 10}},
		{FromA8, "a1", []int{7, 8, 16, 17}},
		{FromA8, "b1", []int{16, 17, 25, 26}},
	}
	for _, c := range cases {
		p := LEDPattern{Orientation: c.o}
		p.LightSquare(sq(t, c.square), 0xFF)
		var got []int
		for i, code := range p.Codes {
			if code != 0 {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %s lights %v, want %v", c.o, c.square, got, c.want)
		}
	}
}

func squareNames(o board.Occupancy) string { return strings.Join(o.SquareNames(), " ") }

func TestSquares(t *testing.T) {
	type lit struct {
		square string
		code   uint8
	}
	cases := []struct {
		name  string
		lit   []lit
		all   uint8 // every LED set to this code (instead of lit)
		want  string
		codes map[string]uint8
	}{
		{name: "dark", want: ""},
		{name: "one square", lit: []lit{{"e4", 0xFF}}, want: "e4", codes: map[string]uint8{"e4": 0xFF}},
		{name: "corner square", lit: []lit{{"a1", 0xF0}}, want: "a1"},
		{name: "double step, from and to in two codes", lit: []lit{{"e2", 0xCC}, {"e4", 0x33}}, want: "e2 e4",
			codes: map[string]uint8{"e2": 0xCC, "e4": 0x33, "e3": 0}},
		{name: "double step, same code", lit: []lit{{"e2", 0xFF}, {"e4", 0xFF}}, want: "e2 e4"},
		{name: "double step, overlapping codes", lit: []lit{{"d7", 0xFF}, {"d5", 0xAA}}, want: "d5 d7"},
		{name: "adjacent squares share corners", lit: []lit{{"e2", 0xCC}, {"e3", 0x33}}, want: "e2 e3",
			codes: map[string]uint8{"e2": 0xCC, "e3": 0x33}},
		{name: "adjacent squares, same code", lit: []lit{{"d1", 0xFF}, {"d2", 0xFF}}, want: "d1 d2"},
		{name: "knight move", lit: []lit{{"g1", 0xFF}, {"f3", 0xFF}}, want: "g1 f3"},
		{name: "diagonal", lit: []lit{{"c1", 0xFF}, {"e3", 0xFF}}, want: "c1 e3"},
		{name: "castling king squares", lit: []lit{{"e1", 0xFF}, {"g1", 0xFF}}, want: "e1 g1"},
		{name: "castling all four squares", lit: []lit{{"e1", 0xFF}, {"f1", 0xFF}, {"g1", 0xFF}, {"h1", 0xFF}}, want: "e1 f1 g1 h1"},
		{name: "rook along the a-file", lit: []lit{{"a1", 0xFF}, {"a3", 0xFF}}, want: "a1 a3"},
		{name: "a block of four", lit: []lit{{"d4", 0xFF}, {"e4", 0xFF}, {"d5", 0xFF}, {"e5", 0xFF}}, want: "d4 e4 d5 e5"},
		{name: "two moves shown", lit: []lit{{"b1", 0xFF}, {"c3", 0xFF}, {"g8", 0x0F}, {"f6", 0x0F}}, want: "b1 c3 f6 g8"},
		{name: "every LED on", all: 0xFF, want: squareNames(board.Occupancy(^uint64(0)))},
		{name: "edge LEDs only", lit: nil, want: ""},
	}
	for _, o := range []Orientation{FromH1, FromA8} {
		for _, c := range cases {
			t.Run(o.String()+"/"+c.name, func(t *testing.T) {
				p := LEDPattern{Orientation: o}
				for i := range p.Codes {
					p.Codes[i] = c.all
				}
				for _, l := range c.lit {
					p.LightSquare(sq(t, l.square), l.code)
				}
				if c.name == "edge LEDs only" {
					for x := range 9 {
						p.SetCorner(x, 0, 0xFF)
						p.SetCorner(0, x, 0xFF)
					}
				}
				if got := squareNames(p.Lit()); got != c.want {
					t.Errorf("lit %q, want %q", got, c.want)
				}
				codes := p.Squares()
				for name, want := range c.codes {
					if got := codes[sq(t, name)]; got != want {
						t.Errorf("%s code %02X, want %02X", name, got, want)
					}
				}
			})
		}
	}
}

func TestLitAt(t *testing.T) {
	p := LEDPattern{SlotTime: 0x20}
	p.LightSquare(sq(t, "g1"), 0xCC) // on, on, off, off, ...
	p.LightSquare(sq(t, "f3"), 0x33) // off, off, on, on, ...
	slot := p.Slot()
	if slot != 131072*time.Microsecond {
		t.Fatalf("slot %v, want 131.072ms", slot)
	}
	cases := []struct {
		at   time.Duration
		want string
	}{
		{0, "g1"}, {slot - 1, "g1"}, {slot, "g1"}, {2 * slot, "f3"}, {3*slot + slot/2, "f3"},
		{4 * slot, "g1"}, {6 * slot, "f3"}, {8 * slot, "g1"}, {-time.Second, "g1"},
	}
	for _, c := range cases {
		if got := squareNames(p.LitAt(c.at)); got != c.want {
			t.Errorf("LitAt(%v) = %q, want %q", c.at, got, c.want)
		}
	}
	if z := (LEDPattern{}); z.Slot() != SlotUnit || !z.Dark() {
		t.Errorf("zero pattern: slot %v, dark %v", z.Slot(), z.Dark())
	}
	if p.Dark() {
		t.Error("a lit pattern is dark")
	}
}
