package hall_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/browsertest"
	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/report"
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
	untilWithin(t, ctx, 15*time.Second, what, predicate)
}

// untilWithin waits up to d for a JavaScript predicate to hold in the page.
func untilWithin(t *testing.T, ctx context.Context, d time.Duration, what, predicate string) {
	t.Helper()
	deadline := time.Now().Add(d)
	var err error
	for {
		err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(time.Until(deadline))))
		// A page navigating away loses its context ("Cannot find context",
		// "Inspected target navigated or closed"): poll the next one.
		if err == nil || time.Now().After(deadline) {
			break
		}
		navigating := strings.Contains(err.Error(), "context") || strings.Contains(err.Error(), "navigated")
		if !navigating || ctx.Err() != nil {
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
	until(t, grid, "b1's page", `location.search === '?board=b1' && document.getElementById('board-id')?.textContent === 'b1'`) // the new page may not be laid out yet

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

// The hall's page at an Olympiad's size: two thousand boards (published
// over one client, halltest.Crowd). The page counts them all and draws one
// page of cards; every board moves at once and the page follows; the next
// page shows the next boards; a board on another page that waits for the
// arbiter is listed with a link to its page.
func TestBrowserHallThousands(t *testing.T) {
	const n = 2000
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true, Extra: []string{"max_queued_messages 20000", "max_inflight_messages 100", "set_tcp_nodelay true"}})
	h, err := hall.New(context.Background(), hall.Options{
		Broker: config(t, br.URL(), "hall"), Token: testToken, Logger: logger(t),
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := hall.NewServer(h, hall.ServerOptions{Ping: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		h.Close()
	})
	ctx := ctxTimeout(t, 3*time.Minute)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("b%d", i+1)
	}
	start := time.Now()
	crowd, err := halltest.StartCrowd(ctx, config(t, br.URL(), "crowd"), ids, scripts(t), logger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { crowd.Close() })
	waitFor(t, "2000 boards in the hall", time.Minute, func() bool { return len(h.Boards()) == n })
	t.Logf("%d boards published and heard in %v", n, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	grid := page(t, hs.URL+"/")
	untilWithin(t, grid, time.Minute, "every board counted", `document.getElementById('counts').textContent.startsWith('2000 boards, 2000 online, 0 waiting')`)
	t.Logf("the page drew the hall of %d boards %v after opening", n, time.Since(start).Round(time.Millisecond))
	if got := evalString(t, grid, `(() => { const c = document.querySelectorAll('#grid .card'); return c.length + ' ' + c[0].dataset.board + ' ' + c[c.length-1].dataset.board; })()`); got != "120 b1 b120" {
		t.Errorf("the first page's cards: %s, want 120 from b1 to b120", got)
	}
	if got := evalString(t, grid, `document.getElementById('pager').hidden + ' ' + document.getElementById('page-select').options.length`); got != "false 17" {
		t.Errorf("the pager: hidden, pages = %s, want false 17", got)
	}

	// Every board moves at once: four thousand messages; the page follows.
	start = time.Now()
	if err := crowd.MoveAll(ctx); err != nil {
		t.Fatal(err)
	}
	untilWithin(t, grid, time.Minute, "the first page's boards after their moves", `Array.from(document.querySelectorAll('#grid .card')).every(c => c.dataset.moves === '1')`)
	t.Logf("every board moved; the page showed the first page's moves %v after the first was sent", time.Since(start).Round(time.Millisecond))

	// The broadcast of two thousand games: a poller that asks and never
	// reads holds up neither the hall nor the next poller, who gets every
	// game once, then 304 until a game changes.
	stuck, err := net.Dial("tcp", strings.TrimPrefix(hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	fmt.Fprintf(stuck, "GET /broadcast/current.pgn HTTP/1.1\r\nHost: x\r\n\r\n")
	waitFor(t, "every board's first move in the hall", time.Minute, func() bool {
		for i := 1; i <= 2000; i++ {
			if b := h.Board(fmt.Sprintf("b%d", i)); b == nil || b.Summary().Moves != 1 {
				return false
			}
		}
		return true
	})
	// The boards' last state messages may still change the broadcast for a
	// moment: ask until the same ETag is asked about twice running.
	var etag string
	req, _ := http.NewRequest(http.MethodGet, hs.URL+"/broadcast/current.pgn", nil)
	waitFor(t, "the broadcast answering 304 to its own ETag", time.Minute, func() bool {
		res, err := http.Get(hs.URL + "/broadcast/current.pgn")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		etag = res.Header.Get("ETag")
		if n := strings.Count(string(body), "[Board \""); res.StatusCode != http.StatusOK || n != 2000 || etag == "" {
			t.Fatalf("the broadcast: %d, %d games, ETag %q", res.StatusCode, n, etag)
		}
		req.Header.Set("If-None-Match", etag)
		again, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		again.Body.Close()
		return again.StatusCode == http.StatusNotModified
	})
	if err := crowd.Move(ctx, 1999); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b2000's second move in the broadcast", time.Minute, func() bool {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK && res.Header.Get("ETag") != etag
	})

	if err := chromedp.Do(grid, chromedp.Click(chromedp.CSS(`#next`))); err != nil {
		t.Fatal(err)
	}
	untilWithin(t, grid, time.Minute, "the second page", card("b121", `.dataset.moves === '1'`)+` && document.querySelectorAll('#grid .card').length === 120 && location.search === '?page=2'`)
	if got := evalString(t, grid, card("b240", `.querySelector('.last').textContent`)); got != "1. "+sanOf(t, crowdFirstSAN(t, 239)) {
		t.Errorf("b240's last move %q", got)
	}

	// A board on a page not shown waits for the arbiter: it is listed.
	irr := report.Report{Type: report.Irregularity, Kind: "illegal-move", Law: "fide2023:7.5.1", Offender: "black", Chooser: "arbiter",
		Options: []report.Option{{ID: "recall"}}}
	if err := crowd.Report(ctx, 1499, irr.AppendJSON(nil)); err != nil {
		t.Fatal(err)
	}
	untilWithin(t, grid, time.Minute, "b1500 listed as waiting", `document.getElementById('counts').dataset.waiting === '1' && !document.getElementById('waiting').hidden && document.querySelector('#waiting-boards a[data-board="b1500"]') !== null`)
	if err := chromedp.Do(grid, chromedp.Click(chromedp.CSS(`#waiting-boards a[data-board="b1500"]`))); err != nil {
		t.Fatal(err)
	}
	until(t, grid, "b1500's page", `location.search === '?board=b1500' && document.getElementById('board-id')?.textContent === 'b1500'`)
}

// crowdFirstSAN is the first move of the script crowd board i plays.
func crowdFirstSAN(t *testing.T, i int) string {
	t.Helper()
	return testGames[i%len(testGames)][0]
}

// sanOf names a first move from the start position in SAN.
func sanOf(t *testing.T, uci string) string {
	t.Helper()
	pos := board.Start()
	m, err := board.ParseUCI(uci)
	if err != nil {
		t.Fatal(err)
	}
	a, err := board.Analyse(pos)
	if err != nil {
		t.Fatal(err)
	}
	return a.SAN(m)
}
