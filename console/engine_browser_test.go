package console

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/trace"
)

// withStockfish is a rig's opponent: Stockfish at skill 0, depth 2, playing
// Black, its evaluations shown (the positions it does not move in
// evaluated to depth 4).
func withStockfish(t testing.TB, r *game.Runner) OpponentSource {
	return withStockfishAt(t, r, "skill:0,depth:2")
}

// withStockfishAt is withStockfish at another level.
func withStockfishAt(t testing.TB, r *game.Runner, lv string) OpponentSource {
	const path = "/usr/games/stockfish"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("Stockfish is not installed (apt-get install stockfish): %v", err)
	}
	level, _ := computer.ParseLevel(lv)
	p, err := computer.Start(context.Background(), computer.Options{Path: path, Level: level, Evaluate: computer.Limit{Depth: 4}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := opponent.New(opponent.Options{Runner: r, Player: opponent.NewEngine(p), Side: opponent.Black, Evaluate: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = m.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		p.Close()
	})
	return MatchSource(m, true)
}

// awaiting returns the engine's move the page asks the player to carry out
// ("g8 f6"), once it shows.
func awaiting(t *testing.T, page context.Context) []string {
	t.Helper()
	waitJS(t, page, "the engine's move", `document.querySelectorAll('rect.led[data-role="carry"]').length >= 2 && /to move: carry out .*, move the (pawn|knight|bishop|rook|queen|king) from/.test(document.getElementById('status').textContent)`)
	status := jsString(t, page, `document.getElementById('status').textContent`)
	f := regexp.MustCompile(`from ([a-h][1-8]) to ([a-h][1-8])`).FindStringSubmatch(status)
	if f == nil {
		t.Fatalf("status %q names no squares", status)
	}
	return f[1:]
}

// A few moves against Stockfish in the console, by clicks on the simulated
// board: the page shows the engine's move (lit on the board and said in
// words), its evaluation bar and best line; the player carries the move out,
// asks for a hint (lit in its colour), takes back, sets the level and the
// side. A spectator's page follows without the controls of a board with
// sensors, and nothing is wider than a phone's window.
func TestBrowserPlaysStockfish(t *testing.T) {
	r := newRig(t, rigOptions{opponentFor: withStockfish, timing: game.Timing{Settle: 60 * time.Millisecond, QuickSettle: 30 * time.Millisecond}})
	page := tab(t, r.url+"/")
	waitJS(t, page, "the engine's panel", `!document.getElementById('engine').hidden && /Stockfish.* plays Black/.test(document.getElementById('engine-who').textContent)`)

	for _, mv := range [][]string{{"e2", "e4"}, {"d2", "d4"}} {
		squares(t, page, mv...)
		carry := awaiting(t, page)
		waitJS(t, page, "the evaluation", `!document.getElementById('engine-eval').hidden && /depth 2/.test(document.getElementById('engine-score').textContent) && /best line: /.test(document.getElementById('engine-pv').textContent)`)
		width := jsString(t, page, `document.getElementById('evalbar-white').style.width`)
		if !strings.HasSuffix(width, "%") || width == "0%" || width == "100%" {
			t.Errorf("the evaluation bar's white part is %q", width)
		}
		if mv[0] == "d2" {
			screenshot(t, page, "console-engine.png")
		}
		// Carry the engine's move out: a capture takes two clicks as any.
		squares(t, page, carry...)
		waitJS(t, page, "the engine's move made", `document.querySelectorAll('#moves li.move').length % 2 === 0 && document.getElementById('status').textContent === 'White to move.'`)
	}
	if n := jsString(t, page, `String(document.querySelectorAll('#moves li.move').length)`); n != "4" {
		t.Fatalf("%s moves", n)
	}
	if got := jsString(t, page, `document.getElementById('engine-level').selectedOptions[0].textContent`); got != "Skill Level 0, depth 2 (now)" {
		t.Errorf("the level chooser shows %q", got)
	}

	// A hint, lit in violet on the board and said in words.
	click(t, page, `#engine-hint`)
	waitJS(t, page, "the hint", `document.querySelectorAll('rect.led[data-role="hint"]').length === 2 && /^Hint: .*, [-+#0-9.]+ for White/.test(document.getElementById('engine-hint-said').textContent)`)

	// Take back the last move and the reply: the board is lit to be put
	// back.
	click(t, page, `#engine-takeback`)
	waitJS(t, page, "the take-back", `document.querySelectorAll('#moves li.move').length === 2 && document.getElementById('status').dataset.syncing === 'restore'`)
	st, err := r.local.State(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	click(t, page, `#one-by-one`) // lift every man lit, then set each down
	squares(t, page, st.Extra...)
	squares(t, page, st.Missing...)
	click(t, page, `#one-by-one`)
	waitJS(t, page, "the board put back", `document.getElementById('status').textContent === 'White to move.'`)

	// The level and the side, from the page.
	if err := chromedp.Do(page, chromedp.SetValue(chromedp.CSS(`#engine-level`), "skill:5")); err != nil {
		t.Fatal(err)
	}
	click(t, page, `#engine-level-set`)
	waitJS(t, page, "the new level", `/Skill Level 5/.test(document.getElementById('engine-who').textContent)`)
	if err := chromedp.Do(page, chromedp.SetValue(chromedp.CSS(`#engine-side`), "white")); err != nil {
		t.Fatal(err)
	}
	click(t, page, `#engine-side-set`)
	// The engine now plays White, which is to move.
	awaiting(t, page)
	waitJS(t, page, "the engine playing White", `/plays White/.test(document.getElementById('engine-who').textContent)`)

	// A spectator on a phone follows the engine, and the page fits.
	spectator := phone(t, r.url+"/", phoneWidth)
	waitJS(t, spectator, "the engine's panel", `!document.getElementById('engine').hidden && !document.getElementById('engine-eval').hidden`)
	if l := measure(t, spectator); l.Page > l.Window {
		t.Errorf("the page lays out %v px wide in a window of %v px: %v", l.Page, l.Window, l.Overflowing)
	}
}

// An engine's fault on the page: while it does not answer, the panel says
// so in an alert, with the engine's own words, and that the game is kept;
// once it has been restarted and answers, the alert goes and the page says
// what it recovered from.
func TestBrowserEngineFault(t *testing.T) {
	f := &fakeOpponent{}
	r := newRig(t, rigOptions{opponent: f})
	page := tab(t, r.url+"/")
	waitJS(t, page, "the engine's panel", `!document.getElementById('engine').hidden && document.getElementById('engine-fault').hidden`)
	const crash = `computer: engine Fake 1.0 (/opt/fake) crashed while searching: its process ended`
	f.setFaults(crash, "")
	waitJS(t, page, "the fault", `!document.getElementById('engine-fault').hidden && document.getElementById('engine-recovered').hidden`)
	if got := jsString(t, page, `document.getElementById('engine-fault').textContent`); !strings.Contains(got, crash) || !strings.Contains(got, "the game is kept") {
		t.Errorf("the fault reads %q", got)
	}
	f.setFaults("", crash)
	waitJS(t, page, "the recovery", `document.getElementById('engine-fault').hidden && !document.getElementById('engine-recovered').hidden`)
	if got := jsString(t, page, `document.getElementById('engine-recovered').textContent`); !strings.Contains(got, "restarted") || !strings.Contains(got, "crashed while searching") {
		t.Errorf("the recovery reads %q", got)
	}
}

// The engine's buttons that cannot work are disabled, with the reason as
// their title (a hint while the engine thinks, resigning after the result),
// and a result with no law has no empty parentheses: on a phone and on a
// desktop.
func TestBrowserEngineButtonsAndResult(t *testing.T) {
	r := newRig(t, rigOptions{opponent: &fakeOpponent{}})
	pages := map[string]context.Context{"desktop": tab(t, r.url+"/"), "phone": phone(t, r.url+"/", phoneWidth)}
	enabled := func(id string) string {
		return `!document.getElementById('` + id + `').disabled`
	}
	for name, page := range pages {
		waitJS(t, page, name+": the engine's panel", `!document.getElementById('engine').hidden`)
		// The fake engine is always thinking, and no move is made.
		waitJS(t, page, name+": the hint and take-back disabled", `!(`+enabled("engine-hint")+`) && !(`+enabled("engine-takeback")+`) && `+enabled("engine-resign"))
		if got := jsString(t, page, `document.getElementById('engine-hint').title`); got != "the engine is thinking" {
			t.Errorf("%s: the hint's title is %q", name, got)
		}
	}
	l := trace.Line{Kind: trace.Arbiter, Action: game.ActionResign, Value: "black", Side: trace.SideArbiter}
	if err := r.runner.Submit(t.Context(), l); err != nil {
		t.Fatal(err)
	}
	for name, page := range pages {
		waitJS(t, page, name+": the result", `!document.getElementById('result').hidden`)
		tests := []struct{ what, js, want string }{
			{"the result", `document.getElementById('result').textContent`, "Result 1-0: black resigns."},
			{"resign", `String(document.getElementById('engine-resign').disabled)`, "true"},
			{"resign's title", `document.getElementById('engine-resign').title`, "the game is over"},
			{"draw", `String(document.getElementById('engine-draw').disabled)`, "true"},
			{"new game", `String(document.getElementById('engine-new-game').disabled)`, "false"},
		}
		for _, tc := range tests {
			if got := jsString(t, page, tc.js); got != tc.want {
				t.Errorf("%s: %s: got %q, want %q", name, tc.what, got, tc.want)
			}
		}
	}
}

// The status says in words what the player must do for the side played
// from off the board: the man, his squares and what the move brings with
// it (the rook of a castling, the man taken, the pawn an en passant capture
// takes off, the piece of a promotion). The position is set up on the
// simulated board with the set-up button.
func TestBrowserRemoteMoveInWords(t *testing.T) {
	tests := []struct {
		name, fen, uci, want string
	}{
		{"castling long", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", "e8c8",
			"Black to move: carry out O-O-O, move the king from e8 to c8 and the rook from a8 to d8."},
		{"castling short", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", "e8g8",
			"Black to move: carry out O-O, move the king from e8 to g8 and the rook from h8 to f8."},
		{"a capture", "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1", "d5e4",
			"Black to move: carry out dxe4, move the pawn from d5 to e4, taking the pawn."},
		{"en passant", "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1", "f4e3",
			"Black to move: carry out fxe3, move the pawn from f4 to e3 and take the pawn off e4."},
		{"a promotion", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1q",
			"Black to move: carry out a1=Q+, move the pawn from a2 to a1 and make it a queen."},
	}
	for _, width := range []int64{phoneWidth, desktopWidth} {
		for _, tc := range tests {
			t.Run(tc.name+" at "+strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
				r := newRig(t, rigOptions{setup: tc.fen, remote: [2]bool{board.Black: true}})
				page := at(t, r.url+"/", width)
				waitJS(t, page, "the set-up button", `!document.getElementById('setup').hidden`)
				click(t, page, `#setup`)
				waitJS(t, page, "the position set up", `document.getElementById('status').textContent === 'Black to move.'`)
				m, err := board.ParseUCI(tc.uci)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.runner.Submit(t.Context(), trace.Line{Kind: trace.Opponent, Move: m}); err != nil {
					t.Fatal(err)
				}
				waitJS(t, page, "the move in words", `/carry out/.test(document.getElementById('status').textContent)`)
				if got := jsString(t, page, `document.getElementById('status').textContent`); got != tc.want {
					t.Errorf("status %q\nwant %q", got, tc.want)
				}
			})
		}
	}
}

// The board faces the player: turned with Black at the bottom when the
// engine plays White, White at the bottom when it plays Black; the flip
// button turns it from there, and the page remembers the turn when it is
// loaded again. The players' names show above the board, on a phone and on
// a desktop.
func TestBrowserBoardFacesThePlayer(t *testing.T) {
	// a1's square stands at the bottom left (20, 720) as White sees the
	// board, at the top right (720, 20) as Black does.
	const a1 = `(() => { const r = document.querySelector('rect.hit[data-square="a1"]'); return r.getAttribute('x') + ',' + r.getAttribute('y'); })()`
	const whiteView, blackView = "20,720", "720,20"
	tests := []struct {
		name             string
		engine           string
		first, afterFlip string
		who              string
	}{
		{"the engine plays White", "white", blackView, whiteView, "White: Fake 1.0|Black: Anna"},
		{"the engine plays Black", "black", whiteView, blackView, "White: Anna|Black: Fake 1.0"},
	}
	for _, width := range []int64{phoneWidth, desktopWidth} {
		for _, tc := range tests {
			t.Run(tc.name+" at "+strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
				tags := map[string]string{"White": "Anna", "Black": "Fake 1.0"}
				if tc.engine == "white" {
					tags = map[string]string{"White": "Fake 1.0", "Black": "Anna"}
				}
				r := newRig(t, rigOptions{opponent: &fakeOpponent{side: tc.engine}, tags: tags})
				page := at(t, r.url+"/", width)
				waitJS(t, page, "the engine's panel", `!document.getElementById('engine').hidden`)
				if got := jsString(t, page, a1); got != tc.first {
					t.Errorf("a1 at %s, want %s", got, tc.first)
				}
				if got := jsString(t, page, `Array.from(document.querySelectorAll('#clocks .who')).map(e => e.textContent).join('|')`); got != tc.who {
					t.Errorf("the players shown: %q, want %q", got, tc.who)
				}
				if got := jsString(t, page, `String(!document.getElementById('clocks').hidden && document.getElementById('clocks').getBoundingClientRect().bottom <= innerHeight)`); got != "true" {
					t.Errorf("the players are not in view")
				}
				click(t, page, `#flip`)
				if got := jsString(t, page, a1); got != tc.afterFlip {
					t.Errorf("after the flip a1 at %s, want %s", got, tc.afterFlip)
				}
				if err := chromedp.Do(page, chromedp.Reload()); err != nil {
					t.Fatal(err)
				}
				waitJS(t, page, "the page again", `document.getElementById('conn').className === 'up' && !document.getElementById('engine').hidden`)
				if got := jsString(t, page, a1); got != tc.afterFlip {
					t.Errorf("loaded again, a1 at %s, want %s (the flip remembered)", got, tc.afterFlip)
				}
				click(t, page, `#flip`)
				if got := jsString(t, page, a1); got != tc.first {
					t.Errorf("flipped back, a1 at %s, want %s", got, tc.first)
				}
			})
		}
	}
}

// A player may hide the engine's evaluation while playing: the switch
// hides the bar and the best line, the page remembers it when loaded again,
// and the switch shows them again. On a phone and on a desktop.
func TestBrowserHideEvaluation(t *testing.T) {
	for _, width := range []int64{phoneWidth, desktopWidth} {
		t.Run(strconv.FormatInt(width, 10)+" px", func(t *testing.T) {
			r := newRig(t, rigOptions{opponent: &fakeOpponent{}})
			page := at(t, r.url+"/", width)
			waitJS(t, page, "the evaluation", `!document.getElementById('engine-eval').hidden && !document.getElementById('eval-switch').hidden`)
			click(t, page, `#show-eval`)
			waitJS(t, page, "the evaluation hidden", `document.getElementById('engine-eval').hidden && !document.getElementById('eval-switch').hidden`)
			if err := chromedp.Do(page, chromedp.Reload()); err != nil {
				t.Fatal(err)
			}
			waitJS(t, page, "the page again", `document.getElementById('conn').className === 'up' && !document.getElementById('engine').hidden`)
			if got := jsString(t, page, `String(document.getElementById('engine-eval').hidden) + ' ' + document.getElementById('show-eval').checked`); got != "true false" {
				t.Errorf("loaded again: evaluation hidden, switch on: %s, want true false", got)
			}
			click(t, page, `#show-eval`)
			waitJS(t, page, "the evaluation shown again", `!document.getElementById('engine-eval').hidden`)
		})
	}
}
