package arbiter

import (
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

func TestUnmovableKind(t *testing.T) {
	const knightPinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"
	cases := []struct {
		name           string
		fen            string
		square         string
		onlyWhenPinned bool
		want           report.Kind // empty: no penalty owed
	}{
		{name: "an own man that can move", fen: startWithoutRights, square: "g1"},
		{name: "an own man hemmed in (nycc:XI)", fen: startWithoutRights, square: "a1", want: report.KindUnmovable},
		{name: "an own man hemmed in binds nobody (sarratt1808:17)", fen: startWithoutRights, square: "a1", onlyWhenPinned: true},
		{name: "an own man pinned (sarratt1808:17)", fen: knightPinned, square: "e2", onlyWhenPinned: true, want: report.KindUnmovable},
		{name: "an adverse man that can be taken", fen: knightAttacksPawn, square: "d5"},
		{name: "an adverse man that cannot be taken", fen: startWithoutRights, square: "d7", want: report.KindUncapturable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysis(t, c.fen)
			s := sq(t, c.square)
			kind, owed := unmovableKind(a, board.White, s, a.Position.Men[s], c.onlyWhenPinned)
			if owed != (c.want != "") || kind != c.want {
				t.Errorf("unmovableKind = %q %v, want %q %v", kind, owed, c.want, c.want != "")
			}
		})
	}
}
