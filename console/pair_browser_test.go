package console

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// A paired board on the page, on a phone and on a desktop: the boards'
// difference is the arbiter's notice, naming both boards' moves and the
// other board (not the opponent's fault), and goes once the boards agree;
// the other board gone away, or the broker, is a notice until it is back.
func TestBrowserPairedBoards(t *testing.T) {
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var mu sync.Mutex
			p := &Pair{Other: "board-02"}
			set := func(fn func(p *Pair)) {
				mu.Lock()
				defer mu.Unlock()
				c := *p
				fn(&c)
				p = &c
			}
			r := newRig(t, rigOptions{pair: func() *Pair {
				mu.Lock()
				defer mu.Unlock()
				c := *p
				return &c
			}})
			page := at(t, r.url+"/", width)
			if got := jsString(t, page, `String(document.getElementById('pair-notice').hidden)`); got != "true" {
				t.Errorf("boards that agree show a notice: hidden %s", got)
			}
			for _, c := range []struct {
				name string
				pair func(p *Pair)
				want string // the arbiter's notice; "" for none
				note string // a notice under the board
			}{
				{"a move differs", func(p *Pair) {
					p.Differ = &Difference{Move: 1, Here: "e2e4", There: "d2d4", Why: "move 1 is e2e4 here, d2d4 there",
						HereMoves: []string{"e2e4"}, ThereMoves: []string{"d2d4", "d7d5"}}
				}, "The boards differ at move 1: e2e4 here, d2d4 on board-02. Arbiter: put the boards right. The clocks stand.", ""},
				{"the same side", func(p *Pair) {
					p.Differ = &Difference{Why: "both boards play white: whose move it is is in doubt", Since: time.Date(2026, 3, 1, 14, 5, 0, 0, time.UTC)}
				}, "The boards differ: both boards play white: whose move it is is in doubt (this board and board-02). Arbiter: put the boards right. Since ", ""},
				{"put right", func(p *Pair) { p.Differ = nil }, "", ""},
				{"the other board gone", func(p *Pair) { p.Gone = "board" }, "", "The other board (board-02) has gone away; the game waits for it."},
				{"the broker gone", func(p *Pair) { p.Gone = "broker" }, "", "The hall's broker is out of reach; the game waits for it."},
				{"back", func(p *Pair) { p.Gone = "" }, "", ""},
			} {
				set(c.pair)
				if c.want == "" {
					waitJS(t, page, c.name+": no arbiter's notice", `document.getElementById('pair-notice').hidden`)
				} else {
					waitJS(t, page, c.name, `!document.getElementById('pair-notice').hidden && document.getElementById('pair-notice').textContent.startsWith(`+jsQuote(c.want)+`)`)
					if got := jsString(t, page, `String(document.getElementById('pair-notice').getBoundingClientRect().right <= document.documentElement.clientWidth)`); got != "true" {
						t.Errorf("%s: the notice runs off the page %d px wide", c.name, width)
					}
					if got := jsString(t, page, `document.getElementById('fault').textContent`); got != "" {
						t.Errorf("%s: the difference shows as a fault: %q", c.name, got)
					}
				}
				if c.note == "" {
					waitJS(t, page, c.name+": no notice", `document.getElementById('fault').hidden`)
				} else {
					waitJS(t, page, c.name, `document.getElementById('fault').textContent === `+jsQuote(c.note))
				}
				if c.name == "a move differs" && width == desktopWidth {
					screenshot(t, page, "console-pair.png")
				}
			}
		})
	}
}

// jsQuote quotes s as a JavaScript string.
func jsQuote(s string) string { return fmt.Sprintf("%q", s) }
