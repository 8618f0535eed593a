package computer

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// BenchmarkBestmoveToReply measures the time from the engine writing its
// "bestmove" line to the reply reaching the caller's channel: the pipes, the
// rules library reading the line, the move checked against the position,
// the info lines read, the PV put into SAN. The fake engine answers "go" at
// once and notes the time just before it writes "bestmove"; ns/op is the
// whole round trip of a request.
func BenchmarkBestmoveToReply(b *testing.B) {
	path := fakeEngine(b, "bench")
	p := startPlayer(b, Options{Path: path, Level: Level{Strength: StrengthFull, Limit: Limit{Depth: 1}}})
	req := Request{Moves: randomGame(b, 40)}
	ctx := context.Background()
	if r := <-p.Think(ctx, req); r.Err != nil { // the game's first request encodes all its moves
		b.Fatal(r.Err)
	}
	delivered := make([]int64, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r := <-p.Think(ctx, req)
		delivered = append(delivered, time.Now().UnixNano())
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
	b.StopTimer()
	data, err := os.ReadFile(path + ".stamps")
	if err != nil {
		b.Fatal(err)
	}
	var written []int64
	for i := 0; i+8 <= len(data); i += 8 {
		written = append(written, int64(binary.LittleEndian.Uint64(data[i:])))
	}
	if len(written) != len(delivered)+1 {
		b.Fatalf("%d bestmoves written for %d replies", len(written), len(delivered)+1)
	}
	lat := make([]float64, len(delivered))
	sum := 0.0
	for i, d := range delivered {
		lat[i] = float64(d - written[i+1])
		sum += lat[i]
	}
	slices.Sort(lat)
	b.ReportMetric(sum/float64(len(lat)), "ns-bestmove-to-reply")
	b.ReportMetric(lat[len(lat)*99/100], "ns-p99")
}

// BenchmarkEncodeRequest measures checking and encoding a request of an
// 80-ply game: from scratch (a new game, or a take-back), and as the next
// move of the game the player last saw, which replays only the new move.
func BenchmarkEncodeRequest(b *testing.B) {
	moves := randomGame(b, 80)
	clocks := &Clocks{White: time.Minute, Black: time.Minute, WhiteInc: time.Second, BlackInc: time.Second}
	b.Run("new game", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			g, err := prepare(Request{Moves: moves, Clocks: clocks}, nil)
			if err != nil {
				b.Fatal(err)
			}
			goc, _ := goFor(Limit{}, clocks, g.final.Position.Turn, time.Minute)
			_ = goc.String()
		}
	})
	b.Run("next move", func(b *testing.B) {
		prev, err := prepare(Request{Moves: moves[:79]}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			g, err := prepare(Request{Moves: moves, Clocks: clocks}, prev)
			if err != nil {
				b.Fatal(err)
			}
			goc, _ := goFor(Limit{}, clocks, g.final.Position.Turn, time.Minute)
			_ = goc.String()
		}
	})
}

// randomGame plays plies random legal moves from the start (a fixed seed),
// never into a position without moves.
func randomGame(tb testing.TB, plies int) []string {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	pos := board.Start()
	var moves []string
	for len(moves) < plies {
		a, err := board.Analyse(pos)
		if err != nil || len(a.Moves) == 0 {
			tb.Fatalf("the random game ended after %d plies", len(moves))
		}
		played := false
		for _, i := range rng.Perm(len(a.Moves)) {
			next := pos.Apply(a.Moves[i])
			if na, err := board.Analyse(next); err == nil && len(na.Moves) > 0 {
				moves = append(moves, a.Moves[i].UCI())
				pos, played = next, true
				break
			}
		}
		if !played {
			tb.Fatalf("every move ends the random game after %d plies", len(moves))
		}
	}
	return moves
}
