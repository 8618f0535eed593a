package console

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/browsertest"
)

// The browser tests drive the console in headless Chromium (Debian's
// chromium package). They skip when it is not installed.

var screenshots = flag.Bool("screenshots", false, "write the browser tests' screenshots into ../docs")

// chrome is one Chromium shared by the browser tests; each test opens its own
// browser contexts (separate storage, like separate browsers).
var chrome browsertest.Browser

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	chrome.Close()
	os.Exit(code)
}

// tab opens a page in a fresh browser context: its own storage, as if it
// were another browser.
func tab(t *testing.T, url string) context.Context {
	t.Helper()
	ctx := chrome.Context(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the event stream", `document.getElementById('conn').className === 'up' && document.querySelector('#moves') !== null && document.getElementById('laws').textContent !== ''`)
	return ctx
}

// waitJS waits until a JavaScript predicate holds in the page.
func waitJS(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		var page string
		page, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('status').textContent + ' | ' + document.getElementById('message').textContent + ' | moves: ' + document.getElementById('moves').textContent`))
		t.Fatalf("waiting for %s: %v\npage: %s", what, err, page)
	}
}

func click(t *testing.T, ctx context.Context, selectors ...string) {
	t.Helper()
	for _, sel := range selectors {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
}

// squares clicks squares of the board: a man to lift it, an empty square to
// set a man down.
func squares(t *testing.T, ctx context.Context, names ...string) {
	t.Helper()
	for _, n := range names {
		click(t, ctx, `rect.hit[data-square="`+n+`"]`)
	}
}

func movesAre(san string) string {
	return `Array.from(document.querySelectorAll('#moves li.move')).map(e => e.dataset.san).join(' ') === ` + strconv.Quote(san)
}

func jsString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if !*screenshots {
		return
	}
	// The mouse leaves the board, and blinking squares are caught lit.
	if err := chromedp.Do(ctx,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1),
		chromedp.Evaluate[chromedp.Void](`document.getAnimations().forEach(a => { a.pause(); a.currentTime = 0; })`),
	); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "docs", name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A short game played by clicking on the simulated board, with a capture
// and an announced adjustment (the j'adoube button).
func TestBrowserShortGame(t *testing.T) {
	r := newRig(t, rigOptions{})
	reports := r.stream(t)
	page := tab(t, r.url+"/")
	if got := jsString(t, page, `document.getElementById('mode').textContent`); got != "simulated board" {
		t.Errorf("mode %q", got)
	}

	click(t, page, `button[data-press="jadoube"][data-side="white"]`)
	squares(t, page, "e1", "e1")
	if adj := reports.waitReport(t, "adjust"); adj["announced"] != true || adj["square"] != "e1" {
		t.Errorf("adjust report %v, want e1 announced", adj)
	}

	game := []struct{ clicks, want string }{
		{"e2 e4", "e4"},
		{"e7 e5", "e4 e5"},
		{"g1 f3", "e4 e5 Nf3"},
		{"b8 c6", "e4 e5 Nf3 Nc6"},
		{"f1 b5", "e4 e5 Nf3 Nc6 Bb5"},
		{"a7 a6", "e4 e5 Nf3 Nc6 Bb5 a6"},
		{"c6 b5 c6", "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6"},
		{"c6 d7 c6", "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6"},
	}
	for _, mv := range game {
		var sqs []string
		for i := 0; i+2 <= len(mv.clicks); i += 3 {
			sqs = append(sqs, mv.clicks[i:i+2])
		}
		squares(t, page, sqs...)
		waitJS(t, page, mv.want, movesAre(mv.want))
	}
	if got := jsString(t, page, `document.querySelector('text.man[data-square="c6"]').dataset.man`); got != "p" {
		t.Errorf("c6 shows %q, want the black pawn", got)
	}
	if got := jsString(t, page, `document.getElementById('status').textContent`); got != "White to move." {
		t.Errorf("status %q", got)
	}
	st, err := r.local.State(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.FEN != "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5" {
		t.Errorf("FEN %s", st.FEN)
	}
	// The last move lit on the board, and the PGN link.
	waitJS(t, page, "the last move lit", `document.querySelector('rect.led[data-square="d7"]').dataset.role === 'last-move'`)
	if got := jsString(t, page, `document.getElementById('pgn').getAttribute('href')`); got != "/api/boards/test/pgn" {
		t.Errorf("PGN link %q", got)
	}
	screenshot(t, page, "console-rest.png")
}

// A touch-move violation under Sarratt (g1 touched, e2-e4 played): both
// browsers show the options; a spectator trying to rule is refused; the
// arbiter rules; the take-back and the obliged knight move follow, and the
// second browser sees every step live.
func TestBrowserTouchMoveRuledByArbiter(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808"})
	arb := tab(t, r.url+"/#token="+testToken)
	waitJS(t, arb, "the arbiter role", `document.body.dataset.role === 'arbiter'`)
	if got := jsString(t, arb, `location.hash`); got != "" {
		t.Errorf("the token stays in the address bar: %q", got)
	}
	spec := tab(t, r.url+"/")
	waitJS(t, spec, "the spectator role", `document.body.dataset.role === 'spectator'`)

	squares(t, arb, "g1")
	hold()
	squares(t, arb, "g1", "e2", "e4")
	options := `Array.from(document.querySelectorAll('#arbiter-options button')).map(b => b.dataset.option).join(',') === 'stand,move-touched'`
	for name, page := range map[string]context.Context{"arbiter": arb, "spectator": spec} {
		waitJS(t, page, name+" seeing the options", `!document.getElementById('pending').hidden && `+options)
		if got := jsString(t, page, `Array.from(document.querySelectorAll('#player-options button')).map(b => b.dataset.side + ':' + b.dataset.option).join(',')`); got != "black:stand,black:move-touched" {
			t.Errorf("%s: player options %q, want Black's two", name, got)
		}
		if got := jsString(t, page, `document.getElementById('pending-text').textContent`); got != "touch-move (sarratt1808:7): White erred. Black chooses." {
			t.Errorf("%s: pending text %q", name, got)
		}
		waitJS(t, page, name+" seeing the option LEDs", `document.querySelector('rect.led[data-square="f3"]').dataset.role === 'option-2'`)
	}
	screenshot(t, arb, "console-pending.png")

	// The spectator tries to rule and is refused; nothing changes.
	click(t, spec, `#arbiter-options button[data-option="move-touched"]`)
	waitJS(t, spec, "the refusal", `document.getElementById('message').textContent.includes('arbiter token required')`)
	if st, _ := r.local.State(t.Context()); st.Pending == nil {
		t.Fatal("the spectator's ruling was applied")
	}

	// The arbiter rules; both pages follow.
	start := time.Now()
	click(t, arb, `#arbiter-options button[data-option="move-touched"]`)
	for name, page := range map[string]context.Context{"arbiter": arb, "spectator": spec} {
		waitJS(t, page, name+" seeing the ruling", `document.getElementById('pending').hidden && (document.querySelector('#moves li.note.ruling') || {textContent: ''}).textContent.includes('by arbiter')`)
		waitJS(t, page, name+" seeing the take-back LEDs", `document.querySelector('rect.led[data-square="e2"]').dataset.role === 'guide' && document.getElementById('status').dataset.syncing === 'restore'`)
	}
	t.Logf("the ruling reached both browsers within %v", time.Since(start).Round(time.Millisecond))

	squares(t, arb, "e4", "e2")
	waitJS(t, spec, "the knight obliged", `document.querySelector('rect.led[data-square="g1"]').dataset.role === 'must-move'`)
	squares(t, arb, "g1", "f3")
	start = time.Now()
	waitJS(t, spec, "Nf3 in the second browser", movesAre("Nf3"))
	t.Logf("Nf3 reached the second browser %v after the last click (250 ms of it the settle time)", time.Since(start).Round(time.Millisecond))
}

// A mismatch: two men moved at once; the page says what to fix and lights
// it; putting them back ends it.
func TestBrowserMismatch(t *testing.T) {
	r := newRig(t, rigOptions{})
	page := tab(t, r.url+"/")
	squares(t, page, "e2", "d2", "e4", "d4")
	waitJS(t, page, "the mismatch", `document.getElementById('status').dataset.syncing === 'mismatch'`)
	for sq, role := range map[string]string{"e2": "missing", "d2": "missing", "e4": "extra", "d4": "extra"} {
		if got := jsString(t, page, `document.querySelector('rect.led[data-square="`+sq+`"]').dataset.role`); got != role {
			t.Errorf("LED %s: %q, want %q", sq, got, role)
		}
	}
	if got := jsString(t, page, `document.getElementById('status').textContent`); got != "The board does not match the game: put men on d2, e2; clear d4, e4." {
		t.Errorf("status %q", got)
	}
	if got := jsString(t, page, `document.querySelector('#moves li.note.mismatch').textContent`); got != "board out of step: missing d2, e2; extra d4, e4" {
		t.Errorf("note %q", got)
	}
	screenshot(t, page, "console-mismatch.png")
	squares(t, page, "e4", "e2", "d4", "d2")
	waitJS(t, page, "the board matching again", `document.getElementById('status').dataset.syncing === '' && document.getElementById('status').textContent === 'White to move.'`)
}
