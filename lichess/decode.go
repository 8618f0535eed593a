package lichess

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
)

// The wire shapes below follow the schemas of the OpenAPI description
// (GameStartEvent, GameEventInfo, ChallengeJson, GameFullEvent,
// GameStateEvent, ChatLineEvent, OpponentGoneEvent). Each stream's lines are
// decoded in one pass into a union of every type's fields.

type wireVariant struct {
	Key string `json:"key"`
}

type wireGameStatus struct {
	ID   int    `json:"id"`
	Name Status `json:"name"`
}

type wireCompat struct {
	Bot   bool `json:"bot"`
	Board bool `json:"board"`
}

type wireOpponent struct {
	ID       *string `json:"id"`
	Username string  `json:"username"`
	Rating   int     `json:"rating"`
	AI       int     `json:"ai"`
}

type wireGameInfo struct {
	FullID       string          `json:"fullId"`
	GameID       string          `json:"gameId"`
	FEN          string          `json:"fen"`
	Color        string          `json:"color"`
	LastMove     string          `json:"lastMove"`
	Source       string          `json:"source"`
	Status       json.RawMessage `json:"status"`
	Variant      *wireVariant    `json:"variant"`
	Speed        string          `json:"speed"`
	Perf         json.RawMessage `json:"perf"`
	Rated        bool            `json:"rated"`
	HasMoved     bool            `json:"hasMoved"`
	IsMyTurn     bool            `json:"isMyTurn"`
	SecondsLeft  int             `json:"secondsLeft"`
	Winner       string          `json:"winner"`
	Opponent     *wireOpponent   `json:"opponent"`
	Compat       *wireCompat     `json:"compat"`
	TournamentID string          `json:"tournamentId"`
}

type wireChallengeUser struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Rating      int    `json:"rating"`
	Title       string `json:"title"`
	Provisional bool   `json:"provisional"`
	Online      bool   `json:"online"`
}

type wireTimeControl struct {
	Type        string `json:"type"`
	Limit       int64  `json:"limit"`
	Increment   int64  `json:"increment"`
	Show        string `json:"show"`
	DaysPerTurn int    `json:"daysPerTurn"`
}

type wireChallenge struct {
	ID               string             `json:"id"`
	URL              string             `json:"url"`
	Status           string             `json:"status"`
	Challenger       *wireChallengeUser `json:"challenger"`
	DestUser         *wireChallengeUser `json:"destUser"`
	Variant          *wireVariant       `json:"variant"`
	Rated            bool               `json:"rated"`
	Speed            string             `json:"speed"`
	TimeControl      *wireTimeControl   `json:"timeControl"`
	Color            string             `json:"color"`
	FinalColor       string             `json:"finalColor"`
	Direction        string             `json:"direction"`
	InitialFen       string             `json:"initialFen"`
	RematchOf        string             `json:"rematchOf"`
	DeclineReason    string             `json:"declineReason"`
	DeclineReasonKey string             `json:"declineReasonKey"`
}

type wireEvent struct {
	Type      string         `json:"type"`
	Game      *wireGameInfo  `json:"game"`
	Challenge *wireChallenge `json:"challenge"`
	Compat    *wireCompat    `json:"compat"`
}

type wireExpiration struct {
	IdleMillis   int64 `json:"idleMillis"`
	MillisToMove int64 `json:"millisToMove"`
}

type wireState struct {
	Type       string          `json:"type"`
	Moves      *string         `json:"moves"`
	WTime      *int64          `json:"wtime"`
	BTime      *int64          `json:"btime"`
	WInc       int64           `json:"winc"`
	BInc       int64           `json:"binc"`
	Status     Status          `json:"status"`
	Winner     string          `json:"winner"`
	WDraw      bool            `json:"wdraw"`
	BDraw      bool            `json:"bdraw"`
	WTakeback  bool            `json:"wtakeback"`
	BTakeback  bool            `json:"btakeback"`
	Expiration *wireExpiration `json:"expiration"`
	Rematch    string          `json:"rematch"`
}

type wirePlayer struct {
	AILevel     int     `json:"aiLevel"`
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Title       *string `json:"title"`
	Rating      int     `json:"rating"`
	Provisional bool    `json:"provisional"`
}

type wireClock struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

// wireGameLine is the union of a game stream's line types: the fields of
// gameFull, of gameState (embedded: a gameState line has them at the top),
// chatLine and opponentGone.
type wireGameLine struct {
	wireState
	ID           string          `json:"id"`
	Variant      *wireVariant    `json:"variant"`
	Clock        *wireClock      `json:"clock"`
	Speed        string          `json:"speed"`
	Perf         json.RawMessage `json:"perf"`
	Rated        bool            `json:"rated"`
	CreatedAt    int64           `json:"createdAt"`
	White        *wirePlayer     `json:"white"`
	Black        *wirePlayer     `json:"black"`
	InitialFen   string          `json:"initialFen"`
	State        *wireState      `json:"state"`
	DaysPerTurn  int             `json:"daysPerTurn"`
	TournamentID string          `json:"tournamentId"`
	Room         string          `json:"room"`
	Username     string          `json:"username"`
	Text         string          `json:"text"`
	Gone         *bool           `json:"gone"`
	ClaimWin     *int64          `json:"claimWinInSeconds"`
}

// maxMillis bounds the millisecond counts accepted (about 292 years, where
// time.Duration ends).
const maxMillis = int64(1<<63-1) / int64(time.Millisecond)

// DecodeEvent decodes one non-blank line of the account's event stream.
func DecodeEvent(line []byte) (Event, error) {
	var w wireEvent
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, fmt.Errorf("lichess: event: %w", err)
	}
	switch w.Type {
	case "gameStart", "gameFinish":
		if w.Game == nil {
			return nil, fmt.Errorf("lichess: %s event: no game", w.Type)
		}
		g, err := w.Game.decode()
		if err != nil {
			return nil, fmt.Errorf("lichess: %s event: %w", w.Type, err)
		}
		if w.Type == "gameStart" {
			return &GameStart{Game: g}, nil
		}
		return &GameFinish{Game: g}, nil
	case "challenge", "challengeCanceled", "challengeDeclined":
		if w.Challenge == nil {
			return nil, fmt.Errorf("lichess: %s event: no challenge", w.Type)
		}
		c, err := w.Challenge.decode()
		if err != nil {
			return nil, fmt.Errorf("lichess: %s event: %w", w.Type, err)
		}
		switch w.Type {
		case "challenge":
			return &ChallengeEvent{Challenge: c, BoardCompatible: w.Compat != nil && w.Compat.Board}, nil
		case "challengeCanceled":
			return &ChallengeCanceled{Challenge: c}, nil
		}
		return &ChallengeDeclined{Challenge: c, Reason: w.Challenge.DeclineReason, ReasonKey: w.Challenge.DeclineReasonKey}, nil
	case "":
		return nil, errors.New("lichess: event: no type")
	}
	return &UnknownEvent{Type: w.Type}, nil
}

func (w *wireGameInfo) decode() (GameInfo, error) {
	if w.GameID == "" {
		return GameInfo{}, errors.New("no gameId")
	}
	g := GameInfo{
		FullID: w.FullID, GameID: w.GameID, FEN: w.FEN, Color: w.Color, LastMove: w.LastMove,
		Source: w.Source, Speed: w.Speed, Rated: w.Rated, HasMoved: w.HasMoved, IsMyTurn: w.IsMyTurn,
		SecondsLeft: w.SecondsLeft, Winner: w.Winner, TournamentID: w.TournamentID,
	}
	if w.Color != "" {
		if _, ok := parseSide(w.Color); !ok {
			return GameInfo{}, fmt.Errorf("game %s: color %q: want white or black", w.GameID, w.Color)
		}
	}
	if w.Variant != nil {
		g.Variant = w.Variant.Key
	}
	if w.Compat != nil {
		g.BoardCompatible = w.Compat.Board
	}
	if w.Opponent != nil {
		g.Opponent = Opponent{Username: w.Opponent.Username, Rating: w.Opponent.Rating, AI: w.Opponent.AI}
		if w.Opponent.ID != nil {
			g.Opponent.ID = *w.Opponent.ID
		}
	}
	// The event stream writes status as {id, name}; /api/account/playing as
	// a bare name.
	if len(w.Status) > 0 && !bytes.Equal(w.Status, []byte("null")) {
		if w.Status[0] == '"' {
			if err := json.Unmarshal(w.Status, &g.Status); err != nil {
				return GameInfo{}, fmt.Errorf("game %s: status: %w", w.GameID, err)
			}
		} else {
			var s wireGameStatus
			if err := json.Unmarshal(w.Status, &s); err != nil {
				return GameInfo{}, fmt.Errorf("game %s: status: %w", w.GameID, err)
			}
			g.Status = s.Name
		}
	}
	// perf is a key in the event stream and /api/account/playing.
	if len(w.Perf) > 0 && w.Perf[0] == '"' {
		if err := json.Unmarshal(w.Perf, &g.Perf); err != nil {
			return GameInfo{}, fmt.Errorf("game %s: perf: %w", w.GameID, err)
		}
	}
	return g, nil
}

func (w *wireChallenge) decode() (Challenge, error) {
	if w.ID == "" {
		return Challenge{}, errors.New("no challenge id")
	}
	c := Challenge{
		ID: w.ID, URL: w.URL, Status: w.Status, Rated: w.Rated, Speed: w.Speed, Color: w.Color,
		FinalColor: w.FinalColor, Direction: w.Direction, InitialFEN: w.InitialFen, RematchOf: w.RematchOf,
	}
	if w.Challenger != nil {
		c.Challenger = w.Challenger.decode()
	}
	if w.DestUser != nil {
		d := w.DestUser.decode()
		c.DestUser = &d
	}
	if w.Variant != nil {
		c.Variant = w.Variant.Key
	}
	if tc := w.TimeControl; tc != nil {
		if tc.Limit < 0 || tc.Increment < 0 || tc.Limit > maxMillis/1000 || tc.Increment > maxMillis/1000 {
			return Challenge{}, fmt.Errorf("challenge %s: time control %d+%d out of range", w.ID, tc.Limit, tc.Increment)
		}
		c.TimeControl = TimeControl{
			Kind: tc.Type, Limit: time.Duration(tc.Limit) * time.Second, Increment: time.Duration(tc.Increment) * time.Second,
			Show: tc.Show, DaysPerTurn: tc.DaysPerTurn,
		}
	}
	return c, nil
}

func (w *wireChallengeUser) decode() ChallengeUser {
	return ChallengeUser{ID: w.ID, Name: w.Name, Rating: w.Rating, Title: w.Title, Provisional: w.Provisional, Online: w.Online}
}

// DecodeGameEvent decodes one non-blank line of a game's stream.
func DecodeGameEvent(line []byte) (GameEvent, error) {
	var w wireGameLine
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, fmt.Errorf("lichess: game stream: %w", err)
	}
	switch w.Type {
	case "gameFull":
		g, err := w.decodeFull()
		if err != nil {
			return nil, err // not a nil *GameFull in a non-nil GameEvent
		}
		return g, nil
	case "gameState":
		s, err := w.wireState.decode()
		if err != nil {
			return nil, fmt.Errorf("lichess: gameState: %w", err)
		}
		return &s, nil
	case "chatLine":
		return &ChatLine{Room: w.Room, Username: w.Username, Text: w.Text}, nil
	case "opponentGone":
		if w.Gone == nil {
			return nil, errors.New("lichess: opponentGone: no gone field")
		}
		g := &OpponentGone{Gone: *w.Gone}
		if w.ClaimWin != nil {
			if *w.ClaimWin < 0 || *w.ClaimWin > maxMillis/1000 {
				return nil, fmt.Errorf("lichess: opponentGone: claimWinInSeconds %d out of range", *w.ClaimWin)
			}
			g.ClaimWinIn, g.HasClaimTime = time.Duration(*w.ClaimWin)*time.Second, true
		}
		return g, nil
	case "":
		return nil, errors.New("lichess: game stream: line with no type")
	}
	return &UnknownGameEvent{Type: w.Type}, nil
}

func (w *wireGameLine) decodeFull() (*GameFull, error) {
	if w.ID == "" {
		return nil, errors.New("lichess: gameFull: no id")
	}
	if w.White == nil || w.Black == nil {
		return nil, fmt.Errorf("lichess: gameFull %s: no white or black player", w.ID)
	}
	if w.State == nil {
		return nil, fmt.Errorf("lichess: gameFull %s: no state", w.ID)
	}
	st, err := w.State.decode()
	if err != nil {
		return nil, fmt.Errorf("lichess: gameFull %s: state: %w", w.ID, err)
	}
	g := &GameFull{
		ID: w.ID, Speed: w.Speed, Rated: w.Rated, White: w.White.decode(), Black: w.Black.decode(),
		InitialFEN: w.InitialFen, State: st, DaysPerTurn: w.DaysPerTurn, TournamentID: w.TournamentID,
	}
	if g.InitialFEN == "" || g.InitialFEN == "startpos" {
		g.InitialFEN = board.StartFEN
	}
	if w.CreatedAt != 0 {
		g.CreatedAt = time.UnixMilli(w.CreatedAt).UTC()
	}
	if w.Variant != nil {
		g.Variant = w.Variant.Key
	}
	if w.Clock != nil {
		if !millisOK(w.Clock.Initial) || !millisOK(w.Clock.Increment) {
			return nil, fmt.Errorf("lichess: gameFull %s: clock %d+%d ms out of range", w.ID, w.Clock.Initial, w.Clock.Increment)
		}
		g.Clock = &ClockConfig{Initial: ms(w.Clock.Initial), Increment: ms(w.Clock.Increment)}
	}
	// perf is {name} in gameFull.
	if len(w.Perf) > 0 && w.Perf[0] == '{' {
		var p struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(w.Perf, &p); err != nil {
			return nil, fmt.Errorf("lichess: gameFull %s: perf: %w", w.ID, err)
		}
		g.Perf = p.Name
	}
	return g, nil
}

func (w *wirePlayer) decode() Player {
	p := Player{ID: w.ID, Name: w.Name, Rating: w.Rating, Provisional: w.Provisional, AILevel: w.AILevel}
	if w.Title != nil {
		p.Title = *w.Title
	}
	return p
}

func (w *wireState) decode() (GameState, error) {
	if w.Moves == nil {
		return GameState{}, errors.New("no moves field")
	}
	if w.Status == "" {
		return GameState{}, errors.New("no status")
	}
	if w.WTime == nil || w.BTime == nil {
		return GameState{}, errors.New("no wtime or btime")
	}
	for _, v := range []int64{*w.WTime, *w.BTime, w.WInc, w.BInc} {
		if !millisOK(v) {
			return GameState{}, fmt.Errorf("clock value %d ms out of range", v)
		}
	}
	moves, err := splitMoves(*w.Moves)
	if err != nil {
		return GameState{}, err
	}
	s := GameState{
		Moves: moves, WhiteTime: ms(*w.WTime), BlackTime: ms(*w.BTime), WhiteIncrement: ms(w.WInc), BlackIncrement: ms(w.BInc),
		Status: w.Status, Winner: w.Winner, WhiteOffersDraw: w.WDraw, BlackOffersDraw: w.BDraw,
		WhiteProposesTakeback: w.WTakeback, BlackProposesTakeback: w.BTakeback, RematchID: w.Rematch,
	}
	if w.Winner != "" {
		if _, ok := parseSide(w.Winner); !ok {
			return GameState{}, fmt.Errorf("winner %q: want white or black", w.Winner)
		}
	}
	if e := w.Expiration; e != nil {
		if !millisOK(e.IdleMillis) || !millisOK(e.MillisToMove) {
			return GameState{}, fmt.Errorf("expiration %d/%d ms out of range", e.IdleMillis, e.MillisToMove)
		}
		s.Expiration = &Expiration{Idle: ms(e.IdleMillis), ToMove: ms(e.MillisToMove)}
	}
	return s, nil
}

// splitMoves splits lichess's space-separated UCI moves, checking each. The
// moves share one backing array.
func splitMoves(text string) ([]string, error) {
	n := strings.Count(text, " ") + 1
	moves := make([]string, 0, n)
	for i := 0; ; {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i == len(text) {
			break
		}
		j := i
		for j < len(text) && text[j] != ' ' {
			j++
		}
		m := text[i:j]
		if !validUCI(m) {
			return nil, fmt.Errorf("move %d %q: not a UCI move of standard chess", len(moves)+1, clip(m))
		}
		moves = append(moves, m)
		i = j
	}
	return moves, nil
}

// validUCI reports whether m is a move such as e2e4 or e7e8q.
func validUCI(m string) bool {
	if len(m) != 4 && len(m) != 5 {
		return false
	}
	if m[0] < 'a' || m[0] > 'h' || m[1] < '1' || m[1] > '8' || m[2] < 'a' || m[2] > 'h' || m[3] < '1' || m[3] > '8' {
		return false
	}
	return len(m) == 4 || strings.IndexByte("qrbn", m[4]) >= 0
}

func millisOK(v int64) bool { return v >= 0 && v <= maxMillis }

func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
