package console

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// An arbiter's link opened in a tab already showing the page (only the
// address's #token= changes, so the page is not loaded again) makes it the
// arbiter's without a reload: the controls show, the token is kept for the
// next load, and it leaves the address bar; on a phone and on a desktop.
func TestBrowserTokenLinkInAnOpenTab(t *testing.T) {
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10), func(t *testing.T) {
			r := newRig(t, rigOptions{hardware: true})
			page := at(t, r.url+"/", width)
			waitJS(t, page, "the spectator role", `document.body.dataset.role === 'spectator'`)
			if err := chromedp.Do(page, chromedp.Evaluate[chromedp.Void](`window.boarddLoaded = true; location.hash = '#token=`+testToken+`'`)); err != nil {
				t.Fatal(err)
			}
			waitJS(t, page, "the arbiter's controls", `document.body.dataset.role === 'arbiter' && (`+visible+`)('#new-game') && !(`+visible+`)('#token-box')`)
			if got := jsString(t, page, `String(window.boarddLoaded) + ' ' + location.hash + ' ' + localStorage.getItem('boardd-arbiter-token')`); got != "true  "+testToken {
				t.Errorf("loaded once, hash, token kept: %q, want %q", got, "true  "+testToken)
			}
		})
	}
}
