package opponent_test

import (
	"context"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/opponent"
)

// gatedPlayer hands each question to the benchmark, which answers it
// through the channel that comes with it.
type gatedPlayer struct {
	asked chan chan<- opponent.Answer
}

func (g *gatedPlayer) Name() string { return "Gated 1.0" }

func (g *gatedPlayer) Move(ctx context.Context, q opponent.Question) <-chan opponent.Answer {
	out := make(chan opponent.Answer, 1)
	g.asked <- out
	return out
}

// BenchmarkAnswerToLEDs measures the match's own part of an engine's move,
// its thinking left out: from the answer (the engine's "bestmove", read and
// checked by package computer: BenchmarkBestmoveToReply) reaching the match
// to the board's LED frame showing the move to carry out: the match checks
// the game still stands as it was asked about, announces the move through
// the runner (journalled as a remote line), the game takes it, the
// snapshot is taken and lighting.Compose draws it. Each iteration begins a new
// game (timer stopped) so that the engine, playing White, is asked for
// its first move again.
func BenchmarkAnswerToLEDs(b *testing.B) {
	bd := newBoard(b, game.Options{})
	shown := make(chan struct{}, 1)
	bd.r.OnChange(func(s *game.Snapshot) {
		if !s.HasAwaiting {
			return
		}
		f := lighting.Compose(s)
		if f.Role[s.Awaiting.From] != led.Carry {
			return
		}
		select {
		case shown <- struct{}{}:
		default:
		}
	})
	p := &gatedPlayer{asked: make(chan chan<- opponent.Answer, 1)}
	m := startMatch(b, bd, opponent.Options{Player: p, Side: opponent.White})
	e4, _ := board.ParseUCI("e2e4")
	answer := opponent.Answer{Move: e4, SAN: "e4", Eval: &opponent.Eval{Depth: 1, PV: []string{"e4"}}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if i > 0 {
			if err := m.NewGame(ctx); err != nil {
				b.Fatal(err)
			}
		}
		out := <-p.asked
		// A new game sets the board up first (the men back on their
		// squares, settled): the benchmark answers once it is in play.
		for {
			s, err := bd.r.Snapshot(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if s.Mode == game.Play && !s.Syncing {
				break
			}
			time.Sleep(time.Millisecond)
		}
		select {
		case <-shown:
		default:
		}
		b.StartTimer()
		out <- answer
		<-shown
	}
}
