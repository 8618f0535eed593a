package console

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/browsertest"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
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

// The widths the page is tried at: a desktop browser, and a phone (390 px,
// an iPhone 12 to 15, in mobile emulation: a touch screen, twice the
// pixels).
const (
	desktopWidth = 1280
	phoneWidth   = 390
)

// tab opens a page in a fresh browser context (its own storage, as if it
// were another browser), in the desktop browser's window.
func tab(t *testing.T, url string) context.Context {
	t.Helper()
	return open(t, url, nil)
}

// phone opens a page as tab does, on a phone width wide.
func phone(t *testing.T, url string, width int64) context.Context {
	t.Helper()
	return open(t, url, chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
}

func open(t *testing.T, url string, emulate chromedp.Action[chromedp.Void]) context.Context {
	t.Helper()
	ctx := chrome.Context(t)
	if emulate != nil {
		if err := chromedp.Do(ctx, emulate); err != nil {
			t.Fatal(err)
		}
	}
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

// A short game played by clicking on the simulated board, with captures in
// two clicks (the taker, then the man taken), one in the slow order hands
// may use (the man taken first, one man a click), and an announced
// adjustment (the j'adoube button). Between the clicks of a capture the page
// says what is in hand and what the next click does.
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
	}
	for _, mv := range game {
		squares(t, page, strings.Fields(mv.clicks)...)
		waitJS(t, page, mv.want, movesAre(mv.want))
	}

	// A capture in two clicks: the bishop picked up, the page says so.
	squares(t, page, "b5")
	waitJS(t, page, "the bishop in hand", `document.getElementById('hand').dataset.count === '1'`)
	if got, want := jsString(t, page, `document.getElementById('hand').textContent`), "In hand: the white bishop from b5. Next click: an empty square sets him down (b5 puts him back); a black man is taken."; got != want {
		t.Errorf("hand %q, want %q", got, want)
	}
	if got := jsString(t, page, `Array.from(document.querySelectorAll('rect.held[visibility="visible"]')).map(r => r.parentNode.dataset.square).join(',')`); got != "b5" {
		t.Errorf("the square of the man in hand marked is %q, want b5", got)
	}
	squares(t, page, "c6")
	waitJS(t, page, "Bxc6", movesAre("e4 e5 Nf3 Nc6 Bb5 a6 Bxc6"))
	waitJS(t, page, "nothing in hand", `document.getElementById('hand').hidden`)

	// The slow path: one man a click, the man taken first.
	click(t, page, `#one-by-one`)
	squares(t, page, "c6", "d7")
	waitJS(t, page, "two men in hand", `document.getElementById('hand').dataset.count === '2'`)
	if got, want := jsString(t, page, `document.getElementById('hand').textContent`), "In hand: the white bishop from c6 and the black pawn from d7. A click on an empty square sets down the black pawn."; got != want {
		t.Errorf("hand %q, want %q", got, want)
	}
	squares(t, page, "c6")
	waitJS(t, page, "dxc6", movesAre("e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6"))
	click(t, page, `#one-by-one`)

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

// touchMove plays the Sarratt walk-through on the page: g1 touched and set
// back, then e2-e4, a touch-move violation Black may rule on.
func touchMove(t *testing.T, page context.Context) {
	t.Helper()
	squares(t, page, "g1")
	hold()
	squares(t, page, "g1", "e2", "e4")
}

const (
	// buttonsOf lists the buttons under a selector as side:option=words.
	buttonsOf = `(sel) => Array.from(document.querySelectorAll(sel + ' button')).map(b => b.dataset.side + ':' + b.dataset.option + '=' + b.textContent).join(' | ')`
	// visible says whether an element takes room on the page.
	visible = `(sel) => { const e = document.querySelector(sel); return !!e && e.getClientRects().length > 0; }`
)

// A touch-move violation under Sarratt (g1 touched, e2-e4 played): the
// choice is offered in plain words, naming the knight; a spectator sees
// what is being chosen but no arbiter's controls, and a ruling he sends
// anyway is refused without citing another code's law; the arbiter rules;
// the take-back and the obliged knight move follow, and the second browser
// sees every step live.
func TestBrowserTouchMoveRuledByArbiter(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808", hardware: true})
	arb := tab(t, r.url+"/#token="+testToken)
	waitJS(t, arb, "the arbiter role", `document.body.dataset.role === 'arbiter'`)
	if got := jsString(t, arb, `location.hash`); got != "" {
		t.Errorf("the token stays in the address bar: %q", got)
	}
	spec := tab(t, r.url+"/")
	waitJS(t, spec, "the spectator role", `document.body.dataset.role === 'spectator'`)
	if got := jsString(t, spec, `String((`+visible+`)('#new-game')) + ' ' + (`+visible+`)('#token-box')`); got != "false true" {
		t.Errorf("spectator: arbiter's buttons shown, token box shown: %s, want false true", got)
	}
	if got := jsString(t, arb, `String((`+visible+`)('#new-game')) + ' ' + (`+visible+`)('#token-box')`); got != "true false" {
		t.Errorf("arbiter: arbiter's buttons shown, token box shown: %s, want true false", got)
	}

	// A sensor board: the hands are the rig's.
	for _, in := range []string{`{"lift":"g1"}`, `{"place":"g1"}`, `{"lift":"e2"}`, `{"place":"e4"}`} {
		if err := r.local.Submit(t.Context(), mustParse(t, in)); err != nil {
			t.Fatal(err)
		}
		if in == `{"lift":"g1"}` {
			hold()
		}
	}
	want := "arbiter:stand=Let the move stand | arbiter:move-touched=He must move the knight on g1"
	waitJS(t, arb, "the arbiter's choices", `(`+buttonsOf+`)('#arbiter-options') === `+strconv.Quote(want))
	waitJS(t, spec, "the spectator's list", `!document.getElementById('pending').hidden && document.querySelectorAll('#option-list li').length === 2`)
	if got := jsString(t, spec, `Array.from(document.querySelectorAll('#option-list li')).map(l => l.dataset.option + '=' + l.textContent).join(' | ')`); got != "stand=Let the move stand | move-touched=He must move the knight on g1" {
		t.Errorf("spectator's list of the options: %q", got)
	}
	if got := jsString(t, spec, `String(document.querySelectorAll('#pending button').length)`); got != "0" {
		t.Errorf("the spectator has %s buttons to choose or rule with, want none", got)
	}
	for name, page := range map[string]context.Context{"arbiter": arb, "spectator": spec} {
		if got := jsString(t, page, `document.getElementById('pending-text').textContent`); got != "touch-move (sarratt1808:7): White erred. Black chooses." {
			t.Errorf("%s: pending text %q", name, got)
		}
		waitJS(t, page, name+" seeing the option LEDs", `document.querySelector('rect.led[data-square="f3"]').dataset.role === 'option-2'`)
		if got := jsString(t, page, `document.querySelector('#moves li.note.irregularity').textContent`); got != "touch-move (sarratt1808:7): White erred; Black chooses: let the move stand or he must move the man he touched." {
			t.Errorf("%s: note %q", name, got)
		}
	}

	// The spectator's ruling, sent by hand, is refused: no law cited.
	msg, err := chromedp.Run(spec, chromedp.Evaluate[string](`fetch('/api/boards/test/arbiter', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"action":"choose","option":"stand"}'}).then(r => r.json()).then(j => j.error)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "arbiter token required") || regexp.MustCompile(`[a-z0-9]+:[A-Z0-9.]+`).MatchString(msg) {
		t.Errorf("the spectator's ruling answered %q: want the token required, and no law cited", msg)
	}
	if st, _ := r.local.State(t.Context()); st.Pending == nil {
		t.Fatal("the spectator's ruling was applied")
	}

	// The arbiter rules; both pages follow.
	start := time.Now()
	click(t, arb, `#arbiter-options button[data-option="move-touched"]`)
	for name, page := range map[string]context.Context{"arbiter": arb, "spectator": spec} {
		waitJS(t, page, name+" seeing the ruling", `document.getElementById('pending').hidden && (document.querySelector('#moves li.note.ruling') || {textContent: ''}).textContent === 'The arbiter ruled (sarratt1808:7): he must move the man he touched.'`)
		waitJS(t, page, name+" seeing the take-back LEDs", `document.querySelector('rect.led[data-square="e2"]').dataset.role === 'guide' && document.getElementById('status').dataset.syncing === 'restore'`)
		if got := jsString(t, page, `document.getElementById('status').textContent`); got != "Set the white pawn back on e2 (from e4)." {
			t.Errorf("%s: status %q", name, got)
		}
	}
	t.Logf("the ruling reached both browsers within %v", time.Since(start).Round(time.Millisecond))
}

// The Sarratt walk-through on the simulated board, as the player at it:
// Black's choice in plain words on two buttons, Black chooses, the knight
// must move, and the status says so on a desktop and on a phone.
func TestBrowserPlayerChooses(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808"})
	page := tab(t, r.url+"/")
	spec := tab(t, r.url+"/")
	phoneSpec := phone(t, r.url+"/", phoneWidth)
	touchMove(t, page)
	want := "black:stand=Let the move stand | black:move-touched=He must move the knight on g1"
	waitJS(t, page, "Black's choices", `(`+buttonsOf+`)('#player-options') === `+strconv.Quote(want))
	if got := jsString(t, page, `String(document.querySelectorAll('#arbiter-options button').length)`); got != "0" {
		t.Errorf("a page without the token shows %s arbiter's buttons", got)
	}
	click(t, page, `#player-options button[data-option="move-touched"]`)
	waitJS(t, spec, "the ruling in the second browser", `(document.querySelector('#moves li.note.ruling') || {textContent: ''}).textContent === 'Black chose (sarratt1808:7): he must move the man he touched.'`)
	squares(t, page, "e4", "e2")
	waitJS(t, spec, "the knight obliged", `document.querySelector('rect.led[data-square="g1"]').dataset.role === 'must-move'`)
	for name, p := range map[string]context.Context{"desktop": page, "phone": phoneSpec} {
		waitJS(t, p, name+": the obligation in words", `document.getElementById('status').textContent === 'White must move the knight on g1.'`)
	}
	squares(t, page, "g1", "f3")
	start := time.Now()
	waitJS(t, spec, "Nf3 in the second browser", movesAre("Nf3"))
	t.Logf("Nf3 reached the second browser %v after the last click (250 ms of it the settle time)", time.Since(start).Round(time.Millisecond))
}

// A false move under fide2023: the arbiter has one course, applied at
// once; the move list says it in words, not "decides among restore".
func TestBrowserOneCourse(t *testing.T) {
	r := newRig(t, rigOptions{})
	page := tab(t, r.url+"/")
	squares(t, page, "e2", "e5")
	waitJS(t, page, "the irregularity", `document.querySelector('#moves li.note.irregularity') !== null && document.querySelector('#moves li.note.ruling') !== null`)
	for sel, want := range map[string]string{
		"#moves li.note.irregularity": "false move (fide2023:7.5.1): White erred; set up the position before the move again.",
		"#moves li.note.ruling":       "The arbiter ruled (fide2023:7.5.1): set up the position before the move again.",
	} {
		if got := jsString(t, page, `document.querySelector('`+sel+`').textContent`); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	waitJS(t, page, "the take-back", `document.getElementById('status').dataset.syncing === 'restore'`)
	if got := jsString(t, page, `document.getElementById('status').textContent`); got != "Set the white pawn back on e2 (from e5)." {
		t.Errorf("status %q", got)
	}
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
	if got := jsString(t, page, `document.getElementById('status').textContent`); got != "The board does not match the game: put the white pawn on d2 and the white pawn on e2; take the men off d4 and e4." {
		t.Errorf("status %q", got)
	}
	if got := jsString(t, page, `document.querySelector('#moves li.note.mismatch').textContent`); got != "The board is out of step: put a man on d2 and a man on e2; take the men off d4 and e4." {
		t.Errorf("note %q", got)
	}
	screenshot(t, page, "console-mismatch.png")
	squares(t, page, "e4", "e2", "d4", "d2")
	waitJS(t, page, "the board matching again", `document.getElementById('status').dataset.syncing === '' && document.getElementById('status').textContent === 'White to move.'`)
}

// layout measures the page: how wide it lays out against the window, and
// where the board, the status line, the choice waiting, the simulated
// board's buttons and the moves are (in CSS pixels).
type layout struct {
	Window, Page                            float64
	Board, Status, Pending, Sim, Moves, Arb box
	Overflowing                             []string
}

type box struct{ Left, Top, Right, Bottom float64 }

func measure(t *testing.T, page context.Context) layout {
	t.Helper()
	js := `(() => {
		const b = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return {Left: r.left, Top: r.top + scrollY, Right: r.right, Bottom: r.bottom + scrollY}; };
		const over = Array.from(document.querySelectorAll('body *')).filter(e => e.getClientRects().length && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined ? '.' + e.className : ''));
		return JSON.stringify({Window: document.documentElement.clientWidth, Page: document.documentElement.scrollWidth,
			Board: b('#board'), Status: b('#status'), Pending: b('#pending'), Sim: b('#sim'), Moves: b('#game'), Arb: b('#arbiter'), Overflowing: over});
	})()`
	var l layout
	if err := json.Unmarshal([]byte(jsString(t, page, js)), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// The page on a phone and on a desktop: nothing wider than the window, and
// the choice waiting the first thing after the board and what it says; on
// the desktop beside the board. The phone is tried as the player at the
// simulated board (the choice on buttons) and as the arbiter with the
// token; 360 px and 430 px phones and an 820 px tablet too.
func TestBrowserFitsPhoneAndDesktop(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808"})
	views := []struct {
		name  string
		width int64
		token bool
		shot  string
		phone bool
	}{
		{"desktop arbiter", desktopWidth, true, "console-pending.png", false},
		{"phone arbiter", phoneWidth, true, "console-phone-arbiter.png", true},
		{"phone player", phoneWidth, false, "console-phone.png", true},
		{"small phone", 360, false, "", true},
		{"large phone", 430, true, "", true},
		{"tablet", 820, true, "", true},
	}
	pages := make([]context.Context, len(views))
	for i, v := range views {
		url := r.url + "/"
		if v.token {
			url += "#token=" + testToken
		}
		if v.phone {
			pages[i] = phone(t, url, v.width)
		} else {
			pages[i] = tab(t, url)
		}
		if v.token {
			waitJS(t, pages[i], "the arbiter role", `document.body.dataset.role === 'arbiter'`)
		}
	}
	touchMove(t, pages[0])
	for i, v := range views {
		page := pages[i]
		waitJS(t, page, v.name+": the choice", `!document.getElementById('pending').hidden && document.querySelectorAll('#player-options button').length === 2`)
		l := measure(t, page)
		if l.Page > l.Window || len(l.Overflowing) > 0 {
			t.Errorf("%s: the page lays out %v px wide in a window of %v px; wider than the window: %v", v.name, l.Page, l.Window, l.Overflowing)
		}
		if int64(l.Window) != v.width {
			t.Errorf("%s: window %v px, want %d", v.name, l.Window, v.width)
		}
		if v.phone {
			// One column: the board, the status, then the choice, before the
			// simulated board's buttons, the moves and the arbiter.
			if !(l.Board.Bottom <= l.Status.Top && l.Status.Bottom <= l.Pending.Top && l.Pending.Bottom <= l.Sim.Top && l.Sim.Bottom <= l.Moves.Top && l.Moves.Bottom <= l.Arb.Top) {
				t.Errorf("%s: out of order: board %v, status %v, choice %v, buttons %v, moves %v, arbiter %v", v.name, l.Board, l.Status, l.Pending, l.Sim, l.Moves, l.Arb)
			}
			if v.width < 600 && l.Board.Right-l.Board.Left < float64(v.width)-40 {
				t.Errorf("%s: the board is %v px wide on a %d px phone", v.name, l.Board.Right-l.Board.Left, v.width)
			}
		} else if !(l.Pending.Left >= l.Board.Right && l.Pending.Top < l.Board.Bottom) {
			t.Errorf("%s: the choice %v is not beside the board %v", v.name, l.Pending, l.Board)
		}
		if v.shot != "" {
			screenshot(t, page, v.shot)
		}
	}
}

func mustParse(t *testing.T, line string) trace.Line {
	t.Helper()
	l, err := trace.Parse([]byte(`{"t":0,` + line[1:]))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// at opens a page as a phone shows it at phoneWidth, else as a desktop
// browser does.
func at(t *testing.T, url string, width int64) context.Context {
	t.Helper()
	if width == phoneWidth {
		return phone(t, url, width)
	}
	return tab(t, url)
}

// The simulated board is set up in one click: after a result, the set-up
// button clears the board and sets up the start position (a new game
// begins); after a new game begun mid-game, it sets the board as lit. On a
// phone and on a desktop.
func TestBrowserSetUpInOneClick(t *testing.T) {
	tests := []struct {
		name  string
		end   trace.Line
		label string
	}{
		{"after a result", trace.Line{Kind: trace.Arbiter, Action: game.ActionResign, Value: "black", Side: trace.SideArbiter}, "Set up the start position"},
		{"a new game", trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}, "Set the board as lit"},
	}
	for _, width := range []int64{phoneWidth, desktopWidth} {
		for _, tc := range tests {
			t.Run(tc.name+" at "+strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
				r := newRig(t, rigOptions{})
				page := at(t, r.url+"/", width)
				waitJS(t, page, "no set-up button", `document.getElementById('setup').hidden`)
				squares(t, page, "e2", "e4")
				waitJS(t, page, "the move", movesAre("e4"))
				if err := r.runner.Submit(t.Context(), tc.end); err != nil {
					t.Fatal(err)
				}
				waitJS(t, page, "the set-up button", `!document.getElementById('setup').hidden`)
				if got := jsString(t, page, `document.getElementById('setup').textContent`); got != tc.label {
					t.Errorf("the button says %q, want %q", got, tc.label)
				}
				click(t, page, `#setup`)
				waitJS(t, page, "a new game", movesAre("")+` && document.getElementById('status').textContent === 'White to move.' && document.getElementById('result').hidden && document.getElementById('setup').hidden`)
				st, err := r.local.State(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if want := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"; !strings.HasPrefix(st.FEN, want) || len(st.Men) != 32 || st.Syncing {
					t.Errorf("after the set-up: %s, %d men, syncing %v", st.FEN, len(st.Men), st.Syncing)
				}
				if l := measure(t, page); l.Page > l.Window {
					t.Errorf("the page lays out %v px wide in a window of %v px: %v", l.Page, l.Window, l.Overflowing)
				}
			})
		}
	}
}

// The game's clocks on the page, on a desktop and on a phone: large, above
// the board, the running side's counted down between states, and its flag
// shown fallen when its time is out.
func TestBrowserClocks(t *testing.T) {
	r := newRig(t, rigOptions{timeControl: "3"})
	pages := map[string]context.Context{"desktop": tab(t, r.url+"/"), "phone": phone(t, r.url+"/", phoneWidth)}
	for name, page := range pages {
		waitJS(t, page, name+": the clocks", `!document.getElementById('clocks').hidden && document.querySelector('#clock-white .time').textContent === '0:03.0'`)
	}
	// Black presses the clock: White's time runs.
	click(t, pages["desktop"], `button[data-press="clock"][data-side="black"]`)
	waitJS(t, pages["phone"], "phone: White's clock running", `document.getElementById('clock-white').dataset.running === 'yes'`)
	screenshot(t, pages["phone"], "console-clocks-phone.png")
	for name, page := range pages {
		waitJS(t, page, name+": White's clock running", `document.getElementById('clock-white').dataset.running === 'yes' && document.getElementById('clock-black').dataset.running === 'no'`)
		tests := []struct{ what, js, want string }{
			{"counting down", `(() => { const a = document.querySelector('#clock-white .time').textContent; return new Promise(ok => setTimeout(() => ok(String(document.querySelector('#clock-white .time').textContent < a)), 400)); })()`, "true"},
			{"large", `String(parseFloat(getComputedStyle(document.querySelector('#clock-white .time')).fontSize) >= 24)`, "true"},
			{"in view", `String(document.getElementById('clocks').getBoundingClientRect().bottom <= innerHeight && document.getElementById('clocks').getBoundingClientRect().bottom <= document.getElementById('board').getBoundingClientRect().top + 1)`, "true"},
			{"Black standing", `document.querySelector('#clock-black .time').textContent`, "0:03.0"},
		}
		for _, tc := range tests {
			got, err := chromedp.Run(page, chromedp.Evaluate[string](tc.js, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s: %s: got %q, want %q", name, tc.what, got, tc.want)
			}
		}
	}
	for name, page := range pages {
		waitJS(t, page, name+": White's flag", `document.getElementById('clock-white').dataset.flag === 'yes' && !document.querySelector('#clock-white .flag').hidden && document.querySelector('#clock-black .flag').hidden && document.querySelector('#clock-white .time').textContent === '0:00.0' && document.getElementById('clock-black').dataset.flag === 'no'`)
		if l := measure(t, page); l.Page > l.Window {
			t.Errorf("%s: the page lays out %v px wide in a window of %v px: %v", name, l.Page, l.Window, l.Overflowing)
		}
	}
	st, err := r.local.State(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.Clock == nil || st.Clock.Flag != "white" {
		t.Errorf("the state's clock %+v: want White's flag fallen", st.Clock)
	}
}

// A promotion on the simulated board: once the pawn stands on its last
// rank, a picker covers the board with the four pieces, the queen over the
// promotion square, on a phone and on a desktop, for either side; a click
// names the piece and the move is made.
func TestBrowserPromotionPicker(t *testing.T) {
	tests := []struct {
		name, fen, from, to, piece, san string
	}{
		{"White, a knight", "7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7", "a8", "n", "a8=N"},
		{"Black, a queen", "4k3/8/8/8/8/8/6p1/K7 b - - 0 1", "g2", "g1", "q", "g1=Q"},
	}
	for _, width := range []int64{phoneWidth, desktopWidth} {
		for _, tc := range tests {
			t.Run(tc.name+" at "+strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
				r := newRig(t, rigOptions{setup: tc.fen})
				page := at(t, r.url+"/", width)
				click(t, page, `#setup`)
				waitJS(t, page, "the position set up", `document.getElementById('status').dataset.syncing === '' && document.getElementById('setup').hidden`)
				waitJS(t, page, "no picker", `document.getElementById('promotion') === null`)
				squares(t, page, tc.from, tc.to)
				waitJS(t, page, "the picker", `document.getElementById('promotion') !== null`)
				side := "White"
				if tc.from[1] == '2' {
					side = "Black"
				}
				if got, want := jsString(t, page, `document.getElementById('status').textContent`), side+" promotes on "+tc.to+": choose the piece over the square."; got != want {
					t.Errorf("status %q, want %q", got, want)
				}
				// The queen stands over the promotion square, and the picker
				// is in the window.
				over := `(() => { const q = document.querySelector('#promotion [data-promote="q"] rect').getBoundingClientRect(); const s = document.querySelector('rect.hit[data-square="` + tc.to + `"]').getBoundingClientRect(); return String(Math.abs(q.x + q.width / 2 - s.x - s.width / 2) < 2 && Math.abs(q.y + q.height / 2 - s.y - s.height / 2) < 2 && q.width > 30); })()`
				if got := jsString(t, page, over); got != "true" {
					t.Errorf("the queen is not over %s", tc.to)
				}
				if got := jsString(t, page, `Array.from(document.querySelectorAll('#promotion [data-promote]')).map(b => b.dataset.promote).join('')`); got != "qnrb" {
					t.Errorf("the picker offers %q", got)
				}
				if width == phoneWidth && tc.from == "a7" {
					screenshot(t, page, "console-promotion-phone.png")
				}
				if err := chromedp.Do(page, chromedp.ScrollIntoView(chromedp.CSS(`#promotion [data-promote="`+tc.piece+`"]`))); err != nil {
					t.Fatal(err)
				}
				click(t, page, `#promotion [data-promote="`+tc.piece+`"]`)
				waitJS(t, page, "the promotion made", movesAre(tc.san+"+")+` || `+movesAre(tc.san))
				waitJS(t, page, "the picker gone", `document.getElementById('promotion') === null`)
				if l := measure(t, page); l.Page > l.Window {
					t.Errorf("the page lays out %v px wide in a window of %v px: %v", l.Page, l.Window, l.Overflowing)
				}
			})
		}
	}
}

// The move list in pairs: White's and Black's moves of a number on one
// row, the next number below; the clock times as small numbers, never the
// raw [%clk] text. On a phone and on a desktop.
func TestBrowserMovesInPairs(t *testing.T) {
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
			r := newRig(t, rigOptions{timeControl: "300"})
			page := at(t, r.url+"/", width)
			squares(t, page, "e2", "e4")
			waitJS(t, page, "e4", movesAre("e4"))
			squares(t, page, "e7", "e5")
			waitJS(t, page, "e5", movesAre("e4 e5"))
			squares(t, page, "g1", "f3")
			waitJS(t, page, "Nf3", movesAre("e4 e5 Nf3"))
			const top = `(san) => Math.round(document.querySelector('#moves li.move[data-san="' + san + '"]').getBoundingClientRect().top)`
			tests := []struct{ what, js, want string }{
				{"e4 and e5 on one row", `String((` + top + `)('e4') === (` + top + `)('e5'))`, "true"},
				{"Nf3 below", `String((` + top + `)('Nf3') > (` + top + `)('e4'))`, "true"},
				{"e5 beside e4", `String(document.querySelector('#moves li.move[data-san="e5"]').classList.contains('beside'))`, "true"},
				{"no raw clock text", `String(/\[%clk/.test(document.getElementById('moves').textContent))`, "false"},
				{"the clock times", `String(document.querySelectorAll('#moves li.move .clk').length)`, "3"},
			}
			for _, tc := range tests {
				if got := jsString(t, page, tc.js); got != tc.want {
					t.Errorf("%s: got %s, want %s", tc.what, got, tc.want)
				}
			}
		})
	}
}
