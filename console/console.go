// Package console serves the arbiter's console and the simulated board: one
// web page, embedded in the binary, that draws a board from its game (the
// men, the light under each square, the moves with the irregularities and
// rulings where they happened, the choice waiting and who must make it, the
// law-set and the result), follows it live over Server-Sent Events, and, when
// the board has no sensors, is the board itself: a click lifts a man or sets
// it down, and buttons press j'adoube, check, claim and the clock and name a
// promotion piece.
//
// The page and its JSON API (docs/api.md) serve any set of boards through the
// Board interface: Local is a board driven by a game.Runner in this
// process; the club hall can implement Board for boards it follows from afar.
// Everyone who reaches the page may watch; ruling, choosing on a player's
// behalf, annulling, starting a new game and changing the law-set need the
// arbiter token (see LoadToken).
package console

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Board is one board the console shows. Implementations must be safe for
// concurrent use.
type Board interface {
	// ID names the board in URLs: 1 to 64 letters, digits, '.', '_' or '-'.
	ID() string
	// Simulated reports whether the board has no sensors, so that the page
	// is the board and player inputs from it are accepted.
	Simulated() bool
	// State returns what the board shows now.
	State(ctx context.Context) (State, error)
	// PGN returns the game as played, in Portable Game Notation.
	PGN(ctx context.Context) (string, error)
	// Submit applies one input: a player's lift, place, press, promote or
	// choose, or an arbiter's choose (side "arbiter") or action (kind
	// trace.Arbiter). A *RefusedError says the board would not take it.
	Submit(ctx context.Context, l trace.Line) error
	// Watch registers fn to be told that the board may have changed, with
	// the report (one JSON object) when a report was the cause. fn must not
	// block; it may be called on any goroutine. The returned func stops it.
	Watch(fn func(Change)) (stop func())
}

// Change tells a watcher that a board may have changed.
type Change struct {
	// Report is the report that caused the change, as one JSON object
	// (report.Report.AppendJSON), or nil.
	Report []byte
	// Say is a line boardd says (its voice's words for a move, a ruling,
	// the opponent's move to carry out), as one JSON object {"text": ...,
	// "lang": "en"}, or nil: the page speaks it through the browser's
	// speech synthesis when its speech switch is on.
	Say []byte
}

// RefusedError is an input the board would not take (a choice not offered,
// a lift from an empty square): the console answers 409 Conflict.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *RefusedError) Unwrap() error { return e.Err }

// State is a board as the page draws it; docs/api.md describes each field.
type State struct {
	Board      string `json:"board"`
	Simulated  bool   `json:"simulated"`
	Laws       Laws   `json:"laws"`
	Tournament bool   `json:"tournament"`
	// WarnOnly: irregularities are shown and explained, no penalty
	// exacted (boardd run --warn-only; POST .../warn-only switches it
	// between games); Warning is the last warning given, until the next
	// move.
	WarnOnly bool     `json:"warn_only"`
	Warning  *Warning `json:"warning,omitempty"`
	FEN      string   `json:"fen"`
	Turn     string   `json:"turn"`
	// Men maps each occupied square to the FEN letter of the man shown
	// standing there ("?" when the board cannot tell which man it is).
	Men map[string]string `json:"men"`
	// Lifted maps each square whose man of the expected position is off the
	// board (in hand, or missing) to that man's FEN letter.
	Lifted map[string]string `json:"lifted"`
	// Occupied lists the squares the board reads as occupied.
	Occupied []string `json:"occupied"`
	// Hand lists the men in hand, as the board's lifts and placements say,
	// the one set down next last; absent when the board cannot tell (a
	// board followed from afar, a raw scan).
	Hand []Held `json:"hand,omitempty"`
	// LEDs lists the lit squares.
	LEDs []LED `json:"leds"`
	// Syncing is true while the board must be made to match the game (a
	// take-back after a ruling, a mismatch, a new game); Mismatch says the
	// wait began with a reported mismatch; Missing and Extra list the
	// squares to fill and to clear.
	Syncing  bool     `json:"syncing"`
	Mismatch bool     `json:"mismatch"`
	Missing  []string `json:"missing"`
	Extra    []string `json:"extra"`
	// Moves is the game as recorded, one entry a ply.
	Moves []Move `json:"moves"`
	// StartFEN is the position the moves begin from (the position before
	// the first of them), for the page to show earlier positions; absent
	// when the board does not say.
	StartFEN string `json:"start_fen,omitempty"`
	// Notes are the irregularities, rulings, mismatches and results, each
	// after the ply it followed (0: before the first move).
	Notes   []Note   `json:"notes"`
	Pending *Pending `json:"pending"`
	// Obligation is what the side to move must do with its next move
	// because of a ruling or a touch (the squares the LEDs light for it);
	// absent when there is no such duty.
	Obligation *Obligation `json:"obligation,omitempty"`
	// Landing is a move the hands appear to have made while the hand may
	// still carry the man on: shown as pending, not yet made (nothing is
	// ruled, recorded or sent from it); absent when there is none.
	Landing *Landing `json:"landing,omitempty"`
	Result  *Result  `json:"result"`
	Clock   *Clock   `json:"clock,omitempty"`
	// Players names who plays each side, as the game's White and Black
	// tags say.
	Players Players `json:"players"`
	// Faults names what is wrong with the board beside the game ("sensor":
	// its sensors are not to be trusted; "journal": the game is not being
	// saved); empty when all is well.
	Faults []string `json:"faults"`
	// Notices are what the board tells anyone watching beyond its game,
	// in plain words (an engine's game resumed without its engine); absent
	// when there is nothing to tell.
	Notices []string `json:"notices,omitempty"`
	// Remote says which sides are played from off the board (an engine, an
	// opponent online), with the move the player must carry out for them
	// and a move suggested to the player; absent when both sides play at
	// the board.
	Remote *Remote `json:"remote,omitempty"`
	// Opponent is the engine (or online opponent) playing the remote side:
	// who it is, what it is doing and what it thinks; absent when none
	// plays.
	Opponent *Opponent `json:"opponent,omitempty"`
	// Pair is the board's pairing with another board for one game
	// (Appendix D play, docs/voice.md): the other board, whether it can
	// be heard, and a difference between the two boards' games for the
	// arbiter to put right; absent on a board not paired.
	Pair *Pair `json:"pair,omitempty"`
}

// Pair is a board's pairing with another board, as the page shows it
// (docs/api.md).
type Pair struct {
	// Other names the other board (its board id, or its address on a
	// direct link).
	Other string `json:"other"`
	// Gone says what is out of reach while the other board cannot be
	// heard: "board" (it has gone away) or "broker" (the hall's broker);
	// absent while it can.
	Gone string `json:"gone,omitempty"`
	// Differ is how the two boards' games differ (fide2023:D.2.7): both
	// boards' clocks stand until the arbiter has put them right; absent
	// while they agree.
	Differ *Difference `json:"differ,omitempty"`
	// DrawOffer names the side whose player, at the other board, offers
	// this board's player a draw ("white", "black"), while the offer
	// stands: he accepts it with the opponent panel's draw command (or
	// the other side's check button) and declines it by moving. Law is
	// the law it rests on ("fide2023:9.1.2.1"; absent under the older
	// codes, which say nothing of draw offers).
	DrawOffer string `json:"draw_offer,omitempty"`
	Law       string `json:"law,omitempty"`
	// TakeBackAsked is how many moves the other board's player asks this
	// board's player to take back, while his request stands: he agrees
	// with the opponent panel's take-back command (or the other side's
	// j'adoube button) and refuses by moving; absent for none.
	TakeBackAsked int `json:"takeback_asked,omitempty"`
	// TakeBack is what became of this board's player's own request to
	// take back: "asked" (it waits for the other board's player) or
	// "refused" (he played on); absent for none.
	TakeBack string `json:"takeback,omitempty"`
}

// Difference is how two paired boards' games differ.
type Difference struct {
	// Move is the first move (ply, 1 for White's first) at which the
	// games differ, with this board's move there (Here) and the other's
	// (There); 0 and absent when the difference is not a move's (they
	// play the same side, began from other positions, the other board is
	// more than a move ahead).
	Move  int    `json:"move"`
	Here  string `json:"here,omitempty"`
	There string `json:"there,omitempty"`
	// Why says how they differ, in words.
	Why string `json:"why"`
	// HereMoves and ThereMoves are both games' moves (UCI).
	HereMoves  []string `json:"here_moves"`
	ThereMoves []string `json:"there_moves"`
	// Since is when the difference was found (absent when the board's
	// clock has no wall-clock epoch).
	Since time.Time `json:"since,omitzero"`
}

// Opponent is what plays a side from off the board, as the page shows it
// (docs/api.md).
type Opponent struct {
	// Name and Level: "Stockfish 15.1", "Elo 1500".
	Name  string `json:"name"`
	Level string `json:"level,omitempty"`
	// Side is the side it plays (white or black); Random: drawn again at
	// each new game.
	Side   string `json:"side"`
	Random bool   `json:"random"`
	// Thinking: it is working on its move; Hinting: on a hint.
	Thinking bool `json:"thinking"`
	Hinting  bool `json:"hinting"`
	// Move is its last move (SAN), Book whether it came from its opening
	// book. Eval is its evaluation of the game's position as it stands
	// (Eval.Ply moves in), from White's point of view; absent when
	// evaluations are off, and until the position's evaluation comes (it
	// never shows an earlier position's).
	Move string      `json:"move,omitempty"`
	Book bool        `json:"book,omitempty"`
	Eval *Evaluation `json:"eval,omitempty"`
	// Hint is the move it suggests to the player in the position as it
	// stands (SAN), with its evaluation of that position (HintEval,
	// White's point of view, its PV starting with the hint); both go
	// when the position changes.
	Hint     string      `json:"hint,omitempty"`
	HintEval *Evaluation `json:"hint_eval,omitempty"`
	// Draw: what became of the player's draw offer: offered, declined or
	// accepted.
	Draw string `json:"draw,omitempty"`
	// Fault stops it answering (it is asked again in a few seconds);
	// Recovered is the last fault it recovered from by itself.
	Fault     string `json:"fault,omitempty"`
	Recovered string `json:"recovered,omitempty"`
	// Commands are the commands it takes (POST .../opponent).
	Commands []string `json:"commands"`
	// Online is the game on lichess when the opponent plays there; nil
	// for an engine.
	Online *Online `json:"online,omitempty"`
}

// Online is a game played on lichess, as its server tells it.
type Online struct {
	// URL is the game's page on lichess; Rating the opponent's rating (0
	// when unknown), Title its title.
	URL    string `json:"url"`
	Rating int    `json:"rating,omitempty"`
	Title  string `json:"title,omitempty"`
	// Rated and Speed describe the game: "rapid", "classical", ...
	Rated bool   `json:"rated"`
	Speed string `json:"speed,omitempty"`
	// WhiteMs and BlackMs are lichess's clocks (milliseconds left) as of
	// its last state, Clock says they exist; Running names the side whose
	// clock runs ("" for none); AgeMs is how long ago lichess said so.
	Clock   bool   `json:"clock"`
	WhiteMs int64  `json:"white_ms"`
	BlackMs int64  `json:"black_ms"`
	Running string `json:"running,omitempty"`
	AgeMs   int64  `json:"age_ms"`
	// Status is lichess's status of the game ("started", "mate", "resign",
	// ...), Result the result once over.
	Status string `json:"status,omitempty"`
	Result string `json:"result,omitempty"`
	// Up says boardd's link to the game is up; Link says why not.
	Up   bool   `json:"up"`
	Link string `json:"link,omitempty"`
	// DrawOffered and TakebackProposed: the opponent offers a draw, asks
	// to take back. OpponentGone: the opponent has left the game.
	DrawOffered      bool `json:"draw_offered,omitempty"`
	TakebackProposed bool `json:"takeback_proposed,omitempty"`
	OpponentGone     bool `json:"opponent_gone,omitempty"`
	// Notice is the last thing the player must know (a move lichess
	// refused, and why); Searching says boardd is still looking for a game.
	Notice    string `json:"notice,omitempty"`
	Searching string `json:"searching,omitempty"`
}

// Evaluation is an engine's evaluation of a position, from White's point
// of view.
type Evaluation struct {
	// Score as a console writes it: "+0.35", "-1.20", "#3" (White mates
	// in three), "#-2" (White is mated in two).
	Score string `json:"score"`
	// Centipawns from White's point of view, and Mate, the moves to mate
	// (positive: White mates; 0: none seen).
	Centipawns int `json:"cp"`
	Mate       int `json:"mate,omitempty"`
	// Depth of the search in plies, and the principal variation in SAN.
	Depth int      `json:"depth"`
	PV    []string `json:"pv"`
	// Ply is the position evaluated: the one after that many moves of the
	// game (the length of the state's moves), 0 for the start.
	Ply int `json:"ply"`
}

// OpponentSource gives a Local board its opponent (LocalOptions.Opponent):
// its state for the page, the commands the player or the arbiter give it,
// and word of its changes. Implementations must be safe for concurrent use.
type OpponentSource interface {
	// Opponent returns its state now.
	Opponent() *Opponent
	// Command carries out a command (takeback, hint, new-game, resign,
	// draw, side, level) with its value; a *RefusedError says the game or
	// the opponent would not take it.
	Command(ctx context.Context, command, value string) error
	// Watch registers fn, told when the state changes; fn must not block.
	Watch(fn func()) (stop func())
}

// Commander is a Board whose opponent from off the board takes commands.
// A Board that does not implement it has none.
type Commander interface {
	// Command gives the opponent a command; errors.ErrUnsupported when
	// the board has no opponent.
	Command(ctx context.Context, command, value string) error
}

// Remote is play against a side from off the board.
type Remote struct {
	White bool `json:"white"`
	Black bool `json:"black"`
	// Awaiting is the remote side's move the player must carry out on the
	// board, announced and not yet made.
	Awaiting *RemoteMove `json:"awaiting,omitempty"`
	// Hint is a move suggested to the player at the board.
	Hint *RemoteMove `json:"hint,omitempty"`
}

// RemoteMove is a move announced to the player, in UCI and SAN, with the
// squares it leaves and reaches.
type RemoteMove struct {
	UCI  string `json:"uci"`
	SAN  string `json:"san"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Landing is a move pending (docs/leds.md, "A move pending"): its UCI and
// SAN, its squares, and what it still needs before it can be made: "" for
// nothing, "rook" (castling begun with the king), "victim" (the pawn an en
// passant capture takes) or "piece" (a promotion's piece, to be named).
type Landing struct {
	UCI   string `json:"uci"`
	SAN   string `json:"san"`
	From  string `json:"from"`
	To    string `json:"to"`
	Needs string `json:"needs,omitempty"`
}

// Held is a man in hand: his FEN letter and the square he was lifted from.
type Held struct {
	Man  string `json:"man"`
	From string `json:"from"`
}

// Laws names the law-set in force.
type Laws struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Year int    `json:"year"`
}

// LED is one lit square: its role in the LED language (led.Role.String), its
// blink (steady, slow, fast) and its colour on colour LEDs (#rrggbb).
type LED struct {
	Square string `json:"square"`
	Role   string `json:"role"`
	Blink  string `json:"blink"`
	Colour string `json:"colour"`
}

// Move is one ply of the game.
type Move struct {
	Ply      int      `json:"ply"`
	Number   int      `json:"number"`
	Side     string   `json:"side"`
	SAN      string   `json:"san"`
	Comments []string `json:"comments,omitempty"`
	// FEN is the position after the move, for the page to show it; absent
	// when the board does not say (or cannot read the move).
	FEN string `json:"fen,omitempty"`
}

// Note is a report worth showing in the move list, placed after ply Ply.
type Note struct {
	Ply    int             `json:"ply"`
	Report json.RawMessage `json:"report"`
}

// Warning is an irregularity shown under warn-only: its kind, its law, the
// offender, the squares of the penalty the law would have exacted (lit on
// the board), and the words that explain it ("Under fide2023:4.3.1 you
// would have to move the knight on g1; warn-only: play on").
type Warning struct {
	Kind     report.Kind `json:"kind"`
	Law      report.Law  `json:"law"`
	Offender string      `json:"offender"`
	Squares  []string    `json:"squares"`
	Words    string      `json:"words"`
}

// Pending is the irregularity waiting for a choice.
type Pending struct {
	Kind     report.Kind     `json:"kind"`
	Law      report.Law      `json:"law"`
	Offender string          `json:"offender"`
	Chooser  report.Party    `json:"chooser"`
	Options  []report.Option `json:"options"`
	// Words says each option in plain words, in the order of Options, for
	// the chooser's buttons ("He must move the knight on g1"). The server
	// fills it in; a Board leaves it empty.
	Words []string `json:"words,omitempty"`
}

// Obligation is a duty of the side to move: Side must do What (an option
// id: move-touched, move-taken, rook, take-touched, king, castle) with the
// man on Square (the king for king and castle; for take-touched, the adverse
// man to take), who may go to Destinations (for take-touched, the men that
// can take him), under Law.
type Obligation struct {
	Side         string          `json:"side"`
	What         report.OptionID `json:"what"`
	Square       string          `json:"square"`
	Destinations []string        `json:"destinations"`
	Law          report.Law      `json:"law,omitempty"`
}

// Result is how the game ended.
type Result struct {
	Result report.Outcome `json:"result"`
	Reason string         `json:"reason"`
	Law    report.Law     `json:"law"`
}

// Players are the names of the players, by side: the game's White and
// Black tags, empty when unknown ("?" in the PGN).
type Players struct {
	White string `json:"white"`
	Black string `json:"black"`
}

// Clock is the players' remaining time, when a clock runs.
type Clock struct {
	// White and Black are the times left as a clock shows them (h:mm:ss).
	White string `json:"white"`
	Black string `json:"black"`
	// WhiteMs and BlackMs are the same in milliseconds, as of the moment
	// the state was taken; Running names the side whose time runs then
	// ("" for none), for the page to count down until the next state;
	// Flag names the side whose flag has fallen. A board that knows only
	// the times shown leaves them zero and empty.
	WhiteMs int64  `json:"white_ms,omitempty"`
	BlackMs int64  `json:"black_ms,omitempty"`
	Running string `json:"running,omitempty"`
	Flag    string `json:"flag,omitempty"`
}

var boardIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ValidBoardID reports whether id may name a board in a URL.
func ValidBoardID(id string) error {
	if !boardIDPattern.MatchString(id) {
		return fmt.Errorf("console: board id %q: want 1 to 64 letters, digits, '.', '_' or '-'", id)
	}
	return nil
}
