// Package wire is the club hall's protocol over MQTT, version 1: the topics
// under boardd/v1/<board>/ and the JSON payload of each. Boards publish their
// game (events), their state and their health; the hall sends back
// acknowledgements and arbiter actions, and boards reply to the actions.
// docs/hall.md is the specification; this package encodes, decodes and
// checks the payloads and knows nothing of connections.
//
// Every payload is one JSON object whose "v" is Version. A decoder refuses a
// payload of another version with an error that says so, so that a hall and
// boards of different protocol versions fail loudly rather than misread each
// other.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Version is the protocol version: the second segment of every topic and the
// "v" of every payload.
const Version = 1

// Root is the topic prefix of protocol version 1.
const Root = "boardd/v1"

// The last segment of each topic: boardd/v1/<board>/<kind>.
const (
	// KindEvent carries the board's game, one journal record a message, in
	// order (board to hall, QoS 1).
	KindEvent = "event"
	// KindState is the board as it stands, retained (board to hall, QoS 1).
	KindState = "state"
	// KindHealth is the board's health, retained; the broker publishes the
	// board's will (online false) when it vanishes (board to hall, QoS 1).
	KindHealth = "health"
	// KindReply answers an action (board to hall, QoS 1).
	KindReply = "reply"
	// KindAction is an arbiter action for one board (hall to board, QoS 1).
	KindAction = "action"
	// KindAck says how far the hall holds the board's events, retained (hall
	// to board, QoS 1).
	KindAck = "ack"
)

var boardPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// CheckBoard reports whether id may name a board in a topic: 1 to 64
// letters, digits, '.', '_' or '-' (the console's board ids).
func CheckBoard(id string) error {
	if !boardPattern.MatchString(id) {
		return fmt.Errorf("wire: board id %q: want 1 to 64 letters, digits, '.', '_' or '-'", id)
	}
	return nil
}

// Topic returns the topic of kind for board.
func Topic(board, kind string) string { return Root + "/" + board + "/" + kind }

// Every returns the subscription filter for kind on every board.
func Every(kind string) string { return Root + "/+/" + kind }

// ParseTopic splits a topic of this protocol into its board and kind.
func ParseTopic(topic string) (board, kind string, err error) {
	rest, ok := strings.CutPrefix(topic, Root+"/")
	if !ok {
		return "", "", fmt.Errorf("wire: topic %q is not under %s/", topic, Root)
	}
	board, kind, ok = strings.Cut(rest, "/")
	if !ok || strings.Contains(kind, "/") {
		return "", "", fmt.Errorf("wire: topic %q: want %s/<board>/<kind>", topic, Root)
	}
	if err := CheckBoard(board); err != nil {
		return "", "", err
	}
	switch kind {
	case KindEvent, KindState, KindHealth, KindReply, KindAction, KindAck:
		return board, kind, nil
	}
	return "", "", fmt.Errorf("wire: topic %q: unknown kind %q", topic, kind)
}

// The kinds of event: one a journal record kind that the board publishes.
const (
	EventHeader = "header" // a game begins
	EventReport = "report" // boardd decided something: a move, an irregularity, a ruling, a result...
	EventTag    = "tag"    // a PGN tag learnt during the game
)

// Event is one record of the board's journal (topic event). Seq is the
// journal's sequence number; Prev is the sequence number of the event before
// it on this board (records the board does not publish, its inputs, lie
// between), or 0 when the board cannot say (the first event it ever sent,
// or after records were lost to its archive's cap). A hall that holds every
// event up to Prev takes the event; one that holds less has missed some and
// asks for them again (Ack).
type Event struct {
	V     int    `json:"v"`
	Board string `json:"board"`
	Seq   uint64 `json:"seq"`
	Prev  uint64 `json:"prev"`
	// At is when the board recorded it (its wall clock), when known: an
	// event sent again from the journal has none.
	At     *time.Time      `json:"at,omitempty"`
	Kind   string          `json:"kind"`
	Header *Header         `json:"header,omitempty"`
	Report json.RawMessage `json:"report,omitempty"` // one report as `boardd replay` prints it
	Tag    *Tag            `json:"tag,omitempty"`
}

// Header opens a game: its number on the board, its law-set and its tags.
type Header struct {
	Game       uint64            `json:"game"`
	Laws       string            `json:"laws"`
	FEN        string            `json:"fen,omitempty"` // the set-up position, if not the initial one
	Odds       string            `json:"odds,omitempty"`
	Tournament bool              `json:"tournament,omitempty"`
	Clocked    bool              `json:"clocked,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
}

// Tag is a PGN tag learnt during the game (the date, once the board's clock
// is synchronised).
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// State is the board as it stands (topic state, retained): what its console
// shows, and its game as PGN. Seq is the journal's sequence number when it
// was taken; GameSeq that of the header of the game in progress, from which
// a hall that starts late asks for the game's events; Events that of the
// last event the board sent before it, so that a hall holding less knows it
// missed some even when no event follows.
type State struct {
	V       int           `json:"v"`
	Board   string        `json:"board"`
	Seq     uint64        `json:"seq"`
	Game    uint64        `json:"game"`
	GameSeq uint64        `json:"game_seq"`
	Events  uint64        `json:"events"`
	At      time.Time     `json:"at"`
	State   console.State `json:"state"`
	PGN     string        `json:"pgn"`
	// Said holds the lines the board's voice said lately, oldest first
	// (its words for a move, a ruling, the opponent's move to carry out:
	// what the board's console hands its own page as say events), for the
	// hall's page of the board to speak: at most MaxSaid, none said more
	// than SaidFor before At. A hall speaks each line once, the lines whose
	// N is past the last it took in the same run (SaidSince). A board that
	// sends none (an older one) is silent on the hall's page; an older hall
	// ignores them.
	Said []Said `json:"said,omitempty"`
	// SaidSince names the run Said's numbers count in: when the board
	// began numbering its lines (its uplink's start). A board restarted
	// numbers from 1 again, in a run of its own.
	SaidSince time.Time `json:"said_since,omitzero"`
}

// Said is a line the board's voice said (State.Said): N numbers it from 1
// in its run, Text is its words and Lang their language ("en", "de"), as
// the console's say event gives them.
type Said struct {
	N    uint64 `json:"n"`
	Text string `json:"text"`
	Lang string `json:"lang"`
}

// MaxSaid is the most lines a state carries (State.Said): a burst of more
// between two state messages loses its oldest, as the board's own speaker
// queue does.
const MaxSaid = 16

// SaidFor is how long after it was said a line goes in the board's state
// messages (State.Said): a line said while the broker was out of reach, and
// older than this when it is back, is never spoken late on the hall's page.
const SaidFor = 10 * time.Second

// Health says whether the board is up and how it fares (topic health,
// retained). The broker publishes the board's will, Online false, when the
// board's connection ends without a goodbye.
type Health struct {
	V       int       `json:"v"`
	Board   string    `json:"board"`
	Online  bool      `json:"online"`
	At      time.Time `json:"at,omitzero"`
	Seq     uint64    `json:"seq,omitempty"`     // the journal's last sequence number
	Acked   uint64    `json:"acked,omitempty"`   // the hall's last acknowledgement
	Backlog uint64    `json:"backlog,omitempty"` // records written since then
	Game    uint64    `json:"game,omitempty"`
	Uptime  float64   `json:"uptime_s,omitempty"`
	Sensor  string    `json:"sensor,omitempty"`
	LED     string    `json:"led,omitempty"`
	// Faults name what is wrong: "sensor" while the board shows a sensor
	// fault, "journal" while the game is not being saved, "voice" while
	// the board's speech program fails, "hall-key" when the board has not
	// the hall's verify key and so refuses every action.
	Faults []string `json:"faults,omitempty"`
}

// Ack is the hall's acknowledgement (topic ack): the hall holds every event
// of the board up to Seq. The board records it and sends from Seq+1 on
// whenever it connects. Plain acknowledgements are retained, so a board that
// connects learns the last one at once.
//
// With Resend, the hall asks the board to send from Seq+1 now, wherever it
// has got to: a hall that has missed events asks for them again, and one
// that starts late asks for the game in progress only (Seq is then the one
// before its header). Resend requests are not retained.
type Ack struct {
	V      int    `json:"v"`
	Seq    uint64 `json:"seq"`
	Resend bool   `json:"resend,omitempty"`
}

// The arbiter's actions: those of the console (console.Action*).
const (
	ActionChoose  = console.ActionChoose
	ActionNewGame = console.ActionNewGame
	ActionAnnul   = console.ActionAnnul
	ActionLaws    = console.ActionLaws
	ActionResult  = console.ActionResult
)

// Action is an arbiter action for one board (topic action). The hall signs
// it for the board it is for (Board, Sig; package hall/actionsig); a board
// carries out only what bears the hall's signature for itself. ID names it
// in the reply and lets the board carry out each action once, even when the
// broker delivers it twice.
type Action struct {
	V      int    `json:"v"`
	ID     string `json:"id"`
	Board  string `json:"board,omitempty"` // the board it is for (signed)
	Action string `json:"action"`
	Option string `json:"option,omitempty"` // choose: the option id
	Value  string `json:"value,omitempty"`  // new-game: a FEN; laws: the id; result: 1-0, 0-1 or 1/2-1/2
	// Seq is the hall's action number (signed): it grows with every action
	// the hall signs, across the hall's restarts, so that a board refuses
	// an action it has seen, or an older one, replayed (after the board's
	// own restart included).
	Seq uint64 `json:"seq,omitempty"`
	Sig []byte `json:"sig,omitempty"` // the hall's Ed25519 signature (base64 in JSON)
}

// Reply answers an action (topic reply). Refused says the board would not
// take it as things stand (no choice pending, a choice not offered): the
// console answers 409 for it. Error says why, when not OK.
type Reply struct {
	V       int    `json:"v"`
	Board   string `json:"board"`
	ID      string `json:"id"`
	OK      bool   `json:"ok"`
	Refused bool   `json:"refused,omitempty"`
	Error   string `json:"error,omitempty"`
}

var (
	optionPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
	idPattern     = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// Line checks the action and returns the input the board applies for it:
// a choice by the arbiter, or an arbiter line. The checks are the console's
// (docs/api.md), so an action the console would refuse is refused here too.
func (a *Action) Line() (trace.Line, error) {
	if !idPattern.MatchString(a.ID) {
		return trace.Line{}, fmt.Errorf("action id %q: want 1 to 64 letters, digits, '_' or '-'", a.ID)
	}
	switch a.Action {
	case ActionChoose:
		if !optionPattern.MatchString(a.Option) {
			return trace.Line{}, fmt.Errorf("choose: option %q: want an option id such as stand or move-touched", a.Option)
		}
		if a.Value != "" {
			return trace.Line{}, errors.New("choose: takes no value")
		}
		return trace.Line{Kind: trace.Choose, Option: a.Option, Side: trace.SideArbiter}, nil
	case ActionNewGame, ActionAnnul, ActionLaws, ActionResult:
	default:
		return trace.Line{}, fmt.Errorf("action %q: want %s, %s, %s, %s or %s", a.Action, ActionChoose, ActionNewGame, ActionAnnul, ActionLaws, ActionResult)
	}
	if a.Option != "" {
		return trace.Line{}, fmt.Errorf("%s: takes no option", a.Action)
	}
	switch a.Action {
	case ActionNewGame:
		if a.Value != "" {
			if _, err := board.ParseSetup(a.Value); err != nil {
				return trace.Line{}, fmt.Errorf("new-game: value %q: want a legal set-up as FEN, or none: %v", a.Value, err)
			}
		}
	case ActionAnnul:
		if a.Value != "" {
			return trace.Line{}, errors.New("annul: takes no value")
		}
	case ActionLaws:
		if _, err := lawset.Lookup(a.Value); err != nil {
			return trace.Line{}, fmt.Errorf("laws: %v", err)
		}
	case ActionResult:
		if a.Value != "1-0" && a.Value != "0-1" && a.Value != "1/2-1/2" {
			return trace.Line{}, fmt.Errorf("result: value %q: want 1-0, 0-1 or 1/2-1/2", a.Value)
		}
	}
	return trace.Line{Kind: trace.Arbiter, Action: a.Action, Value: a.Value, Side: trace.SideArbiter}, nil
}

// ActionFor returns the action that carries input l (a choice by the
// arbiter, or an arbiter line) to a board, the inverse of Action.Line. The
// hall signs it for the board before sending it.
func ActionFor(id string, l trace.Line) (Action, error) {
	a := Action{V: Version, ID: id}
	switch l.Kind {
	case trace.Choose:
		if l.Side != trace.SideArbiter {
			return a, fmt.Errorf("wire: a hall chooses as the arbiter only, not as %q", l.Side)
		}
		a.Action, a.Option = ActionChoose, l.Option
	case trace.Arbiter:
		a.Action, a.Value = l.Action, l.Value
	default:
		return a, fmt.Errorf("wire: a hall sends arbiter actions only, not a %s", l.Kind)
	}
	if _, err := a.Line(); err != nil {
		return a, fmt.Errorf("wire: %w", err)
	}
	return a, nil
}

// Encode returns v as one JSON object. v is one of the payload types, whose V
// is set to Version.
func Encode(v any) ([]byte, error) {
	switch p := v.(type) {
	case *Event:
		p.V = Version
	case *State:
		p.V = Version
	case *Health:
		p.V = Version
	case *Ack:
		p.V = Version
	case *Action:
		p.V = Version
	case *Reply:
		p.V = Version
	default:
		return nil, fmt.Errorf("wire: cannot encode a %T", v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	return data, nil
}

// Decode reads payload into v (a pointer to one of the payload types), and
// checks it is one JSON object of protocol Version. what names the payload
// in errors (its topic, say).
func Decode(payload []byte, v any, what string) error {
	if err := json.Unmarshal(payload, v); err != nil {
		// A payload of another version may not fit this one's types:
		// say so rather than how it does not fit.
		var probe struct {
			V *int `json:"v"`
		}
		if json.Unmarshal(payload, &probe) == nil && probe.V != nil && *probe.V != Version {
			return versionError(what, *probe.V)
		}
		return fmt.Errorf("wire: %s: %s", what, strings.TrimPrefix(err.Error(), "json: "))
	}
	var ver int
	switch p := v.(type) {
	case *Event:
		ver = p.V
	case *State:
		ver = p.V
	case *Health:
		ver = p.V
	case *Ack:
		ver = p.V
	case *Action:
		ver = p.V
	case *Reply:
		ver = p.V
	default:
		return fmt.Errorf("wire: cannot decode into a %T", v)
	}
	switch ver {
	case Version:
		return nil
	case 0:
		return fmt.Errorf(`wire: %s: no "v" (the protocol version)`, what)
	}
	return versionError(what, ver)
}

func versionError(what string, v int) error {
	return fmt.Errorf("wire: %s: protocol version %d: this boardd speaks version %d", what, v, Version)
}

// DecodeEvent reads and checks an event from board: its kind, its sequence
// numbers and the part its kind needs.
func DecodeEvent(payload []byte, board string) (Event, error) {
	var e Event
	what := "event from " + board
	if err := Decode(payload, &e, what); err != nil {
		return e, err
	}
	if e.Board != board {
		return e, fmt.Errorf("wire: %s names board %q", what, e.Board)
	}
	if e.Seq == 0 {
		return e, fmt.Errorf("wire: %s: no seq", what)
	}
	if e.Prev >= e.Seq {
		return e, fmt.Errorf("wire: %s: prev %d does not come before seq %d", what, e.Prev, e.Seq)
	}
	switch e.Kind {
	case EventHeader:
		if e.Header == nil || e.Header.Laws == "" {
			return e, fmt.Errorf("wire: %s seq %d: a header without its law-set", what, e.Seq)
		}
	case EventReport:
		if _, err := DecodeReport(e.Report); err != nil {
			return e, fmt.Errorf("wire: %s seq %d: %w", what, e.Seq, err)
		}
	case EventTag:
		if e.Tag == nil || e.Tag.Name == "" {
			return e, fmt.Errorf("wire: %s seq %d: a tag without its name", what, e.Seq)
		}
	default:
		return e, fmt.Errorf("wire: %s seq %d: unknown kind %q: want header, report or tag", what, e.Seq, e.Kind)
	}
	return e, nil
}

// DecodeReport reads one report as `boardd replay` prints it.
func DecodeReport(raw json.RawMessage) (report.Report, error) {
	if len(raw) == 0 {
		return report.Report{}, errors.New("no report")
	}
	return report.Parse(raw)
}
