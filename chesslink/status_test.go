package chesslink

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
)

func sq(t *testing.T, name string) board.Square {
	t.Helper()
	s, err := board.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func men(t *testing.T, fen string) [64]board.Man {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.Men
}

func TestOrientationSquare(t *testing.T) {
	cases := []struct {
		o    Orientation
		i    int
		want string
	}{
		{FromH1, 0, "h1"}, {FromH1, 7, "a1"}, {FromH1, 8, "h2"}, {FromH1, 56, "h8"}, {FromH1, 63, "a8"},
		{FromA8, 0, "a8"}, {FromA8, 7, "h8"}, {FromA8, 8, "a7"}, {FromA8, 56, "a1"}, {FromA8, 63, "h1"},
	}
	for _, c := range cases {
		if got := c.o.Square(c.i); got != sq(t, c.want) {
			t.Errorf("%s.Square(%d) = %s, want %s", c.o, c.i, got, c.want)
		}
	}
	for _, o := range []Orientation{FromH1, FromA8} {
		seen := map[board.Square]bool{}
		for i := range 64 {
			seen[o.Square(i)] = true
		}
		if len(seen) != 64 {
			t.Errorf("%s: %d distinct squares, want 64", o, len(seen))
		}
		back, err := ParseOrientation(o.String())
		if err != nil || back != o {
			t.Errorf("ParseOrientation(%q) = %v, %v", o, back, err)
		}
	}
	if _, err := ParseOrientation("h8"); err == nil || err.Error() != `chesslink: orientation "h8": want h1 or a8` {
		t.Errorf("ParseOrientation(h8) error %v", err)
	}
}

func TestAppendStatus(t *testing.T) {
	empty32 := strings.Repeat(".", 32)
	cases := []struct {
		name, fen string
		o         Orientation
		want      string
	}{
		{"start from h1", board.StartFEN, FromH1, "sRNBKQBNRPPPPPPPP" + empty32 + "pppppppprnbkqbnr"},
		{"start from a8", board.StartFEN, FromA8, "srnbqkbnrpppppppp" + empty32 + "PPPPPPPPRNBQKBNR"},
		{"after 1.e4 from h1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", FromH1,
			"sRNBKQBNRPPP.PPPP" + "........" + "...P...." + strings.Repeat(".", 16) + "pppppppprnbkqbnr"},
		{"kings only from a8", "7k/8/8/8/8/8/8/K7 w - - 0 1", FromA8, "s.......k" + strings.Repeat(".", 48) + "K......."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := men(t, c.fen)
			got := AppendStatus(nil, &m, c.o)
			if string(got) != c.want {
				t.Errorf("status\n%s\nwant\n%s", got, c.want)
			}
			back, err := ParseStatus(got, c.o)
			if err != nil || back != m {
				t.Errorf("ParseStatus does not give the placement back: %v", err)
			}
		})
	}
}

func TestParseStatusErrors(t *testing.T) {
	cases := []struct{ body, err string }{
		{"s", `chesslink: status "s": want 's' and 64 piece codes`},
		{"v" + strings.Repeat(".", 64), `chesslink: status "v` + strings.Repeat(".", 64) + `": want 's' and 64 piece codes`},
		{"s" + strings.Repeat(".", 9) + "x" + strings.Repeat(".", 54), `chesslink: status "s` + strings.Repeat(".", 9) + "x" + strings.Repeat(".", 54) + `": 'x' at character 10 (g2) is no piece code`},
	}
	for _, c := range cases {
		if _, err := ParseStatus([]byte(c.body), FromH1); err == nil || err.Error() != c.err {
			t.Errorf("ParseStatus(%q) error %v, want %q", c.body, err, c.err)
		}
	}
}

func TestValidPlacement(t *testing.T) {
	m := men(t, board.StartFEN)
	if err := ValidPlacement(&m); err != nil {
		t.Fatal(err)
	}
	m[sq(t, "e4")] = board.Man(7)
	if err := ValidPlacement(&m); err == nil || err.Error() != "chesslink: placement: e4 holds 7, which is no man" {
		t.Errorf("error %v", err)
	}
	m[sq(t, "e4")] = board.Man(0x16)
	if err := ValidPlacement(&m); err == nil {
		t.Error("a man with stray high bits passed")
	}
}
