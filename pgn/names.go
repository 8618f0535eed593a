package pgn

import (
	"errors"
	"unicode"
	"unicode/utf8"
)

// MaxNameLength is the longest player's name a White or Black tag takes,
// in characters.
const MaxNameLength = 100

// ErrPlayerName says what a player's name may be: the configuration's
// white and black keys and the console's players form refuse a name with
// it.
var ErrPlayerName = errors.New(`want a player's name (at most 100 characters, none of them a control character), or "" for unknown`)

// CheckPlayerName accepts a player's name for a White or Black tag: valid
// UTF-8, at most MaxNameLength characters, no control characters, or ""
// for unknown ("?" in the PGN). Anything else is ErrPlayerName.
func CheckPlayerName(s string) error {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxNameLength {
		return ErrPlayerName
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return ErrPlayerName
		}
	}
	return nil
}
