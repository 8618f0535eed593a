package pgn

import (
	"errors"
	"strings"
	"testing"
)

// A player's name is what a White or Black tag takes: up to 100
// characters (not bytes), none of them a control character, or "".
func TestCheckPlayerName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"", true},
		{"Anna Rudolf", true},
		{"Stockfish 16, Elo 1500", true},
		{strings.Repeat("é", 100), true},
		{strings.Repeat("é", 101), false},
		{"Ben\n", false},
		{"B\x07en", false},
		{"Ann\u0085a", false},
		{"\xff", false},
	} {
		err := CheckPlayerName(c.name)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrPlayerName) {
			t.Errorf("CheckPlayerName(%q) = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
