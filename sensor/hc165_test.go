package sensor

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/spi/spitest"
)

// occ builds an occupancy from square names.
func occ(t testing.TB, names ...string) board.Occupancy {
	t.Helper()
	var o board.Occupancy
	for _, n := range names {
		sq, err := board.ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		o = o.With(sq)
	}
	return o
}

// reversed is the wiring order of a chain whose input 0 is h8.
func reversed() []board.Square {
	s := make([]board.Square, 64)
	for i := range s {
		s[i] = board.Square(63 - i)
	}
	return s
}

func zeros(n int) []byte { return make([]byte, n) }

func TestHC165Scan(t *testing.T) {
	allHigh := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}
	cases := []struct {
		name  string
		opts  HC165Opts
		reply []byte
		want  board.Occupancy
	}{
		{"empty board, active low", HC165Opts{ActiveLow: true}, allHigh, 0},
		{"a1 and h1 pull chip 0's A and H low", HC165Opts{ActiveLow: true},
			[]byte{0x7E, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, occ(t, "a1", "h1")},
		{"chip 7 input C is c8", HC165Opts{ActiveLow: true},
			[]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFB}, occ(t, "c8")},
		{"check byte read and passed", HC165Opts{ActiveLow: true, Check: true},
			[]byte{0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00}, occ(t, "a2")},
		{"active high", HC165Opts{},
			[]byte{0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x01}, occ(t, "h4", "a8")},
		{"wiring order reversed", HC165Opts{ActiveLow: true, Squares: reversed()},
			[]byte{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}, occ(t, "h8", "a1")},
		{"two chips cover ranks 1 and 2", HC165Opts{ActiveLow: true, Chips: 2},
			[]byte{0xFF, 0x0F}, occ(t, "e2", "f2", "g2", "h2")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{
				{W: zeros(len(c.reply)), R: c.reply},
			}}}
			defer func() {
				if err := pb.Close(); err != nil {
					t.Error(err)
				}
			}()
			j := &journal{}
			load := newOutPin("LD", j)
			c.opts.Load = load
			h, err := NewHC165(&faultySPI{Port: pb, j: j}, &c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var f Frame
			if err := h.Scan(&f); err != nil {
				t.Fatal(err)
			}
			if f.Occupancy != c.want {
				t.Errorf("occupancy %v, want %v", f.Occupancy.SquareNames(), c.want.SquareNames())
			}
			if f.Analog != nil {
				t.Errorf("digital scan has analog readings %v", f.Analog)
			}
			// New parks the load pin high; a scan pulses it low, then
			// transfers.
			if got, want := j.String(), "LD=H LD=L LD=H tx"; got != want {
				t.Errorf("bus order %q, want %q", got, want)
			}
		})
	}
}

func TestHC165Faults(t *testing.T) {
	cases := []struct {
		name string
		ops  []conntest.IO
		fail map[int]bool
		want string // in the error of the first scan
	}{
		{"chain unpowered: MISO pulled up reads 0xFF in the check byte",
			[]conntest.IO{{W: zeros(9), R: []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}}},
			nil, "check byte reads 0xff, expected 0x00: chain broken"},
		{"chip stops answering: the port has nothing more to say",
			nil, nil, "74hc165: read"},
		{"bus error on the transfer", []conntest.IO{}, map[int]bool{0: true}, "remote I/O error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := &spitest.Playback{Playback: conntest.Playback{Ops: c.ops, DontPanic: true}}
			defer func() {
				if err := pb.Close(); err != nil {
					t.Error(err)
				}
			}()
			h, err := NewHC165(&faultySPI{Port: pb, fail: c.fail}, &HC165Opts{Load: newOutPin("LD", nil), ActiveLow: true, Check: true})
			if err != nil {
				t.Fatal(err)
			}
			f := Frame{Occupancy: occ(t, "e4")}
			err = h.Scan(&f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if f.Occupancy != occ(t, "e4") {
				t.Errorf("a failed scan changed the frame to %v", f.Occupancy.SquareNames())
			}
		})
	}
}

func TestHC165LoadPinFault(t *testing.T) {
	pb := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
	load := newOutPin("LD", nil)
	h, err := NewHC165(pb, &HC165Opts{Load: load})
	if err != nil {
		t.Fatal(err)
	}
	load.fail = true
	if err := h.Scan(&Frame{}); err == nil || !strings.Contains(err.Error(), "latch") {
		t.Errorf("error %v, want a latch error", err)
	}
	if err := pb.Close(); err != nil {
		t.Errorf("a scan whose latch failed still touched the bus: %v", err)
	}
}

func TestNewHC165Refuses(t *testing.T) {
	dup := make([]board.Square, 64)
	for i := range dup {
		dup[i] = board.Square(i)
	}
	dup[9] = 8
	cases := []struct {
		name string
		opts *HC165Opts
		want string
	}{
		{"no options", nil, "no load pin"},
		{"no load pin", &HC165Opts{}, "no load pin"},
		{"nine chips", &HC165Opts{Load: newOutPin("LD", nil), Chips: 9}, "9 chips: expected 1 to 8"},
		{"square twice", &HC165Opts{Load: newOutPin("LD", nil), Squares: dup}, "square a2 is given to two inputs"},
		{"short order", &HC165Opts{Load: newOutPin("LD", nil), Squares: dup[:10]}, "names 10 squares: expected one for each of the 64"},
		{"invalid square", &HC165Opts{Load: newOutPin("LD", nil), Chips: 1, Squares: []board.Square{0, 1, 2, 3, 4, 5, 6, 64}}, "input 7 has no square"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
			_, err := NewHC165(pb, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func BenchmarkHC165Scan(b *testing.B) {
	port := &fillSPI{reply: func(w, r []byte) {
		for i := range r {
			r[i] = 0xF0
		}
		r[len(r)-1] = 0
	}}
	h, err := NewHC165(port, &HC165Opts{Load: newOutPin("LD", nil), ActiveLow: true, Check: true, Squares: reversed()})
	if err != nil {
		b.Fatal(err)
	}
	var f Frame
	b.ReportAllocs()
	for b.Loop() {
		if err := h.Scan(&f); err != nil {
			b.Fatal(err)
		}
	}
}
