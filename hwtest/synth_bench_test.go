package hwtest

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/boardd/boardd/calibration"
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

// benchAnalog synthesises the first n corpus games as analogue traces on
// corpus board 1 (10-bit), written as boardd replay reads them, with the
// board's calibration and the number of frames and moves.
func benchAnalog(b *testing.B, n int) (texts [][]byte, cal *calibration.Calibration, frames, moves int) {
	b.Helper()
	games, err := testCorpus()
	if err != nil {
		b.Fatal(err)
	}
	cals, err := analogCalibrations()
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSynthesiser(SynthOptions{Seed: corpusSeed, Style: DefaultStyle()})
	if err != nil {
		b.Fatal(err)
	}
	opts := AnalogOptions{Board: analogModel(1), BoardSeed: 1}
	for i := 0; i < len(games) && len(texts) < n; i += len(games) / n {
		a, err := s.Analog(&games[i], uint64(i), opts)
		if err != nil {
			b.Fatal(err)
		}
		var buf []byte
		for l, ok := a.Next(); ok; l, ok = a.Next() {
			if l.Kind == trace.Frame {
				frames++
			}
			buf = trace.Append(buf, l)
		}
		texts = append(texts, buf)
		moves += len(games[i].Moves)
	}
	return texts, cals[1], frames, moves
}

// BenchmarkReplayAnalogPath measures `boardd replay --calibration` on
// analogue traces (100 frames a second, 64 levels each): parse each frame's
// levels, classify them through the calibration, run the game, write the
// reports.
func BenchmarkReplayAnalogPath(b *testing.B) {
	texts, cal, frames, moves := benchAnalog(b, 4)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, text := range texts {
			tc, err := calibration.NewTraceClassifier(cal, calibration.ClassifierOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := game.Replay(context.Background(), bytes.NewReader(text), io.Discard, game.Options{Laws: "fide2023", Analog: tc}); err != nil {
				b.Fatal(err)
			}
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(frames)*float64(b.N)/secs, "frames/s")
	b.ReportMetric(float64(moves)*float64(b.N)/secs, "moves/s")
}

// BenchmarkSynthesiseAnalog measures the analogue synthesiser: a game's
// hands rendered through the board's physics, 100 scans a second.
func BenchmarkSynthesiseAnalog(b *testing.B) {
	games, err := testCorpus()
	if err != nil {
		b.Fatal(err)
	}
	games = games[:4]
	s, err := NewSynthesiser(SynthOptions{Seed: 1, Style: DefaultStyle()})
	if err != nil {
		b.Fatal(err)
	}
	opts := AnalogOptions{Board: analogModel(0), BoardSeed: 0}
	frames := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range games {
			a, err := s.Analog(&games[j], uint64(j), opts)
			if err != nil {
				b.Fatal(err)
			}
			for _, ok := a.Next(); ok; _, ok = a.Next() {
				frames++
			}
		}
	}
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
}
