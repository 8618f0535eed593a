package hall_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/browsertest"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/trace"
)

// The browser test drives the hall's page in headless Chromium (Debian's
// chromium package) and skips when it is not installed.

var screenshots = flag.Bool("screenshots", false, "write the browser test's screenshots into ../docs")

// browser is the Chromium the browser tests share.
var browser = browsertest.Browser{Height: 900}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

// page opens url in a fresh browser context (its own storage).
func page(t *testing.T, url string) context.Context {
	t.Helper()
	ctx := browser.Context(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// phonePage opens url as page does, width px wide in mobile emulation (a
// 390 px phone, a tablet).
func phonePage(t *testing.T, url string, width int64) context.Context {
	t.Helper()
	ctx := browser.Context(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// fits checks that the page lays out no wider than its window and that
// every small board is square, rank by rank: each square as tall as it is
// wide, an empty rank as tall as a full one.
func fits(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	got := evalString(t, ctx, `(() => {
		const out = [];
		const w = document.documentElement.clientWidth, sw = document.documentElement.scrollWidth;
		if (sw > w) out.push('the page is ' + sw + ' px wide in a ' + w + ' px window');
		for (const c of document.querySelectorAll('.card')) {
			const m = c.querySelector('.mini').getBoundingClientRect();
			if (m.right > w) out.push(c.dataset.board + ' reaches ' + m.right + ' px');
			if (Math.abs(m.width - m.height) > 1) out.push(c.dataset.board + ' board ' + m.width + 'x' + m.height);
			for (const sq of c.querySelectorAll('.mini span')) {
				const r = sq.getBoundingClientRect();
				if (Math.abs(r.width - r.height) > 1 || Math.abs(r.width - m.width / 8) > 1) { out.push(c.dataset.board + ' ' + sq.dataset.square + ' ' + r.width.toFixed(1) + 'x' + r.height.toFixed(1)); break; }
			}
		}
		return out.join('; ');
	})()`)
	if got != "" {
		t.Errorf("%s: %s", what, got)
	}
}

// until waits for a JavaScript predicate to hold in the page.
func until(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var err error
	for {
		err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(time.Until(deadline))))
		// A page navigating away loses its context: poll the next one.
		if err == nil || time.Now().After(deadline) || !(strings.Contains(err.Error(), "context") && ctx.Err() == nil) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("waiting for %s: %v\npage:\n%s", what, err, text)
	}
}

func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func snap(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if !*screenshots {
		return
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getAnimations().forEach(a => { a.pause(); a.currentTime = 0; })`)); err != nil {
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

func card(id, rest string) string {
	return `document.querySelector('.card[data-board="` + id + `"]')?` + rest
}

// The hall's page with three boards: the grid shows each board's position,
// last move and status; a touch-move on one board highlights it as waiting
// for a choice; its card opens the board in the console's page, where the
// arbiter (with the hall's token) rules; the ruling travels to the board
// over the broker, and both pages follow.
func TestBrowserHall(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, hs := startHall(t, config(t, br.URL(), "hall"))
	ctx := ctxTimeout(t, 90*time.Second)
	var boards []*halltest.Board
	for i, laws := range []string{"sarratt1808", "fide2023", "nycc"} {
		id := fmt.Sprintf("b%d", i+1)
		b := startBoard(t, id, boardDir(t, id), config(t, br.URL(), id), gameOptions(laws))
		t.Cleanup(func() { b.Close() })
		boards = append(boards, b)
	}
	for i, b := range boards[1:] {
		g := makeGame(t, testGames[i][:6+2*i])
		if err := b.PlayMoves(ctx, g.lines, g.ends, 0, len(g.ends)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the boards in the hall", 10*time.Second, func() bool { return len(h.Boards()) == 3 })

	grid := page(t, hs.URL+"/")
	until(t, grid, "three cards", `document.querySelectorAll('#grid .card').length === 3 && document.getElementById('conn').className === 'up'`)
	until(t, grid, "b2's moves", card("b2", `.dataset.moves === '6'`))
	until(t, grid, "b3's moves", card("b3", `.dataset.moves === '8'`))
	if got, want := evalString(t, grid, card("b2", `.querySelector('.last').textContent`)), lastMoveText(boards[1]); got != want {
		t.Errorf("b2's last move %q, want %q", got, want)
	}
	if got := evalString(t, grid, card("b3", `.querySelector('[data-square="e1"]').dataset.man`)); got != "K" {
		t.Errorf("b3's card shows %q on e1, want the white king", got)
	}
	if got := evalString(t, grid, `Array.from(document.querySelectorAll('#grid .card')).map(c => c.dataset.board).join(',')`); got != "b1,b2,b3" {
		t.Errorf("cards in the order %s", got)
	}

	// A touch-move on b1 (Sarratt: g1 touched, e2-e4 played): Black may
	// choose, so the board waits.
	b1 := boards[0]
	submit := func(k trace.Kind, sq string) {
		t.Helper()
		s, _ := board.ParseSquare(sq)
		if err := b1.Runner.Submit(ctx, trace.Line{Kind: k, Square: s}); err != nil {
			t.Fatal(err)
		}
	}
	submit(trace.Lift, "g1")
	time.Sleep(200 * time.Millisecond) // longer than a bump
	submit(trace.Place, "g1")
	submit(trace.Lift, "e2")
	submit(trace.Place, "e4")
	until(t, grid, "b1 highlighted as waiting", card("b1", `.classList.contains('pending') && `)+card("b1", `.dataset.pending === 'black'`))
	until(t, grid, "the count of boards waiting", `document.getElementById('counts').dataset.waiting === '1'`)
	if got := evalString(t, grid, card("b1", `.querySelector('.status').textContent`)); got != "black to choose: touch-move" {
		t.Errorf("b1's status %q", got)
	}
	fits(t, grid, "the grid at 1280 px")
	snap(t, grid, "hall-grid.png")
	tablet := phonePage(t, hs.URL+"/", 768)
	until(t, tablet, "three cards on the tablet", `document.querySelectorAll('#grid .card').length === 3`)
	fits(t, tablet, "the grid on a 768 px tablet")
	phone := phonePage(t, hs.URL+"/", 390)
	until(t, phone, "three cards on the phone", `document.querySelectorAll('#grid .card').length === 3 && `+card("b1", `.dataset.pending === 'black'`))
	fits(t, phone, "the grid on a 390 px phone")
	if got := evalString(t, phone, `String(new Set(Array.from(document.querySelectorAll('.card')).map(c => c.getBoundingClientRect().top)).size)`); got != "2" {
		t.Errorf("the phone shows the three cards in %s rows, want two (two cards a row)", got)
	}
	snap(t, phone, "hall-phone.png")

	// The card opens the board's page.
	if err := chromedp.Do(grid, chromedp.Click(chromedp.CSS(`.card[data-board="b1"]`))); err != nil {
		t.Fatal(err)
	}
	until(t, grid, "b1's page", `location.search === '?board=b1' && document.getElementById('board-id').textContent === 'b1'`)

	// The arbiter's page, with the hall's token.
	arb := page(t, hs.URL+"/?board=b1#token="+testToken)
	until(t, arb, "the arbiter role", `document.body.dataset.role === 'arbiter'`)
	until(t, arb, "the options", `!document.getElementById('pending').hidden && document.querySelectorAll('#arbiter-options button').length === 2`)
	if got := evalString(t, arb, `document.getElementById('pending-text').textContent`); got != "touch-move (sarratt1808:7): White erred. Black chooses." {
		t.Errorf("pending text %q", got)
	}
	if got := evalString(t, arb, `document.getElementById('mode').textContent`); got != "sensor board" {
		t.Errorf("the hall's page calls b1 a %q: the hall watches, it does not play", got)
	}
	start := time.Now()
	if err := chromedp.Do(arb, chromedp.Click(chromedp.CSS(`#arbiter-options button[data-option="move-touched"]`))); err != nil {
		t.Fatal(err)
	}
	until(t, arb, "the ruling on the arbiter's page", `document.getElementById('pending').hidden && (document.querySelector('#moves li.note.ruling') || {textContent: ''}).textContent.startsWith('The arbiter ruled')`)
	t.Logf("the ruling went to the board and back to the page in %v", time.Since(start).Round(time.Millisecond))
	st, err := b1.Local.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending != nil {
		t.Error("the board still waits after the arbiter's ruling")
	}
	until(t, grid, "b1's page following the ruling", `document.getElementById('pending').hidden`)

	// Back on the grid, b1 no longer waits.
	grid2 := page(t, hs.URL+"/")
	until(t, grid2, "b1 no longer waiting", card("b1", `.dataset.pending === ''`)+` && document.getElementById('counts').dataset.waiting === '0'`)
}

// lastMoveText is the grid's text for a board's last move.
func lastMoveText(b *halltest.Board) string {
	moves := b.Moves()
	m := moves[len(moves)-1]
	n := (len(moves) + 1) / 2
	if m.Side == "white" {
		return strconv.Itoa(n) + ". " + m.SAN
	}
	return strconv.Itoa(n) + "\u2026 " + m.SAN
}
