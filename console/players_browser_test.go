package console

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The players are named from the page at a simulated board, as the player
// at it (no token), on a phone and on a desktop, in a game against an
// engine playing Black: White's name is his to give, Black's box shows the
// engine's name and level and cannot be changed; the names stand by the
// clocks, in the state and in the PGN download; nothing is wider than the
// window.
func TestBrowserNamePlayers(t *testing.T) {
	const engine = "Stockfish 16, Elo 1500"
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10), func(t *testing.T) {
			r := newRig(t, rigOptions{remote: [2]bool{false, true}, tags: map[string]string{"Black": engine}})
			page := at(t, r.url+"/", width)
			waitJS(t, page, "the players form", `(`+visible+`)('#players-box')`)
			click(t, page, "#players-box summary")
			waitJS(t, page, "the engine's name in Black's box, greyed out", `document.getElementById('player-black').value === `+strconv.Quote(engine)+` && document.getElementById('player-black').disabled && !document.getElementById('player-white').disabled`)
			if err := chromedp.Do(page, chromedp.SendKeys("#player-white", "Anna Rudolf")); err != nil {
				t.Fatal(err)
			}
			click(t, page, "#players-set")
			waitJS(t, page, "the names by the clocks", `document.querySelector('#clock-white .who').textContent === 'White: Anna Rudolf' && document.querySelector('#clock-black .who').textContent === `+strconv.Quote("Black: "+engine)+` && (`+visible+`)('#clocks')`)
			st, err := r.local.State(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if st.Players != (Players{White: "Anna Rudolf", Black: engine}) {
				t.Errorf("players in the state: %+v", st.Players)
			}
			pgn, err := chromedp.Run(page, chromedp.Evaluate[string](`fetch(document.getElementById('pgn').href).then(r => r.text())`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			for _, tag := range []string{`[White "Anna Rudolf"]`, `[Black "` + engine + `"]`} {
				if !strings.Contains(pgn, tag) {
					t.Errorf("the PGN download has no %s:\n%s", tag, pgn)
				}
			}
			if width == phoneWidth {
				screenshot(t, page, "console-players-phone.png")
			}
			l := measure(t, page)
			if l.Page > l.Window || len(l.Overflowing) > 0 {
				t.Errorf("the page lays out %v px wide in a window of %v px; wider than the window: %v", l.Page, l.Window, l.Overflowing)
			}
		})
	}
}

// On a board with sensors the form is the arbiter's: a spectator does not
// see it, the arbiter does and names both players; on a phone and on a
// desktop.
func TestBrowserPlayersFormNeedsTheArbiterOnASensorBoard(t *testing.T) {
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10), func(t *testing.T) {
			r := newRig(t, rigOptions{hardware: true})
			spec := at(t, r.url+"/", width)
			waitJS(t, spec, "the spectator role", `document.body.dataset.role === 'spectator'`)
			if got := jsString(t, spec, `String((`+visible+`)('#players-box'))`); got != "false" {
				t.Errorf("a spectator sees the players form on a sensor board")
			}
			arb := at(t, r.url+"/#token="+testToken, width)
			waitJS(t, arb, "the arbiter's form", `document.body.dataset.role === 'arbiter' && (`+visible+`)('#players-box')`)
			click(t, arb, "#players-box summary")
			if err := chromedp.Do(arb, chromedp.SendKeys("#player-white", "Anna"), chromedp.SendKeys("#player-black", "Ben")); err != nil {
				t.Fatal(err)
			}
			click(t, arb, "#players-set")
			waitJS(t, spec, "the names by the clocks, for the spectator too", `document.querySelector('#clock-white .who').textContent === 'White: Anna' && document.querySelector('#clock-black .who').textContent === 'Black: Ben'`)
			l := measure(t, arb)
			if l.Page > l.Window || len(l.Overflowing) > 0 {
				t.Errorf("the page lays out %v px wide in a window of %v px; wider than the window: %v", l.Page, l.Window, l.Overflowing)
			}
		})
	}
}

// POST .../players: who may, what a bad name is answered with (400 naming
// the field, nothing changed), and that the engine's side keeps its name.
func TestPlayersAPI(t *testing.T) {
	const engine = "Stockfish 16, Elo 1500"
	arbiter := map[string]string{"Authorization": "Bearer " + testToken}
	long := strings.Repeat("é", 101)
	for _, c := range []struct {
		name     string
		hardware bool
		headers  map[string]string
		body     string
		code     int
		words    string
		want     Players
	}{
		{"the player at a simulated board, renaming the engine too", false, nil, `{"white":"Anna","black":"Ben"}`, http.StatusConflict, `players: black: black is played from off the board, by "` + engine + `"`, Players{Black: engine}},
		{"White alone", false, nil, `{"white":"Anna"}`, http.StatusOK, "", Players{White: "Anna", Black: engine}},
		{"the engine's name sent back unchanged", false, nil, `{"white":"Anna","black":"` + engine + `"}`, http.StatusOK, "", Players{White: "Anna", Black: engine}},
		{"a spectator at a sensor board", true, nil, `{"white":"Anna"}`, http.StatusUnauthorized, "arbiter token required", Players{Black: engine}},
		{"the arbiter at a sensor board", true, arbiter, `{"white":"Anna"}`, http.StatusOK, "", Players{White: "Anna", Black: engine}},
		{"a control character", false, arbiter, `{"white":"Anna","black":"B\u0007en"}`, http.StatusBadRequest, `players: black: "B\aen": want a player's name`, Players{Black: engine}},
		{"too long", false, nil, `{"white":"` + long + `"}`, http.StatusBadRequest, "players: white: ", Players{Black: engine}},
		{"not a string", false, nil, `{"white":3}`, http.StatusBadRequest, `"white": want a string`, Players{Black: engine}},
		{"an unknown key", false, nil, `{"red":"Anna"}`, http.StatusBadRequest, `players: unknown key "red"`, Players{Black: engine}},
		{"nothing", false, nil, `{}`, http.StatusBadRequest, "no name given", Players{Black: engine}},
		{"renaming the engine", false, nil, `{"black":"Ben"}`, http.StatusConflict, "players: black: black is played from off the board", Players{Black: engine}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, rigOptions{hardware: c.hardware, remote: [2]bool{false, true}, tags: map[string]string{"Black": engine}})
			code, body := r.post(t, "players", c.body, c.headers)
			if code != c.code {
				t.Errorf("answered %d %v, want %d", code, body, c.code)
			}
			if c.words != "" {
				if msg, _ := body["error"].(string); !strings.Contains(msg, c.words) {
					t.Errorf("answered %q, want it to say %q", msg, c.words)
				}
			}
			st, err := r.local.State(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if st.Players != c.want {
				t.Errorf("players now %+v, want %+v", st.Players, c.want)
			}
		})
	}
}
