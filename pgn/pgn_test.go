package pgn

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

func mustFEN(t testing.TB, fen string) board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// movetext is the PGN after its tags, on one line.
func movetext(pgn string) string {
	_, mt, _ := strings.Cut(pgn, "\n\n")
	return strings.Join(strings.Fields(mt), " ")
}

func TestWrite(t *testing.T) {
	after := mustFEN(t, "4k3/8/8/8/8/1R6/8/2N1K3 b - - 0 1")
	tests := []struct {
		name     string
		game     Game
		movetext string
		tags     []string // present
		notTags  []string // absent
	}{
		{
			name:     "one comment a move, the clock first",
			game:     Game{Start: board.Start(), Moves: []Move{{Side: board.White, SAN: "e4", Comments: []string{"touch-move, nycc:X: stand by lapse", "[%clk 0:04:58]"}}, {Side: board.Black, SAN: "e5", Comments: []string{"[%clk 0:04:59]"}}}},
			movetext: "1. e4 {[%clk 0:04:58] touch-move, nycc:X: stand by lapse} 1... e5 {[%clk 0:04:59]} *",
			tags:     []string{`[Termination "unterminated"]`},
			notTags:  []string{"[SetUp", "[TerminationDetails"},
		},
		{
			name:     "two notes joined",
			game:     Game{Start: board.Start(), Moves: []Move{{Side: board.White, SAN: "e4", Comments: []string{"a", "b}c"}}}},
			movetext: "1. e4 {a; b)c} *",
		},
		{
			name:     "notes before the first move",
			game:     Game{Start: board.Start(), Notes: []string{"false-castling O-O, sarratt1808:16: king by black"}, Moves: []Move{{Side: board.White, SAN: "e4"}}},
			movetext: "{false-castling O-O, sarratt1808:16: king by black} 1. e4 *",
		},
		{
			name:     "notes and no move",
			game:     Game{Start: board.Start(), Notes: []string{"misplaced-setup, nycc:IX: game annulled by arbiter"}},
			movetext: "{misplaced-setup, nycc:IX: game annulled by arbiter} *",
		},
		{
			name: "black to move first, and after a comment",
			game: Game{Start: mustFEN(t, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"), Notes: []string{"n"}, Moves: []Move{
				{Side: board.Black, SAN: "Kd7"}, {Side: board.White, SAN: "e4", Comments: []string{"x"}}, {Side: board.Black, SAN: "Kd6"}, {Side: board.White, SAN: "e5"}}},
			movetext: "{n} 7... Kd7 8. e4 {x} 8... Kd6 9. e5 *",
			tags:     []string{`[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"]`, `[SetUp "1"]`},
		},
		{
			name: "a false move let stand: the movetext goes on from the position after it",
			game: Game{Start: mustFEN(t, "4k3/8/8/8/8/1n6/8/R1N1K3 w - - 0 1"), Moves: []Move{
				{Side: board.White, SAN: "Ra1xb3", Comments: []string{"[%clk 0:04:58]", "false-move, hastings1895:IV: stand by lapse"}, Resume: &after},
				{Side: board.Black, SAN: "Ke7", Comments: []string{"[%clk 0:04:57]"}}}},
			movetext: "{Play went on from the position below (SetUp), which the rules of movement do not reach from the moves before it. The game began from 4k3/8/8/8/8/1n6/8/R1N1K3 w - - 0 1: 1. Ra1xb3 (clk 0:04:58; false-move, hastings1895:IV: stand by lapse).} 1... Ke7 {[%clk 0:04:57]} *",
			tags:     []string{`[FEN "4k3/8/8/8/8/1R6/8/2N1K3 b - - 0 1"]`, `[SetUp "1"]`},
		},
		{
			name: "the last resume counts; from the initial position",
			game: Game{Start: board.Start(), Notes: []string{"n"}, Moves: []Move{
				{Side: board.White, SAN: "Ng1g3", Resume: &after}, {Side: board.Black, SAN: "Kd8", Resume: &after}, {Side: board.Black, SAN: "Kd7"}}},
			movetext: "{Play went on from the position below (SetUp), which the rules of movement do not reach from the moves before it. The game began from the initial position (n): 1. Ng1g3 Kd8.} 1... Kd7 *",
		},
		{
			name:     "a result with its details",
			game:     Game{Start: board.Start(), Moves: []Move{{Side: board.White, SAN: "f3"}, {Side: board.Black, SAN: "e5"}, {Side: board.White, SAN: "g4"}, {Side: board.Black, SAN: "Qh4#"}}, Result: report.BlackWins, Termination: Normal, TerminationDetails: "checkmate (fide2023:5.1.1)"},
			movetext: "1. f3 e5 2. g4 Qh4# 0-1",
			tags:     []string{`[Result "0-1"]`, `[Termination "normal"]`, `[TerminationDetails "checkmate (fide2023:5.1.1)"]`},
		},
		{
			name:    "a delay in its own tag",
			game:    Game{Start: board.Start(), Tags: map[string]string{"TimeControl": "300d5"}},
			tags:    []string{`[TimeControl "300"]`, `[TimeDelay "d5"]`},
			notTags: []string{`"300d5"`},
		},
		{
			name:    "no delay, no tag",
			game:    Game{Start: board.Start(), Tags: map[string]string{"TimeControl": "40/5400+30:1800+30"}},
			tags:    []string{`[TimeControl "40/5400+30:1800+30"]`},
			notTags: []string{"TimeDelay"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Write(&tt.game)
			if tt.movetext != "" {
				if got := movetext(out); got != tt.movetext {
					t.Errorf("movetext:\n got %s\nwant %s", got, tt.movetext)
				}
			}
			for _, tag := range tt.tags {
				if !strings.Contains(out, tag+"\n") {
					t.Errorf("no %s in\n%s", tag, out)
				}
			}
			for _, tag := range tt.notTags {
				if strings.Contains(out, tag) {
					t.Errorf("%s in\n%s", tag, out)
				}
			}
			if strings.Contains(out, "} {") {
				t.Errorf("two comments in a row:\n%s", out)
			}
			for _, line := range strings.Split(out, "\n") {
				if len(line) > 79 && !strings.HasPrefix(line, "[") {
					t.Errorf("movetext line of %d columns: %q", len(line), line)
				}
			}
		})
	}
}

func TestSplitDelay(t *testing.T) {
	tests := []struct {
		tc, plain, delay string
		split            bool
	}{
		{"300d5", "300", "d5", true},
		{"300b5", "300", "b5", true},
		{"40/5400d30:1800d30", "40/5400:1800", "d30:d30", true},
		{"40/5400+30:1800b30", "40/5400+30:1800", "-:b30", true},
		{"300+2", "300+2", "", false},
		{"30/7200:15/3600", "30/7200:15/3600", "", false},
		{"300d", "300d", "", false},
		{"?", "?", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		plain, delay, split := SplitDelay(tt.tc)
		if plain != tt.plain || delay != tt.delay || split != tt.split {
			t.Errorf("SplitDelay(%q) = %q, %q, %v; want %q, %q, %v", tt.tc, plain, delay, split, tt.plain, tt.delay, tt.split)
		}
	}
}

// FuzzSplitDelay checks that a split value puts back together.
func FuzzSplitDelay(f *testing.F) {
	for _, s := range []string{"300d5", "40/5400b30:1800b30", "300+2", "-", "1d1:2b2:3+3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tc string) {
		plain, delay, split := SplitDelay(tc)
		if !split {
			if plain != tc || delay != "" {
				t.Fatalf("SplitDelay(%q) = %q, %q, false", tc, plain, delay)
			}
			return
		}
		ps, ds := strings.Split(plain, ":"), strings.Split(delay, ":")
		if len(ps) != len(ds) || strings.ContainsAny(plain, "db") {
			t.Fatalf("SplitDelay(%q) = %q, %q", tc, plain, delay)
		}
		var back []string
		for i := range ps {
			if ds[i] == "-" {
				back = append(back, ps[i])
			} else {
				back = append(back, ps[i]+ds[i])
			}
		}
		if strings.Join(back, ":") != tc {
			t.Fatalf("SplitDelay(%q) = %q, %q: does not put back together", tc, plain, delay)
		}
	})
}

func BenchmarkWrite(b *testing.B) {
	g := Game{Start: board.Start(), Tags: map[string]string{"TimeControl": "300+2", "LawSet": "fide2023"}}
	for i := range 80 {
		side := board.White
		if i%2 == 1 {
			side = board.Black
		}
		g.Moves = append(g.Moves, Move{Side: side, SAN: "Nf3", Comments: []string{"[%clk 0:04:58]"}})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Write(&g)
	}
}
