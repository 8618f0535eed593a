package computer

import (
	"context"
	"testing"
	"time"

	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// stillBoard is a scanner of a board nobody touches: each scan costs what
// the loop itself costs.
type stillBoard struct{}

func (stillBoard) Scan(f *sensor.Frame) error { return nil }
func (stillBoard) Halt() error                { return nil }
func (stillBoard) String() string             { return "still board" }

// BenchmarkScanRateWhileThinking measures the board's scan loop at its
// daemon rate (100 scans a second) for one second an operation while
// Stockfish searches a middle-game position without pause, beside it in the
// same process's goroutines and its own process: the engine's thinking
// must not slow the scan loop. It reports the scans achieved a second and
// the scans that began a period or more late, idle and while the engine
// thinks (BenchmarkLoopScan in package sensor gives a scan's cost).
func BenchmarkScanRateWhileThinking(b *testing.B) {
	p := startPlayer(b, Options{Path: stockfish(b), Level: Level{Strength: StrengthFull, Limit: Limit{MoveTime: 900 * time.Millisecond}}})
	req := Request{Moves: randomGame(b, 30)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, thinking := range []bool{false, true} {
		name := "idle"
		if thinking {
			name = "thinking"
		}
		b.Run(name, func(b *testing.B) { scanRate(b, ctx, p, req, thinking) })
	}
}

// scanRate runs the scan loop a second an operation, the engine searching
// if thinking.
func scanRate(b *testing.B, ctx context.Context, p *Player, req Request, thinking bool) {
	var scans, late uint64
	for range b.N {
		loop, err := sensor.NewLoop(stillBoard{}, sensor.LoopOpts{Rate: 100, Clock: timing.NewReal(), Frame: func(*sensor.Frame) {}, StatsEvery: -1})
		if err != nil {
			b.Fatal(err)
		}
		var reply <-chan Result
		if thinking {
			reply = p.Think(ctx, req)
		}
		lctx, stop := context.WithTimeout(ctx, time.Second)
		_ = loop.Run(lctx)
		stop()
		if reply != nil {
			if r := <-reply; r.Err != nil {
				b.Fatal(r.Err)
			}
		}
		st := loop.Stats()
		scans += st.Scans
		late += st.Late
	}
	b.ReportMetric(float64(scans)/float64(b.N), "scans/s")
	b.ReportMetric(float64(late)/float64(b.N), "late/s")
}
