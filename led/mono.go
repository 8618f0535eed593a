package led

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// MatrixOpts configure a single-colour 8x8 LED matrix driver (MAX7219,
// HT16K33): which square each of its 64 LEDs lies under, and how bright.
// LED i is the driver's line i/8 (a digit or common) and bit i%8 of it; each
// driver's doc says which pins those are.
type MatrixOpts struct {
	// Squares[i] is the square under LED i; nil means LED i is square i.
	// Every square must appear exactly once.
	Squares []board.Square
	// Brightness is in percent, 1 to 100, mapped onto the chip's 16 steps
	// (1% is the chip's dimmest, still lit); 0 means 100.
	Brightness int
}

// mono is what single-colour matrices share: the wiring order, the eight
// line bytes last written and change detection. Roles show through
// Frame.Mono: on, off, slow and fast blink.
type mono struct {
	squares []board.Square
	lit     board.Occupancy // what the LEDs show
	lines   [8]byte         // what each line was last written
	pace    pacer
}

func newMono(o *MatrixOpts) (*mono, int, error) {
	if o == nil {
		o = &MatrixOpts{}
	}
	squares, err := checkOrder(o.Squares, false)
	if err != nil {
		return nil, 0, err
	}
	b := o.Brightness
	if b == 0 {
		b = 100
	}
	if b < 1 || b > 100 {
		return nil, 0, fmt.Errorf("brightness %d%%: expected 1 to 100", b)
	}
	m := &mono{squares: squares}
	m.pace.dirty = true
	return m, (b*15 + 50) / 100, nil // 1..100% onto steps 0..15
}

// render works out the line bytes for f at t; changed reports whether
// anything must be written.
func (m *mono) render(f *Frame, t time.Duration) (lines [8]byte, changed bool) {
	lit := f.Mono(t)
	if lit == m.lit && !m.pace.dirty {
		return m.lines, false
	}
	for i, sq := range m.squares {
		if lit.Has(sq) {
			lines[i/8] |= 1 << (i % 8)
		}
	}
	m.lit = lit
	return lines, true
}
