package console

import (
	"reflect"
	"strings"
	"testing"
)

func TestPGNMoves(t *testing.T) {
	tags := "[Event \"?\"]\n[Result \"*\"]\n[LawSet \"fide2023\"]\n\n"
	tests := []struct {
		name string
		pgn  string
		want []Move
	}{
		{"no moves", tags + "*\n", []Move{}},
		{"two plies", tags + "1. e4 e5 *\n", []Move{
			{Ply: 1, Number: 1, Side: "white", SAN: "e4"},
			{Ply: 2, Number: 1, Side: "black", SAN: "e5"},
		}},
		{"comment after White, Black renumbered", tags + "1. e4 {touch-move, sarratt1808:7: stand by black} 1... e5 2. Nf3 1-0\n", []Move{
			{Ply: 1, Number: 1, Side: "white", SAN: "e4", Comments: []string{"touch-move, sarratt1808:7: stand by black"}},
			{Ply: 2, Number: 1, Side: "black", SAN: "e5"},
			{Ply: 3, Number: 2, Side: "white", SAN: "Nf3"},
		}},
		{"set-up with Black to move", "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 b - - 0 12\"]\n\n12... Kd7 13. Ke2 *\n", []Move{
			{Ply: 1, Number: 12, Side: "black", SAN: "Kd7"},
			{Ply: 2, Number: 13, Side: "white", SAN: "Ke2"},
		}},
		{"wrapped lines and two comments", tags + "1. e4 e5 2. Nf3\n{a} {b} Nc6 1/2-1/2\n", []Move{
			{Ply: 1, Number: 1, Side: "white", SAN: "e4"},
			{Ply: 2, Number: 1, Side: "black", SAN: "e5"},
			{Ply: 3, Number: 2, Side: "white", SAN: "Nf3", Comments: []string{"a", "b"}},
			{Ply: 4, Number: 2, Side: "black", SAN: "Nc6"},
		}},
		{"number against the move", "1.e4 e5 2.d4 *", []Move{
			{Ply: 1, Number: 1, Side: "white", SAN: "e4"},
			{Ply: 2, Number: 1, Side: "black", SAN: "e5"},
			{Ply: 3, Number: 2, Side: "white", SAN: "d4"},
		}},
		{"unclosed comment", tags + "1. e4 {never closed", []Move{
			{Ply: 1, Number: 1, Side: "white", SAN: "e4", Comments: []string{"never closed"}},
		}},
		{"annotations, line comments and variations skipped", tags + "1. e4 $1 ; a remark\n1... e5 (1... c5 (1... e6) 2. Nf3) 2. Nf3 *", []Move{
			{Ply: 1, Number: 1, Side: "white", SAN: "e4"},
			{Ply: 2, Number: 1, Side: "black", SAN: "e5"},
			{Ply: 3, Number: 2, Side: "white", SAN: "Nf3"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := pgnMoves(tt.pgn)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func FuzzPGNMoves(f *testing.F) {
	f.Add("[Event \"?\"]\n\n1. e4 {x} 1... e5 2. Nf3 *\n")
	f.Add("12... Kd7 13. Ke2 {a}{b} 1-0")
	f.Add("{")
	f.Add("1.")
	f.Add("999999999999999999999. e4")
	f.Fuzz(func(t *testing.T, pgn string) {
		moves := pgnMoves(pgn)
		for i, m := range moves {
			if m.Ply != i+1 {
				t.Fatalf("ply %d at index %d", m.Ply, i)
			}
			if m.SAN == "" || strings.ContainsAny(m.SAN, " \n\t{") {
				t.Fatalf("bad SAN %q", m.SAN)
			}
			if m.Side != "white" && m.Side != "black" {
				t.Fatalf("side %q", m.Side)
			}
			if m.Number < 1 {
				t.Fatalf("number %d", m.Number)
			}
		}
	})
}

func BenchmarkPGNMoves(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[Event \"?\"]\n\n")
	for i := 1; i <= 40; i++ {
		sb.WriteString("1. Nf3 {a ruling} Nf6 2. Ng1 Ng8 ")
	}
	sb.WriteString("*\n")
	pgn := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		pgnMoves(pgn)
	}
}
