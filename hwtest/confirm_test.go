package hwtest

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// confirmation is what one setting of the quick settle time does over a
// corpus: games misread, and the delays from a move's last placement to its
// report.
type confirmation struct {
	misread, games int
	delays         []time.Duration
}

// confirmCorpus replays every corpus game in the given style (frames:
// bouncing raw frames) with the quick settle time q, and measures.
func confirmCorpus(t testing.TB, games []Game, style Style, frames bool, q time.Duration) confirmation {
	type result struct {
		err    error
		delays []time.Duration
	}
	results := make([]result, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			synths := map[string]*Synthesiser{}
			for i := range next {
				seed := gameSeed(&games[i])
				laws := corpusLaws[seed%uint64(len(corpusLaws))]
				s := synths[laws]
				if s == nil {
					var err error
					if s, err = NewSynthesiser(SynthOptions{Seed: corpusSeed, Laws: laws, Style: style}); err != nil {
						results[i].err = err
						continue
					}
					synths[laws] = s
				}
				lines, err := s.Events(&games[i], seed)
				if err != nil {
					results[i].err = err
					continue
				}
				places := placements(lines)
				if frames {
					if lines, err = s.Frames(lines, seed); err != nil {
						results[i].err = err
						continue
					}
				}
				reports, err := Replay(lines, game.Options{Laws: laws, Timing: game.Timing{QuickSettle: q}})
				if err != nil {
					results[i].err = err
					continue
				}
				results[i].err = CheckClean(&games[i], reports)
				results[i].delays = delays(places, reports)
			}
		})
	}
	for i := range games {
		next <- i
	}
	close(next)
	wg.Wait()
	c := confirmation{games: len(games)}
	for _, r := range results {
		if r.err != nil {
			c.misread++
		}
		c.delays = append(c.delays, r.delays...)
	}
	slices.Sort(c.delays)
	return c
}

// placements lists the times of the events trace's placements.
func placements(lines []trace.Line) []time.Duration {
	var out []time.Duration
	for _, l := range lines {
		if l.Kind == trace.Place {
			out = append(out, l.T)
		}
	}
	return out
}

// delays gives, for each move report, the time since the last placement
// before it.
func delays(places []time.Duration, reports []report.Report) []time.Duration {
	var out []time.Duration
	i := 0
	for _, r := range reports {
		if r.Type != report.Move {
			continue
		}
		for i+1 < len(places) && places[i+1] <= r.T {
			i++
		}
		if i < len(places) && places[i] <= r.T {
			out = append(out, r.T-places[i])
		}
	}
	return out
}

func delayAt(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[min(len(ds)-1, int(p*float64(len(ds))))]
}

// TestConfirmationCurve measures, over the whole synthesised corpus as
// events, bouncing frames and the hardest replies, how many games each quick
// settle time misreads and how soon moves are confirmed. It runs with
// BOARDD_CURVE=1 (minutes of work); docs/synthesiser.md holds its table.
func TestConfirmationCurve(t *testing.T) {
	if os.Getenv("BOARDD_CURVE") == "" {
		t.Skip("set BOARDD_CURVE=1 to measure the confirmation curve")
	}
	games := loadTestCorpus(t)
	fmt.Printf("| quick settle | events misread | frames misread | hard misread | delay p50 | delay p90 | delay p99 |\n|---|---|---|---|---|---|---|\n")
	for _, q := range []time.Duration{30, 50, 70, 90, 110, 130, 150, 200, 250} {
		q *= time.Millisecond
		ev := confirmCorpus(t, games, DefaultStyle(), false, q)
		fr := confirmCorpus(t, games, DefaultStyle(), true, q)
		hard := confirmCorpus(t, games, HardStyle(), false, q)
		fmt.Printf("| %v | %d of %d | %d | %d | %v | %v | %v |\n", q, ev.misread, ev.games, fr.misread, hard.misread,
			delayAt(ev.delays, 0.5), delayAt(ev.delays, 0.9), delayAt(ev.delays, 0.99))
	}
}
