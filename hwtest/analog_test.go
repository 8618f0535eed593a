package hwtest

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hwtest/hallsim"
	"github.com/boardd/boardd/trace"
)

// analogBoards is how many simulated boards the analogue corpus is played
// on: MCP3208 and MCP3008 ones, wired in order and scrambled, each with its
// weak sensor on its own square.
const analogBoards = 8

// analogModel is corpus board i's model: every noise source at the level
// the datasheets give (hallsim.DefaultModel).
func analogModel(i int) hallsim.Model {
	m := hallsim.DefaultModel()
	if i%2 == 1 {
		m.Bits = 10
	}
	m.Scrambled = i%4 >= 2
	m.Weak = board.Square((28 + 23*i) % 64)
	return m
}

// analogCalibrations calibrates each corpus board once, as `boardd
// calibrate` would, when the board is switched on.
var analogCalibrations = sync.OnceValues(func() ([analogBoards]*calibration.Calibration, error) {
	var cals [analogBoards]*calibration.Calibration
	for i := range cals {
		b, err := hallsim.NewBoard(analogModel(i), uint64(i))
		if err != nil {
			return cals, err
		}
		cal, rep, err := hallsim.Calibrate(context.Background(), b)
		if err != nil {
			return cals, err
		}
		if !rep.Fit() {
			return cals, fmt.Errorf("corpus board %d is unfit: %+v", i, rep.Findings)
		}
		cals[i] = cal
	}
	return cals, nil
})

// analogOptions are how game seed's analogue trace is read: on corpus
// board seed%analogBoards, begun up to an hour after the board was switched
// on and calibrated.
func analogOptions(seed uint64) (AnalogOptions, int) {
	i := int(seed % analogBoards)
	return AnalogOptions{Board: analogModel(i), BoardSeed: uint64(i), Started: time.Duration(seed>>8%3600) * time.Second}, i
}

// replayAnalog synthesises g as an analogue trace on the board opts name,
// replays it through calibration cal as boardd replay --calibration does,
// and checks it. It returns the number of frames.
func replayAnalog(s *Synthesiser, g *Game, seed uint64, opts AnalogOptions, cal *calibration.Calibration) (int, error) {
	a, err := s.Analog(g, seed, opts)
	if err != nil {
		return 0, err
	}
	tc, err := calibration.NewTraceClassifier(cal, calibration.ClassifierOptions{})
	if err != nil {
		return 0, err
	}
	frames := 0
	reports, err := ReplayStream(func() (trace.Line, bool) {
		l, ok := a.Next()
		if l.Kind == trace.Frame {
			frames++
		}
		return l, ok
	}, game.Options{Laws: s.Options().Laws, Analog: tc})
	if err != nil {
		return frames, err
	}
	if err := CheckClean(g, reports); err != nil {
		return frames, fmt.Errorf("seed %d, laws %s, %s: %w", seed, s.Options().Laws, a.Board(), err)
	}
	return frames, nil
}

// TestCorpusAnalog plays the corpus on simulated analogue boards, every
// noise source at its datasheet level (offset and gain spread, drift over
// the hour, crosstalk, men set off-centre, sensor and ADC noise, the ADC's
// nonlinearity, one weak sensor a board), scanned 100 times a second,
// replays each trace through the board's calibration, and requires every
// move back with nothing irregular. Under -short every 4th game of the
// corpus; under -race a sample of it.
func TestCorpusAnalog(t *testing.T) {
	cals, err := analogCalibrations()
	if err != nil {
		t.Fatal(err)
	}
	games := loadTestCorpus(t)
	if raceEnabled {
		games = every(games, 3)
	}
	results := make([]corpusResult, len(games))
	frames := make([]int, len(games))
	forEachGame(len(games), func(i int, synths map[string]*Synthesiser) {
		seed := gameSeed(&games[i])
		laws := corpusLaws[seed%uint64(len(corpusLaws))]
		s, err := synthFor(synths, laws)
		if err != nil {
			results[i] = corpusResult{game: i, laws: laws, err: err}
			return
		}
		opts, board := analogOptions(seed)
		n, err := replayAnalog(s, &games[i], seed, opts, cals[board])
		results[i] = corpusResult{game: i, laws: laws, moves: len(games[i].Moves), err: err}
		frames[i] = n
	})
	failed, moves, total := 0, 0, 0
	for i, r := range results {
		moves += r.moves
		total += frames[i]
		if r.err != nil {
			failed++
			if failed <= 20 {
				t.Errorf("%v", r.err)
			}
		}
	}
	t.Logf("%d games, %d moves, %d analogue frames: %d not recovered faithfully", len(games), moves, total, failed)
}

// every returns every k-th game.
func every(games []Game, k int) []Game {
	var out []Game
	for i := 0; i < len(games); i += k {
		out = append(out, games[i])
	}
	return out
}

// forEachGame runs play for games 0 to n-1 on every core, each worker with
// its own synthesisers.
func forEachGame(n int, play func(i int, synths map[string]*Synthesiser)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, min(n, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			synths := map[string]*Synthesiser{}
			for i := range next {
				play(i, synths)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// synthFor returns the worker's synthesiser for a law-set, making it the
// first time.
func synthFor(synths map[string]*Synthesiser, laws string) (*Synthesiser, error) {
	if s := synths[laws]; s != nil {
		return s, nil
	}
	s, err := NewSynthesiser(SynthOptions{Seed: corpusSeed, Laws: laws, Style: DefaultStyle()})
	if err != nil {
		return nil, err
	}
	synths[laws] = s
	return s, nil
}
