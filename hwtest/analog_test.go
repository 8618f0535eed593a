package hwtest

import (
	"context"
	"fmt"
	"math"
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
// on and calibrated; half the games by ordinary hands, a quarter by hands
// twice as slow and a quarter three times; a hand holds a man above a
// square before setting him down (or moving on) at one placement in five,
// where the events leave the time.
func analogOptions(seed uint64) (AnalogOptions, int) {
	i := int(seed % analogBoards)
	slow := []float64{1, 1, 2, 3}[seed>>20%4]
	return AnalogOptions{Board: analogModel(i), BoardSeed: uint64(i), Started: time.Duration(seed>>8%3600) * time.Second,
		Slow: slow, Hover: 0.2}, i
}

// analogStats is what a replay of an analogue trace saw of its hands.
type analogStats struct {
	frames     int
	placements int     // placements read
	air        int     // placements read while the man was more than airborne above his square
	hovers     [2]int  // onto the square set down on, beside it
	highest    float64 // the highest a man stood above his square when his placement was read, mm
}

// airborne is how far above his seat a man may be when his placement is
// read, in mm: his level is then within a few per cent of his seated one.
const airborne = 0.25

// airCheck is the classifier of a replay, which also holds each placement
// it reads to the trace's truth: the man must be down (within airborne)
// and no placement may be read where no man is.
type airCheck struct {
	tc    *calibration.TraceClassifier
	a     *AnalogTrace
	prev  board.Occupancy
	stats analogStats
	err   error
}

func (c *airCheck) ClassifyAnalog(t time.Duration, bits int, levels *[trace.Channels]uint16) (board.Occupancy, error) {
	occ, err := c.tc.ClassifyAnalog(t, bits, levels)
	if err != nil {
		return occ, err
	}
	for _, sq := range (occ &^ c.prev).Squares() {
		c.stats.placements++
		h := c.a.Height(sq)
		c.stats.highest = max(c.stats.highest, h)
		if h > airborne {
			c.stats.air++
		}
		if h > airborne && c.err == nil {
			what := fmt.Sprintf("its man %.2f mm above it", h)
			if math.IsInf(h, 1) {
				what = "no man over it"
			}
			c.err = fmt.Errorf("at %v a man was read on %s with %s", t, sq, what)
		}
	}
	c.prev = occ
	return occ, nil
}

// replayAnalog synthesises g as an analogue trace on the board opts name,
// replays it through calibration cal as boardd replay --calibration does,
// and checks it: every move back with nothing irregular, and no placement
// read before the man is down.
func replayAnalog(s *Synthesiser, g *Game, seed uint64, opts AnalogOptions, cal *calibration.Calibration) (analogStats, error) {
	return replayAnalogWith(s, g, seed, opts, cal, calibration.ClassifierOptions{})
}

// replayAnalogWith is replayAnalog with the classifier's options given: a
// test can replay the same trace through a classifier that does not wait
// for a level to settle, to show what its hands would do to one.
func replayAnalogWith(s *Synthesiser, g *Game, seed uint64, opts AnalogOptions, cal *calibration.Calibration, copts calibration.ClassifierOptions) (analogStats, error) {
	a, err := s.Analog(g, seed, opts)
	if err != nil {
		return analogStats{}, err
	}
	tc, err := calibration.NewTraceClassifier(cal, copts)
	if err != nil {
		return analogStats{}, err
	}
	check := &airCheck{tc: tc, a: a}
	check.stats.hovers[0], check.stats.hovers[1] = a.Hovers()
	reports, err := ReplayStream(func() (trace.Line, bool) {
		l, ok := a.Next()
		if l.Kind == trace.Frame {
			check.stats.frames++
		}
		return l, ok
	}, game.Options{Laws: s.Options().Laws, Analog: check})
	if err != nil {
		return check.stats, err
	}
	if err := CheckClean(g, reports); err != nil {
		check.err = err
	}
	if check.err != nil {
		return check.stats, fmt.Errorf("seed %d, laws %s, %s, hands x%v: %w", seed, s.Options().Laws, a.Board(), max(opts.Slow, 1), check.err)
	}
	return check.stats, nil
}

// TestCorpusAnalog plays the corpus on simulated analogue boards, every
// noise source at its datasheet level (offset and gain spread, each
// sensor's drift of its own sign as the board warms, crosstalk, men set
// off-centre, sensor and ADC noise, the ADC's nonlinearity, one weak sensor
// a board), by ordinary and slow hands (twice and three times as slow) that
// sometimes hold a man above a square, scanned 100 times a second, replays
// each trace through the board's calibration, and requires every move back
// with nothing irregular and every placement read only once the man is
// down. Under -short every 4th game of the corpus; under -race a sample of
// it.
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
	stats := make([]analogStats, len(games))
	slowness := make([]float64, len(games))
	forEachGame(len(games), func(i int, synths map[string]*Synthesiser) {
		seed := gameSeed(&games[i])
		laws := corpusLaws[seed%uint64(len(corpusLaws))]
		s, err := synthFor(synths, laws)
		if err != nil {
			results[i] = corpusResult{game: i, laws: laws, err: err}
			return
		}
		opts, board := analogOptions(seed)
		st, err := replayAnalog(s, &games[i], seed, opts, cals[board])
		results[i] = corpusResult{game: i, laws: laws, moves: len(games[i].Moves), err: err}
		stats[i], slowness[i] = st, opts.Slow
	})
	type tally struct {
		games, moves, failed, placements int
		hovers                           [2]int
		highest                          float64
	}
	by := map[float64]*tally{}
	failed, moves, total := 0, 0, 0
	for i, r := range results {
		moves += r.moves
		total += stats[i].frames
		tl := by[slowness[i]]
		if tl == nil {
			tl = &tally{}
			by[slowness[i]] = tl
		}
		tl.games++
		tl.moves += r.moves
		tl.placements += stats[i].placements
		tl.hovers[0] += stats[i].hovers[0]
		tl.hovers[1] += stats[i].hovers[1]
		tl.highest = max(tl.highest, stats[i].highest)
		if r.err != nil {
			failed++
			tl.failed++
			if failed <= 20 {
				t.Errorf("%v", r.err)
			}
		}
	}
	for _, slow := range []float64{1, 2, 3} {
		if tl := by[slow]; tl != nil {
			t.Logf("hands x%v: %d games, %d moves, %d placements read (the highest %.3f mm above his seat), %d hovers over the square set down on, %d beside it: %d not recovered faithfully",
				slow, tl.games, tl.moves, tl.placements, tl.highest, tl.hovers[0], tl.hovers[1], tl.failed)
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
