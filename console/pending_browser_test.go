package console

import (
	"context"
	"strconv"
	"testing"
)

// A choice waiting, seen by the arbiter (the token) on a phone and on a
// desktop: each option is offered on one button only. At a simulated board
// the chooser's buttons serve (the arbiter's panel adds no second set); on
// a board with sensors the arbiter's rulings are the only buttons; nothing
// is wider than the window.
func TestBrowserArbiterSeesEachOptionOnce(t *testing.T) {
	for _, c := range []struct {
		name     string
		hardware bool
		want     string // the buttons' options, "where:side:option" each
	}{
		{"simulated", false, "player:black:stand player:black:move-touched"},
		{"sensors", true, "arbiter:arbiter:stand arbiter:arbiter:move-touched"},
	} {
		for _, width := range []int64{phoneWidth, desktopWidth} {
			t.Run(c.name+"/"+strconv.FormatInt(width, 10), func(t *testing.T) {
				r := newRig(t, rigOptions{laws: "sarratt1808", hardware: c.hardware})
				arb := at(t, r.url+"/#token="+testToken, width)
				waitJS(t, arb, "the arbiter role", `document.body.dataset.role === 'arbiter'`)
				if c.hardware {
					for _, in := range []string{`{"lift":"g1"}`, `{"place":"g1"}`, `{"lift":"e2"}`, `{"place":"e4"}`} {
						if err := r.local.Submit(t.Context(), mustParse(t, in)); err != nil {
							t.Fatal(err)
						}
						if in == `{"lift":"g1"}` {
							hold()
						}
					}
				} else {
					touchMove(t, arb)
				}
				waitJS(t, arb, "the choice", `!document.getElementById('pending').hidden && document.querySelectorAll('#pending button[data-option]').length > 0`)
				if got := optionButtons(t, arb); got != c.want {
					t.Errorf("the option buttons: %q, want %q (each option once)", got, c.want)
				}
				l := measure(t, arb)
				if l.Page > l.Window || len(l.Overflowing) > 0 {
					t.Errorf("the page lays out %v px wide in a window of %v px; wider than the window: %v", l.Page, l.Window, l.Overflowing)
				}
			})
		}
	}
}

// optionButtons lists the page's buttons that take an option of the choice
// waiting, visible ones only: "player" or "arbiter" (whose panel), the side
// and the option, space-separated.
func optionButtons(t *testing.T, page context.Context) string {
	t.Helper()
	return jsString(t, page, `Array.from(document.querySelectorAll('button[data-option]')).filter(b => b.getClientRects().length > 0).map(b => (b.closest('#arbiter-options') ? 'arbiter' : 'player') + ':' + b.dataset.side + ':' + b.dataset.option).join(' ')`)
}
