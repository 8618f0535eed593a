package chesslink

import (
	"time"

	"github.com/boardd/boardd/board"
)

// LEDCount is the number of LEDs the protocol drives: a 9 by 9 grid, one at
// every corner where four squares meet (and along the edges).
const LEDCount = 81

// SlotUnit is the unit of the LED command's slot time.
const SlotUnit = 4096 * time.Microsecond

// LEDPattern is what an app asked the board's 81 corner LEDs to show. Each
// LED has an 8-bit code: its on/off state in eight time slots, bit 7 first,
// repeating (0xFF steady on, 0x00 off, 0xF0 slow blink, 0xAA fast blink).
// The zero value is all dark.
type LEDPattern struct {
	// SlotTime is how long each bit of a code lasts, in units of SlotUnit
	// (4.096 ms); 0 is read as 1.
	SlotTime uint8
	// Codes are the LED codes as they came over the wire, LED 1 first.
	Codes [LEDCount]uint8
	// Orientation is the corner the codes count from.
	Orientation Orientation
	// Brightness is the board's brightness register (04) when the pattern
	// was set: 0 dim, 15 and above full.
	Brightness uint8
}

// ledIndex returns the wire index (0 to 80) of the LED at corner (x, y): x the
// file edge from 0 (left of the a-file) to 8 (right of the h-file), y the rank
// edge from 0 (below the first rank) to 8 (above the eighth).
func (o Orientation) ledIndex(x, y int) int {
	if o == FromA8 {
		return x*9 + 8 - y
	}
	return (8-x)*9 + y
}

// Corner returns the code of the LED at corner (x, y): x the file edge from
// 0 (left of the a-file) to 8 (right of the h-file), y the rank edge from 0
// (below the first rank) to 8 (above the eighth). Square s has its corners at
// (s.File(), s.Rank()) to (s.File()+1, s.Rank()+1). Out of range it is 0.
func (p *LEDPattern) Corner(x, y int) uint8 {
	if x < 0 || x > 8 || y < 0 || y > 8 {
		return 0
	}
	return p.Codes[p.Orientation.ledIndex(x, y)]
}

// SetCorner sets the code of the LED at corner (x, y), as Corner counts
// them.
func (p *LEDPattern) SetCorner(x, y int, code uint8) {
	if x < 0 || x > 8 || y < 0 || y > 8 {
		return
	}
	p.Codes[p.Orientation.ledIndex(x, y)] = code
}

// LightSquare sets the four corner LEDs of s to code, OR-ed with what they
// already show: how apps light a square (a corner shared with a square lit
// before keeps both codes).
func (p *LEDPattern) LightSquare(s board.Square, code uint8) {
	f, r := s.File(), s.Rank()
	for dx := range 2 {
		for dy := range 2 {
			p.SetCorner(f+dx, r+dy, p.Corner(f+dx, r+dy)|code)
		}
	}
}

// Slot returns the length of one time slot.
func (p *LEDPattern) Slot() time.Duration {
	return time.Duration(max(p.SlotTime, 1)) * SlotUnit
}

// Dark reports whether every LED is off.
func (p *LEDPattern) Dark() bool { return p.Codes == [LEDCount]uint8{} }

// rawSquare returns the code of square s on its own: the time slots in which
// all four of its corners are lit.
func (p *LEDPattern) rawSquare(s board.Square) uint8 {
	f, r := s.File(), s.Rank()
	return p.Corner(f, r) & p.Corner(f+1, r) & p.Corner(f, r+1) & p.Corner(f+1, r+1)
}

// Squares maps the corner LEDs onto boardd's 64 square LEDs: each square's
// code (indexed by board.Square, a1 = 0), 0 for a dark square.
//
// A square shows the time slots in which all four of its corners are lit.
// Apps light a square by lighting its four corners (every driver and capture
// seen does), so a square lit alone comes out whole, and the neighbours that
// share one or two of its corners stay dark; lighting a square when any
// corner is lit would light its eight neighbours too. Apps show a move by
// lighting its from and to squares, often in two different codes (0xCC and
// 0x33, or 0x0F and 0xF0) with the shared corners OR-ed: taking the slots in
// which all four corners are lit gives each square its own code back, and a
// square between the two that shares two corners with each stays dark.
//
// One picture is ambiguous: three squares in a line whose codes overlap (a
// pawn's double step e2-e4 shown in 0xFF and 0xAA lights all four corners of
// e3 in the slots of 0xAA). The middle square of such a line of exactly three, with nothing lit
// beyond its ends, is read as not lit: it is far likelier to be the gap of a
// two-square move than a three-square path, and its four corners are
// already accounted for by its neighbours.
func (p *LEDPattern) Squares() [64]uint8 {
	var raw, out [64]uint8
	for s := range board.Square(64) {
		raw[s] = p.rawSquare(s)
	}
	out = raw
	lit := func(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 && raw[board.NewSquare(f, r)] != 0 }
	for s := range board.Square(64) {
		if raw[s] == 0 {
			continue
		}
		f, r := s.File(), s.Rank()
		for _, d := range [2][2]int{{1, 0}, {0, 1}} {
			dx, dy := d[0], d[1]
			if lit(f-dx, r-dy) && lit(f+dx, r+dy) && !lit(f-2*dx, r-2*dy) && !lit(f+2*dx, r+2*dy) {
				out[s] = 0
			}
		}
	}
	return out
}

// Lit returns the squares Squares shows lit in any time slot.
func (p *LEDPattern) Lit() board.Occupancy {
	var o board.Occupancy
	for s, code := range p.Squares() {
		if code != 0 {
			o = o.With(board.Square(s))
		}
	}
	return o
}

// LitAt returns the squares Squares shows lit at time t after the pattern
// was set: slot t/Slot() (mod 8), bit 7 first.
func (p *LEDPattern) LitAt(t time.Duration) board.Occupancy {
	if t < 0 {
		t = 0
	}
	bit := uint8(0x80) >> (uint64(t/p.Slot()) % 8)
	var o board.Occupancy
	for s, code := range p.Squares() {
		if code&bit != 0 {
			o = o.With(board.Square(s))
		}
	}
	return o
}
