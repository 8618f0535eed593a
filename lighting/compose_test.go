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

func TestLEDFrameShowsOptionsAndMustMove(t *testing.T) {
	p, err := game.New(game.Options{Laws: "sarratt1808"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := `{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
{"t":2000,"choose":"move-touched","side":"black"}
{"t":2300,"lift":"e4"}
{"t":2500,"place":"e2"}
`
	lines, _ := trace.ReadAll(strings.NewReader(text))
	for i, l := range lines {
		p.Input(l)
		if i == 3 {
			p.Advance(1500 * time.Millisecond)
			f := lighting.Compose(p.Snapshot())
			g1, _ := board.ParseSquare("g1")
			f3, _ := board.ParseSquare("f3")
			if f.Role[g1] == led.Off || f.Role[f3] == led.Off {
				t.Fatalf("pending choice does not light the touched knight's option:\n%s", f.String())
			}
		}
	}
	p.Advance(4 * time.Second)
	f := lighting.Compose(p.Snapshot())
	g1, _ := board.ParseSquare("g1")
	h3, _ := board.ParseSquare("h3")
	if f.Role[g1] != led.MustMove || f.Role[h3] != led.Destination {
		t.Fatalf("after the ruling the knight must move: g1=%v h3=%v\n%s", f.Role[g1], f.Role[h3], f.String())
	}
}

// TestJournalFaultLightsTheCorners: a game not being saved shows the fault
// corners, beside the sensors' fault and apart from it.
func TestJournalFaultLightsTheCorners(t *testing.T) {
	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	corners := func() int {
		f := lighting.Compose(p.Snapshot())
		n := 0
		for _, sq := range []board.Square{0, 7, 56, 63} {
			if f.Role[sq] == led.Fault && f.Blink[sq] == led.Fast {
				n++
			}
		}
		return n
	}
	before := p.Version()
	p.SetJournalFault(true)
	if p.Version() == before || !p.Snapshot().JournalFault || corners() != 4 {
		t.Fatalf("journal fault: version %d->%d, snapshot %v, %d corners lit", before, p.Version(), p.Snapshot().JournalFault, corners())
	}
	p.SetFault(time.Second, true)
	p.SetFault(2*time.Second, false) // the sensors recover: the journal's fault stays
	if corners() != 4 {
		t.Errorf("the sensors' recovery cleared the journal's fault")
	}
	p.SetJournalFault(false)
	if p.Snapshot().JournalFault || corners() != 0 {
		t.Errorf("the journal fault did not clear")
	}
}

// TestWarningLightsTheManTheLawWouldBind: under warn-only a touch-move
// broken lights the touched knight in the first option's colour, slowly
// blinking, while the move stands (nothing to choose, no must-move), and
// the light goes with the adversary's reply.
func TestWarningLightsTheManTheLawWouldBind(t *testing.T) {
	p, err := game.New(game.Options{Laws: "sarratt1808", WarnOnly: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g1, _ := board.ParseSquare("g1")
	for _, c := range []struct {
		text string
		at   time.Duration
		role led.Role
		want string
	}{
		{`{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
`, 2 * time.Second, led.Option1, "the warning lights the knight the law would bind"},
		{`{"t":3000,"lift":"e7"}
{"t":3300,"place":"e5"}
`, 4 * time.Second, led.Off, "the warning's light goes with Black's reply"},
	} {
		lines, _ := trace.ReadAll(strings.NewReader(c.text))
		for _, l := range lines {
			if err := p.Input(l); err != nil {
				t.Fatal(err)
			}
		}
		p.Advance(c.at)
		f := lighting.Compose(p.Snapshot())
		if f.Role[g1] != c.role || c.role != led.Off && f.Blink[g1] != led.Slow {
			t.Errorf("%s: g1 is %v %v, want %v\n%s", c.want, f.Role[g1], f.Blink[g1], c.role, f.String())
		}
	}
}
