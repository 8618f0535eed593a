package console

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/trace"
)

// withStockfish is a rig's opponent: Stockfish at skill 0, depth 2, playing
// Black, its evaluations shown.
func withStockfish(t testing.TB, r *game.Runner) OpponentSource {
	const path = "/usr/games/stockfish"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("Stockfish is not installed (apt-get install stockfish): %v", err)
	}
	level, _ := computer.ParseLevel("skill:0,depth:2")
	p, err := computer.Start(context.Background(), computer.Options{Path: path, Level: level})
	if err != nil {
		t.Fatal(err)
	}
	m, err := opponent.New(opponent.Options{Runner: r, Player: opponent.NewEngine(p), Side: opponent.Black})
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
	waitJS(t, page, "the engine's move", `document.querySelectorAll('rect.led[data-role="carry"]').length >= 2 && /plays .*: move the man from/.test(document.getElementById('status').textContent)`)
	status := jsString(t, page, `document.getElementById('status').textContent`)
	i := strings.Index(status, "from ")
	f := strings.Fields(strings.NewReplacer(" to ", " ", ".", "").Replace(status[i+len("from "):]))
	if len(f) != 2 {
		t.Fatalf("status %q names no squares", status)
	}
	return f
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
	waitJS(t, page, "the hint", `document.querySelectorAll('rect.led[data-role="hint"]').length === 2 && /Hint: /.test(document.getElementById('engine-doing').textContent)`)

	// Take back the last move and the reply: the board is lit to be put
	// back.
	click(t, page, `#engine-takeback`)
	waitJS(t, page, "the take-back", `document.querySelectorAll('#moves li.move').length === 2 && /Set the board as lit/.test(document.getElementById('status').textContent)`)
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
