// Package report is boardd's vocabulary for what it decides: the typed
// report a board's game emits (a touch, a move, an irregularity with the
// options a law gives, a ruling, a result, ...), the ids of irregularity
// kinds, options, results, parties and laws, and the report's one-line JSON
// form, which `boardd replay` prints, the journal keeps and the hall carries.
//
// It holds data and its encoding only: the rules that decide live behind the
// game's door (package game), and nothing here depends on them.
package report

import (
	"strconv"
	"strings"
	"time"
)

// Type says what a report is about; it selects the report's meaningful
// fields.
type Type string

// The report types, as `boardd replay` writes them in the "type" field.
const (
	Touch        Type = "touch"        // a man lifted: Side, Square, Piece, Law (a visually impaired side's: fide2023:D.2.2)
	Adjust       Type = "adjust"       // a man lifted and set back: Side, Square, Announced
	Move         Type = "move"         // a completed move: Side, UCI, SAN, FEN, clocks, Law (a visually impaired side's: fide2023:D.2.3)
	Irregularity Type = "irregularity" // Kind, Law, Offender, Chooser, Options, Reason
	Ruling       Type = "ruling"       // Option, By, Law, Reason
	Mismatch     Type = "mismatch"     // Missing, Extra: squares to fix
	Synced       Type = "synced"       // the board matches the game again
	Result       Type = "result"       // Result, Reason, Law
	Clock        Type = "clock"        // Side, WhiteClock, BlackClock, Reason
	End          Type = "end"          // FEN, PGN: the last line of a replay
	Press        Type = "press"        // Side, Button: only in the journal
)

// Kind is the kind of an irregularity.
type Kind string

// Irregularity kinds (docs/laws.md explains each).
const (
	KindFalseMove      Kind = "false-move"
	KindFalseCapture   Kind = "false-capture" // a false move that takes a man (sarratt1808:11)
	KindMovedIntoCheck Kind = "moved-into-check"
	KindFalseCastling  Kind = "false-castling"
	KindOwnCapture     Kind = "own-capture"
	KindMovedAdverse   Kind = "moved-adverse-man"
	KindSuccessive     Kind = "successive-moves"
	KindTouchMove      Kind = "touch-move"
	KindUnmovable      Kind = "touched-unmovable"
	KindUncapturable   Kind = "touched-uncapturable"
	KindBadPromotion   Kind = "bad-promotion"
	KindUnannounced    Kind = "unannounced-check"
	KindFalseCheck     Kind = "false-check"
	// KindNoticedCheck: a king found standing in an uncalled check during
	// two or more moves, noticed by its own side (sarratt1808:19).
	KindNoticedCheck Kind = "noticed-check"
	KindSetup        Kind = "misplaced-setup"
	// KindClockWithoutMove: the clock pressed by the player to move, who has
	// not moved (fide2023:7.5.3).
	KindClockWithoutMove Kind = "clock-without-move"
)

// OptionID names one choice a ruling offers, or the ruling made.
type OptionID string

// Option ids, the vocabulary of rulings (docs/laws.md explains each).
const (
	OptStand       OptionID = "stand"        // the move remains
	OptRecall      OptionID = "recall"       // taken back; the offender moves freely
	OptMoveTouched OptionID = "move-touched" // taken back; the offender must play the touched (offending) man
	OptMoveTaken   OptionID = "move-taken"   // taken back; the offender must play the own man he took (sarratt1808:12)
	OptTakeTouched OptionID = "take-touched" // taken back; the offender must take the touched adverse man
	OptKing        OptionID = "king"         // taken back; the offender must move his king (without castling)
	OptRook        OptionID = "rook"         // taken back; the offender must move the rook
	OptCastle      OptionID = "castle"       // taken back; the offender must castle correctly
	OptReplace     OptionID = "replace"      // the adverse man moved is put back; the offender moves freely
	OptKeepFirst   OptionID = "keep-first"   // successive moves: the second is taken back
	OptKeepSecond  OptionID = "keep-second"  // successive moves: the first is taken back, the second stands alone (nycc:XIV)
	OptKeepAll     OptionID = "keep-all"     // successive moves: both remain
	OptAnnul       OptionID = "annul"        // the game is annulled and begun anew
	OptRestore     OptionID = "restore"      // fide2023:7.5.1: the position before the irregularity is reinstated
	OptPromoteQ    OptionID = "promote-q"    // name the promotion piece (hastings1895:X)
	OptPromoteR    OptionID = "promote-r"
	OptPromoteB    OptionID = "promote-b"
	OptPromoteN    OptionID = "promote-n"
	// OptPlaceForgotten: a man left off at the start is set on its square
	// and play goes on (philidor1825:III).
	OptPlaceForgotten OptionID = "place-forgotten"
	// Rulings that are no option offered: a count called, a claim refused,
	// moves taken back by a player against an engine.
	OptCount    OptionID = "count"
	OptRefused  OptionID = "refused"
	OptTakeBack OptionID = "take-back"
)

// MoveTouchedOn is the option that binds the touched man on sq when several
// bind and the adversary elects ("move-touched-b1").
func MoveTouchedOn(sq string) OptionID { return OptMoveTouched + "-" + OptionID(sq) }

// TouchedSquare returns the square an elected move-touched option names
// ("b1" for "move-touched-b1"), and whether it names one.
func (o OptionID) TouchedSquare() (string, bool) {
	sq, ok := strings.CutPrefix(string(o), string(OptMoveTouched)+"-")
	if !ok {
		return "", false
	}
	return sq, true
}

// TakeBackReason is the reason a take-back ruling (OptTakeBack) gives: how
// many moves were taken back, "1 move taken back" or "2 moves taken back".
// TakenBack reads it back.
func TakeBackReason(plies int) string {
	if plies == 1 {
		return "1 move taken back"
	}
	return strconv.Itoa(plies) + " moves taken back"
}

// TakenBack returns how many moves a take-back ruling took back, read from
// its reason (TakeBackReason), and false for any other report or a reason
// that does not say: a follower of the game's reports (the club hall) drops
// those moves from its record at once.
func (r *Report) TakenBack() (int, bool) {
	if r.Type != Ruling || r.Option != OptTakeBack {
		return 0, false
	}
	n, rest, ok := strings.Cut(r.Reason, " ")
	plies, err := strconv.Atoi(n)
	if !ok || err != nil || plies < 1 || (rest != "move taken back" && rest != "moves taken back") {
		return 0, false
	}
	return plies, true
}

// Outcome is a game's result as PGN writes it.
type Outcome string

// The results.
const (
	WhiteWins  Outcome = "1-0"
	BlackWins  Outcome = "0-1"
	Draw       Outcome = "1/2-1/2"
	Unfinished Outcome = "*"
)

// Valid reports whether o is a finished game's result.
func (o Outcome) Valid() bool { return o == WhiteWins || o == BlackWins || o == Draw }

// Party names who chooses among options or who ruled.
type Party string

// The parties.
const (
	White   Party = "white"
	Black   Party = "black"
	Arbiter Party = "arbiter"
	Lapse   Party = "lapse" // ruling: the right to choose lapsed
	// WarnOnly chooses nobody: the irregularity is shown and explained,
	// its penalty not exacted (boardd run --warn-only); its Options are
	// the penalty the law would have exacted, for the record.
	WarnOnly Party = "warn-only"
)

// Law is a law's id: SET:NUMBER ("sarratt1808:13", "fide2023:7.5.1"); empty
// where the law-set has no law for a decision.
type Law string

// Set returns the law-set id of the law ("nycc" for "nycc:XII").
func (l Law) Set() string { s, _, _ := strings.Cut(string(l), ":"); return s }

// Number returns the law's number within its set ("XII" for "nycc:XII").
func (l Law) Number() string { _, n, _ := strings.Cut(string(l), ":"); return n }

// Option is one choice a ruling offers, with the squares the LEDs light for
// it.
type Option struct {
	ID      OptionID `json:"id"`
	Squares []string `json:"squares"`
}

// Report is one line of boardd's output: what it decided and when. Type
// says which fields are meaningful; AppendJSON writes exactly those.
type Report struct {
	Type Type
	T    time.Duration // the virtual time of the decision

	Side      string // touch, adjust, move, clock, press: white or black
	Square    string // touch, adjust
	Piece     string // touch
	Announced bool   // adjust

	UCI, SAN, FEN string // move (FEN also end)
	// Made is when the move's last man was set down: the moment it was
	// made as far as the board can tell, where the mover's clock stops,
	// though it is reported only once the hand can no longer carry it on
	// (T). Not written in the JSON line: it is derived again on replay.
	Made       time.Duration
	WhiteClock string // move: White's remaining time when a clock runs
	BlackClock string // move: Black's remaining time

	Kind Kind // irregularity
	// Offending is the move an irregularity is about, in UCI ("g1e3"),
	// where a move was made ("" for a touched man let go, a clock pressed
	// without a move, a set-up). Not written in the JSON line: it is
	// derived again on replay; the voice names the move by it.
	Offending string
	Law       Law      // irregularity, ruling, result; touch and move of a visually impaired side
	Offender  string   // irregularity: white or black
	Chooser   Party    // irregularity
	Options   []Option // irregularity

	Option OptionID // ruling
	By     Party    // ruling: white, black, arbiter or lapse

	Missing []string // mismatch
	Extra   []string // mismatch

	Result Outcome // result
	Reason string  // result; irregularity and ruling: a few words

	PGN string // end

	Button string // press (only in the journal, not in replay output)

	// Ply is the index of a move report's move in the game record (not
	// written out): a clock comment finds its move by it.
	Ply int
}

// Durable reports whether a report of type t changes the game record (a
// move, a ruling, a result) rather than describing hands at work.
func Durable(t Type) bool {
	switch t {
	case Move, Irregularity, Ruling, Result:
		return true
	}
	return false
}
