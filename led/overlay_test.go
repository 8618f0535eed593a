package led_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/timing"
)

func sq(t *testing.T, name string) board.Square {
	t.Helper()
	s, err := board.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A frame is at rest when it asks nothing of the player: only the last move,
// men in hand and a hint lit. Over a frame at rest the layer's squares show
// with their own blink, except a man in hand; over any other frame the
// layer shows not at all.
func TestOverlayShowsTheLayerOnlyOverAFrameAtRest(t *testing.T) {
	var layer led.Frame
	layer.Set(sq(t, "e4"), led.Hint, led.Fast)  // over the game's square
	layer.Set(sq(t, "d7"), led.Carry, led.Slow) // on a dark square
	for _, c := range []struct {
		role led.Role  // the game's role on e4
		rest bool      // the frame is at rest
		e4   led.Role  // e4 shown
		d7   led.Role  // d7 shown
		d7b  led.Blink // d7's blink shown
	}{
		{led.Off, true, led.Hint, led.Carry, led.Slow},
		{led.LastMove, true, led.Hint, led.Carry, led.Slow},
		{led.Hint, true, led.Hint, led.Carry, led.Slow},
		{led.Touched, true, led.Touched, led.Carry, led.Slow},
		{led.MustMove, false, led.MustMove, led.Off, led.Steady},
		{led.Destination, false, led.Destination, led.Off, led.Steady},
		{led.Option1, false, led.Option1, led.Off, led.Steady},
		{led.Option6, false, led.Option6, led.Off, led.Steady},
		{led.Missing, false, led.Missing, led.Off, led.Steady},
		{led.Extra, false, led.Extra, led.Off, led.Steady},
		{led.Guide, false, led.Guide, led.Off, led.Steady},
		{led.Winner, false, led.Winner, led.Off, led.Steady},
		{led.Loser, false, led.Loser, led.Off, led.Steady},
		{led.Draw, false, led.Draw, led.Off, led.Steady},
		{led.Fault, false, led.Fault, led.Off, led.Steady},
		{led.Carry, false, led.Carry, led.Off, led.Steady},
		{led.Landing, false, led.Landing, led.Off, led.Steady},
	} {
		t.Run(c.role.String(), func(t *testing.T) {
			var game led.Frame
			game.Set(sq(t, "e4"), c.role, led.Steady)
			if got := game.AtRest(); got != c.rest {
				t.Errorf("AtRest() = %v, want %v", got, c.rest)
			}
			got := led.Overlay(&game, &layer)
			if r := got.Role[sq(t, "e4")]; r != c.e4 {
				t.Errorf("e4 shows %v, want %v", r, c.e4)
			}
			if r, b := got.Role[sq(t, "d7")], got.Blink[sq(t, "d7")]; r != c.d7 || b != c.d7b {
				t.Errorf("d7 shows %v %v, want %v %v", r, b, c.d7, c.d7b)
			}
			if game.Role[sq(t, "d7")] != led.Off {
				t.Errorf("Overlay changed the game's frame")
			}
		})
	}
}

// syncRecorder is a Recorder a test may read while a Driver runs it.
type syncRecorder struct {
	mu sync.Mutex
	r  led.Recorder
}

func (s *syncRecorder) Show(f *led.Frame, t time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Show(f, t)
}
func (s *syncRecorder) Deadline() (time.Duration, bool) { return 0, false }
func (s *syncRecorder) Halt() error                     { return nil }
func (s *syncRecorder) String() string                  { return "sync recorder" }
func (s *syncRecorder) last() led.Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Last()
}

// The driver lays the newest layer over the newest game frame.
func TestDriverShowsTheLayer(t *testing.T) {
	var rec syncRecorder
	d := led.NewDriver(&rec, timing.NewReal(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	await := func(what string, ok func(f led.Frame) bool) {
		t.Helper()
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
			if ok(rec.last()) {
				return
			}
		}
		f := rec.last()
		t.Fatalf("%s never shown; last:\n%s", what, f.String())
	}
	var game, layer, must led.Frame
	game.Set(sq(t, "e2"), led.LastMove, led.Steady)
	layer.Set(sq(t, "d7"), led.Hint, led.Slow)
	must.Set(sq(t, "g1"), led.MustMove, led.Steady)
	d.Show(game)
	d.ShowLayer(layer)
	await("the layer over the game", func(f led.Frame) bool { return f.Role[sq(t, "d7")] == led.Hint && f.Role[sq(t, "e2")] == led.LastMove })
	d.Show(must)
	await("the man that must move alone", func(f led.Frame) bool { return f == must })
	d.Show(game)
	await("the layer back", func(f led.Frame) bool { return f.Role[sq(t, "d7")] == led.Hint })
	d.ShowLayer(led.Frame{})
	await("the layer gone", func(f led.Frame) bool { return f == game })
}
