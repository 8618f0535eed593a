package report

import (
	"strings"
	"testing"
)

// Every option id a ruling can offer or record has plain words, and none
// reads as its id.
func TestEveryOptionHasWords(t *testing.T) {
	all := []OptionID{OptStand, OptRecall, OptMoveTouched, OptMoveTaken, OptTakeTouched, OptKing, OptRook, OptCastle,
		OptReplace, OptKeepFirst, OptKeepSecond, OptKeepAll, OptAnnul, OptRestore, OptPromoteQ, OptPromoteR, OptPromoteB, OptPromoteN,
		OptCount, OptRefused}
	words := OptionWords()
	if len(words) != len(all) {
		t.Errorf("OptionWords has %d ids, want the %d option constants", len(words), len(all))
	}
	seen := map[string]OptionID{}
	for _, id := range all {
		w := id.Words()
		if w == "" || w == string(id) || strings.Contains(w, "-") {
			t.Errorf("%s: words %q", id, w)
		}
		if w[0] < 'A' || w[0] > 'Z' {
			t.Errorf("%s: %q does not begin with a capital, as a button's label does", id, w)
		}
		if other, dup := seen[w]; dup {
			t.Errorf("%s and %s both read %q", id, other, w)
		}
		seen[w] = id
		if words[id] != w {
			t.Errorf("OptionWords()[%s] = %q, want %q", id, words[id], w)
		}
	}
}

func TestOptionWordsNameTheMan(t *testing.T) {
	for _, c := range []struct {
		id            OptionID
		piece, square string
		want          string
	}{
		{OptStand, "knight", "e4", "Let the move stand"},
		{OptMoveTouched, "knight", "g1", "He must move the knight on g1"},
		{OptMoveTouched, "", "g1", "He must move the man he touched"},
		{OptMoveTaken, "pawn", "d2", "He must move the pawn on d2"},
		{OptTakeTouched, "bishop", "c5", "He must take the bishop on c5"},
		{OptRook, "rook", "h1", "He must move the rook on h1"},
		{OptKing, "king", "e1", "He must move his king"},
		{MoveTouchedOn("b1"), "knight", "b1", "He must move the knight on b1"},
		{MoveTouchedOn("b1"), "", "", "He must move the man on b1"},
		{"no-such-option", "pawn", "a2", "no-such-option"},
	} {
		if got := c.id.WordsOn(c.piece, c.square); got != c.want {
			t.Errorf("%s.WordsOn(%q, %q) = %q, want %q", c.id, c.piece, c.square, got, c.want)
		}
	}
	for id, want := range map[OptionID]bool{OptMoveTouched: true, OptTakeTouched: true, MoveTouchedOn("c3"): true, OptStand: false, OptKing: false, "x": false} {
		if got := id.NamesMan(); got != want {
			t.Errorf("%s.NamesMan() = %v, want %v", id, got, want)
		}
	}
}
