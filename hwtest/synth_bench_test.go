package hwtest

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
)

// benchTraces synthesises the first n corpus games (DefaultStyle, fide2023)
// as events or frames, with their move count.
func benchTraces(b *testing.B, n int, frames bool) (traces [][]trace.Line, moves, frameLines int) {
	b.Helper()
	games, err := testCorpus()
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSynthesiser(SynthOptions{Seed: corpusSeed, Style: DefaultStyle()})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(games) && len(traces) < n; i += len(games) / n {
		lines, err := s.Events(&games[i], uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		if frames {
			if lines, err = s.Frames(lines, uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
		for _, l := range lines {
			if l.Kind == trace.Frame {
				frameLines++
			}
		}
		traces = append(traces, lines)
		moves += len(games[i].Moves)
	}
	return traces, moves, frameLines
}

func benchRecognise(b *testing.B, frames bool) {
	traces, moves, frameLines := benchTraces(b, 40, frames)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, lines := range traces {
			if _, err := Replay(lines, game.Options{Laws: "fide2023"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(moves)*float64(b.N)/secs, "moves/s")
	if frames {
		b.ReportMetric(float64(frameLines)*float64(b.N)/secs, "frames/s")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves*b.N), "ns/move")
}

// BenchmarkRecogniseEvents measures recognition (gesture + arbiter) of
// synthesised games given as debounced events.
func BenchmarkRecogniseEvents(b *testing.B) { benchRecognise(b, false) }

// BenchmarkRecogniseFrames measures recognition of the same games given as
// sparse raw frames with contact bounce (debounce + gesture + arbiter).
func BenchmarkRecogniseFrames(b *testing.B) { benchRecognise(b, true) }

// BenchmarkReplayPath measures `boardd replay`'s code path: parse JSON
// lines, run the game, write each report as a JSON line.
func BenchmarkReplayPath(b *testing.B) {
	traces, moves, _ := benchTraces(b, 40, false)
	var texts [][]byte
	for _, lines := range traces {
		var buf []byte
		for _, l := range lines {
			buf = trace.Append(buf, l)
		}
		texts = append(texts, buf)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, text := range texts {
			if err := replayText(bytes.NewReader(text), io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// replayText does what boardd replay does with a trace.
func replayText(in io.Reader, w io.Writer) error {
	out := bufio.NewWriterSize(w, 64*1024)
	if err := game.Replay(context.Background(), in, out, game.Options{Laws: "fide2023"}); err != nil {
		return err
	}
	return out.Flush()
}

// BenchmarkSynthesise measures the synthesiser itself, events and frames.
func BenchmarkSynthesise(b *testing.B) {
	games, err := testCorpus()
	if err != nil {
		b.Fatal(err)
	}
	games = games[:40]
	s, err := NewSynthesiser(SynthOptions{Seed: 1, Style: DefaultStyle()})
	if err != nil {
		b.Fatal(err)
	}
	moves := 0
	for _, g := range games {
		moves += len(g.Moves)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range games {
			lines, err := s.Events(&games[j], uint64(j))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Frames(lines, uint64(j)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
