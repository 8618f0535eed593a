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
