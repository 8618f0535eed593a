package hall

import (
	"strings"
	"testing"
)

func TestRetag(t *testing.T) {
	pgn := "[Event \"?\"]\n[Site \"?\"]\n[Date \"2026.03.01\"]\n[Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[LawSet \"fide2023\"]\n\n1. e4 e5 *\n"
	got := retag(pgn, map[string]string{"Event": "Club \"Open\"", "Round": "3", "White": `A\B`, "Board": "b7", "Annotator": "hall"})
	want := "[Event \"Club \\\"Open\\\"\"]\n[Site \"?\"]\n[Date \"2026.03.01\"]\n[Round \"3\"]\n[White \"A\\\\B\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"hall\"]\n[Board \"b7\"]\n[LawSet \"fide2023\"]\n\n1. e4 e5 *\n"
	if got != want {
		t.Errorf("retag:\n%s\nwant\n%s", got, want)
	}
	if got := retag(pgn, nil); got != pgn {
		t.Error("retag with no tags changed the PGN")
	}
	if got := retag("1. e4 *\n", map[string]string{"Round": "2"}); got != "[Round \"2\"]\n1. e4 *\n" {
		t.Errorf("retag of a PGN without tags: %q", got)
	}
}

func TestReadPairings(t *testing.T) {
	in := "# round 3\nb1, Anderssen, Kieseritzky\n\nb2,\"Morphy, Paul\",Löwenthal,3a\n"
	got, err := ReadPairings(strings.NewReader(in), "pairings.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got["b1"] != (Pairing{White: "Anderssen", Black: "Kieseritzky"}) || got["b2"] != (Pairing{White: "Morphy, Paul", Black: "Löwenthal", Round: "3a"}) || len(got) != 2 {
		t.Errorf("pairings %+v", got)
	}
	for _, c := range []struct{ in, err string }{
		{"b1,Anderssen\n", "line 1: 2 fields"},
		{"b1,a,b\nb1,c,d\n", "line 2: board b1 paired twice"},
		{"b 1,a,b\n", "line 1: wire: board id"},
		{"b1,\"a,b\n", "line 1:"},
		{"b1,a [x],b\n", "may not hold quotes"},
	} {
		if _, err := ReadPairings(strings.NewReader(c.in), "p.csv"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		}
	}
}
