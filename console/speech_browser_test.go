package console

import (
	"sync"
	"testing"
)

// stubSpeech replaces the browser's speech synthesis with a recorder:
// window.spoken collects each utterance's "lang: text".
const stubSpeech = `(() => {
  window.spoken = [];
  window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ''; };
  Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: {
    speak: (u) => window.spoken.push(u.lang + ': ' + u.text), cancel: () => {},
  } });
  return true;
})()`

// The page's speech switch (issue 35): off, a move is not spoken; switched
// on, each move made is handed to speechSynthesis.speak in the board's
// words; off again, silence.
func TestBrowserSpeechSwitch(t *testing.T) {
	r := newRig(t, rigOptions{})
	page := tab(t, r.url+"/")
	if got := jsString(t, page, `String(`+stubSpeech+`)`); got != "true" {
		t.Fatalf("the stub: %s", got)
	}
	squares(t, page, "e2", "e4")
	waitJS(t, page, "e4", movesAre("e4"))
	if got := jsString(t, page, `window.spoken.join(' | ')`); got != "" {
		t.Errorf("the switch off, the page spoke %q", got)
	}
	click(t, page, "#speak")
	squares(t, page, "g8", "f6")
	waitJS(t, page, "Nf6 spoken", `window.spoken.length === 1`)
	if got, want := jsString(t, page, `window.spoken.join(' | ')`), "en: knight from g8 to f6"; got != want {
		t.Errorf("spoke %q, want %q", got, want)
	}
	click(t, page, "#speak")
	squares(t, page, "d2", "d4")
	waitJS(t, page, "d4", movesAre("e4 Nf6 d4"))
	if got := jsString(t, page, `String(window.spoken.length)`); got != "1" {
		t.Errorf("the switch off again, the page spoke: %s", jsString(t, page, `window.spoken.join(' | ')`))
	}
}

// A fault beside the game (the voice's speech program failing) shows on
// the page within a poll, and goes when it clears.
func TestBrowserVoiceFaultShown(t *testing.T) {
	var mu sync.Mutex
	failing := false
	r := newRig(t, rigOptions{faults: func() []string {
		mu.Lock()
		defer mu.Unlock()
		if failing {
			return []string{"voice"}
		}
		return nil
	}})
	page := tab(t, r.url+"/")
	mu.Lock()
	failing = true
	mu.Unlock()
	waitJS(t, page, "the voice's fault", `document.getElementById('fault').textContent.includes('cannot be heard')`)
	mu.Lock()
	failing = false
	mu.Unlock()
	waitJS(t, page, "the fault gone", `document.getElementById('fault').hidden`)
}
