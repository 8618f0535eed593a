package lawset

import (
	"fmt"

	"github.com/boardd/boardd/report"
)

// The law catalogue: every numbered law of the four historical codes and the
// articles of the FIDE Laws that a board can touch, each summarised in
// boardd's own words with how boardd applies it, or why a board cannot. It
// backs `boardd laws` and the law ids in boardd's output: every id boardd
// emits has an entry (a test keeps them in step). The texts themselves are
// not reproduced; docs/laws.md explains the vocabulary.

// Status says how far boardd applies a law.
type Status uint8

// How far boardd applies a law.
const (
	// Applied: boardd rules by the law as the entry describes.
	Applied Status = iota + 1
	// Partial: boardd applies part of the law; the entry says which part
	// it cannot or does not apply.
	Partial
	// Planned: a board could sense what the law speaks of, but boardd does
	// not apply it yet; the application begins "planned:".
	Planned
	// Outside: the law speaks of what a board cannot sense or decide
	// (seating, lots, prizes, hands, correspondence).
	Outside
)

var statusNames = [...]string{Applied: "applied", Partial: "partial", Planned: "planned", Outside: "outside"}

// String returns the status as `boardd laws` prints it.
func (s Status) String() string {
	if int(s) < len(statusNames) && statusNames[s] != "" {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// Law is one numbered law of a law-set as boardd understands it.
type Law struct {
	// ID is SET:NUMBER, as boardd writes it in its output: "sarratt1808:13",
	// "nycc:XII", "hastings1895:time-limit", "fide2023:7.5.1".
	ID report.Law
	// Title is a few words naming the law.
	Title string
	// Summary says what the law provides, in one line of boardd's own words.
	Summary string
	// Application says how boardd applies the law (the irregularity kind,
	// its options and chooser, the result, the input it listens to), or why
	// a board cannot apply it.
	Application string
	Status      Status
	// Scenarios name the law scenarios (testdata/laws/NAME.trace) that
	// show boardd applying the law; Tests name the Go tests that prove it
	// where the law is the rules of movement or the reading of hands
	// ("board.TestApplyMatchesLibrary"). A law marked applied has at least
	// one of either (a test checks it, and that each exists).
	Scenarios []string
	Tests     []string
}

// Set returns the law-set id of the law ("nycc" for "nycc:XII").
func (l Law) Set() string { return l.ID.Set() }

// Number returns the law's number within its set ("XII" for "nycc:XII").
func (l Law) Number() string { return l.ID.Number() }

// Catalogue returns every law boardd knows, set by set in the order of
// IDs, each set's laws in the order of its code. The slice is new on every
// call; callers may keep or change it.
func Catalogue() []Law {
	var out []Law
	for _, s := range sets() {
		out = append(out, s.Laws...)
	}
	return out
}

// LawsOf returns the laws of one law-set in the order of its code, or an
// error naming the known law-sets.
func LawsOf(set string) ([]Law, error) {
	ls, err := Lookup(set)
	if err != nil {
		return nil, err
	}
	return ls.Laws, nil
}

// LawByID returns the catalogue entry of a law id such as "nycc:XII".
func LawByID(id report.Law) (Law, bool) {
	ls, err := Lookup(id.Set())
	if err != nil {
		return Law{}, false
	}
	for _, l := range ls.Laws {
		if l.ID == id {
			return l, true
		}
	}
	return Law{}, false
}

// entry builds one catalogue entry.
func entry(id string, st Status, title, summary, application string) Law {
	return Law{ID: report.Law(id), Title: title, Summary: summary, Application: application, Status: st}
}

// Phrases that recur in the applications.
const (
	liftIsTouch = "A Hall-sensor board senses a man lifted, not a finger laid on it: a lift (or a lift and a replacement on the same square) is the touch, though a man jostled off its square and back within a bump (120 ms) binds nobody; the j'adoube button pressed just before the lift exempts it."
	// adverseNotOutOfTurn: how boardd tells an adverse man moved from a
	// move made out of turn.
	adverseNotOutOfTurn = " A man of the side not on move that moves as its own side could lawfully move it (were it on move) is read as that side moving out of turn; one moved as its side could not (a black pawn from d5 to d3 with White to move) is the mover's handling of an adverse man, moved-adverse-man with the mover the offender, and is never recorded as a move of its side (no keep-all can record it). A side played from off the board (an engine, an online opponent) has no hand at the board: any man of it moved while the player at the board is to move is his moved-adverse-man; where the choice of penalty is that remote side's, the arbiter exacts the first penalty and the irregularity's reason says whose choice it was."
	byGenerator         = "Applied by the rules of movement (package board): boardd accepts only moves that respect it, and any other is a false move."
	calibrated          = "The sensor board's orientation is fixed when it is calibrated (a1 a dark square at White's left), so the board cannot stand the wrong way round; boardd cannot see a cloth board turned."
	noSeats             = "boardd knows the two halves of the board, not who sits at them or how colours were drawn."
	handLeaves          = "The gesture layer completes a move when the hand has left it: the board stays still for the settle time, the mover presses the clock, or the adversary's hand arrives; until then the man may still go to another square."
	notSensed           = "A board senses where men stand, not the people or the room."
	countOnClaim        = "The claim button starts the count (a ruling line with option count); boardd does not check which side has the lesser force or that the ending is one the law names; once the moves have been played from the call without mate, boardd ends the game drawn."
	arbiterAction       = "The arbiter may declare a result or annul the game from the console (arbiter actions result and annul)."
)
