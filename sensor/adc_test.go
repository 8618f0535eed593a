package sensor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/spi/spitest"
)

// mcp3008IO is one conversion of channel ch reading v. The reply's top bits
// (high impedance on the wire) read as ones to show they are masked off.
func mcp3008IO(ch int, v uint16) conntest.IO {
	return conntest.IO{W: []byte{0x01, 0x80 | byte(ch)<<4, 0x00}, R: []byte{0xFF, 0xF8 | byte(v>>8), byte(v)}}
}

func mcp3208IO(ch int, v uint16) conntest.IO {
	return conntest.IO{W: []byte{0x06 | byte(ch>>2), byte(ch&3) << 6, 0x00}, R: []byte{0xFF, 0xE0 | byte(v>>8), byte(v)}}
}

func TestADCMCP3008(t *testing.T) {
	values := []uint16{512, 700, 300, 600, 1023, 0, 511, 384}
	var ops []conntest.IO
	for ch, v := range values {
		ops = append(ops, mcp3008IO(ch, v))
	}
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: ops}}
	defer func() {
		if err := pb.Close(); err != nil {
			t.Error(err)
		}
	}()
	a, err := NewADC(pb, &ADCOpts{Chip: MCP3008, Squares: []board.Square{0, 1, 2, 3, 4, 5, 6, 7}})
	if err != nil {
		t.Fatal(err)
	}
	var f Frame
	if err := a.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if len(f.Analog) != 64 {
		t.Fatalf("%d analog readings, want 64", len(f.Analog))
	}
	for ch, v := range values {
		if f.Analog[ch] != v {
			t.Errorf("square %s reads %d, want %d", board.Square(ch), f.Analog[ch], v)
		}
	}
	// Quiet 512, threshold 128: 700, 300, 1023, 0 and 384 stray further.
	if want := occ(t, "b1", "c1", "e1", "f1"); f.Occupancy != want {
		t.Errorf("occupancy %v, want %v", f.Occupancy.SquareNames(), want.SquareNames())
	}
}

func TestADCMCP3208ChipSelects(t *testing.T) {
	j := &journal{}
	cs := []gpio.PinOut{newOutPin("CS0", j), newOutPin("CS1", j)}
	var ops []conntest.IO
	var want []string
	for chip := 0; chip < 2; chip++ {
		for ch := 0; ch < 8; ch++ {
			v := uint16(2048)
			if chip == 1 && ch == 6 {
				v = 3500 // a white man's south pole
			}
			if chip == 0 && ch == 2 {
				v = 600 // a black man's north pole
			}
			ops = append(ops, mcp3208IO(ch, v))
			want = append(want, fmt.Sprintf("CS%d=L tx CS%d=H", chip, chip))
		}
	}
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: ops}}
	defer func() {
		if err := pb.Close(); err != nil {
			t.Error(err)
		}
	}()
	// Chip 0 reads rank 8 from h8 back, chip 1 rank 7 likewise.
	squares := make([]board.Square, 16)
	for i := range squares {
		squares[i] = board.Square(63 - i)
	}
	a, err := NewADC(&faultySPI{Port: pb, j: j}, &ADCOpts{Chip: MCP3208, ChipSelects: cs, Squares: squares})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.String(); got != "CS0=H CS1=H" {
		t.Errorf("New: %q, want both chip selects parked high", got)
	}
	j.reset()
	var f Frame
	if err := a.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if got := j.String(); got != strings.Join(want, " ") {
		t.Errorf("transactions\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	if want := occ(t, "f8", "b7"); f.Occupancy != want {
		t.Errorf("occupancy %v, want %v", f.Occupancy.SquareNames(), want.SquareNames())
	}
	if f.Analog[board.NewSquare(1, 6)] != 3500 || f.Analog[board.NewSquare(5, 7)] != 600 || f.Analog[63] != 2048 {
		t.Errorf("readings b7 %d f8 %d h8 %d", f.Analog[board.NewSquare(1, 6)], f.Analog[board.NewSquare(5, 7)], f.Analog[63])
	}
}

func TestADCFaults(t *testing.T) {
	cases := []struct {
		name string
		ops  []conntest.IO
		fail map[int]bool
		want string
	}{
		{"chip absent: MISO pulled up, no null bit",
			[]conntest.IO{{W: []byte{0x01, 0x80, 0x00}, R: []byte{0xFF, 0xFF, 0xFF}}}, nil,
			"mcp3008 chip 0 channel 0: no null bit in reply ff ff ff: chip not answering"},
		{"chip stops answering after channel 2",
			[]conntest.IO{mcp3008IO(0, 1), mcp3008IO(1, 2), mcp3008IO(2, 3)}, nil, "chip 0 channel 3: read"},
		{"bus error on channel 5",
			[]conntest.IO{mcp3008IO(0, 1), mcp3008IO(1, 2), mcp3008IO(2, 3), mcp3008IO(3, 4), mcp3008IO(4, 5)},
			map[int]bool{5: true}, "channel 5: read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pb := &spitest.Playback{Playback: conntest.Playback{Ops: c.ops, DontPanic: true}}
			a, err := NewADC(&faultySPI{Port: pb, fail: c.fail}, &ADCOpts{Chip: MCP3008})
			if err != nil {
				t.Fatal(err)
			}
			f := Frame{Occupancy: 5}
			err = a.Scan(&f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if f.Occupancy != 5 {
				t.Error("a failed scan changed the occupancy")
			}
			if err := pb.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestNewADCRefuses(t *testing.T) {
	nine := make([]gpio.PinOut, 9)
	cases := []struct {
		name string
		opts *ADCOpts
		want string
	}{
		{"no chip", &ADCOpts{}, "expected mcp3008 or mcp3208"},
		{"nine chips", &ADCOpts{Chip: MCP3008, ChipSelects: nine}, "9 chip selects: expected at most 8"},
		{"missing chip select", &ADCOpts{Chip: MCP3008, ChipSelects: nine[:2]}, "chip select 0 is missing"},
		{"quiet beyond 10 bits", &ADCOpts{Chip: MCP3008, Quiet: 1024}, "quiet reading 1024: expected less than 1024"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewADC(&spitest.Playback{}, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func BenchmarkADCScan(b *testing.B) {
	for _, chip := range []ADCChip{MCP3008, MCP3208} {
		b.Run(chip.String(), func(b *testing.B) {
			port := &fillSPI{reply: func(w, r []byte) { r[0], r[1], r[2] = 0, 0x01, 0x80 }}
			cs := make([]gpio.PinOut, 8)
			for i := range cs {
				cs[i] = newOutPin(fmt.Sprintf("CS%d", i), nil)
			}
			a, err := NewADC(port, &ADCOpts{Chip: chip, ChipSelects: cs})
			if err != nil {
				b.Fatal(err)
			}
			var f Frame
			b.ReportAllocs()
			for b.Loop() {
				if err := a.Scan(&f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
