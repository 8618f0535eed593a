package hwtest

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/trace"
)

func testGames(t *testing.T, name string) []Game {
	t.Helper()
	games, err := testCorpus()
	if err != nil {
		t.Fatal(err)
	}
	var out []Game
	for _, g := range games {
		if strings.HasPrefix(g.Name, name) {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no games %s* in the corpus", name)
	}
	return out
}

func TestSynthesiserIsReproducible(t *testing.T) {
	g := testGames(t, "random.pgn")[3]
	for _, tt := range []struct {
		name  string
		style Style
	}{
		{"hard", HardStyle()},
		{"every move set down in passing, nudged, hesitated over", Style{Passing: 1, PassingNudge: 1, HesitateTwo: 0.5, SlowRook: 1}},
	} {
		s1, _ := NewSynthesiser(SynthOptions{Seed: 5, Style: tt.style})
		s2, _ := NewSynthesiser(SynthOptions{Seed: 5, Style: tt.style})
		s3, _ := NewSynthesiser(SynthOptions{Seed: 6, Style: tt.style})
		a, err := s1.Events(&g, 1)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := s2.Events(&g, 1)
		c, _ := s3.Events(&g, 1)
		d, _ := s1.Events(&g, 2)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the same seeds gave different traces", tt.name)
		}
		if reflect.DeepEqual(a, c) || reflect.DeepEqual(a, d) {
			t.Errorf("%s: different seeds gave the same trace", tt.name)
		}
		fa, _ := s1.Frames(a, 1)
		fb, _ := s2.Frames(b, 1)
		if !reflect.DeepEqual(fa, fb) {
			t.Errorf("%s: the same seeds gave different frames", tt.name)
		}
	}
}

func TestNewSynthesiserRejectsBadOptions(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts SynthOptions
		want string
	}{
		{"unknown law-set", SynthOptions{Laws: "fide1900"}, "unknown law-set"},
		{"probability above one", SynthOptions{Style: Style{Slide: 1.5}}, "Slide"},
		{"negative probability", SynthOptions{Style: Style{FastReply: -0.1}}, "FastReply"},
		{"passing above one", SynthOptions{Style: Style{Passing: 2}}, "Passing"},
		{"slow rook negative", SynthOptions{Style: Style{SlowRook: -1}}, "SlowRook"},
		{"bounce outlasts debounce", SynthOptions{Debounce: 5 * time.Millisecond, MaxBounce: 8 * time.Millisecond}, "bounce"},
	} {
		_, err := NewSynthesiser(tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tt.name, err, tt.want)
		}
	}
}

// TestSynthesiserHandsAreCareful checks every trace of the corpus sample for
// the rules of careful hands: never a lift from an empty square or a
// placement on an occupied one, the board showing each move's position when
// its turn ends, time never going back, slides only through empty squares,
// no two changes of a square closer than the debounce can resolve, and
// every fast reply begun after the final placement of the move before.
func TestSynthesiserHandsAreCareful(t *testing.T) {
	games := testGames(t, "random.pgn")
	games = games[:min(40, len(games))]
	fastMoves := 0
	for _, laws := range corpusLaws {
		s, err := NewSynthesiser(SynthOptions{Seed: 11, Laws: laws, Style: HardStyle()})
		if err != nil {
			t.Fatal(err)
		}
		for i := range games {
			g := &games[i]
			b, err := s.build(g, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			pos := g.Start
			occ := pos.Occupancy()
			var last time.Duration
			lastChange := map[board.Square]time.Duration{}
			for j, l := range b.lines {
				if l.T < last {
					t.Fatalf("%s: line %d goes back in time", g.Name, j+1)
				}
				last = l.T
				switch l.Kind {
				case trace.Lift, trace.Place:
					if (l.Kind == trace.Lift) != occ.Has(l.Square) {
						t.Fatalf("%s (%s): line %d: %s %s with the board reading %s", g.Name, laws, j+1, l.Kind, l.Square, occ.Hex())
					}
					occ ^= 1 << uint(l.Square)
					if prev, ok := lastChange[l.Square]; ok && l.T-prev < s.opts.Debounce+s.opts.MaxBounce {
						t.Fatalf("%s: line %d: %s changes %v after its last change", g.Name, j+1, l.Square, l.T-prev)
					}
					lastChange[l.Square] = l.T
				}
			}
			if want := g.Final(); occ != want.Occupancy() {
				t.Fatalf("%s: the board ends reading %s, the game %s", g.Name, occ.Hex(), want.Occupancy().Hex())
			}
			n, err := checkFastReplies(b)
			if err != nil {
				t.Fatalf("%s (%s): %v", g.Name, laws, err)
			}
			fastMoves += n
		}
	}
	if fastMoves == 0 {
		t.Error("no move begun fast in the sample")
	}
}

// checkFastReplies checks that every move begun fast begins 50 to 200 ms
// after the last line of the move before (its final placement, or a clock
// press after it), never while that move's man is still being set down in
// passing or its castling rook is still to come.
func checkFastReplies(b *builder) (checked int, err error) {
	for i := 1; i < len(b.starts) && i < len(b.habitsAt); i++ {
		fast := slices.ContainsFunc(b.habitsAt[i], func(h string) bool {
			return h == "fast reply" || h == "fast reply, victim first" || h == "fast recapture"
		})
		if !fast {
			continue
		}
		checked++
		first, before := b.lines[b.starts[i]], b.lines[b.starts[i]-1]
		if gap := first.T - before.T; gap < 50*time.Millisecond || gap > 200*time.Millisecond {
			return checked, fmt.Errorf("move %d, begun fast, begins %v after the move before ended", i+1, gap)
		}
		lastPlace := b.starts[i] - 1
		for lastPlace >= b.starts[i-1] && b.lines[lastPlace].Kind != trace.Place {
			lastPlace--
		}
		if lastPlace < b.starts[i-1] {
			return checked, fmt.Errorf("move %d, begun fast: the move before sets nothing down", i+1)
		}
	}
	return checked, nil
}

// TestSynthesiserUsesEveryHabit requires the random corpus to exercise every
// physical order the synthesiser knows, under the law-sets that allow them,
// and never to castle rook first under fide2023 (4.4.2: touching the rook
// first forbids castling, so clean play never does it).
func TestSynthesiserUsesEveryHabit(t *testing.T) {
	games := testGames(t, "random.pgn")
	tally := map[string]int{}
	for _, laws := range []string{"fide2023", "nycc"} {
		s, err := NewSynthesiser(SynthOptions{Seed: 1, Laws: laws, Style: HardStyle()})
		if err != nil {
			t.Fatal(err)
		}
		for i := range games {
			b, err := s.build(&games[i], uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range b.tally {
				tally[k] += v
			}
			if laws == "fide2023" && b.tally["castling, rook first in hand"]+b.tally["castling, rook set first"] > 0 {
				t.Fatalf("%s: rook-first castling under fide2023", games[i].Name)
			}
		}
	}
	for _, habit := range []string{
		"capture, victim first", "capture, victim second", "capture, both in hand", "capture, own man first",
		"en passant", "en passant, taken pawn removed after",
		"castling, king then rook", "castling, king first in hand", "castling, rook first in hand", "castling, rook set first",
		"promotion, named before", "promotion, named after", "promotion, pawn exchanged", "promotion, new man set straight down", "underpromotion",
		"slide", "adjustment", "clock press", "hesitation", "fast reply", "fast reply, victim first", "fast recapture",
		"passing", "passing, two stops", "passing, long dwell", "passing, lawful square", "passing, unlawful square",
		"passing nudge", "slow castling rook", "hesitation over two squares",
	} {
		if tally[habit] == 0 {
			t.Errorf("no %s in the random corpus", habit)
		}
	}
	t.Logf("habits: %v", tally)
}

func TestReadPGN(t *testing.T) {
	for _, tt := range []struct {
		name, pgn string
		moves     []string
		fails     string
	}{
		{"plain", "1. e4 e5 2. Nf3 Nc6 *", []string{"e2e4", "e7e5", "g1f3", "b8c6"}, ""},
		{"comments and variations dropped", "1. e4 {best} (1. d4 d5) e5 2. O-O?? *", nil, "hwtest"},
		{"castling and promotion", `[FEN "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1"]
[SetUp "1"]

1. O-O Kd7 2. b8=N+ *`, []string{"e1g1", "e8d7", "b7b8n"}, ""},
		{"threefold repetition cut", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *", []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, ""},
	} {
		games, err := ReadPGN(strings.NewReader(tt.pgn), tt.name)
		if tt.fails != "" {
			if err == nil {
				t.Errorf("%s: read %v, want an error", tt.name, games)
			}
			continue
		}
		if err != nil || len(games) != 1 {
			t.Errorf("%s: %d games, %v", tt.name, len(games), err)
			continue
		}
		if got := games[0].UCI(); !reflect.DeepEqual(got, tt.moves) {
			t.Errorf("%s: moves %v, want %v", tt.name, got, tt.moves)
		}
	}
}

func TestWritePGNReadsBack(t *testing.T) {
	games := testGames(t, "random.pgn")[:30]
	var b strings.Builder
	if err := WritePGN(&b, games); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPGN(strings.NewReader(b.String()), "back")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(games) {
		t.Fatalf("%d games read back, want %d", len(back), len(games))
	}
	for i := range games {
		if !reflect.DeepEqual(back[i].UCI(), games[i].UCI()) {
			t.Fatalf("game %d changed on the way through PGN", i)
		}
	}
}

// TestRandomGamesAreRich checks the random part of the corpus is what it
// claims: every move legal, and castling, en passant, promotion and
// underpromotion common.
func TestRandomGamesAreRich(t *testing.T) {
	f, err := os.Open("testdata/random.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := ReadPGN(f, "random.pgn")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, g := range games {
		pos := g.Start
		for _, m := range g.Moves {
			switch {
			case pos.IsCastling(m):
				count["castling"]++
			case pos.IsEnPassant(m):
				count["en passant"]++
			case pos.IsPromotion(m) && m.Promo != board.Queen:
				count["underpromotion"]++
			case pos.IsPromotion(m):
				count["promotion"]++
			}
			pos = pos.Apply(m)
		}
	}
	for _, k := range []string{"castling", "en passant", "promotion", "underpromotion"} {
		if count[k] < len(games)/4 {
			t.Errorf("%d %s in %d random games, want at least %d", count[k], k, len(games), len(games)/4)
		}
	}
	t.Logf("%d random games: %v", len(games), count)
	g1, g2 := RandomGame(77, 120), RandomGame(77, 120)
	if !reflect.DeepEqual(g1.UCI(), g2.UCI()) {
		t.Error("RandomGame is not reproducible")
	}
}

// TestSynthesiserPassingStops checks the set-downs in passing over a sample
// of the corpus, for each kind of man: stops on empty squares next to the
// destination or on the way (lawful destinations and others both), never
// on the man's own squares, each dwell within MinPassingDwell (or the
// square's least gap) and MaxPassingDwell, about one in ten long, nudges
// back on the same square after 20 to 80 ms, and hesitations over two
// squares on another lawful destination, held 0.3 to 1.5 s before the man
// lands.
func TestSynthesiserPassingStops(t *testing.T) {
	games := testGames(t, "random.pgn")[:30]
	games = append(games, testGames(t, "lichess")[:30]...)
	s, err := NewSynthesiser(SynthOptions{Seed: 3, Style: Style{Passing: 1, PassingNudge: 0.3, HesitateTwo: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ stops, lawful, unlawful, long, nudged, hesitations int }
	byKind := map[board.Kind]*tally{}
	twoStops := 0
	for i := range games {
		g := &games[i]
		b, err := s.build(g, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		positions := []board.Position{g.Start}
		for _, m := range g.Moves {
			positions = append(positions, positions[len(positions)-1].Apply(m))
		}
		perPly := map[int]int{}
		for _, st := range b.stops {
			if err := checkPassingStop(b, positions[st.ply], st); err != nil {
				t.Fatalf("%s, move %d %s: %v", g.Name, st.ply+1, st.move.UCI(), err)
			}
			k := byKind[st.kind]
			if k == nil {
				k = &tally{}
				byKind[st.kind] = k
			}
			if st.hesitation {
				k.hesitations++
				continue
			}
			if perPly[st.ply]++; perPly[st.ply] == 2 {
				twoStops++
			}
			k.stops++
			if st.lawful {
				k.lawful++
			} else {
				k.unlawful++
			}
			if b.lines[st.lift].T-b.lines[st.lastPlace].T > usualPassingDwell {
				k.long++
			}
			if st.nudged {
				k.nudged++
			}
		}
	}
	for _, tt := range []struct {
		kind     board.Kind
		minStops int
	}{
		{board.Pawn, 200}, {board.Knight, 60}, {board.Bishop, 60}, {board.Rook, 60}, {board.Queen, 60}, {board.King, 60},
	} {
		k := byKind[tt.kind]
		if k == nil {
			t.Errorf("%v: no stops in passing", tt.kind)
			continue
		}
		t.Logf("%v: %+v", tt.kind, *k)
		if k.stops < tt.minStops {
			t.Errorf("%v: %d stops in passing, want at least %d", tt.kind, k.stops, tt.minStops)
		}
		if k.lawful == 0 || k.unlawful == 0 {
			t.Errorf("%v: %d stops on lawful squares and %d on others, want both", tt.kind, k.lawful, k.unlawful)
		}
		if share := float64(k.long) / float64(k.stops); share < 0.03 || share > 0.25 {
			t.Errorf("%v: %.2f of the stops dwell longer than %v, want about %.2f", tt.kind, share, usualPassingDwell, longPassingShare)
		}
		if k.nudged == 0 || k.hesitations == 0 {
			t.Errorf("%v: %d nudges and %d hesitations over two squares, want some of each", tt.kind, k.nudged, k.hesitations)
		}
	}
	if twoStops == 0 {
		t.Error("no move with two stops in passing")
	}
}

// checkPassingStop checks one stop against the trace and the position
// before its move (pos).
func checkPassingStop(b *builder, pos board.Position, st passingStop) error {
	lines, sq, m := b.lines, st.square, st.move
	if sq == m.From || sq == m.To {
		return fmt.Errorf("set down in passing on its own square %s", sq)
	}
	if pos.Men[m.From].Kind() != st.kind {
		return fmt.Errorf("stop recorded for a %v, the man moving is a %v", st.kind, pos.Men[m.From].Kind())
	}
	a, err := board.Analyse(pos)
	if err != nil {
		return err
	}
	lawful := false
	for _, lm := range a.Moves {
		lawful = lawful || (lm.From == m.From && lm.To == sq)
	}
	if lawful != st.lawful {
		return fmt.Errorf("%s recorded lawful %v, is %v", sq, st.lawful, lawful)
	}
	if st.hesitation && !lawful {
		return fmt.Errorf("hesitation over %s, a square the man cannot go to", sq)
	}
	if !st.hesitation && kingDistance(sq, m.To) != 1 && !containsSquare(pathBetween(m.From, m.To), sq) {
		return fmt.Errorf("stop on %s, neither next to %s nor on the way", sq, m.To)
	}
	is := func(i int, k trace.Kind) bool { return lines[i].Kind == k && lines[i].Square == sq }
	if !is(st.firstPlace, trace.Place) || !is(st.lastPlace, trace.Place) || !is(st.lift, trace.Lift) {
		return fmt.Errorf("the lines %d, %d, %d are not the stop on %s", st.firstPlace, st.lastPlace, st.lift, sq)
	}
	leastGap := b.sqGap
	inRange := func(d time.Duration) bool {
		return d >= min(MinPassingDwell, leastGap) && d <= max(MaxPassingDwell, leastGap)
	}
	dwells := []time.Duration{lines[st.lift].T - lines[st.lastPlace].T}
	if st.nudged {
		if st.lastPlace != st.firstPlace+2 || !is(st.firstPlace+1, trace.Lift) {
			return fmt.Errorf("nudge on %s is not a lift and a placement", sq)
		}
		if air := lines[st.lastPlace].T - lines[st.firstPlace+1].T; air < 20*time.Millisecond || air > max(80*time.Millisecond, leastGap) {
			return fmt.Errorf("nudge on %s %v in the air, want 20-80 ms", sq, air)
		}
		dwells = append(dwells, lines[st.firstPlace+1].T-lines[st.firstPlace].T)
	} else if st.lastPlace != st.firstPlace {
		return fmt.Errorf("stop on %s placed twice without a nudge", sq)
	}
	for _, d := range dwells {
		if !inRange(d) {
			return fmt.Errorf("dwell of %v on %s, want %v to %v", d, sq, MinPassingDwell, MaxPassingDwell)
		}
	}
	if st.hesitation {
		next := st.lift + 1
		for next < len(lines) && lines[next].Kind != trace.Place {
			next++
		}
		if next == len(lines) || lines[next].Square != m.To {
			return fmt.Errorf("after hesitating over %s the man does not land on %s", sq, m.To)
		}
		if held := lines[next].T - lines[st.lift].T; held < 300*time.Millisecond || held > 1500*time.Millisecond+minLineGap {
			return fmt.Errorf("held %v after hesitating over %s, want 0.3-1.5 s", held, sq)
		}
	}
	return nil
}
