package voice

import (
	"testing"

	"github.com/boardd/boardd/board"
)

// The other board's draw offer, for either side, in both languages, the
// same in both conventions.
func TestDrawOfferedWords(t *testing.T) {
	for _, c := range []struct {
		side   board.Color
		en, de string
	}{
		{board.White, "White offers a draw. Accept with the check button on White's side, or the console's Offer a draw; decline by moving.",
			"Weiß bietet Remis an. Annehmen mit der Schach-Taste auf der Seite von Weiß oder mit Remis anbieten auf der Konsole; ablehnen durch einen Zug."},
		{board.Black, "Black offers a draw. Accept with the check button on Black's side, or the console's Offer a draw; decline by moving.",
			"Schwarz bietet Remis an. Annehmen mit der Schach-Taste auf der Seite von Schwarz oder mit Remis anbieten auf der Konsole; ablehnen durch einen Zug."},
	} {
		t.Run(c.side.String(), func(t *testing.T) {
			for _, conv := range []Convention{Plain, AppendixD} {
				if got := (Words{Lang: English, Convention: conv}).DrawOffered(c.side); got != c.en {
					t.Errorf("English, %v: %q, want %q", conv, got, c.en)
				}
				if got := (Words{Lang: German, Convention: conv}).DrawOffered(c.side); got != c.de {
					t.Errorf("German, %v: %q, want %q", conv, got, c.de)
				}
			}
		})
	}
}

// The other board's take-back request and its refusal, in both languages,
// the same in both conventions.
func TestTakeBackWords(t *testing.T) {
	for _, c := range []struct {
		name   string
		say    func(Words) string
		en, de string
	}{
		{"two moves asked", func(w Words) string { return w.TakeBackAsked(board.White, 2) },
			"White asks to take back 2 moves. Agree with the j'adoube button on White's side, or the console's Take back; refuse by moving.",
			"Weiß bittet, 2 Züge zurückzunehmen. Zustimmen mit der J'adoube-Taste auf der Seite von Weiß oder mit Zurücknehmen auf der Konsole; ablehnen durch einen Zug."},
		{"his last move asked", func(w Words) string { return w.TakeBackAsked(board.Black, 1) },
			"Black asks to take back his last move. Agree with the j'adoube button on Black's side, or the console's Take back; refuse by moving.",
			"Schwarz bittet, seinen letzten Zug zurückzunehmen. Zustimmen mit der J'adoube-Taste auf der Seite von Schwarz oder mit Zurücknehmen auf der Konsole; ablehnen durch einen Zug."},
		{"refused", func(w Words) string { return w.TakeBackRefused(board.Black) },
			"Black played on: no take-back.", "Schwarz hat weitergespielt: keine Zugrücknahme."},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, conv := range []Convention{Plain, AppendixD} {
				if got := c.say(Words{Lang: English, Convention: conv}); got != c.en {
					t.Errorf("English, %v: %q, want %q", conv, got, c.en)
				}
				if got := c.say(Words{Lang: German, Convention: conv}); got != c.de {
					t.Errorf("German, %v: %q, want %q", conv, got, c.de)
				}
			}
		})
	}
}
