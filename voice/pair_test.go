package voice

import "testing"

// The words of the paired boards' link, in both languages, the same in
// both conventions.
func TestPairLinkWords(t *testing.T) {
	for _, c := range []struct {
		name string
		say  func(Words) string
		en   string
		de   string
	}{
		{"the other board gone", Words.OtherBoardGone, "The other board has gone away; the game waits for it.", "Das andere Brett ist nicht mehr verbunden; die Partie wartet darauf."},
		{"the other board back", Words.OtherBoardBack, "The other board is back.", "Das andere Brett ist wieder da."},
		{"the broker gone", Words.BrokerGone, "The broker is out of reach; the game waits for it.", "Der Server der Turnierhalle ist nicht erreichbar; die Partie wartet darauf."},
		{"the broker back", Words.BrokerBack, "The broker is back.", "Der Server der Turnierhalle ist wieder erreichbar."},
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
