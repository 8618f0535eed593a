package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

func TestButtonOption(t *testing.T) {
	two := &report.Report{Type: report.Irregularity, Chooser: report.Black, Options: []report.Option{{ID: report.OptStand}, {ID: report.OptMoveTouched}}}
	arbiter := &report.Report{Type: report.Irregularity, Chooser: report.Arbiter, Options: two.Options}
	press := func(button, side string) trace.Line { return trace.Line{Kind: trace.Press, Button: button, Side: side} }
	for _, c := range []struct {
		name    string
		pending *report.Report
		press   trace.Line
		want    report.OptionID
	}{
		{"j'adoube chooses the first", two, press(trace.ButtonJadoube, "black"), report.OptStand},
		{"check chooses the second", two, press(trace.ButtonCheck, "black"), report.OptMoveTouched},
		{"claim: no third option", two, press(trace.ButtonClaim, "black"), ""},
		{"the clock chooses nothing", two, press(trace.ButtonClock, "black"), ""},
		{"the offender's buttons choose nothing", two, press(trace.ButtonJadoube, "white"), ""},
		{"the arbiter's ruling is not the players'", arbiter, press(trace.ButtonJadoube, "black"), ""},
		{"nothing pending", nil, press(trace.ButtonJadoube, "black"), ""},
		{"not a press", two, trace.Line{Kind: trace.Lift, Side: "black"}, ""},
	} {
		if got := buttonOption(c.pending, c.press); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// On a board with buttons, the player a ruling waits for chooses with his
// own buttons: White touched the knight and played e4 under sarratt1808:7,
// Black's check button chooses the second option (move-touched: the pawn
// goes back and the knight must move), and the
// choice goes through the game's door as a choose line (what the journal
// records). Presses that choose nothing go to the game as before.
func TestChooseByButton(t *testing.T) {
	g, err := game.New(game.Options{Laws: "sarratt1808"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) board.Square {
		q, err := board.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	for _, l := range []trace.Line{
		{T: 0, Kind: trace.Lift, Square: sq("g1")},
		{T: 150 * time.Millisecond, Kind: trace.Place, Square: sq("g1")},
		{T: 800 * time.Millisecond, Kind: trace.Lift, Square: sq("e2")},
		{T: time.Second, Kind: trace.Place, Square: sq("e4")},
	} {
		if err := g.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	g.Advance(1600 * time.Millisecond) // the move is made a settle time (450 ms) after its placement
	clock := &timing.Virtual{}
	clock.Set(1600 * time.Millisecond)
	d, logs := testDaemon(t, Options{})
	d.game, d.runner = g, game.NewRunner(g, clock)
	var heard []trace.Line
	d.runner.OnInput(func(l trace.Line) { heard = append(heard, l) })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.runner.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	snap := func() *game.Snapshot {
		s, err := d.runner.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if p := snap().Pending; p == nil || p.Chooser != report.Black || len(p.Options) != 2 {
		t.Fatalf("the ruling waiting: %+v", p)
	}
	d.press(ctx, trace.Line{Kind: trace.Press, Button: trace.ButtonJadoube, Side: "white"}) // the offender's: no choice
	if snap().Pending == nil {
		t.Fatal("white's button chose for black")
	}
	d.press(ctx, trace.Line{Kind: trace.Press, Button: trace.ButtonCheck, Side: "black"})
	s := snap()
	if s.Pending != nil {
		t.Fatalf("black's check button chose nothing: %+v", s.Pending)
	}
	if !s.Syncing || s.Moves != 0 {
		t.Errorf("after move-touched: syncing %v, %d moves; want the pawn put back, no move kept", s.Syncing, s.Moves)
	}
	var choices []string
	for _, l := range heard {
		if l.Kind == trace.Choose {
			choices = append(choices, l.Side+":"+l.Option)
		}
	}
	if strings.Join(choices, ",") != "black:move-touched" {
		t.Errorf("choose lines heard %v; want black:move-touched once", choices)
	}
	if !strings.Contains(logs.String(), "ruling chosen by button") {
		t.Errorf("the choice is not logged:\n%s", logs)
	}
}
