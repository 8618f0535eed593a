package hwtest

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
)

// habitVariants are the styles TestHabitMisreads compares: DefaultStyle
// without the habits of issue 29, with each of them alone, and whole.
var habitVariants = []struct {
	name string
	set  func(st *Style) // applied to DefaultStyle less the four habits
}{
	{"without the issue-29 habits", func(*Style) {}},
	{"Passing (no nudge)", func(st *Style) { st.Passing = DefaultStyle().Passing }},
	{"Passing with PassingNudge", func(st *Style) { st.Passing, st.PassingNudge = DefaultStyle().Passing, DefaultStyle().PassingNudge }},
	{"SlowRook", func(st *Style) { st.SlowRook = DefaultStyle().SlowRook }},
	{"HesitateTwo", func(st *Style) { st.HesitateTwo = DefaultStyle().HesitateTwo }},
	{"DefaultStyle", func(st *Style) { *st = DefaultStyle() }},
}

// TestHabitMisreads (BOARDD_HABITS=1) measures what the habits of issue 29
// cost the recogniser: the corpus (every 4th game under -short) replayed as
// events and as frames in each of habitVariants, counting the games not
// recovered faithfully; then, for DefaultStyle, what the first move read
// wrong in each misread game did.
func TestHabitMisreads(t *testing.T) {
	if os.Getenv("BOARDD_HABITS") == "" {
		t.Skip("BOARDD_HABITS=1 measures the games each habit of issue 29 makes the recogniser misread")
	}
	games := loadTestCorpus(t)
	for _, v := range habitVariants {
		st := DefaultStyle()
		st.Passing, st.PassingNudge, st.SlowRook, st.HesitateTwo = 0, 0, 0, 0
		v.set(&st)
		for _, frames := range []bool{false, true} {
			culprits := habitCulprits(t, games, st, frames)
			misread := 0
			for _, n := range culprits {
				misread += n
			}
			form := map[bool]string{false: "events", true: "frames"}[frames]
			t.Logf("%-28s %s: %d of %d games misread", v.name, form, misread, len(games))
			if v.name != "DefaultStyle" {
				continue
			}
			primary, marks := map[string]int{}, map[string]int{}
			for p, n := range culprits {
				head, tail, _ := strings.Cut(p, " | ")
				primary[head] += n
				for _, m := range strings.Split(tail, ", ") {
					if m != "" {
						marks[m] += n
					}
				}
			}
			t.Logf("    of the games misread by stops in passing: %d with two stops in the move, %d nudged, %d with a long dwell (over %v)",
				marks["two stops"], marks["nudged"], marks["long dwell"], usualPassingDwell)
			culprits = primary
			patterns := make([]string, 0, len(culprits))
			for p := range culprits {
				patterns = append(patterns, p)
			}
			sort.Slice(patterns, func(i, j int) bool {
				if culprits[patterns[i]] != culprits[patterns[j]] {
					return culprits[patterns[i]] > culprits[patterns[j]]
				}
				return patterns[i] < patterns[j]
			})
			for _, p := range patterns {
				t.Logf("    %4d  %s", culprits[p], p)
			}
		}
	}
}

// habitCulprits replays the games in style st and counts the misread games
// by what the first move read wrong did (habitOfMove).
func habitCulprits(t *testing.T, games []Game, st Style, frames bool) map[string]int {
	t.Helper()
	labels := make([]string, len(games))
	errs := make([]error, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			synths := map[string]*Synthesiser{}
			for i := range next {
				labels[i], errs[i] = habitCulprit(synths, &games[i], st, frames)
			}
		})
	}
	for i := range games {
		next <- i
	}
	close(next)
	wg.Wait()
	out := map[string]int{}
	for i, l := range labels {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if l != "" {
			out[l]++
		}
	}
	return out
}

// habitCulprit replays one game (its corpus seed and law-set) and returns
// "" when it is recovered faithfully, else what its first move read wrong
// did.
func habitCulprit(synths map[string]*Synthesiser, g *Game, st Style, frames bool) (string, error) {
	seed := gameSeed(g)
	laws := corpusLaws[seed%uint64(len(corpusLaws))]
	s := synths[laws]
	if s == nil {
		var err error
		if s, err = NewSynthesiser(SynthOptions{Seed: corpusSeed, Laws: laws, Style: st}); err != nil {
			return "", err
		}
		synths[laws] = s
	}
	b, err := s.build(g, seed)
	if err != nil {
		return "", err
	}
	lines := b.lines
	if frames {
		if lines, err = s.Frames(lines, seed); err != nil {
			return "", err
		}
	}
	reports, err := Replay(lines, game.Options{Laws: laws})
	if err != nil {
		return "", fmt.Errorf("%s: %w", g.Name, err)
	}
	if CheckClean(g, reports) == nil {
		return "", nil
	}
	i := firstMisread(g, reports)
	label := habitOfMove(b, i)
	var marks []string
	stops := 0
	for _, st := range b.stops {
		if st.ply != i || st.hesitation {
			continue
		}
		if stops++; stops == 2 {
			marks = append(marks, "two stops")
		}
		if st.nudged && !slices.Contains(marks, "nudged") {
			marks = append(marks, "nudged")
		}
		if d := b.lines[st.lift].T - b.lines[st.lastPlace].T; d > usualPassingDwell && !slices.Contains(marks, "long dwell") {
			marks = append(marks, "long dwell")
		}
	}
	if len(marks) > 0 {
		label += " | " + strings.Join(marks, ", ")
	}
	return label, nil
}

// firstMisread is the index of the first move of g not read right: the
// first reported differently, or the one being played when the first
// irregularity, ruling or mismatch came.
func firstMisread(g *Game, reports []report.Report) int {
	var got []string
	for _, r := range reports {
		switch r.Type {
		case "move":
			got = append(got, r.UCI)
		case "irregularity", "ruling", "mismatch":
			if d := firstDifference(g.UCI()[:min(len(got), len(g.Moves))], got); d >= 0 {
				return d
			}
			return len(got)
		}
	}
	if d := firstDifference(g.UCI(), got); d >= 0 {
		return d
	}
	return len(g.Moves)
}

// habitOfMove says what move i of the builder's game did that the
// recogniser may have misread: its stops in passing (the man, and whether
// one of them was on a square he could lawfully go to), a hesitation over
// two squares, a slow castling rook, or else the habits it used.
func habitOfMove(b *builder, i int) string {
	if i >= len(b.g.Moves) {
		return "after the last move"
	}
	var stops []passingStop
	for _, st := range b.stops {
		if st.ply == i {
			stops = append(stops, st)
		}
	}
	var habits []string
	if i < len(b.habitsAt) {
		habits = b.habitsAt[i]
	}
	switch {
	case len(stops) > 0 && stops[0].hesitation:
		return fmt.Sprintf("%v: hesitation over two squares", stops[0].kind)
	case len(stops) > 0:
		lawful := false
		for _, st := range stops {
			lawful = lawful || st.lawful
		}
		return fmt.Sprintf("%v set down in passing on %s", stops[0].kind, map[bool]string{true: "a lawful square", false: "unlawful squares only"}[lawful])
	case slices.Contains(habits, "slow castling rook"):
		return "slow castling rook"
	}
	return "other: " + strings.Join(habits, ", ")
}
