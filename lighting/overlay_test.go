package lighting_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/trace"
)

// gameFrame plays a trace into a real game under laws and returns the frame
// Compose draws of it at the end (after 'at' ms).
func gameFrame(t *testing.T, laws, text string, at int, fault bool) led.Frame {
	t.Helper()
	g, err := game.New(game.Options{Laws: laws}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := trace.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := g.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	g.Advance(time.Duration(at) * time.Millisecond)
	if fault {
		g.SetFault(time.Duration(at)*time.Millisecond, true)
	}
	return lighting.Compose(g.Snapshot())
}

func sq(t *testing.T, name string) board.Square {
	t.Helper()
	s, err := board.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An app's layer shows only while the game's LEDs are at rest, and never
// over a man in hand; obligations, options, mismatches, results and faults
// hide it whole: the frames Compose draws of real games are at rest exactly
// when the game asks nothing of the player.
func TestOverlayGivesTheGameTheLastWord(t *testing.T) {
	const e4 = `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
`
	var layer led.Frame
	layer.Set(sq(t, "e7"), led.Hint, led.Slow)
	layer.Set(sq(t, "e5"), led.Hint, led.Steady)
	layer.Set(sq(t, "e4"), led.Hint, led.Fast) // over the last move
	cases := []struct {
		name   string
		laws   string
		trace  string
		at     int
		fault  bool
		shows  bool
		square string    // a square to check
		role   led.Role  // its role in the frame shown
		blink  led.Blink // and blink
	}{
		{"the last move: the layer shows, over it", "fide2023", e4, 1000, false, true, "e4", led.Hint, led.Fast},
		{"a layer square keeps its blink", "fide2023", e4, 1000, false, true, "e7", led.Hint, led.Slow},
		{"a man in hand stays", "fide2023", e4 + `{"t":1500,"lift":"e7"}`, 1600, false, true, "e7", led.Touched, led.Steady},
		{"a fault hides it", "fide2023", e4, 1000, true, false, "a1", led.Fault, led.Fast},
		{"a man that must move hides it", "sarratt1808", `{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
{"t":2000,"choose":"move-touched","side":"black"}
{"t":2300,"lift":"e4"}
{"t":2500,"place":"e2"}
`, 4000, false, false, "g1", led.MustMove, led.Steady},
		{"a ruling's options hide it", "sarratt1808", `{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
`, 1500, false, false, "e4", led.Option1, led.Slow},
		{"a mismatch hides it", "fide2023", e4 + `{"t":1000,"lift":"d2"}
{"t":1100,"place":"d5"}
{"t":1200,"lift":"c2"}
{"t":1300,"place":"c5"}
`, 3000, false, false, "c5", led.Extra, led.Fast},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			game := gameFrame(t, c.laws, c.trace, c.at, c.fault)
			got := led.Overlay(&game, &layer)
			if game.AtRest() != c.shows {
				t.Fatalf("the game's frame at rest: %v, want %v:\n%s", game.AtRest(), c.shows, game.String())
			}
			if !c.shows && got != game {
				t.Errorf("the layer changed a frame not at rest:\n%s", got.String())
			}
			s := sq(t, c.square)
			if got.Role[s] != c.role || got.Blink[s] != c.blink {
				t.Errorf("%s shows %v %v, want %v %v:\n%s", c.square, got.Role[s], got.Blink[s], c.role, c.blink, got.String())
			}
			if c.shows {
				for _, name := range []string{"e2"} { // the last move's other square
					if s := sq(t, name); got.Role[s] != game.Role[s] {
						t.Errorf("%s: a square the layer leaves dark changed to %v", name, got.Role[s])
					}
				}
			}
		})
	}
	var dark led.Frame
	game := gameFrame(t, "fide2023", e4, 1000, false)
	if got := led.Overlay(&game, &dark); got != game {
		t.Errorf("a dark layer changed the frame")
	}
}
