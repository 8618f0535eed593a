package led

import (
	"fmt"
	"math"
	"time"

	"github.com/boardd/boardd/board"
)

// RetryAfter is how soon a sink whose last write failed asks to be shown its
// frame again.
const RetryAfter = 250 * time.Millisecond

// StripOpts configure a colour LED strip: which square each LED lies under,
// and how bright it shines.
type StripOpts struct {
	// Squares[i] is the square under LED i, counting from the strip's data
	// input; board.NoSquare for an LED under no square (a gap at a
	// serpentine turn, say). Every square must appear exactly once. nil
	// means 64 LEDs, LED i under square i.
	Squares []board.Square
	// Brightness scales every colour, in percent from 1 to 100; 0 means 100.
	Brightness int
	// Gamma is the exponent that maps palette values to LED duty: 1 (or 0)
	// drives the palette as is, 2.2 makes steps look even to the eye. A lit
	// channel never rounds down to dark.
	Gamma float64
}

// colour is the part every colour strip shares: the wiring order, the
// brightness and gamma table, the strip's bytes in wiring order (R, G, B
// per LED) and change detection.
type colour struct {
	squares []board.Square
	lut     [256]byte
	buf     []byte
	shown   [64]RGB
	pace    pacer
}

func newColour(o *StripOpts) (*colour, error) {
	if o == nil {
		o = &StripOpts{}
	}
	squares, err := checkOrder(o.Squares, true)
	if err != nil {
		return nil, err
	}
	b := o.Brightness
	if b == 0 {
		b = 100
	}
	if b < 1 || b > 100 {
		return nil, fmt.Errorf("brightness %d%%: expected 1 to 100", b)
	}
	g := o.Gamma
	if g == 0 {
		g = 1
	}
	if !(g >= 0.5 && g <= 4) {
		return nil, fmt.Errorf("gamma %g: expected 0.5 to 4", g)
	}
	c := &colour{squares: squares, buf: make([]byte, 3*len(squares))}
	for v := 1; v < 256; v++ {
		x := math.Round(255 * math.Pow(float64(v)/255, g) * float64(b) / 100)
		c.lut[v] = byte(max(x, 1))
	}
	c.pace.dirty = true
	return c, nil
}

// checkOrder validates a wiring order (nil: the identity over 64 LEDs).
// With gaps, board.NoSquare marks LEDs under no square.
func checkOrder(squares []board.Square, gaps bool) ([]board.Square, error) {
	if squares == nil {
		squares = make([]board.Square, 64)
		for i := range squares {
			squares[i] = board.Square(i)
		}
		return squares, nil
	}
	if !gaps && len(squares) != 64 {
		return nil, fmt.Errorf("wiring order names %d LEDs: expected 64", len(squares))
	}
	if len(squares) < 64 || len(squares) > 1024 {
		return nil, fmt.Errorf("wiring order names %d LEDs: expected 64 to 1024", len(squares))
	}
	var seen board.Occupancy
	for i, sq := range squares {
		if sq == board.NoSquare && gaps {
			continue
		}
		if !sq.Valid() {
			return nil, fmt.Errorf("wiring order: LED %d has no square (%d)", i, sq)
		}
		if seen.Has(sq) {
			return nil, fmt.Errorf("wiring order: square %s is given to two LEDs (the second is LED %d)", sq, i)
		}
		seen = seen.With(sq)
	}
	if seen != ^board.Occupancy(0) {
		missing := (^seen).Squares()
		return nil, fmt.Errorf("wiring order: no LED for square %s (%d squares missing)", missing[0], len(missing))
	}
	return append([]board.Square(nil), squares...), nil
}

// render works out the strip's bytes for f at t and reports whether they
// must be written: what is lit changed, or the last write failed.
func (c *colour) render(f *Frame, t time.Duration) bool {
	px := f.Pixels(t)
	if px == c.shown && !c.pace.dirty {
		return false
	}
	c.shown = px
	for i, sq := range c.squares {
		var p RGB
		if sq != board.NoSquare {
			p = px[sq]
		}
		c.buf[3*i], c.buf[3*i+1], c.buf[3*i+2] = c.lut[p.R], c.lut[p.G], c.lut[p.B]
	}
	return true
}

// pacer keeps a sink's deadline: the frame's next blink edge, or a retry
// after a failed write.
type pacer struct {
	due   time.Duration
	ok    bool
	dirty bool // the hardware may not show what the sink last meant
}

// after records a Show of f at t whose write (if any) returned err.
func (p *pacer) after(f *Frame, t time.Duration, err error) {
	p.due, p.ok = f.NextEdge(t)
	p.dirty = err != nil
	if err != nil {
		if r := t + RetryAfter; !p.ok || r < p.due {
			p.due, p.ok = r, true
		}
	}
}

// halted marks the hardware dark: the next Show writes whatever it shows.
func (p *pacer) halted() { *p = pacer{dirty: true} }
