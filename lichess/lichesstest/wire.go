package lichesstest

// The JSON this server writes, field for field as the OpenAPI description's
// schemas name them (see README.md for the version). These types are the
// server's own: the client decodes with its own, so that a misreading of the
// description on one side shows as a test failure, not as agreement.

type jsonVariant struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Short string `json:"short,omitempty"`
}

type jsonStatus struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type jsonCompat struct {
	Bot   bool `json:"bot"`
	Board bool `json:"board"`
}

type jsonOpponent struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Rating   int    `json:"rating"`
}

// GameEventInfo.
type jsonGameInfo struct {
	FullID      string        `json:"fullId"`
	GameID      string        `json:"gameId"`
	FEN         string        `json:"fen"`
	Color       string        `json:"color"`
	LastMove    string        `json:"lastMove"`
	Source      string        `json:"source"`
	Status      any           `json:"status"` // {id,name} in events, a name in /api/account/playing
	Variant     jsonVariant   `json:"variant"`
	Speed       string        `json:"speed"`
	Perf        string        `json:"perf"`
	Rated       bool          `json:"rated"`
	HasMoved    bool          `json:"hasMoved"`
	Opponent    *jsonOpponent `json:"opponent"`
	IsMyTurn    bool          `json:"isMyTurn"`
	SecondsLeft *int          `json:"secondsLeft,omitempty"`
	Winner      string        `json:"winner,omitempty"`
	Compat      *jsonCompat   `json:"compat,omitempty"`
	ID          string        `json:"id,omitempty"`
}

type jsonGameEvent struct {
	Type string       `json:"type"`
	Game jsonGameInfo `json:"game"`
}

type jsonChallengeUser struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Rating      int     `json:"rating"`
	Title       *string `json:"title"`
	Provisional bool    `json:"provisional,omitempty"`
	Online      bool    `json:"online"`
}

type jsonTimeControl struct {
	Type        string `json:"type"`
	Limit       int    `json:"limit,omitempty"`
	Increment   int    `json:"increment,omitempty"`
	Show        string `json:"show,omitempty"`
	DaysPerTurn int    `json:"daysPerTurn,omitempty"`
}

type jsonPerf struct {
	Icon string `json:"icon"`
	Name string `json:"name"`
}

// ChallengeJson.
type jsonChallenge struct {
	ID          string             `json:"id"`
	URL         string             `json:"url"`
	Status      string             `json:"status"`
	Challenger  jsonChallengeUser  `json:"challenger"`
	DestUser    *jsonChallengeUser `json:"destUser"`
	Variant     jsonVariant        `json:"variant"`
	Rated       bool               `json:"rated"`
	Speed       string             `json:"speed"`
	TimeControl jsonTimeControl    `json:"timeControl"`
	Color       string             `json:"color"`
	FinalColor  string             `json:"finalColor,omitempty"`
	Perf        jsonPerf           `json:"perf"`
	Direction   string             `json:"direction,omitempty"`
}

type jsonChallengeEvent struct {
	Type      string        `json:"type"`
	Challenge jsonChallenge `json:"challenge"`
	Compat    *jsonCompat   `json:"compat,omitempty"`
}

// GameEventPlayer: title is a title or null.
type jsonPlayer struct {
	AILevel     int     `json:"aiLevel,omitempty"`
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Title       *string `json:"title"`
	Rating      int     `json:"rating,omitempty"`
	Provisional bool    `json:"provisional,omitempty"`
}

type jsonClock struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

type jsonPerfName struct {
	Name string `json:"name"`
}

// GameStateEvent: the offer flags and winner are omitted unless set.
type jsonGameState struct {
	Type      string `json:"type"`
	Moves     string `json:"moves"`
	WTime     int64  `json:"wtime"`
	BTime     int64  `json:"btime"`
	WInc      int64  `json:"winc"`
	BInc      int64  `json:"binc"`
	Status    string `json:"status"`
	Winner    string `json:"winner,omitempty"`
	WDraw     bool   `json:"wdraw,omitempty"`
	BDraw     bool   `json:"bdraw,omitempty"`
	WTakeback bool   `json:"wtakeback,omitempty"`
	BTakeback bool   `json:"btakeback,omitempty"`
}

// GameFullEvent.
type jsonGameFull struct {
	ID         string        `json:"id"`
	Variant    jsonVariant   `json:"variant"`
	Speed      string        `json:"speed"`
	Perf       jsonPerfName  `json:"perf"`
	Rated      bool          `json:"rated"`
	CreatedAt  int64         `json:"createdAt"`
	White      jsonPlayer    `json:"white"`
	Black      jsonPlayer    `json:"black"`
	InitialFen string        `json:"initialFen"`
	Clock      *jsonClock    `json:"clock,omitempty"`
	DaysPer    int           `json:"daysPerTurn,omitempty"`
	Type       string        `json:"type"`
	State      jsonGameState `json:"state"`
}

// ChatLineEvent.
type jsonChatLine struct {
	Type     string `json:"type"`
	Room     string `json:"room"`
	Username string `json:"username"`
	Text     string `json:"text"`
}

// OpponentGoneEvent.
type jsonOpponentGone struct {
	Type              string `json:"type"`
	Gone              bool   `json:"gone"`
	ClaimWinInSeconds *int   `json:"claimWinInSeconds,omitempty"`
}

// The account, as GET /api/account answers (the fields a board needs of
// UserExtended).
type jsonAccount struct {
	ID       string  `json:"id"`
	Username string  `json:"username"`
	Title    *string `json:"title,omitempty"`
	URL      string  `json:"url"`
	Disabled bool    `json:"disabled,omitempty"`
}

type jsonError struct {
	Error string `json:"error"`
}

type jsonOK struct {
	OK bool `json:"ok"`
}

// statusIDs are the GameStatus ids of each name.
var statusIDs = map[string]int{
	"created": 10, "started": 20, "aborted": 25, "mate": 30, "resign": 31, "stalemate": 32,
	"timeout": 33, "draw": 34, "outoftime": 35, "cheat": 36, "noStart": 37, "unknownFinish": 38,
	"insufficientMaterialClaim": 39, "variantEnd": 60,
}

var variants = map[string]jsonVariant{
	"standard":     {Key: "standard", Name: "Standard", Short: "Std"},
	"fromPosition": {Key: "fromPosition", Name: "From Position", Short: "FEN"},
}
