package report

import "fmt"

// optionWords are the options in plain words, as a button offering one to
// the chooser reads. "He" is the offender. A second form names the man the
// option binds (%[1]s its kind, %[2]s its square), for where the position
// says which man it is.
var optionWords = map[OptionID][2]string{
	OptStand:       {"Let the move stand", ""},
	OptRecall:      {"Take the move back; he may play any move", ""},
	OptMoveTouched: {"He must move the man he touched", "He must move the %[1]s on %[2]s"},
	OptMoveTaken:   {"He must move his own man he took", "He must move the %[1]s on %[2]s"},
	OptTakeTouched: {"He must take the man he touched", "He must take the %[1]s on %[2]s"},
	OptKing:        {"He must move his king", ""},
	OptRook:        {"He must move the rook", "He must move the rook on %[2]s"},
	OptCastle:      {"He must castle lawfully", ""},
	OptReplace:     {"Put the moved man back; he may play any move", ""},
	OptKeepFirst:   {"Take the second move back", ""},
	OptKeepSecond:  {"Take the first move back; the second stands", ""},
	OptKeepAll:     {"Let both moves stand", ""},
	OptAnnul:       {"Annul the game and begin it again", ""},
	OptRestore:     {"Set up the position before the move again", ""},
	OptPromoteQ:    {"Make it a queen", ""},
	OptPromoteR:    {"Make it a rook", ""},
	OptPromoteB:    {"Make it a bishop", ""},
	OptPromoteN:    {"Make it a knight", ""},
	OptCount:       {"Count the moves from now", ""},
	OptRefused:     {"Refuse the claim", ""},
}

// Words returns the option in plain words, as a button offering it to the
// chooser reads: "Let the move stand", "He must move the man he touched"
// ("he" is the offender). An id it does not know comes back as it is.
func (o OptionID) Words() string {
	if sq, ok := o.TouchedSquare(); ok {
		return "He must move the man on " + sq
	}
	if w, ok := optionWords[o]; ok {
		return w[0]
	}
	return string(o)
}

// WordsOn returns the option in plain words naming the man it binds: piece
// is his kind in words ("knight") and square where he stands ("g1"), as the
// option's first square and the position before the offending move say.
// "He must move the knight on g1" reads better than "He must move the man
// he touched". Options that bind no particular man, and an empty piece,
// give Words.
func (o OptionID) WordsOn(piece, square string) string {
	if piece == "" || square == "" {
		return o.Words()
	}
	if sq, ok := o.TouchedSquare(); ok {
		return fmt.Sprintf("He must move the %s on %s", piece, sq)
	}
	if w, ok := optionWords[o]; ok && w[1] != "" {
		return fmt.Sprintf(w[1], piece, square)
	}
	return o.Words()
}

// NamesMan reports whether the option binds one man, who stands on the
// option's first square in the position before the offending move (so
// that WordsOn can name him).
func (o OptionID) NamesMan() bool {
	if _, ok := o.TouchedSquare(); ok {
		return true
	}
	w, ok := optionWords[o]
	return ok && w[1] != ""
}

// OptionWords returns every option id boardd offers or rules with, and its
// Words, for pages that show rulings.
func OptionWords() map[OptionID]string {
	out := make(map[OptionID]string, len(optionWords))
	for id, w := range optionWords {
		out[id] = w[0]
	}
	return out
}
