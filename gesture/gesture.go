// Package gesture turns debounced lift and place events into what hands did:
// touches, adjustments, completed moves (legal or false), boards out of step
// with the game (mismatch) and boards put right again (synced).
//
// A Hall-sensor board sees only which squares hold a magnet, so the
// recogniser reasons about which man in hand went where. It keeps every
// reading of the events since the last completed move that the occupancy
// allows, and when the hand has left the board (a settle time of stillness, a
// clock press, the adversary's hand) it takes the reading that is a legal
// move, else the most direct false move, else reports a mismatch. Which
// position to expect comes from a Judge (the arbiter) after every gesture; the
// recogniser knows the rules of how men move, never the law-sets' penalties.
// It never reads the wall clock: time arrives with every input.
package gesture

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/sensor"
)

// Kind is the kind of a gesture.
type Kind uint8

// The gestures.
const (
	Touch    Kind = iota + 1 // a man lifted (Side, Square, Man, Announced)
	Adjust                   // a man lifted and set back on its own square
	Move                     // a completed man-move (Reading)
	Mismatch                 // the board is neither a move in progress nor a false move
	Synced                   // the board matches what was expected again
	Press                    // a button, passed on after any move it completed
	Promote                  // a promotion piece named, passed on
)

var kindNames = [...]string{Touch: "touch", Adjust: "adjust", Move: "move", Mismatch: "mismatch", Synced: "synced", Press: "press", Promote: "promote"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Gesture is one thing the hands did, as the recogniser reads it.
type Gesture struct {
	Kind      Kind
	T         time.Duration
	Side      board.Color  // who touched, adjusted, pressed or moved
	Square    board.Square // Touch, Adjust: the square; Move: unused
	Man       board.Man    // Touch, Adjust: the man
	Announced bool         // Touch, Adjust: covered by a j'adoube press
	Reading   *Reading     // Move
	Missing   board.Occupancy
	Extra     board.Occupancy
	Button    string     // Press
	Piece     board.Kind // Promote
}

// TouchMark is one man lifted by the side moving during its turn.
type TouchMark struct {
	T         time.Duration
	Square    board.Square
	Man       board.Man
	Announced bool
	// Bump: the man was back on its square within the bump window, jostled
	// by a hand rather than taken hold of; it binds nobody.
	Bump bool
}

// Need is what a move shown as pending still needs before it can be made.
type Need uint8

// What a pending move needs.
const (
	NeedNothing Need = iota // the men stand as a whole legal move
	NeedRook                // castling begun with the king: the rook is still to go
	NeedVictim              // an en passant capture: the taken pawn is still to come off
	NeedPiece               // a promotion: its piece is still to be named
)

var needNames = [...]string{NeedNothing: "", NeedRook: "rook", NeedVictim: "victim", NeedPiece: "piece"}

func (n Need) String() string {
	if int(n) < len(needNames) {
		return needNames[n]
	}
	return fmt.Sprintf("need(%d)", n)
}

// Pending is a move the hands appear to have made while the hand may still
// carry the man on: shown sooner by the LEDs and the console, never ruled,
// journalled or sent (Recogniser.Pending).
type Pending struct {
	Move  board.Move  // castling as the king's move; Promo as named
	Mover board.Color // the side moving
	Needs Need        // what the move still needs before it can be made
}

// Completion says what completed a move.
type Completion uint8

// How a move was completed.
const (
	BySettle    Completion = iota + 1 // the board stayed still for the settle time
	ByClock                           // the mover pressed the clock
	ByAdversary                       // the adversary's hand arrived
	ByWait                            // the longer wait for a move still open ran out
	ByEnd                             // the input ended
	ByCall                            // the mover called check on it
	ByTakeBack                        // the mover asked to take it back (EndHand)
)

var completionNames = [...]string{BySettle: "settle", ByClock: "clock", ByAdversary: "adversary", ByWait: "wait", ByEnd: "end", ByCall: "call", ByTakeBack: "takeback"}

func (c Completion) String() string {
	if int(c) < len(completionNames) {
		return completionNames[c]
	}
	return "unknown"
}

// Reading is a completed man-move: which man went where, whether the rules of
// movement allow it, and the men as they now stand.
type Reading struct {
	Move  board.Move  // castling as the king's move; Promo as named (NoKind if not)
	Mover board.Color // the side whose move this is
	// Legal is true when Move is a legal move of the position for Mover.
	Legal bool
	// False names why the move is not legal (report.KindFalseMove,
	// KindOwnCapture, KindMovedIntoCheck, KindFalseCastling,
	// KindMovedAdverse, KindSuccessive, KindBadPromotion); empty when Legal.
	False report.Kind
	// AdverseMan is true when the man moved belongs to the side not moving.
	AdverseMan bool
	// Taken is the man a false capture took off another square than the
	// one the mover landed on (a pawn "taking en passant" where no such
	// capture is open), when TookElsewhere.
	Taken         board.Square
	TookElsewhere bool
	// PromotionUnnamed is true for a pawn on its last rank whose piece was
	// never named.
	PromotionUnnamed bool
	// After is how the men physically stand now (a promoted pawn shown as the
	// named piece, or as a queen when unnamed).
	After [64]board.Man
	// Displaced are squares whose men were lifted in the turn and are still
	// off the board, outside the move itself.
	Displaced board.Occupancy
	// Touches lists, in order, every man the mover lifted during the turn.
	Touches []TouchMark
	// Events are the lifts and placements that made the move, in order.
	Events []sensor.Event
	// CompletedBy says what ended the move.
	CompletedBy Completion
}

// Mode is what the recogniser expects of the board.
type Mode uint8

// Modes of expectation.
const (
	// Play: the board holds Position and the side to move may move.
	Play Mode = iota
	// Restore: the board must be brought to Position (a take-back, a
	// mismatch to fix, the start of a game); nothing is a move until it is.
	Restore
	// AwaitNewGame: the game is over; when the board has changed (a man
	// lifted or set down: cleared, or set up straight from the final
	// position) and shows the initial position, Synced starts a new game.
	// The final position left standing is no new game, even when it
	// stands as the initial position does.
	AwaitNewGame
)

func (m Mode) String() string {
	switch m {
	case Restore:
		return "restore"
	case AwaitNewGame:
		return "await-new-game"
	}
	return "play"
}

// Expectation is what the judge wants the board to show next.
type Expectation struct {
	Mode     Mode
	Analysis *board.Analysis // the position (with legal moves, in Play)
}

// Position returns the expected position.
func (e Expectation) Position() *board.Position { return &e.Analysis.Position }

// Judge receives every gesture as it is recognised and says what to expect
// next. The arbiter is the judge; tests use simple ones.
type Judge interface {
	Judge(g Gesture) Expectation
}

// Options tune the recogniser. Zero values take the defaults.
type Options struct {
	// Settle is how long the board must stay still, with the men consistent
	// with one legal move, before the move counts as made: the longest a
	// hand may set a man down in passing and still carry him on. Default
	// DefaultSettle.
	Settle time.Duration
	// QuickSettle is how long the board must stay still with the men
	// standing as a legal move before that move is shown as pending
	// (Recogniser.Pending): the LEDs and the console answer then, but the
	// move is made only after Settle. Default DefaultQuickSettle; never
	// longer than Settle; negative shows nothing before the move is made.
	QuickSettle time.Duration
	// OpenWait is how long a rook set on its castling square, where the
	// law-set lets the king follow it (RookFirstCastling), is kept open for
	// the king, and how long a false move or an irregular board must stand
	// before it is reported. A move begun that needs its second part (the
	// rook of a castling begun with the king, the pawn taken en passant, the
	// promotion's piece) waits for it without a time limit. Default 1 s.
	OpenWait time.Duration
	// Jadoube is how long a j'adoube press covers that side's next lift.
	// Default 1 s.
	Jadoube time.Duration
	// Bump is the longest a man may be off its square and count as jostled
	// rather than touched (a hand brushing past it). Default 120 ms.
	Bump time.Duration
	// RookFirstCastling lets a rook set on its castling square (king and
	// rights intact) stay open for the king, as nycc:X allows. Under
	// hastings1895:IX and fide2023:4.4.2 it is false: the rook move
	// completes, and castling rook-first counts only with both men in hand.
	RookFirstCastling bool
	// MoveNeedsClock: a move is made only when the clock is pressed
	// (fide2023:6.2.1 and 7.5.1 where a clock runs): until then a false move
	// or a disordered board may still be put right, so neither is reported
	// on a wait, only on the clock press, the adversary's hand or the end.
	MoveNeedsClock bool
}

// Default timings.
const (
	DefaultSettle = 450 * time.Millisecond
	// SyncSettle is the longest the board must match the expected position
	// before the wait for it ends (men set back after a take-back, a
	// mismatch put right): no hand carries a man on from there.
	SyncSettle = 250 * time.Millisecond
	// DefaultQuickSettle was chosen from the synthesised corpus: the
	// shortest wait that misreads no game (docs/synthesiser.md).
	DefaultQuickSettle = 100 * time.Millisecond
	DefaultOpenWait    = time.Second
	DefaultJadoube     = time.Second
	DefaultBump        = 120 * time.Millisecond
)

func (o Options) withDefaults() Options {
	if o.Settle <= 0 {
		o.Settle = DefaultSettle
	}
	switch {
	case o.QuickSettle == 0:
		o.QuickSettle = DefaultQuickSettle
	case o.QuickSettle < 0:
		o.QuickSettle = o.Settle
	}
	o.QuickSettle = min(o.QuickSettle, o.Settle)
	if o.OpenWait <= 0 {
		o.OpenWait = DefaultOpenWait
	}
	if o.Jadoube <= 0 {
		o.Jadoube = DefaultJadoube
	}
	if o.Bump <= 0 {
		o.Bump = DefaultBump
	}
	return o
}
