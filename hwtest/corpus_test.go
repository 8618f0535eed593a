package hwtest

import (
	"fmt"
	"hash/fnv"
	"runtime"
	"sync"
	"testing"

	"github.com/boardd/boardd/game"
)

// corpusLaws are the law-sets the corpus is replayed under, one per game in
// turn: each allows a different set of castling orders.
var corpusLaws = []string{"fide2023", "hastings1895", "nycc"}

// loadTestCorpus returns the corpus games: every PGN in testdata. Under
// -short or the race detector, every k-th game only.
func loadTestCorpus(t testing.TB) []Game {
	t.Helper()
	games, err := testCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) < 780/corpusSample {
		t.Fatalf("corpus holds %d games (read one in %d), want at least 780", len(games), corpusSample)
	}
	step := 1
	switch {
	case testing.Short() && raceEnabled:
		step = 5 // one game in 30
	case raceEnabled:
		step = 2 // one game in 12
	case testing.Short():
		step = 4
	}
	if step == 1 {
		return games
	}
	var out []Game
	for i := 0; i < len(games); i += step {
		out = append(out, games[i])
	}
	return out
}

// testCorpus reads the corpus once for all the tests and benchmarks of the
// package (parsing 784 games of PGN takes seconds); callers must not modify
// the games.
// Under the race detector, which makes parsing ten times slower, it reads
// every corpusSample-th game only.
var testCorpus = sync.OnceValues(func() ([]Game, error) { return LoadCorpusSample("testdata", corpusSample) })

// corpusSample is the share of the corpus the tests read.
var corpusSample = map[bool]int{false: 1, true: 6}[raceEnabled]

// gameSeed gives each corpus game its own hands and law-set, the same
// whichever sample of the corpus a test reads.
func gameSeed(g *Game) uint64 {
	h := fnv.New64a()
	h.Write([]byte(g.Name))
	return h.Sum64()
}

type corpusResult struct {
	game  int
	laws  string
	err   error
	moves int
}

// corpusSeed seeds the hands of the corpus tests.
const corpusSeed = 2024

// replayCorpus synthesises each game under its law-set, as events or frames,
// replays it and checks it, on all cores.
func replayCorpus(t *testing.T, games []Game, style Style, frames bool) []corpusResult {
	results := make([]corpusResult, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			synths := map[string]*Synthesiser{}
			for i := range next {
				seed := gameSeed(&games[i])
				laws := corpusLaws[seed%uint64(len(corpusLaws))]
				s := synths[laws]
				if s == nil {
					var err error
					if s, err = NewSynthesiser(SynthOptions{Seed: corpusSeed, Laws: laws, Style: style}); err != nil {
						results[i] = corpusResult{game: i, laws: laws, err: err}
						continue
					}
					synths[laws] = s
				}
				results[i] = corpusResult{game: i, laws: laws, moves: len(games[i].Moves), err: replayOne(s, &games[i], seed, frames)}
			}
		}()
	}
	for i := range games {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func replayOne(s *Synthesiser, g *Game, seed uint64, frames bool) error {
	lines, err := s.Events(g, seed)
	if err != nil {
		return err
	}
	if frames {
		if lines, err = s.Frames(lines, seed); err != nil {
			return err
		}
	}
	reports, err := Replay(lines, game.Options{Laws: s.Options().Laws})
	if err != nil {
		return err
	}
	if err := CheckClean(g, reports); err != nil {
		return fmt.Errorf("seed %d, laws %s: %w", seed, s.Options().Laws, err)
	}
	return nil
}

func testCorpusReplay(t *testing.T, frames bool) {
	games := loadTestCorpus(t)
	results := replayCorpus(t, games, DefaultStyle(), frames)
	failed, moves := 0, 0
	for _, r := range results {
		moves += r.moves
		if r.err == nil {
			continue
		}
		failed++
		if failed <= 20 {
			t.Errorf("%v", r.err)
		}
	}
	t.Logf("%d games, %d moves: %d not recovered faithfully", len(games), moves, failed)
}

// TestCorpusEvents replays the corpus as debounced events and requires every
// game recovered exactly.
func TestCorpusEvents(t *testing.T) { testCorpusReplay(t, false) }

// TestCorpusFrames replays the corpus as raw frames with contact bounce.
func TestCorpusFrames(t *testing.T) { testCorpusReplay(t, true) }

// TestCorpusHardStyle replays the corpus with the hardest replies
// (HardStyle): every game must come back.
func TestCorpusHardStyle(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("the hard-style corpus runs without -short and without -race")
	}
	games := loadTestCorpus(t)
	results := replayCorpus(t, games, HardStyle(), false)
	failed := 0
	var first error
	for _, r := range results {
		if r.err != nil {
			failed++
			if first == nil {
				first = r.err
			}
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d games not recovered faithfully; first: %v", failed, len(games), first)
	}
}

// TestConcurrentGames builds games on several goroutines at once, as
// a daemon serving a hall of boards does (the rules library's FEN decoder
// raced here: board parses FEN itself since), and checks that each starts
// from the right position.
func TestConcurrentGames(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				p, err := game.New(game.Options{Laws: "fide2023", Setup: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"}, nil)
				if err != nil {
					errs <- err
					return
				}
				pos := p.Snapshot().Position
				if got := pos.FEN(); got != "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1" {
					errs <- fmt.Errorf("game started from %s", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
