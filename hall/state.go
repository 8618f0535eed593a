package hall

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/wire"
)

// stateMessage is a board's state message (wire.State) as the hall reads
// it: the few fields of the console's state that the hall follows are read
// at once (stateHead), the rest kept as it came and read in full only when a
// page asks for the board. A state message grows with its game (every move,
// the PGN); reading it all at every move was most of the hall's work.
type stateMessage struct {
	V       int             `json:"v"`
	Board   string          `json:"board"`
	Seq     uint64          `json:"seq"`
	Game    uint64          `json:"game"`
	GameSeq uint64          `json:"game_seq"`
	Events  uint64          `json:"events"`
	State   json.RawMessage `json:"state"`
	PGN     string          `json:"pgn"`
	// Said and SaidSince are the lines the board's voice said lately
	// (wire.State.Said), for the board's page to speak.
	Said      []wire.Said `json:"said"`
	SaidSince time.Time   `json:"said_since"`

	head stateHead
}

// stateHead is what the hall follows of a board's console state.
type stateHead struct {
	Laws struct {
		ID string `json:"id"`
	} `json:"laws"`
	FEN     string           `json:"fen"`
	Syncing bool             `json:"syncing"`
	Pending *console.Pending `json:"pending"`
	Result  *console.Result  `json:"result"`
	Clock   *console.Clock   `json:"clock"`
}

// decodeState reads a state message; what names it in errors (its topic).
func decodeState(payload []byte, what string) (*stateMessage, error) {
	var m stateMessage
	err := json.Unmarshal(payload, &m)
	if err == nil && m.V == wire.Version {
		if len(m.State) > 0 {
			err = json.Unmarshal(m.State, &m.head)
		}
		if err == nil {
			return &m, nil
		}
	}
	// Let the protocol say what is wrong with it (another version, say).
	var full wire.State
	if werr := wire.Decode(payload, &full, what); werr != nil {
		return nil, werr
	}
	return nil, fmt.Errorf("wire: %s: %v", what, err)
}

// console reads the whole of the board's console state.
func (m *stateMessage) console() (console.State, error) {
	var st console.State
	if len(m.State) == 0 {
		return st, nil
	}
	if err := json.Unmarshal(m.State, &st); err != nil {
		return st, fmt.Errorf("hall: board %s's state: %w", m.Board, err)
	}
	return st, nil
}
