// Package opponent plays one side of a board's game from off the board: a
// chess engine (package computer), or an opponent online. The player at the
// board plays the other side with his hands, under the law-set in force, and
// carries out the opponent's moves as the LEDs show them.
//
// A Player is anything that answers a game with a move for its side: the
// engine adapter (Engine) is one; an online opponent is another (its Move
// sends the player's last move and waits for the reply). A Match drives a
// Player against a board's game through the game's door, game.Runner, as
// every input does: it says which side is played from off the board (a
// trace `remote` line), asks the Player for its move whenever that side is
// to move (at the start too, when it moves first), and announces the answer
// (an `opponent` line). Take-backs (`takeback`), a new game, a resignation
// and a draw the opponent accepts (`arbiter` lines) go the same way, so the
// journal records every one of them and a replay or a recovery after a
// crash plays the game again exactly. Hints, the opponent's evaluation and
// its faults are shown, not journalled.
//
// The Match never reaches past the door: the laws apply to the player's
// hands as to anyone's, and the execution of the opponent's moves is judged
// by the game (a wrong execution is put right, never a move).
package opponent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
)

// Player plays one side from off the board. Implementations must be safe
// for concurrent use.
type Player interface {
	// Name names the player for the PGN tags and the console: an engine's
	// "id name" ("Stockfish 15.1"), an online opponent's user name.
	Name() string
	// Move asks for the player's move in the game q, whose side to move is
	// the player's. It returns at once; the channel delivers one Answer.
	// Cancelling ctx withdraws the question (a take-back, a new game, the
	// sides changed): the answer then carries ctx's error, or never comes.
	Move(ctx context.Context, q Question) <-chan Answer
}

// Hinter is a Player that can suggest a move to the player at the board.
type Hinter interface {
	// Hint asks for the best move of the side to move in q (the player
	// at the board); like Move it returns at once.
	Hint(ctx context.Context, q Question) <-chan Answer
}

// Evaluator is a Player that can evaluate a position without moving in it:
// the position after the player's move at the board, or any position the
// opponent's own search has not scored.
type Evaluator interface {
	// Evaluate asks what the opponent thinks of q's position, whoever is
	// to move; like Move it returns at once, and the Answer's Eval is the
	// evaluation (its Move the best move, played by nobody).
	Evaluate(ctx context.Context, q Question) <-chan Answer
}

// DrawOfferer is a Player whose side may itself offer the player at the
// board a draw (another board's player, paired with this one): while its
// offer stands, the player's draw command accepts it (Match.OfferDraw).
type DrawOfferer interface {
	// DrawOffer says whether the opponent's draw offer stands, and
	// returns the check, run on the game's goroutine as the acceptance is
	// applied, that it still does (an error says why not).
	DrawOffer() (stands func(*game.Game) error, ok bool)
}

// TakeBacker is a Player with whom a take-back is only ever agreed
// (another board's player, paired with this one): the player's take-back
// command asks it (or agrees to its own request), and it takes the moves
// back on both boards once agreed (Match.TakeBack).
type TakeBacker interface {
	// TakeBack asks the opponent to agree to take back plies moves (1
	// or more), or agrees to the opponent's own request standing; an
	// error says why it cannot be (it is then refused).
	TakeBack(ctx context.Context, plies int) error
}

// Leveller is a Player whose strength can be chosen.
type Leveller interface {
	// Level says the strength in words ("Elo 1500", "depth 8").
	Level() string
	// SetLevel sets the strength from the next question on, written as
	// computer.ParseLevel reads it ("elo:1500", "skill:5", "depth:8").
	SetLevel(level string) error
}

// Question is a game for the opponent to answer.
type Question struct {
	// Start is the position play went on from (the game's start, or the
	// position after a false move let stand) and Moves the moves since.
	Start board.Position
	Moves []board.Move
	// Clocks are the time left and what the next move gets, when the game
	// has a time control; nil when it has none.
	Clocks *Clocks
	// DrawOffered says the player at the board offers a draw: the answer
	// says whether it is accepted.
	DrawOffered bool
}

// Clocks are both players' time as a question gives it.
type Clocks struct {
	White, Black       time.Duration // time left
	WhiteInc, BlackInc time.Duration // what each move gets (an increment, or a delay)
	MovesToGo          int           // moves to the next control; 0 for the rest of the game
}

// Answer is the opponent's reply to a question.
type Answer struct {
	// Move is the opponent's move, legal in the question's position; SAN
	// says it in Standard Algebraic Notation.
	Move board.Move
	SAN  string
	// AcceptsDraw answers a draw offer: true ends the game drawn, and Move
	// is then not played.
	AcceptsDraw bool
	// Book: the move came from an opening book (no evaluation).
	Book bool
	// Eval is what the opponent thought of the position, when it says.
	Eval *Eval
	// Recovered lists the faults the opponent met and recovered from while
	// answering (an engine restarted and given the position again).
	Recovered []error
	// Err is what stopped the answer; the rest is then empty.
	Err error
}

// Eval is an engine's evaluation of a position: the one it moved in, the
// one a hint is for, or one it was asked to evaluate.
type Eval struct {
	// White is the score from White's point of view.
	White computer.Score
	// Depth is the search's depth in plies; PV the principal variation in
	// SAN, starting with the best move (the move played, for its own move).
	Depth int
	PV    []string
	// Ply is the position evaluated: the one after that many moves of the
	// game's record (game.Snapshot.Moves), 0 for the start. A Match sets
	// it; a Player's answer may leave it 0.
	Ply int
}

// String writes the evaluation as a console does: "+0.35/14".
func (e *Eval) String() string {
	if e == nil {
		return ""
	}
	if e.Depth > 0 {
		return fmt.Sprintf("%s/%d", e.White, e.Depth)
	}
	return e.White.String()
}

// Side is the side an opponent plays.
type Side int

// The sides: White, Black, or drawn at random at each new game.
const (
	White Side = iota
	Black
	Random
)

// String names the side as the flag and the configuration do.
func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	case Random:
		return "random"
	}
	return fmt.Sprintf("side(%d)", int(s))
}

// ParseSide reads "white", "black" or "random".
func ParseSide(text string) (Side, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	case "random":
		return Random, nil
	}
	return 0, fmt.Errorf("opponent: side %q: want white, black or random", text)
}
