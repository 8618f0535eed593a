package computer

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// Score is an engine's evaluation from one side's point of view.
type Score struct {
	// Centipawns is the evaluation in hundredths of a pawn, positive when
	// the side stands better; meaningless when Mate is not 0.
	Centipawns int
	// Mate is the distance to mate in moves (not plies): positive when the
	// side gives mate, negative when it is mated, 0 when no mate is seen.
	Mate int
	// Lower and Upper mark a score the engine only bounded: the true score
	// is at least (Lower) or at most (Upper) this.
	Lower, Upper bool
}

// Negate returns the score from the other side's point of view.
func (s Score) Negate() Score {
	return Score{Centipawns: -s.Centipawns, Mate: -s.Mate, Lower: s.Upper, Upper: s.Lower}
}

// String writes the score as consoles do: "+0.35", "-1.50", "0.00", "#3"
// (mates in three), "#-2" (is mated in two).
func (s Score) String() string {
	if s.Mate != 0 {
		return fmt.Sprintf("#%d", s.Mate)
	}
	if s.Centipawns == 0 {
		return "0.00"
	}
	sign, cp := "+", s.Centipawns
	if cp < 0 {
		sign, cp = "-", -cp
	}
	return fmt.Sprintf("%s%d.%02d", sign, cp/100, cp%100)
}

// SearchInfo is what the engine said of its search, for a console.
type SearchInfo struct {
	// Scored reports whether the engine gave a score; Score and White are
	// zero when it did not.
	Scored bool
	// Score is from the point of view of the side to move in the request:
	// the engine's own for Think, the human's for Hint.
	Score Score
	// White is the same score from White's point of view.
	White Score
	// Depth and SelDepth are the nominal and selective search depths in
	// plies; Nodes the positions searched; Time the search's own account of
	// its duration.
	Depth, SelDepth int
	Nodes           int
	Time            time.Duration
	// PV is the principal variation in UCI, starting with the move played;
	// PVSAN the same moves in SAN. A strength-limited engine may play
	// another move than its best line: the PV is then that move alone and
	// the score stays the engine's evaluation of the position.
	PV, PVSAN []string
}

// Reply is the computer's answer to a request.
type Reply struct {
	// Move is the move, legal in the request's position (the player checks
	// it: an engine's illegal move is a fault, never a reply).
	Move board.Move
	// UCI and SAN are the move in UCI ("e1g1", "e7e8q") and in SAN
	// ("O-O", "e8=Q+").
	UCI, SAN string
	// FromBook reports that the move came from the opening book; Info is
	// then empty.
	FromBook bool
	// Info is the search behind the move.
	Info SearchInfo
	// AcceptsDraw answers Request.DrawOffered (see DrawPolicy); false when
	// no draw was offered.
	AcceptsDraw bool
	// Engine is the engine's name as it gives it ("id name"), for the PGN
	// tags; Level is the engine and its level for people ("Stockfish 16,
	// Elo 1500").
	Engine, Level string
	// Faults are the faults met and recovered from while answering: the
	// engine crashed, hung or answered garbage, and was restarted and given
	// the position again. Faults met while answering a request cancelled
	// since the last reply (an evaluation withdrawn as the player moved)
	// are listed in the next one. Each is a *FaultError.
	Faults []error
}

// Result is a reply or the error that took its place.
type Result struct {
	Reply Reply
	Err   error
}

// DrawPolicy decides whether the computer accepts a draw offer, from its own
// evaluation of the position: the score of the search for its move, from its
// own point of view. A book move carries no evaluation, so a draw offer makes
// the computer search rather than play from the book.
type DrawPolicy struct {
	// Behind accepts when the engine's score is at or below -Behind
	// centipawns (it stands worse), or it sees itself mated.
	Behind int
	// From move EvenFrom on (the full-move number of the position), accept
	// when the score is within Even centipawns of 0: a dead-even position
	// late in the game.
	EvenFrom, Even int
	// Never declines every offer.
	Never bool
}

// DefaultDrawPolicy is the policy of a player whose Options.Draw is nil:
// accept when a pawn and a half behind (-150 cp) or worse, or from move 40
// on when the score is within 15 cp of equality; decline otherwise.
func DefaultDrawPolicy() DrawPolicy { return DrawPolicy{Behind: 150, EvenFrom: 40, Even: 15} }

// Accepts decides an offer given the engine's own score and the full-move
// number of the position.
func (d DrawPolicy) Accepts(own Score, moveNumber int) bool {
	switch {
	case d.Never:
		return false
	case own.Mate < 0:
		return true
	case own.Mate > 0:
		return false
	case own.Centipawns <= -d.Behind:
		return true
	case moveNumber >= d.EvenFrom && own.Centipawns >= -d.Even && own.Centipawns <= d.Even:
		return true
	}
	return false
}
