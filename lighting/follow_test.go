package lighting_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// lastShown is a sink that keeps the last frame it was shown, for a test to
// read while a led.Driver runs it.
type lastShown struct {
	mu sync.Mutex
	f  led.Frame
	n  int
}

func (s *lastShown) Show(f *led.Frame, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f, s.n = *f, s.n+1
	return nil
}
func (s *lastShown) Deadline() (time.Duration, bool) { return 0, false }
func (s *lastShown) Halt() error                     { return nil }
func (s *lastShown) String() string                  { return "last shown" }
func (s *lastShown) last() (led.Frame, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f, s.n
}

// Follow hands the driver the frame of the game as the runner starts (a
// fault set before it runs lights the corners at once), and again after
// every change, whoever makes it: an input, or a call on the game.
func TestFollowShowsEveryChangeOfTheGame(t *testing.T) {
	g, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.SetFault(0, true)
	clock := &timing.Virtual{} // moved by the steps alone: a landing stays pending while it is looked at
	r := game.NewRunner(g, clock)
	var sink lastShown
	d := led.NewDriver(&sink, clock, nil)
	lighting.Follow(r, d)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = r.Run(ctx) }()
	go func() { defer wg.Done(); _ = d.Run(ctx) }()
	defer func() { cancel(); wg.Wait() }()

	input := func(text string) func(t *testing.T) {
		return func(t *testing.T) {
			l, err := trace.Parse([]byte(`{"t":0,` + text + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Submit(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
	}
	on := func(fn func(g *game.Game, now time.Duration)) func(t *testing.T) {
		return func(t *testing.T) {
			if err := r.Do(ctx, fn); err != nil {
				t.Fatal(err)
			}
		}
	}
	advance := on(func(g *game.Game, now time.Duration) { g.Advance(now) })
	for _, c := range []struct {
		name   string
		at     time.Duration      // the clock is set to this first
		do     func(t *testing.T) // nil: the runner's start
		square string
		role   led.Role
	}{
		{"the fault set before the runner starts", 0, nil, "h8", led.Fault},
		{"the fault cleared", 50 * time.Millisecond, on(func(g *game.Game, now time.Duration) { g.SetFault(now, false) }), "h8", led.Off},
		{"a man lifted", 100 * time.Millisecond, input(`"lift":"e2"`), "e2", led.Touched},
		{"the man set down elsewhere", 300 * time.Millisecond, input(`"place":"e4"`), "e2", led.Touched}, // not read at once
		{"the man still a moment", 500 * time.Millisecond, advance, "e4", led.Landing},
		{"the settle time passed", 2 * time.Second, advance, "e4", led.LastMove},
		{"a hint asked for", 3 * time.Second, on(func(g *game.Game, now time.Duration) {
			m, _ := board.ParseUCI("g8f6")
			g.SetHint(now, &m)
		}), "f6", led.Hint},
	} {
		t.Run(c.name, func(t *testing.T) {
			clock.Set(c.at)
			if c.do != nil {
				c.do(t)
			}
			sq, err := board.ParseSquare(c.square)
			if err != nil {
				t.Fatal(err)
			}
			var want led.Frame
			for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
				s, err := r.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				want = lighting.Compose(s)
				if got, _ := sink.last(); got == want && got.Role[sq] == c.role {
					return
				}
			}
			got, n := sink.last()
			t.Fatalf("after %d frames shown, %s shows %v, want %v; shown:\n%s\nthe game's frame:\n%s", n, c.square, got.Role[sq], c.role, got.String(), want.String())
		})
	}
}
