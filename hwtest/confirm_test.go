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

// confirmation is what one setting of the settle times does over a
// corpus: games misread, the delays from a move's last placement to its
// report (final), and to the first answer the LEDs give it (shown: the move
// pending, or made, whichever comes first).
type confirmation struct {
	misread, games int
	final, shown   []time.Duration
}

// confirmCorpus replays every corpus game in the given style (frames:
// bouncing raw frames) with the settle time settle and the quick settle
// time quick, and measures.
func confirmCorpus(t testing.TB, games []Game, style Style, frames bool, settle, quick time.Duration) confirmation {
	type result struct {
		err          error
		final, shown []time.Duration
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
				reports, landings, err := replayWatching(lines, game.Options{Laws: laws, Timing: game.Timing{Settle: settle, QuickSettle: quick}})
				if err != nil {
					results[i].err = err
					continue
				}
				results[i].err = CheckClean(&games[i], reports)
				results[i].final, results[i].shown = delays(places, reports, landings)
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
		c.final = append(c.final, r.final...)
		c.shown = append(c.shown, r.shown...)
	}
	slices.Sort(c.final)
	slices.Sort(c.shown)
	return c
}

// replayWatching replays lines as Replay does, stepping through every timer
// between them, and notes each time a move is first shown as pending.
func replayWatching(lines []trace.Line, opts game.Options) ([]report.Report, []time.Duration, error) {
	var reports []report.Report
	var landings []time.Duration
	if len(lines) > 0 && lines[0].Kind == trace.Setup {
		opts.Setup = lines[0].FEN
		lines = lines[1:]
	}
	g, err := game.New(opts, func(r report.Report) { reports = append(reports, r) })
	if err != nil {
		return nil, nil, err
	}
	shown := false
	watch := func() {
		s := g.Snapshot()
		if s.HasLanding && !shown {
			landings = append(landings, s.T)
		}
		shown = s.HasLanding
	}
	var last time.Duration
	for _, l := range lines {
		for g.Deadline() < l.T {
			g.Advance(g.Deadline())
			watch()
		}
		if err := g.Input(l); err != nil {
			return reports, landings, err
		}
		watch()
		last = l.T
	}
	for g.Deadline() < last+time.Minute {
		g.Advance(g.Deadline())
		watch()
	}
	g.Finish(last + time.Minute)
	return reports, landings, nil
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
// before it (final), and the time from that placement to the first answer
// the LEDs gave: the move shown pending, or the report itself (shown).
func delays(places []time.Duration, reports []report.Report, landings []time.Duration) (final, shown []time.Duration) {
	i, j := 0, 0
	for _, r := range reports {
		if r.Type != report.Move {
			continue
		}
		for i+1 < len(places) && places[i+1] <= r.T {
			i++
		}
		if i >= len(places) || places[i] > r.T {
			continue
		}
		final = append(final, r.T-places[i])
		first := r.T
		for j < len(landings) && landings[j] < places[i] {
			j++
		}
		if j < len(landings) && landings[j] < first {
			first = landings[j]
		}
		shown = append(shown, first-places[i])
	}
	return final, shown
}

func delayAt(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[min(len(ds)-1, int(p*float64(len(ds))))]
}

// TestConfirmationCurve measures, over the whole synthesised corpus as
// events, bouncing frames and the hardest replies, how many games each
// settle time misreads (the hands set men down in passing for up to
// MaxPassingDwell), and how soon moves are shown pending (at the default
// quick settle time) and made. It runs with BOARDD_CURVE=1 (minutes of
// work); docs/synthesiser.md holds its table.
func TestConfirmationCurve(t *testing.T) {
	if os.Getenv("BOARDD_CURVE") == "" {
		t.Skip("set BOARDD_CURVE=1 to measure the confirmation curve")
	}
	games := loadTestCorpus(t)
	q := game.DefaultQuickSettle
	fmt.Printf("| settle | events misread | frames misread | hard misread | shown p50 / p90 / p99 | final p50 / p90 / p99 (events) | final p50 / p90 / p99 (frames) |\n|---|---|---|---|---|---|---|\n")
	for _, settle := range []time.Duration{250, 300, 350, 400, 450, 500, 600} {
		settle *= time.Millisecond
		ev := confirmCorpus(t, games, DefaultStyle(), false, settle, q)
		fr := confirmCorpus(t, games, DefaultStyle(), true, settle, q)
		hard := confirmCorpus(t, games, HardStyle(), false, settle, q)
		fmt.Printf("| %v | %d of %d | %d | %d | %v / %v / %v | %v / %v / %v | %v / %v / %v |\n", settle, ev.misread, ev.games, fr.misread, hard.misread,
			delayAt(ev.shown, 0.5), delayAt(ev.shown, 0.9), delayAt(ev.shown, 0.99),
			delayAt(ev.final, 0.5), delayAt(ev.final, 0.9), delayAt(ev.final, 0.99),
			delayAt(fr.final, 0.5), delayAt(fr.final, 0.9), delayAt(fr.final, 0.99))
	}
}
