package lichess

import (
	"strings"
	"time"

	"github.com/boardd/boardd/board"
)

// Account is the token's owner, from GET /api/account.
type Account struct {
	ID       string // lowercase user id
	Username string
	Title    string // "BOT" for a bot account, which the Board API refuses
	Disabled bool
	// Scopes are the token's scopes (from the X-OAuth-Scopes header of the
	// answer, or POST /api/token/test).
	Scopes []string
}

// HasScope reports whether the token has scope s.
func (a Account) HasScope(s string) bool {
	for _, x := range a.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// Status is a game's status name as lichess writes it.
type Status string

// Game statuses (the GameStatusName schema).
const (
	StatusCreated                   Status = "created"
	StatusStarted                   Status = "started"
	StatusAborted                   Status = "aborted"
	StatusMate                      Status = "mate"
	StatusResign                    Status = "resign"
	StatusStalemate                 Status = "stalemate"
	StatusTimeout                   Status = "timeout"
	StatusDraw                      Status = "draw"
	StatusOutOfTime                 Status = "outoftime"
	StatusCheat                     Status = "cheat"
	StatusNoStart                   Status = "noStart"
	StatusUnknownFinish             Status = "unknownFinish"
	StatusInsufficientMaterialClaim Status = "insufficientMaterialClaim"
	StatusVariantEnd                Status = "variantEnd"
)

// Finished reports whether the game has ended (any status but created and
// started).
func (s Status) Finished() bool { return s != StatusCreated && s != StatusStarted && s != "" }

// GameInfo describes a game in the event stream (gameStart, gameFinish) and
// in GET /api/account/playing.
type GameInfo struct {
	FullID, GameID string
	FEN            string // the current position
	Color          string // the account's side: "white" or "black"
	LastMove       string
	Source         string // lobby, friend, ai, api, tournament, ...
	Status         Status
	Variant        string // variant key: standard, chess960, fromPosition, ...
	Speed          string // ultraBullet ... classical, correspondence
	Perf           string
	Rated          bool
	HasMoved       bool
	IsMyTurn       bool
	SecondsLeft    int
	Winner         string // "white", "black" or ""
	Opponent       Opponent
	// BoardCompatible is the compat.board flag: the game can be played
	// with the Board API. False when lichess did not say.
	BoardCompatible bool
	TournamentID    string
}

// Side returns the account's side in the game, if lichess named it.
func (g GameInfo) Side() (board.Color, bool) { return parseSide(g.Color) }

// Opponent is the other player of a game in the event stream.
type Opponent struct {
	ID       string // "" for lichess's AI
	Username string
	Rating   int
	AI       int // the AI's level, 0 for a person
}

// Challenge is a challenge in the event stream.
type Challenge struct {
	ID         string
	URL        string
	Status     string // created, offline, canceled, declined, accepted
	Challenger ChallengeUser
	DestUser   *ChallengeUser // nil for an open challenge
	Variant    string
	Rated      bool
	Speed      string
	// TimeControl: Kind is "clock", "correspondence" or "unlimited".
	TimeControl TimeControl
	Color       string // the challenger's choice: white, black or random
	FinalColor  string // the challenger's side once drawn: white or black
	Direction   string // "in" (to the account) or "out" (from it)
	InitialFEN  string
	RematchOf   string
}

// ChallengeUser is a player in a challenge.
type ChallengeUser struct {
	ID, Name    string
	Rating      int
	Title       string
	Provisional bool
	Online      bool
}

// TimeControl is a challenge's time control.
type TimeControl struct {
	Kind        string // clock, correspondence or unlimited
	Limit       time.Duration
	Increment   time.Duration
	Show        string // e.g. "15+10"
	DaysPerTurn int
}

// Event is one line of the account's event stream: *GameStart,
// *GameFinish, *ChallengeEvent, *ChallengeCanceled, *ChallengeDeclined, or
// *UnknownEvent for a type this package does not know.
type Event interface{ EventType() string }

// GameStart announces a game of the account's: new, or in progress when the
// stream opens (lichess lists every game in progress on each connection, so a
// game may be announced more than once).
type GameStart struct{ Game GameInfo }

// GameFinish announces the end of a game.
type GameFinish struct{ Game GameInfo }

// ChallengeEvent is a challenge to the account, or from it (Direction
// "out"). Lichess lists the open challenges on each connection.
type ChallengeEvent struct {
	Challenge       Challenge
	BoardCompatible bool
}

// ChallengeCanceled: the challenger withdrew a challenge to the account.
type ChallengeCanceled struct{ Challenge Challenge }

// ChallengeDeclined: the opponent declined the account's challenge.
type ChallengeDeclined struct {
	Challenge Challenge
	Reason    string // human-readable, maybe translated
	ReasonKey string // generic, later, toofast, ...
}

// UnknownEvent is an event type lichess added after SpecVersion; it is
// passed on, not treated as an error.
type UnknownEvent struct{ Type string }

// EventType returns "gameStart".
func (*GameStart) EventType() string { return "gameStart" }

// EventType returns "gameFinish".
func (*GameFinish) EventType() string { return "gameFinish" }

// EventType returns "challenge".
func (*ChallengeEvent) EventType() string { return "challenge" }

// EventType returns "challengeCanceled".
func (*ChallengeCanceled) EventType() string { return "challengeCanceled" }

// EventType returns "challengeDeclined".
func (*ChallengeDeclined) EventType() string { return "challengeDeclined" }

// EventType returns the type lichess gave.
func (e *UnknownEvent) EventType() string { return e.Type }

// GameEvent is one line of a game's stream: *GameFull, *GameState,
// *ChatLine, *OpponentGone, or *UnknownGameEvent.
type GameEvent interface{ GameEventType() string }

// GameFull is the first line of every connection to a game's stream: the
// game's fixed facts and its current state.
type GameFull struct {
	ID        string
	Variant   string // variant key
	Clock     *ClockConfig
	Speed     string
	Perf      string
	Rated     bool
	CreatedAt time.Time
	White     Player
	Black     Player
	// InitialFEN is the position the game started from; lichess writes
	// "startpos" for the usual one, which this field holds as board.StartFEN.
	InitialFEN   string
	State        GameState
	DaysPerTurn  int
	TournamentID string
}

// SideOf returns the side the user with id plays, if either.
func (g *GameFull) SideOf(userID string) (board.Color, bool) {
	switch {
	case userID == "":
		return 0, false
	case strings.EqualFold(g.White.ID, userID):
		return board.White, true
	case strings.EqualFold(g.Black.ID, userID):
		return board.Black, true
	}
	return 0, false
}

// ClockConfig is a game's clock: the initial time and the increment.
type ClockConfig struct {
	Initial, Increment time.Duration
}

// Player is one side of a game in its stream.
type Player struct {
	ID, Name    string // empty for lichess's AI
	Title       string
	Rating      int
	Provisional bool
	AILevel     int
}

// GameState is the changing part of a game: its moves, clocks, status and
// offers. Lichess sends one after every move, offer and at the end.
type GameState struct {
	// Moves is every move of the game in UCI (e2e4, e1g1, e7e8q).
	Moves                 []string
	WhiteTime, BlackTime  time.Duration
	WhiteIncrement        time.Duration
	BlackIncrement        time.Duration
	Status                Status
	Winner                string // "white", "black" or ""
	WhiteOffersDraw       bool
	BlackOffersDraw       bool
	WhiteProposesTakeback bool
	BlackProposesTakeback bool
	Expiration            *Expiration // set while a first move is awaited
	RematchID             string
}

// Expiration is how long a player has for a first move before lichess
// aborts the game.
type Expiration struct {
	Idle, ToMove time.Duration
}

// Time returns side c's remaining time.
func (s *GameState) Time(c board.Color) time.Duration {
	if c == board.White {
		return s.WhiteTime
	}
	return s.BlackTime
}

// OffersDraw reports whether side c offers a draw.
func (s *GameState) OffersDraw(c board.Color) bool {
	if c == board.White {
		return s.WhiteOffersDraw
	}
	return s.BlackOffersDraw
}

// ProposesTakeback reports whether side c asks to take back.
func (s *GameState) ProposesTakeback(c board.Color) bool {
	if c == board.White {
		return s.WhiteProposesTakeback
	}
	return s.BlackProposesTakeback
}

// Result returns the game's result as PGN writes it: "1-0", "0-1",
// "1/2-1/2", or "*" while it runs or when it was aborted or never started.
func (s *GameState) Result() string {
	if !s.Status.Finished() {
		return "*"
	}
	switch s.Winner {
	case "white":
		return "1-0"
	case "black":
		return "0-1"
	}
	switch s.Status {
	case StatusAborted, StatusNoStart, StatusUnknownFinish, StatusCheat:
		return "*"
	}
	return "1/2-1/2"
}

// ChatLine is a message in the player or spectator chat.
type ChatLine struct {
	Room     string // "player" or "spectator"
	Username string
	Text     string
}

// OpponentGone says the opponent left the game (Gone) or came back; once
// ClaimWinIn has passed, the account may claim victory (or a draw).
type OpponentGone struct {
	Gone       bool
	ClaimWinIn time.Duration
	// HasClaimTime says lichess sent claimWinInSeconds.
	HasClaimTime bool
}

// UnknownGameEvent is a game-stream line of a type this package does not
// know; it is passed on, not treated as an error.
type UnknownGameEvent struct{ Type string }

// GameEventType returns "gameFull".
func (*GameFull) GameEventType() string { return "gameFull" }

// GameEventType returns "gameState".
func (*GameState) GameEventType() string { return "gameState" }

// GameEventType returns "chatLine".
func (*ChatLine) GameEventType() string { return "chatLine" }

// GameEventType returns "opponentGone".
func (*OpponentGone) GameEventType() string { return "opponentGone" }

// GameEventType returns the type lichess gave.
func (e *UnknownGameEvent) GameEventType() string { return e.Type }

// OngoingGame is a game in progress, from GET /api/account/playing.
type OngoingGame = GameInfo

func parseSide(s string) (board.Color, bool) {
	switch s {
	case "white":
		return board.White, true
	case "black":
		return board.Black, true
	}
	return 0, false
}
