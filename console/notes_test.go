package console

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A take-back in a game against a side played from off the board (the
// engine's, here lines as the engine's match sends them: its move to carry
// out, the player's take-back) leaves the take-back's note after the last
// move kept, and there it stays when the moves are played again: it never
// slides after a later move that happens to have the number the taken-back
// one had.
func TestNotesStayAtTheirPlyAfterATakeBack(t *testing.T) {
	white := func(from, to string) []string {
		return []string{`{"lift":"` + from + `"}`, `{"place":"` + to + `"}`, `{"press":"clock","side":"white"}`}
	}
	black := func(from, to string) []string {
		return []string{`{"opponent":"` + from + to + `"}`, `{"lift":"` + from + `"}`, `{"place":"` + to + `"}`}
	}
	tests := []struct {
		name   string
		plies  int
		back   []string // setting the board back
		again  [][]string
		wantAt int // the take-back note's ply
		moves  string
	}{
		{"two plies", 2, []string{`{"lift":"c6"}`, `{"place":"b8"}`, `{"lift":"f3"}`, `{"place":"g1"}`},
			[][]string{white("g1", "f3"), black("b8", "c6")}, 2, "e4 e5 Nf3 Nc6"},
		{"one ply", 1, []string{`{"lift":"c6"}`, `{"place":"b8"}`},
			[][]string{black("g8", "f6"), white("b1", "c3")}, 3, "e4 e5 Nf3 Nf6 Nc3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{remote: [2]bool{false, true}})
			submit := func(lines ...string) {
				t.Helper()
				for _, in := range lines {
					if err := r.local.Submit(t.Context(), mustParse(t, in)); err != nil {
						t.Fatalf("%s: %v", in, err)
					}
				}
			}
			play := func(moves ...[]string) {
				t.Helper()
				for _, m := range moves {
					n := len(waitState(t, r, "the board in step", func(st State) bool { return !st.Syncing }).Moves)
					submit(m...)
					waitState(t, r, "the move made", func(st State) bool { return len(st.Moves) == n+1 })
				}
			}
			play(white("e2", "e4"), black("e7", "e5"), white("g1", "f3"), black("b8", "c6"))
			submit(fmt.Sprintf(`{"takeback":%d,"side":"white"}`, tc.plies))
			submit(tc.back...)
			play(tc.again...)
			st := waitState(t, r, tc.moves, func(st State) bool { return sans(st) == tc.moves })
			var at []int
			for _, n := range st.Notes {
				var rep struct {
					Type   string `json:"type"`
					Option string `json:"option"`
				}
				if err := json.Unmarshal(n.Report, &rep); err != nil {
					t.Fatal(err)
				}
				if rep.Type == "ruling" && rep.Option == "take-back" {
					at = append(at, n.Ply)
				}
			}
			if len(at) != 1 || at[0] != tc.wantAt {
				t.Errorf("the take-back's note after plies %v, want after ply %d (moves %s)", at, tc.wantAt, strings.TrimSpace(sans(st)))
			}
		})
	}
}
