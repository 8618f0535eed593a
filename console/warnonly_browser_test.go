package console

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Warn-only on the simulated board, as the player at it (no arbiter), on a
// phone and on a desktop: the switch is his between games, the page says
// it is on, a touch-move broken is let stand with the warning's words under
// the board, in the move list and on the LEDs, nothing waits for a choice,
// the switch is greyed out mid-game and a switch sent anyway is refused in
// words; nothing is wider than the window.
func TestBrowserWarnOnly(t *testing.T) {
	const words = "Warning: Under fide2023:4.3.1 you would have to move the knight on g1; warn-only: play on."
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10), func(t *testing.T) {
			r := newRig(t, rigOptions{})
			page := at(t, r.url+"/", width)
			waitJS(t, page, "the warn-only switch", `(`+visible+`)('#warn-only') && !document.getElementById('warn-only').checked && !document.getElementById('warn-only').disabled`)
			click(t, page, "#warn-only")
			waitJS(t, page, "warn-only on", `document.getElementById('laws').textContent.endsWith(', warn-only') && document.getElementById('warn-only').checked`)

			touchMove(t, page)
			waitJS(t, page, "the warning under the board", `!document.getElementById('warning').hidden && document.getElementById('warning').textContent === `+strconv.Quote(words))
			waitJS(t, page, "1. e4 standing", movesAre("e4"))
			if got := jsString(t, page, `String(document.getElementById('pending').hidden)`); got != "true" {
				t.Errorf("a choice waits under warn-only (pending shown: %s)", got)
			}
			note := "Warning, touch-move (fide2023:4.3.1), white: " + strings.TrimPrefix(words, "Warning: ")
			waitJS(t, page, "the warning in the move list", `(document.querySelector('#moves li.note.irregularity') || {textContent: ''}).textContent === `+strconv.Quote(note))
			waitJS(t, page, "the knight lit", `document.querySelector('rect.led[data-square="g1"]').dataset.role === 'option-1'`)
			waitJS(t, page, "the switch greyed out mid-game", `document.getElementById('warn-only').disabled && document.getElementById('warn-only').closest('label').title.startsWith('switched between games')`)
			if width == phoneWidth {
				screenshot(t, page, "console-warn-only-phone.png")
			}
			l := measure(t, page)
			if l.Page > l.Window || len(l.Overflowing) > 0 {
				t.Errorf("the page lays out %v px wide in a window of %v px; wider than the window: %v", l.Page, l.Window, l.Overflowing)
			}
			if width == phoneWidth {
				w := jsString(t, page, `JSON.stringify(document.getElementById('warning').getBoundingClientRect().top > document.getElementById('board').getBoundingClientRect().bottom)`)
				if w != "true" {
					t.Errorf("the warning is not under the board on the phone")
				}
			}
			msg, err := chromedp.Run(page, chromedp.Evaluate[string](`fetch('/api/boards/test/warn-only', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"value":"off"}'}).then(r => r.json().then(j => r.status + ' ' + j.error))`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(msg, "409 ") || !strings.Contains(msg, "refused during a game (1 move made): switch it between games") {
				t.Errorf("switching off mid-game answered %q, want 409 saying why", msg)
			}
			if st, _ := r.local.State(t.Context()); !st.WarnOnly {
				t.Error("the refused switch turned warn-only off")
			}
		})
	}
}

// On a board with sensors the switch is the arbiter's: a spectator neither
// sees it nor may use it (401), the arbiter does and may.
func TestWarnOnlySwitchNeedsTheArbiterOnASensorBoard(t *testing.T) {
	r := newRig(t, rigOptions{hardware: true})
	spec := tab(t, r.url+"/")
	if got := jsString(t, spec, `String((`+visible+`)('#warn-only'))`); got != "false" {
		t.Errorf("a spectator sees the warn-only switch on a sensor board")
	}
	arb := tab(t, r.url+"/#token="+testToken)
	waitJS(t, arb, "the arbiter's switch", `document.body.dataset.role === 'arbiter' && (`+visible+`)('#warn-only')`)
	for _, c := range []struct {
		name    string
		headers map[string]string
		body    string
		code    int
		words   string
	}{
		{"spectator", nil, `{"value":"on"}`, http.StatusUnauthorized, "arbiter token required"},
		{"arbiter, a bad value", map[string]string{"Authorization": "Bearer " + testToken}, `{"value":"yes"}`, http.StatusBadRequest, `value "yes": want on or off`},
		{"arbiter", map[string]string{"Authorization": "Bearer " + testToken}, `{"value":"on"}`, http.StatusOK, ""},
	} {
		code, body := r.post(t, "warn-only", c.body, c.headers)
		if code != c.code || c.words != "" && !strings.Contains(body["error"].(string), c.words) {
			t.Errorf("%s: %d %v, want %d saying %q", c.name, code, body, c.code, c.words)
		}
	}
	if st, _ := r.local.State(t.Context()); !st.WarnOnly {
		t.Error("the arbiter's switch did not turn warn-only on")
	}
}
