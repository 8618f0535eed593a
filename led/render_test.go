package led

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

func rgbAt(img *image.Paletted, x, y int) RGB {
	c := img.Palette[img.ColorIndexAt(x, y)].(color.RGBA)
	return RGB{c.R, c.G, c.B}
}

// squareOrigin returns the top-left pixel of square sq in a picture of
// geometry g whose board starts ox pixels from the left.
func squareOrigin(g geometry, ox int, sq board.Square) (int, int) {
	return ox + g.margin + sq.File()*g.s, g.pad + (7-sq.Rank())*g.s
}

// countIn counts the pixels of colour col in square sq.
func countIn(img *image.Paletted, g geometry, ox int, sq board.Square, col RGB) int {
	x0, y0 := squareOrigin(g, ox, sq)
	n := 0
	for y := y0; y < y0+g.s; y++ {
		for x := x0; x < x0+g.s; x++ {
			if rgbAt(img, x, y) == col {
				n++
			}
		}
	}
	return n
}

// ringPixel returns the colour of the pixel in the middle of the LED ring of
// square sq, at angle theta (radians, clockwise from the right, as the
// picture's y axis points down).
func ringPixel(img *image.Paletted, g geometry, ox int, sq board.Square, theta float64) RGB {
	x0, y0 := squareOrigin(g, ox, sq)
	r := (g.ringIn + g.ringOut) / 2
	half := float64(g.s) / 2
	x := x0 + int(math.Floor(half+r*math.Cos(theta)))
	y := y0 + int(math.Floor(half+r*math.Sin(theta)))
	return rgbAt(img, x, y)
}

func TestRenderLitSquareHasItsRoleColourInTheRing(t *testing.T) {
	light, dark := SquareColours()
	const ms = time.Millisecond
	slowGap := 1.5 * 2 * math.Pi / slowDashSegments // the middle of the first gap
	fastGap := 1.5 * 2 * math.Pi / fastDashSegments
	for _, c := range []struct {
		name  string
		role  Role
		blink Blink
		t     time.Duration
		lit   bool
		gap   float64 // an angle where a dashed ring has a gap (0: solid ring)
	}{
		{"must-move steady", MustMove, Steady, 0, true, 0},
		{"must-move steady later", MustMove, Steady, 625 * ms, true, 0},
		{"destination slow, first half", Destination, Slow, 0, true, slowGap},
		{"destination slow, end of first half", Destination, Slow, 499 * ms, true, slowGap},
		{"destination slow, second half", Destination, Slow, 500 * ms, false, 0},
		{"destination slow, next period", Destination, Slow, 1000 * ms, true, slowGap},
		{"extra fast, first quarter", Extra, Fast, 0, true, fastGap},
		{"extra fast, dark eighth", Extra, Fast, 125 * ms, false, 0},
		{"extra fast, lit again", Extra, Fast, 250 * ms, true, fastGap},
		{"fault fast, dark", Fault, Fast, 375 * ms, false, 0},
		{"last-move dim", LastMove, Steady, 0, true, 0},
		{"touched dim", Touched, Steady, 0, true, 0},
		{"option-6 pale", Option6, Slow, 0, true, slowGap},
		{"winner", Winner, Steady, 0, true, 0},
		{"off", Off, Steady, 0, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f Frame
			e4, d4 := sq("e4"), sq("d4")
			f.Set(e4, c.role, c.blink)
			img, err := Render(&f, c.t, RenderOpts{})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := newGeometry(RenderOpts{})
			want := c.role.Colour()
			n := countIn(img, g, 0, e4, want)
			if c.lit && (n == 0 || ringPixel(img, g, 0, e4, 0.05) != want) {
				t.Errorf("e4 lit as %s: %d pixels of %v, ring at 0 rad %v", c.role, n, want, ringPixel(img, g, 0, e4, 0.05))
			}
			if !c.lit && c.role != Off && n != 0 {
				t.Errorf("e4 dark: %d pixels of %v", n, want)
			}
			if !c.lit {
				// A dark square shows only its own colour.
				if got := countIn(img, g, 0, e4, light); got != g.s*g.s {
					t.Errorf("e4 dark: %d of %d pixels light-square colour", got, g.s*g.s)
				}
			}
			if c.lit && c.gap != 0 {
				if got := ringPixel(img, g, 0, e4, c.gap); got != light {
					t.Errorf("%s ring at %.2f rad is %v, want a gap (%v)", c.blink, c.gap, got, light)
				}
			}
			if c.lit && c.gap == 0 {
				for _, a := range []float64{slowGap, fastGap} {
					if got := ringPixel(img, g, 0, e4, a); got != want {
						t.Errorf("steady ring at %.2f rad is %v, want %v", a, got, want)
					}
				}
			}
			if got := countIn(img, g, 0, d4, dark); got != g.s*g.s {
				t.Errorf("d4, off: %d of %d pixels dark-square colour", got, g.s*g.s)
			}
		})
	}
}

func TestRenderMonoShowsOnlyWhatTheMatrixLights(t *testing.T) {
	const ms = time.Millisecond
	mono := MonoColour()
	for _, c := range []struct {
		name  string
		blink Blink
		t     time.Duration
		lit   bool
	}{
		{"steady", Steady, 625 * ms, true},
		{"slow on", Slow, 100 * ms, true},
		{"slow off", Slow, 600 * ms, false},
		{"fast on", Fast, 260 * ms, true},
		{"fast off", Fast, 130 * ms, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f Frame
			f.Set(sq("c6"), Touched, c.blink)
			img, err := RenderMono(&f, c.t, RenderOpts{Square: 24})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := newGeometry(RenderOpts{Square: 24})
			if n := countIn(img, g, 0, sq("c6"), mono); (n > 0) != c.lit {
				t.Errorf("c6: %d pixels of the matrix colour, want lit %v", n, c.lit)
			}
			if n := countIn(img, g, 0, sq("c6"), Touched.Colour()); n != 0 {
				t.Errorf("c6: %d pixels of the role's colour on a single-colour matrix", n)
			}
			if c.lit && ringPixel(img, g, 0, sq("c6"), 1.5*2*math.Pi/fastDashSegments) != mono {
				t.Error("a lit LED of a matrix is drawn dashed; want a solid ring")
			}
		})
	}
}

func TestRenderMonoCycleShowsEachRateInItsPanels(t *testing.T) {
	var f Frame
	steady, slow, fast, off := sq("a1"), sq("b2"), sq("c3"), sq("d4")
	f.Set(steady, LastMove, Steady)
	f.Set(slow, Guide, Slow)
	f.Set(fast, Extra, Fast)
	// Any time within the period draws the same cycle.
	for _, at := range []time.Duration{0, 3*time.Second + 700*time.Millisecond} {
		img, err := RenderMonoCycle(&f, at, RenderOpts{Square: 20})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := newGeometry(RenderOpts{Square: 20})
		for _, c := range []struct {
			sq   board.Square
			want [4]bool
		}{
			{steady, [4]bool{true, true, true, true}},
			{slow, [4]bool{true, true, false, false}},
			{fast, [4]bool{true, false, true, false}},
			{off, [4]bool{}},
		} {
			for panel, want := range c.want {
				ox := panel * (g.width + g.s/2)
				if n := countIn(img, g, ox, c.sq, MonoColour()); (n > 0) != want {
					t.Errorf("at %v, panel %d (%v): %s has %d lit pixels, want lit %v", at, panel, MonoPhases()[panel], c.sq, n, want)
				}
			}
		}
	}
}

func TestRenderDrawsTheMen(t *testing.T) {
	pos := board.Start()
	var f Frame
	f.Set(sq("e2"), MustMove, Steady)
	img, err := Render(&f, 0, RenderOpts{Men: &pos.Men})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := newGeometry(RenderOpts{})
	fixed := fixedColours()
	for _, c := range []struct {
		sq   string
		disc RGB
	}{{"e2", fixed[colWhiteMan]}, {"g8", fixed[colBlackMan]}, {"a1", fixed[colWhiteMan]}} {
		x0, y0 := squareOrigin(g, 0, sq(c.sq))
		// Just inside the disc's left edge, clear of the letter.
		x, y := x0+g.s/2-int(g.manR)+2, y0+g.s/2
		if got := rgbAt(img, x, y); got != c.disc {
			t.Errorf("%s: disc colour %v, want %v", c.sq, got, c.disc)
		}
	}
	x0, y0 := squareOrigin(g, 0, sq("e4"))
	if got := rgbAt(img, x0+g.s/2, y0+g.s/2); got != fixed[colLight] {
		t.Errorf("e4, empty: centre %v, want the light square", got)
	}
	if ringPixel(img, g, 0, sq("e2"), 0.05) != MustMove.Colour() {
		t.Error("e2: the ring around a man is not drawn")
	}
}

func TestRenderRefusesBadOptions(t *testing.T) {
	var f Frame
	for _, s := range []int{-1, 8, 15, 129, 1000} {
		if _, err := Render(&f, 0, RenderOpts{Square: s}); err == nil {
			t.Errorf("square %d: no error", s)
		}
		if _, err := RenderMono(&f, 0, RenderOpts{Square: s}); err == nil {
			t.Errorf("mono, square %d: no error", s)
		}
		if _, err := RenderMonoCycle(&f, 0, RenderOpts{Square: s}); err == nil {
			t.Errorf("mono cycle, square %d: no error", s)
		}
		if _, err := RenderSwatch(MustMove, Steady, s); err == nil {
			t.Errorf("swatch, square %d: no error", s)
		}
	}
	if _, err := RenderSwatch(roleCount, Steady, 32); err == nil {
		t.Error("swatch of a role that does not exist: no error")
	}
}

func TestRenderSwatch(t *testing.T) {
	for r := MustMove; r < roleCount; r++ {
		img, err := RenderSwatch(r, Slow, 32)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := newGeometry(RenderOpts{})
		g.margin, g.pad = 0, 0
		if got := ringPixel(img, g, 0, board.NewSquare(0, 7), 0.05); got != r.Colour() {
			t.Errorf("%s: ring %v, want %v", r, got, r.Colour())
		}
	}
}

// A board with every square lit in every colour still encodes small.
func TestRenderEncodesSmall(t *testing.T) {
	pos := board.Start()
	var f Frame
	for s := board.Square(0); s < 64; s++ {
		f.Set(s, MustMove+Role(int(s)%int(roleCount-1)), Blink(int(s)%3))
	}
	for _, render := range []func(*Frame, time.Duration, RenderOpts) (*image.Paletted, error){Render, RenderMonoCycle} {
		img, err := render(&f, 0, RenderOpts{Men: &pos.Men})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > 30<<10 {
			t.Errorf("%v: %d bytes, want at most 30 KiB", img.Bounds(), buf.Len())
		}
	}
}

func BenchmarkRender(b *testing.B) {
	pos := board.Start()
	var f Frame
	f.Set(board.NewSquare(6, 0), MustMove, Steady)
	f.Set(board.NewSquare(5, 2), Destination, Slow)
	f.Set(board.NewSquare(7, 2), Destination, Slow)
	f.Set(board.NewSquare(0, 0), Fault, Fast)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(&f, 0, RenderOpts{Men: &pos.Men}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderMonoCyclePNG(b *testing.B) {
	pos := board.Start()
	var f Frame
	f.Set(board.NewSquare(6, 0), MustMove, Steady)
	f.Set(board.NewSquare(5, 2), Destination, Slow)
	f.Set(board.NewSquare(0, 0), Fault, Fast)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		img, err := RenderMonoCycle(&f, 0, RenderOpts{Square: 24, Men: &pos.Men})
		if err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
	}
}

func TestMonoBlinkKeepsStatesApart(t *testing.T) {
	for _, c := range []struct {
		role  Role
		frame Blink
		want  Blink
	}{
		{MustMove, Steady, Fast},
		{Option1, Slow, Fast},
		{Option6, Slow, Fast},
		{Missing, Steady, Slow},
		{Loser, Steady, Slow},
		{Draw, Steady, Slow},
		{Winner, Steady, Steady},
		{LastMove, Steady, Steady},
		{Extra, Fast, Fast},
		{Guide, Slow, Slow},
		{Destination, Slow, Slow},
	} {
		if got := c.role.MonoBlink(c.frame); got != c.want {
			t.Errorf("%s (%s in the frame) blinks %s on a matrix, want %s", c.role, c.frame, got, c.want)
		}
	}
}
