package console

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
)

// The evaluation bar follows the game against the real Stockfish, from
// White's point of view, on a phone and on a desktop: White a queen up for
// a rook with a mate on d8 shows White's side; the blunder Qd7?? turns it
// to Black's at once (the engine's search for its reply); once the reply
// is carried out it stays with Black; a take-back clears the taken-back
// line's figure, and the bar shows White's side again for the position the
// board goes back to. The hint says its move and its evaluation beside the
// hint button.
func TestBrowserEvaluationBar(t *testing.T) {
	const fen = "3r2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
	stockfish := func(t testing.TB, r *game.Runner) OpponentSource { return withStockfishAt(t, r, "full,depth:4") }
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
			r := newRig(t, rigOptions{setup: fen, opponentFor: stockfish, timing: game.Timing{Settle: 60 * time.Millisecond, QuickSettle: 30 * time.Millisecond}})
			page := at(t, r.url+"/", width)
			waitJS(t, page, "the set-up button", `!document.getElementById('setup').hidden`)
			click(t, page, `#setup`)
			waitJS(t, page, "the position set up", `document.getElementById('status').textContent === 'White to move.'`)
			bar := func(ply int, sign string) string {
				return `(() => { const b = document.getElementById('evalbar'); return !document.getElementById('engine-eval').hidden && b.dataset.ply === '` + strconv.Itoa(ply) + `' && b.dataset.sign === '` + sign + `'; })()`
			}
			share := func() float64 {
				w := jsString(t, page, `document.getElementById('evalbar-white').style.width`)
				f, err := strconv.ParseFloat(w[:len(w)-1], 64)
				if err != nil {
					t.Fatalf("the bar's white part is %q", w)
				}
				return f
			}
			waitJS(t, page, "White's side at the start", bar(0, "+"))
			if f := share(); f <= 50 {
				t.Errorf("at the start White's part of the bar is %v%%, want more than half", f)
			}
			click(t, page, `#engine-hint`)
			waitJS(t, page, "the hint beside its button", `/^Hint: Qxd8#, from d1 to d8, #1 for White/.test(document.getElementById('engine-hint-said').textContent)`)

			squares(t, page, "d1", "d7")
			waitJS(t, page, "Black's side after the blunder", bar(1, "-"))
			if f := share(); f >= 50 {
				t.Errorf("after Qd7?? White's part of the bar is %v%%, want less than half", f)
			}
			if got := jsString(t, page, `document.getElementById('engine-hint-said').textContent`); got != "" {
				t.Errorf("the hint of the position before the move is still shown: %q", got)
			}
			carry := awaiting(t, page)
			squares(t, page, carry...)
			waitJS(t, page, "Black's side after the reply", bar(2, "-"))
			if got := jsString(t, page, `document.getElementById('evalbar').getAttribute('aria-label')`); !regexpMatch(`^evaluation -[0-9.]+ for White, after 1\.\.\.Rxd7$`, got) {
				t.Errorf("the bar's label %q", got)
			}
			if width == desktopWidth {
				screenshot(t, page, "console-engine-eval.png")
			}

			click(t, page, `#engine-takeback`)
			waitJS(t, page, "the take-back", `document.querySelectorAll('#moves li.move').length === 0`)
			if got := jsString(t, page, `document.getElementById('evalbar').dataset.ply`); got != "" && got != "0" {
				t.Errorf("after the take-back the bar shows the evaluation of ply %s", got)
			}
			waitJS(t, page, "White's side after the take-back", bar(0, "+"))
		})
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
