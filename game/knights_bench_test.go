package game

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
)

// knightsTrace is n plies of both sides' knights shuffling g1-f3, g8-f6,
// f3-g1, f6-g8: no capture, no pawn move, the same four positions over and
// over; the longest game a repetition or a record can make slow.
func knightsTrace(n int) []byte {
	var b bytes.Buffer
	moves := [4][2]string{{"g1", "f3"}, {"g8", "f6"}, {"f3", "g1"}, {"f6", "g8"}}
	t := 0
	for i := range n {
		m := moves[i%4]
		fmt.Fprintf(&b, "{\"t\":%d,\"lift\":%q}\n{\"t\":%d,\"place\":%q}\n", t, m[0], t+200, m[1])
		t += 1000
	}
	return b.Bytes()
}

// BenchmarkReplayKnights measures boardd replay's path (trace text in, JSON
// lines out) over 20,000 plies of shuffling knights under philidor1825,
// which knows no repetition rule: the cost of a move must not grow with
// the game.
func BenchmarkReplayKnights(b *testing.B) {
	const plies = 20000
	text := knightsTrace(plies)
	b.ReportAllocs()
	for b.Loop() {
		if err := Replay(context.Background(), bytes.NewReader(text), io.Discard, Options{Laws: "philidor1825"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(plies*b.N)/b.Elapsed().Seconds(), "moves/s")
}
