package led

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"time"

	"github.com/boardd/boardd/board"
)

// RenderOpts say how to draw a picture of the board and its LEDs.
type RenderOpts struct {
	// Square is the side of one square in pixels, 16 to 128; 0 means 32.
	Square int
	// Men are the men standing on the board, each drawn as a disc with its
	// letter (a white disc for White, a black one for Black); nil draws none.
	Men *[64]board.Man
}

// Picture colours besides the roles' own.
const (
	colMargin   = iota // around the board
	colLight           // light squares
	colDark            // dark squares
	colInk             // outlines, letters on white men
	colText            // coordinates and labels
	colWhiteMan        // a white man's disc
	colBlackMan        // a black man's disc
	colMono            // the one colour of a single-colour matrix
	colFixed
)

func fixedColours() [colFixed]RGB {
	return [colFixed]RGB{
		colMargin:   {255, 255, 255},
		colLight:    {240, 217, 181},
		colDark:     {181, 136, 99},
		colInk:      {0, 0, 0},
		colText:     {64, 64, 64},
		colWhiteMan: {250, 250, 250},
		colBlackMan: {40, 40, 40},
		colMono:     {255, 32, 32},
	}
}

// MonoColour is the colour the single-colour pictures draw a lit LED in:
// whatever colour the matrix's LEDs are, they have only one.
func MonoColour() RGB { return fixedColours()[colMono] }

// SquareColours returns the colours the pictures paint light and dark
// squares, so tests can tell a square's own colour from its LED's.
func SquareColours() (light, dark RGB) {
	c := fixedColours()
	return c[colLight], c[colDark]
}

// Render draws f as colour LEDs show it at time t: the board with its
// coordinates, and around each square lit at t a ring in its role's colour
// (Role.Colour), solid when the square is steady, in long dashes when it
// blinks slowly and short dashes when it blinks fast. A blinking square in
// the dark half of its period is drawn unlit, as the LED is.
func Render(f *Frame, t time.Duration, o RenderOpts) (*image.Paletted, error) {
	g, err := newGeometry(o)
	if err != nil {
		return nil, err
	}
	c := newCanvas(g.width, g.height)
	g.drawBoard(c, 0, 0, o.Men, func(sq board.Square) (RGB, Blink, bool) {
		if !f.Lit(sq, t) {
			return RGB{}, Steady, false
		}
		return f.Role[sq].Colour(), f.Blink[sq], true
	})
	return c.img, nil
}

// RenderMono draws what a single-colour 8x8 matrix (MAX7219, HT16K33) shows
// at time t: a solid ring in MonoColour around each square of Frame.Mono(t),
// nothing elsewhere. Role and blink rate are gone; only lit or dark remains.
func RenderMono(f *Frame, t time.Duration, o RenderOpts) (*image.Paletted, error) {
	g, err := newGeometry(o)
	if err != nil {
		return nil, err
	}
	c := newCanvas(g.width, g.height)
	g.drawMono(c, 0, f.Mono(t), o.Men)
	return c.img, nil
}

// MonoPhases returns the four moments of a blink cycle that tell on, off,
// slow and fast blink apart on a single-colour matrix, as offsets from the
// start of a slow period: both blinks lit, only the slow one, only the fast
// one, neither. A steady square is lit in all four.
func MonoPhases() [4]time.Duration {
	return [4]time.Duration{0, FastHalfPeriod, SlowHalfPeriod, SlowHalfPeriod + FastHalfPeriod}
}

// RenderMonoCycle draws RenderMono at the four MonoPhases of the slow period
// that holds t, side by side, each labelled with its offset in milliseconds:
// a steady square is lit in all four panels, a slow one in the first two, a
// fast one in the first and third.
func RenderMonoCycle(f *Frame, t time.Duration, o RenderOpts) (*image.Paletted, error) {
	g, err := newGeometry(o)
	if err != nil {
		return nil, err
	}
	start := t - t%(2*SlowHalfPeriod)
	gap := g.s / 2
	labelH := 7*g.text + 2*g.pad
	c := newCanvas(4*g.width+3*gap, g.height+labelH)
	for i, off := range MonoPhases() {
		ox := i * (g.width + gap)
		g.drawMono(c, ox, f.Mono(start+off), o.Men)
		label := strconv.FormatInt(off.Milliseconds(), 10) + " ms"
		x := ox + g.margin + (8*g.s-textWidth(label, g.text))/2
		c.text(x, g.height+g.pad, g.text, label, colText)
	}
	return c.img, nil
}

// RenderSwatch draws one square of side size (16 to 128 pixels; 0 means 32)
// lit in role r with blink b, for legends.
func RenderSwatch(r Role, b Blink, size int) (*image.Paletted, error) {
	g, err := newGeometry(RenderOpts{Square: size})
	if err != nil {
		return nil, err
	}
	if r >= roleCount {
		return nil, fmt.Errorf("led: render swatch: role %d does not exist", r)
	}
	c := newCanvas(g.s, g.s)
	g.drawSquare(c, 0, 0, true, r != Off, r.Colour(), b, board.NoMan)
	return c.img, nil
}

// geometry is the layout of one board picture.
type geometry struct {
	s             int // square side
	margin        int // left and bottom, for the coordinates
	pad           int // top and right
	text          int // scale of the 5x7 font
	width, height int
	manR          float64 // a man's disc
	ringIn        float64 // the LED ring
	ringOut       float64
}

func newGeometry(o RenderOpts) (geometry, error) {
	s := o.Square
	if s == 0 {
		s = 32
	}
	if s < 16 || s > 128 {
		return geometry{}, fmt.Errorf("led: render: square of %d pixels: expected 16 to 128", s)
	}
	g := geometry{s: s, margin: s * 5 / 8, pad: 4, text: max(1, s/16)}
	g.width = g.margin + 8*s + g.pad
	g.height = g.pad + 8*s + g.margin
	fs := float64(s)
	g.manR, g.ringIn, g.ringOut = 0.30*fs, 0.36*fs, 0.48*fs
	return g, nil
}

// drawBoard paints the squares, their LEDs (led says, per square, the ring's
// colour and blink and whether it is lit), the men and the coordinates, with
// the picture's top-left corner at (ox, oy).
func (g geometry) drawBoard(c *canvas, ox, oy int, men *[64]board.Man, led func(board.Square) (RGB, Blink, bool)) {
	for sq := board.Square(0); sq < 64; sq++ {
		x := ox + g.margin + sq.File()*g.s
		y := oy + g.pad + (7-sq.Rank())*g.s
		man := board.NoMan
		if men != nil {
			man = men[sq]
		}
		col, blink, lit := led(sq)
		g.drawSquare(c, x, y, (sq.File()+sq.Rank())%2 == 1, lit, col, blink, man)
	}
	for i := 0; i < 8; i++ {
		file := string(rune('a' + i))
		x := ox + g.margin + i*g.s + (g.s-textWidth(file, g.text))/2
		c.text(x, oy+g.pad+8*g.s+(g.margin-7*g.text)/2, g.text, file, colText)
		rank := string(rune('8' - i))
		c.text(ox+(g.margin-textWidth(rank, g.text))/2, oy+g.pad+i*g.s+(g.s-7*g.text)/2, g.text, rank, colText)
	}
}

func (g geometry) drawMono(c *canvas, ox int, lit board.Occupancy, men *[64]board.Man) {
	mono := MonoColour()
	g.drawBoard(c, ox, 0, men, func(sq board.Square) (RGB, Blink, bool) {
		return mono, Steady, lit.Has(sq)
	})
}

// drawSquare paints one square at (x, y): its colour, the LED ring when lit
// (outlined in black so that dim colours show on either square), and the man.
func (g geometry) drawSquare(c *canvas, x, y int, light, lit bool, ring RGB, blink Blink, man board.Man) {
	ground := c.fixed(colDark)
	if light {
		ground = c.fixed(colLight)
	}
	ringIdx := c.colour(ring)
	ink := c.fixed(colInk)
	disc := c.fixed(colWhiteMan)
	letterIdx := ink
	if man != board.NoMan && man.Color() == board.Black {
		disc, letterIdx = c.fixed(colBlackMan), c.fixed(colWhiteMan)
	}
	half := float64(g.s) / 2
	for py := 0; py < g.s; py++ {
		for px := 0; px < g.s; px++ {
			dx, dy := float64(px)+0.5-half, float64(py)+0.5-half
			r := math.Hypot(dx, dy)
			idx := ground
			switch {
			case man != board.NoMan && r <= g.manR-1:
				idx = disc
			case man != board.NoMan && r <= g.manR:
				idx = ink
			case lit && r >= g.ringIn-1 && r <= g.ringOut+1 && dashOn(blink, dx, dy):
				idx = ink
				if r >= g.ringIn && r <= g.ringOut {
					idx = ringIdx
				}
			}
			c.img.Pix[(y+py-c.img.Rect.Min.Y)*c.img.Stride+x+px-c.img.Rect.Min.X] = idx
		}
	}
	if man != board.NoMan {
		letter := string(man.Kind().Letter() - 0x20)
		scale := max(1, g.s/16)
		c.textIdx(x+(g.s-textWidth(letter, scale))/2, y+(g.s-7*scale)/2, scale, letter, letterIdx)
	}
}

// Dash patterns around the ring: slow blink in 8 segments (4 long dashes),
// fast blink in 20 (10 short dashes).
const (
	slowDashSegments = 8
	fastDashSegments = 20
)

// dashOn reports whether the ring is drawn at direction (dx, dy) from the
// square's centre for blink b.
func dashOn(b Blink, dx, dy float64) bool {
	n := 0
	switch b {
	case Slow:
		n = slowDashSegments
	case Fast:
		n = fastDashSegments
	default:
		return true
	}
	theta := math.Atan2(dy, dx)
	if theta < 0 {
		theta += 2 * math.Pi
	}
	seg := int(theta / (2 * math.Pi / float64(n)))
	return seg%2 == 0
}

// canvas is a paletted image with the picture colours and every role's.
type canvas struct {
	img   *image.Paletted
	index map[RGB]uint8
}

func newCanvas(w, h int) *canvas {
	c := &canvas{index: make(map[RGB]uint8)}
	var pal color.Palette
	add := func(col RGB) {
		if _, ok := c.index[col]; ok {
			return
		}
		c.index[col] = uint8(len(pal))
		pal = append(pal, color.RGBA{col.R, col.G, col.B, 255})
	}
	for _, col := range fixedColours() {
		add(col)
	}
	for _, col := range palette() {
		add(col)
	}
	c.img = image.NewPaletted(image.Rect(0, 0, w, h), pal) // index 0: the margin
	return c
}

func (c *canvas) fixed(i int) uint8 { return c.index[fixedColours()[i]] }

func (c *canvas) colour(col RGB) uint8 {
	if i, ok := c.index[col]; ok {
		return i
	}
	return c.fixed(colInk)
}

func textWidth(s string, scale int) int {
	if s == "" {
		return 0
	}
	return (6*len(s) - 1) * scale
}

func (c *canvas) text(x, y, scale int, s string, col int) {
	c.textIdx(x, y, scale, s, c.fixed(col))
}

// textIdx writes s in the 5x7 font scaled by scale, top-left at (x, y).
// Characters the font lacks are left blank.
func (c *canvas) textIdx(x, y, scale int, s string, idx uint8) {
	for i := 0; i < len(s); i++ {
		rows, ok := glyph(s[i])
		if !ok {
			continue
		}
		gx := x + i*6*scale
		for ry, row := range rows {
			for rx := 0; rx < len(row); rx++ {
				if row[rx] != '#' {
					continue
				}
				for sy := 0; sy < scale; sy++ {
					for sx := 0; sx < scale; sx++ {
						px, py := gx+rx*scale+sx, y+ry*scale+sy
						if image.Pt(px, py).In(c.img.Rect) {
							c.img.SetColorIndex(px, py, idx)
						}
					}
				}
			}
		}
	}
}
