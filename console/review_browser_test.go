package console

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/boardd/boardd/game"
)

// play makes moves on the rig's simulated board over HTTP, each a lift and
// a placement ("e2e4"; a capture "e5xd4" lifts the man taken between), and
// waits until the page shows n moves.
func play(t *testing.T, r *rig, page context.Context, n int, moves ...string) {
	t.Helper()
	for _, m := range moves {
		from, to, capture := m[:2], m[2:4], false
		if m[2] == 'x' {
			to, capture = m[3:5], true
		}
		r.input(t, `{"lift":"`+from+`"}`)
		if capture {
			r.input(t, `{"lift":"`+to+`"}`)
		}
		r.input(t, `{"place":"`+to+`"}`)
	}
	waitJS(t, page, strconv.Itoa(n)+" moves", `document.querySelectorAll('#moves li.move').length === `+strconv.Itoa(n))
}

// shownMen is the men the page's board shows, as "e4=P d7=p ..." for the
// squares asked.
func shownMen(t *testing.T, page context.Context, sqs ...string) string {
	t.Helper()
	js := `[` + `'` + strings.Join(sqs, `','`) + `'].map(s => s + '=' + (document.querySelector('text.man[data-square="' + s + '"]').getAttribute('data-man') || '')).join(' ')`
	return jsString(t, page, js)
}

func key(t *testing.T, page context.Context, k string) {
	t.Helper()
	if err := chromedp.Do(page, chromedp.KeyEvent(k)); err != nil {
		t.Fatalf("key %q: %v", k, err)
	}
}

// The move list shows earlier positions: a click on a move shows the
// position after it on the page's board, marked "viewing move ...", the
// move marked in the list; the arrow keys, Home, End and the ◀ ▶ buttons
// step through the game; the game, its LEDs and its status are untouched
// (the server's state is the same); a click on the board while viewing
// only comes back to the game; and a new move brings the page back to the
// game. On a phone and on a desktop.
func TestBrowserViewEarlierPositions(t *testing.T) {
	const banner = `document.getElementById('viewing')`
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
			r := newRig(t, rigOptions{timing: game.Timing{Settle: 60 * time.Millisecond, QuickSettle: 30 * time.Millisecond}})
			page := at(t, r.url+"/", width)
			if got := jsString(t, page, `String(document.querySelector('#view-nav [data-view="prev"]').disabled)`); got != "true" {
				t.Errorf("with no move the ◀ button is enabled")
			}
			play(t, r, page, 3, "e2e4", "e7e5", "g1f3")
			before, err := r.local.State(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			status := jsString(t, page, `document.getElementById('status').textContent`)
			lit := jsString(t, page, `String(document.querySelectorAll('rect.led[visibility="visible"]').length)`)

			steps := []struct {
				name    string
				do      func()
				text    string // the banner's words; "" for the game itself
				men     string // e2 e4 e7 e5 g1 f3
				current string // the move marked in the list
			}{
				{"a click on 1. e4", func() { click(t, page, `#moves li.move[data-ply="1"]`) }, "Viewing move 1. e4", "e2= e4=P e7=p e5= g1=N f3=", "1"},
				{"the right arrow", func() { key(t, page, kb.ArrowRight) }, "Viewing move 1\u2026 e5", "e2= e4=P e7= e5=p g1=N f3=", "2"},
				{"the left arrow twice", func() { key(t, page, kb.ArrowLeft); key(t, page, kb.ArrowLeft) }, "Viewing the position before the first move", "e2=P e4= e7=p e5= g1=N f3=", ""},
				{"the left arrow at the start", func() { key(t, page, kb.ArrowLeft) }, "Viewing the position before the first move", "e2=P e4= e7=p e5= g1=N f3=", ""},
				{"End", func() { key(t, page, kb.End) }, "", "e2= e4=P e7= e5=p g1= f3=N", ""},
				{"the ◀ button", func() { click(t, page, `#view-nav [data-view="prev"]`) }, "Viewing move 1\u2026 e5", "e2= e4=P e7= e5=p g1=N f3=", "2"},
				{"the ▶ button to the game", func() { click(t, page, `#view-nav [data-view="next"]`) }, "", "e2= e4=P e7= e5=p g1= f3=N", ""},
				{"Home", func() { key(t, page, kb.Home) }, "Viewing the position before the first move", "e2=P e4= e7=p e5= g1=N f3=", ""},
				{"Enter on a move", func() {
					if err := chromedp.Do(page, chromedp.Focus(chromedp.CSS(`#moves li.move[data-ply="2"]`))); err != nil {
						t.Fatal(err)
					}
					key(t, page, kb.Enter)
				}, "Viewing move 1\u2026 e5", "e2= e4=P e7= e5=p g1=N f3=", "2"},
				{"Escape", func() { key(t, page, kb.Escape) }, "", "e2= e4=P e7= e5=p g1= f3=N", ""},
				{"Home again", func() { key(t, page, kb.Home) }, "Viewing the position before the first move", "e2=P e4= e7=p e5= g1=N f3=", ""},
				{"back to the game", func() { click(t, page, `#view-live`) }, "", "e2= e4=P e7= e5=p g1= f3=N", ""},
			}
			for _, s := range steps {
				s.do()
				if s.text == "" {
					waitJS(t, page, s.name+": the game", banner+`.hidden && !document.getElementById('board').classList.contains('viewing')`)
				} else {
					waitJS(t, page, s.name+": "+s.text, `!`+banner+`.hidden && document.getElementById('viewing-text').textContent === `+strconv.Quote(s.text))
				}
				if got := shownMen(t, page, "e2", "e4", "e7", "e5", "g1", "f3"); got != s.men {
					t.Errorf("%s: the board shows %s, want %s", s.name, got, s.men)
				}
				if got := jsString(t, page, `Array.from(document.querySelectorAll('#moves li.move.viewing')).map(e => e.dataset.ply).join(',')`); got != s.current {
					t.Errorf("%s: moves marked %q, want %q", s.name, got, s.current)
				}
				if s.text != "" {
					// The viewed move's squares are marked; the game's LEDs are not drawn over it.
					if got := jsString(t, page, `String(document.querySelectorAll('rect.led[data-role="viewed-move"]').length)`); s.current != "" && got != "2" {
						t.Errorf("%s: %s squares marked as the move viewed, want 2", s.name, got)
					}
				}
				if got := jsString(t, page, `document.getElementById('status').textContent`); got != status {
					t.Errorf("%s: status %q, want %q (the game's, untouched)", s.name, got, status)
				}
			}
			if got := jsString(t, page, `String(document.querySelectorAll('rect.led[visibility="visible"]').length)`); got != lit {
				t.Errorf("back at the game, %s squares lit, want %s", got, lit)
			}

			// A click on the board while viewing comes back to the game and
			// plays nothing.
			click(t, page, `#moves li.move[data-ply="2"]`)
			waitJS(t, page, "viewing 1... e5", `!`+banner+`.hidden`)
			squares(t, page, "b8")
			waitJS(t, page, "back to the game", banner+`.hidden`)
			time.Sleep(200 * time.Millisecond) // an input sent would have settled
			after, err := r.local.State(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if after.FEN != before.FEN || sans(after) != sans(before) || len(after.Occupied) != len(before.Occupied) || len(after.Hand) != 0 {
				t.Errorf("the game changed while viewing: %s %q, %d men, hand %v; was %s %q", after.FEN, sans(after), len(after.Occupied), after.Hand, before.FEN, sans(before))
			}

			// A new move in the game brings the page back to it.
			click(t, page, `#moves li.move[data-ply="1"]`)
			waitJS(t, page, "viewing 1. e4", `!`+banner+`.hidden`)
			play(t, r, page, 4, "b8c6")
			waitJS(t, page, "the game again", banner+`.hidden`)
			if got := shownMen(t, page, "b8", "c6"); got != "b8= c6=n" {
				t.Errorf("after the new move the board shows %s, want the knight on c6", got)
			}
			if l := measure(t, page); l.Page > l.Window {
				t.Errorf("the page lays out %v px wide in a window of %v px: %v", l.Page, l.Window, l.Overflowing)
			}
		})
	}
}

// The review opens by itself once a game has a result: the graph has one
// point per evaluated ply and a click on a point shows that move; the
// irregularity, the ruling and the result stand on the timeline at their
// moves, and their list jumps to them; the PGN is offered. Without
// evaluations the graph gives way to the timeline alone. After a new game
// the last game can still be reviewed, its PGN kept. On a phone and on a
// desktop.
func TestBrowserReview(t *testing.T) {
	for _, width := range []int64{phoneWidth, desktopWidth} {
		for _, evals := range []bool{true, false} {
			name := strconv.FormatInt(width, 10) + " px"
			if !evals {
				name += ", no engine"
			}
			t.Run(name, func(t *testing.T) {
				r := newRig(t, rigOptions{laws: "sarratt1808", timeControl: "300+2", timing: game.Timing{Settle: 60 * time.Millisecond, QuickSettle: 30 * time.Millisecond}})
				page := at(t, r.url+"/", width)
				play(t, r, page, 2, "e2e4", "e7e5")
				// White touches g1 and plays d2-d4: Black lets it stand
				// (sarratt1808:7). The choice coming up brings a page viewing
				// 1. e4 back to the game.
				click(t, page, `#moves li.move[data-ply="1"]`)
				waitJS(t, page, "viewing 1. e4", `!document.getElementById('viewing').hidden`)
				r.input(t, `{"lift":"g1"}`)
				hold()
				r.input(t, `{"place":"g1"}`)
				r.input(t, `{"lift":"d2"}`)
				r.input(t, `{"place":"d4"}`)
				waitJS(t, page, "the choice, and the game shown", `!document.getElementById('pending').hidden && document.getElementById('viewing').hidden`)
				r.input(t, `{"choose":"stand","side":"black"}`)
				play(t, r, page, 4, "e5xd4")
				if evals {
					for ply, c := range map[int]string{0: "[%eval 0.30,12] Fake: +0.30/12", 1: "[%eval -0.10,12] Fake", 3: "[%eval #-3,20] Fake"} {
						if err := r.runner.Do(t.Context(), func(g *game.Game, _ time.Duration) {
							if err := g.Annotate(ply, c); err != nil {
								t.Error(err)
							}
						}); err != nil {
							t.Fatal(err)
						}
					}
				}
				if status, out := r.post(t, "arbiter", `{"action":"result","value":"0-1"}`, map[string]string{"Authorization": "Bearer " + testToken}); status != http.StatusOK {
					t.Fatalf("result: %d %v", status, out)
				}
				waitJS(t, page, "the review", `!document.getElementById('review').hidden && document.querySelectorAll('#review-notes button').length >= 3`)

				if evals {
					waitJS(t, page, "the graph", `!document.getElementById('review-graph').hidden && document.querySelectorAll('#review-graph .eval-point').length === 3`)
					if got := jsString(t, page, `Array.from(document.querySelectorAll('#review-graph .eval-point')).map(c => c.dataset.ply + ':' + c.dataset.eval).join(' ')`); got != "1:+0.30 2:-0.10 4:#-3" {
						t.Errorf("the graph's points: %s", got)
					}
					// The move list's small numbers: the score, not the depth after it.
					if got := jsString(t, page, `Array.from(document.querySelectorAll('#moves .eval')).map(e => e.textContent).join(' ')`); got != "+0.30 -0.10 #-3" {
						t.Errorf("the move list's evaluations: %q, want +0.30 -0.10 #-3", got)
					}
					// White's view: the point for +0.30 stands above the middle, Black's mate at the bottom.
					if got := jsString(t, page, `Array.from(document.querySelectorAll('#review-graph .eval-point')).map(c => Number(c.getAttribute('cy')) < 75 ? 'up' : 'down').join(' ')`); got != "up down down" {
						t.Errorf("the points stand %s, want up down down", got)
					}
					click(t, page, `#review-graph .eval-point[data-ply="2"]`)
					waitJS(t, page, "the viewer at 1... e5", `document.getElementById('viewing-text').textContent === 'Viewing move 1\u2026 e5'`)
					if got := shownMen(t, page, "e5", "d4", "d2"); got != "e5=p d4= d2=P" {
						t.Errorf("viewing 1... e5 the board shows %s", got)
					}
				} else {
					waitJS(t, page, "no graph", `document.getElementById('review-graph').hidden && !document.getElementById('review-no-eval').hidden`)
				}

				// The timeline: the irregularity and the ruling after 1... e5
				// (before 2. d4 stood), the result after 2... exd4.
				if got := jsString(t, page, `Array.from(document.querySelectorAll('#review-timeline .mark')).map(m => m.dataset.type + '@' + m.dataset.ply).join(' ')`); got != "irregularity@2 ruling@2 result@4" {
					t.Errorf("the timeline's marks: %s", got)
				}
				// The clock: a dot for each move the PGN gives a clock time.
				st, err := r.local.State(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				clocked := 0
				for _, m := range st.Moves {
					if strings.Contains(strings.Join(m.Comments, " "), "[%clk ") {
						clocked++
					}
				}
				if clocked == 0 {
					t.Errorf("no move has a clock time: %+v", st.Moves)
				}
				if got := jsString(t, page, `String(document.querySelectorAll('#review-timeline .clock-mark').length)`); got != strconv.Itoa(clocked) {
					t.Errorf("%s clock dots on the timeline, want %d", got, clocked)
				}
				click(t, page, `#review [data-view="first"]`)
				waitJS(t, page, "the viewer at the start", `document.getElementById('viewing-text').textContent === 'Viewing the position before the first move'`)
				click(t, page, `#review-notes button[data-type="irregularity"]`)
				waitJS(t, page, "the viewer at 1... e5", `document.getElementById('viewing-text').textContent === 'Viewing move 1\u2026 e5'`)
				if got := jsString(t, page, `document.querySelector('#review-notes button[data-type="irregularity"]').textContent`); !strings.Contains(got, "After 1\u2026 e5: touch-move (sarratt1808:7)") {
					t.Errorf("the irregularity reads %q", got)
				}
				click(t, page, `#review [data-view="next"]`, `#review [data-view="next"]`)
				waitJS(t, page, "the last position", `document.getElementById('viewing').hidden && document.getElementById('review-at').textContent === '2\u2026 exd4'`)
				if got := jsString(t, page, `document.getElementById('review-pgn').getAttribute('href')`); got != "/api/boards/test/pgn" {
					t.Errorf("the review's PGN link: %q", got)
				}
				if evals && width == desktopWidth {
					click(t, page, `#moves li.move[data-ply="3"]`)
					screenshot(t, page, "console-review.png")
				} else if evals {
					click(t, page, `#moves li.move[data-ply="3"]`)
					screenshot(t, page, "console-review-phone.png")
				}

				// A new game: the review closes, and the last game can be reviewed, its PGN kept.
				waitJS(t, page, "the PGN kept", `(JSON.parse(localStorage.getItem('boardd-last-game:test') || '{}').pgn || '').includes('exd4')`)
				if status, out := r.post(t, "arbiter", `{"action":"new-game"}`, map[string]string{"Authorization": "Bearer " + testToken}); status != http.StatusOK {
					t.Fatalf("new game: %d %v", status, out)
				}
				waitJS(t, page, "the new game", `document.getElementById('review').hidden && document.querySelectorAll('#moves li.move').length === 0 && !document.getElementById('review-open').hidden`)
				click(t, page, `#review-open`)
				waitJS(t, page, "the last game's review", `!document.getElementById('review').hidden && document.getElementById('review-title').textContent === 'Review of the last game' && /Viewing the last game, move 2\u2026 exd4/.test(document.getElementById('viewing-text').textContent)`)
				if got := jsString(t, page, `document.getElementById('review-pgn').href.slice(0, 5)`); got != "blob:" {
					t.Errorf("the last game's PGN link begins %q, want blob:", got)
				}
				key(t, page, kb.ArrowLeft)
				waitJS(t, page, "the last game at 2. d4", `document.getElementById('viewing-text').textContent === 'Viewing the last game, move 2. d4'`)
				click(t, page, `#view-live`)
				waitJS(t, page, "the game on the board", `document.getElementById('viewing').hidden && document.getElementById('review').hidden`)
			})
		}
	}
}
