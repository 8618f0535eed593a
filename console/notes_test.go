package console

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// takeBackCase is a game against a side played from off the board (lines
// as the engine's match sends them: its move to carry out, the player's
// take-back): four plies, plies taken back, the board set back, and moves
// played again; the take-back's note belongs after ply wantAt.
type takeBackCase struct {
	name   string
	plies  int
	back   []string // setting the board back
	again  [][]string
	wantAt int
	moves  string
}

func whiteMove(from, to string) []string {
	return []string{`{"lift":"` + from + `"}`, `{"place":"` + to + `"}`, `{"press":"clock","side":"white"}`}
}

func blackReply(from, to string) []string {
	return []string{`{"opponent":"` + from + to + `"}`, `{"lift":"` + from + `"}`, `{"place":"` + to + `"}`}
}

var takeBackCases = []takeBackCase{
	{"two plies", 2, []string{`{"lift":"c6"}`, `{"place":"b8"}`, `{"lift":"f3"}`, `{"place":"g1"}`},
		[][]string{whiteMove("g1", "f3"), blackReply("b8", "c6")}, 2, "e4 e5 Nf3 Nc6"},
	{"one ply", 1, []string{`{"lift":"c6"}`, `{"place":"b8"}`},
		[][]string{blackReply("g8", "f6"), whiteMove("b1", "c3")}, 3, "e4 e5 Nf3 Nf6 Nc3"},
}

// run plays the case on the rig's board and returns the state at its end.
func (tc takeBackCase) run(t *testing.T, r *rig) State {
	t.Helper()
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
	play(whiteMove("e2", "e4"), blackReply("e7", "e5"), whiteMove("g1", "f3"), blackReply("b8", "c6"))
	submit(fmt.Sprintf(`{"takeback":%d,"side":"white"}`, tc.plies))
	submit(tc.back...)
	play(tc.again...)
	return waitState(t, r, tc.moves, func(st State) bool { return sans(st) == tc.moves })
}

// A take-back leaves its note after the last move kept, and there it
// stays when the moves are played again: it never slides after a later
// move that happens to have the number the taken-back one had.
func TestNotesStayAtTheirPlyAfterATakeBack(t *testing.T) {
	for _, tc := range takeBackCases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{remote: [2]bool{false, true}})
			st := tc.run(t, r)
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

// The same on the page, on a phone and on a desktop: the take-back's note
// stands in the move list right after the last move kept.
func TestBrowserNoteAfterATakeBack(t *testing.T) {
	for _, tc := range takeBackCases {
		for _, width := range []int64{phoneWidth, desktopWidth} {
			t.Run(tc.name+"/"+strconv.FormatInt(width, 10), func(t *testing.T) {
				r := newRig(t, rigOptions{remote: [2]bool{false, true}})
				page := at(t, r.url+"/", width)
				tc.run(t, r)
				waitJS(t, page, "the moves played again", movesAre(tc.moves))
				got := jsString(t, page, `(() => { const n = document.querySelector('#moves li.note.ruling'); const p = n && n.previousElementSibling; return p ? p.dataset.ply + ' ' + n.dataset.ply : 'none'; })()`)
				if want := fmt.Sprintf("%d %d", tc.wantAt, tc.wantAt); got != want {
					t.Errorf("the take-back's note follows the move of ply, is at ply: %q, want %q", got, want)
				}
				l := measure(t, page)
				if l.Page > l.Window || len(l.Overflowing) > 0 {
					t.Errorf("the page lays out %v px wide in a window of %v px; wider than the window: %v", l.Page, l.Window, l.Overflowing)
				}
			})
		}
	}
}
