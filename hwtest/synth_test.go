package hwtest

import (
	"os"
	"reflect"
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
	s1, _ := NewSynthesiser(SynthOptions{Seed: 5, Style: HardStyle()})
	s2, _ := NewSynthesiser(SynthOptions{Seed: 5, Style: HardStyle()})
	s3, _ := NewSynthesiser(SynthOptions{Seed: 6, Style: HardStyle()})
	a, err := s1.Events(&g, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s2.Events(&g, 1)
	c, _ := s3.Events(&g, 1)
	d, _ := s1.Events(&g, 2)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seeds gave different traces")
	}
	if reflect.DeepEqual(a, c) || reflect.DeepEqual(a, d) {
		t.Error("different seeds gave the same trace")
	}
	fa, _ := s1.Frames(a, 1)
	fb, _ := s2.Frames(b, 1)
	if !reflect.DeepEqual(fa, fb) {
		t.Error("the same seeds gave different frames")
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
// and no two changes of a square closer than the debounce can resolve.
func TestSynthesiserHandsAreCareful(t *testing.T) {
	games := testGames(t, "random.pgn")
	games = games[:min(40, len(games))]
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
		}
	}
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
