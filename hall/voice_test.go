package hall_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/voice"
)

// sayEvents follows a board's event stream on the hall's console API and
// sends each say event's data on the channel it returns, until ctx ends.
func sayEvents(t *testing.T, ctx context.Context, url string) <-chan string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		t.Fatalf("%s: %s", url, res.Status)
	}
	out := make(chan string, 64)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		kind := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && kind == "say":
				select {
				case out <- strings.TrimPrefix(line, "data: "):
				default:
				}
			case line == "":
				kind = ""
			}
		}
	}()
	return out
}

// startVoiceBoard starts a broker, a hall and board b1, whose voice speaks
// German by Appendix D and fails while failing is set; it returns when the
// hall's page serves the board.
func startVoiceBoard(t *testing.T) (*hall.Hall, *httptest.Server, *halltest.Board, *atomic.Bool) {
	t.Helper()
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, hs := startHall(t, config(t, br.URL(), "hall"))
	failing := new(atomic.Bool)
	b, err := halltest.Start(context.Background(), halltest.Options{
		ID: "b1", Dir: boardDir(t, "b1"), Game: gameOptions("fide2023"), Broker: config(t, br.URL(), "b1"), Verifier: testSigner.Verifier(),
		Logger: logger(t).With("board", "b1"), MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, StateEvery: 20 * time.Millisecond,
		Voice: voice.Words{Lang: voice.German, Convention: voice.AppendixD},
		Faults: func() []string {
			if failing.Load() {
				return []string{"voice"}
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	waitFor(t, "the board on the hall's page", 10*time.Second, func() bool {
		res, err := http.Get(hs.URL + "/api/boards/b1/state")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return h, hs, b, failing
}

// A board the hall follows carries its voice to the hall: each line it
// says (here in German, by Appendix D) reaches the hall's page of the board
// as a say event, once, and its voice's fault shows in the board's state on
// the hall and in its grid summary, and goes when the voice is heard again.
func TestBoardVoiceReachesHall(t *testing.T) {
	h, hs, b, failing := startVoiceBoard(t)
	ctx := ctxTimeout(t, 60*time.Second)
	said := sayEvents(t, ctx, hs.URL+"/api/boards/b1/events")
	// What the board's own console hands its page to speak.
	own := make(chan string, 64)
	stop := b.Local.Watch(func(c console.Change) {
		if c.Say != nil {
			own <- string(c.Say)
		}
	})
	defer stop()
	time.Sleep(100 * time.Millisecond) // the stream registered

	g := makeGame(t, []string{"e2e4", "e7e5"})
	for i, want := range []string{"Bauer Eva zwei Eva vier", "Bauer Eva sieben Eva fuenf"} {
		if err := b.PlayMoves(ctx, g.lines, g.ends, i, i+1); err != nil {
			t.Fatal(err)
		}
		var board, hall string
		select {
		case board = <-own:
		case <-ctx.Done():
			t.Fatalf("move %d: the board's console said nothing", i+1)
		}
		select {
		case hall = <-said:
		case <-ctx.Done():
			t.Fatalf("move %d: no say event on the hall's page", i+1)
		}
		if hall != board || !strings.Contains(hall, `"lang":"de"`) || !strings.Contains(hall, want) {
			t.Errorf("move %d: the hall's page got %s, the board's console %s; want %q in German", i+1, hall, board, want)
		}
	}
	// Each line once, though the board's states carry it a while.
	time.Sleep(300 * time.Millisecond)
	select {
	case got := <-said:
		t.Errorf("a line handed on twice, or one never said: %s", got)
	default:
	}

	for _, fail := range []bool{true, false} {
		failing.Store(fail)
		waitFor(t, "the voice's fault in the hall's state of the board", 10*time.Second, func() bool {
			st, err := h.Board("b1").State(ctx)
			return err == nil && slices.Contains(st.Faults, "voice") == fail
		})
		waitFor(t, "the voice's fault in the grid", 10*time.Second, func() bool {
			return slices.Contains(h.Board("b1").Summary().Faults, "voice") == fail
		})
	}
}

// stubSpeech replaces the browser's speech synthesis with a recorder:
// window.spoken collects each utterance's "lang: text".
const stubSpeech = `(() => {
  window.spoken = [];
  window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ''; };
  Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: {
    speak: (u) => window.spoken.push(u.lang + ': ' + u.text), cancel: () => {},
  } });
  return 'stubbed';
})()`

// The hall's page of a board speaks the board's lines with its speak
// switch, as the board's own console does: silent with the switch off, the
// board's words in its language with it on; and it says when the board's
// voice cannot be heard.
func TestBrowserHallBoardSpeaks(t *testing.T) {
	_, hs, b, failing := startVoiceBoard(t)
	ctx := ctxTimeout(t, 60*time.Second)
	p := page(t, hs.URL+"/?board=b1")
	until(t, p, "the board's page live", `document.getElementById('conn').className === 'up'`)
	if got := evalString(t, p, stubSpeech); got != "stubbed" {
		t.Fatalf("the stub: %s", got)
	}
	g := makeGame(t, []string{"e2e4", "e7e5"})
	if err := b.PlayMoves(ctx, g.lines, g.ends, 0, 1); err != nil {
		t.Fatal(err)
	}
	until(t, p, "e4 on the page", `document.body.innerText.includes('e4')`)
	time.Sleep(300 * time.Millisecond)
	if got := evalString(t, p, `window.spoken.join(' | ')`); got != "" {
		t.Errorf("the switch off, the page spoke %q", got)
	}
	if err := chromedp.Do(p, chromedp.Click(chromedp.CSS(`#speak`))); err != nil {
		t.Fatal(err)
	}
	if err := b.PlayMoves(ctx, g.lines, g.ends, 1, 2); err != nil {
		t.Fatal(err)
	}
	until(t, p, "e5 spoken", `window.spoken.length === 1`)
	if got, want := evalString(t, p, `window.spoken.join(' | ')`), "de: Bauer Eva sieben Eva fuenf"; got != want {
		t.Errorf("spoke %q, want %q", got, want)
	}
	failing.Store(true)
	until(t, p, "the voice's fault", `document.getElementById('fault').textContent.includes('cannot be heard')`)
	failing.Store(false)
	until(t, p, "the fault gone", `document.getElementById('fault').hidden`)
}
