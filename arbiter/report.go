package arbiter

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Option is one choice a ruling offers, with the squares the LEDs light for
// it.
type Option struct {
	ID      string   `json:"id"`
	Squares []string `json:"squares"`
}

// Report is one line of boardd's output: what it decided and when. Type
// says which fields are meaningful; AppendJSON writes exactly those.
type Report struct {
	Type string        // touch, adjust, move, irregularity, ruling, mismatch, synced, result, clock, end
	T    time.Duration // the virtual time of the decision

	Side      string // touch, adjust, move
	Square    string // touch, adjust
	Piece     string // touch
	Announced bool   // adjust

	UCI, SAN, FEN string // move (FEN also end)
	WhiteClock    string // move: White's remaining time when a clock runs
	BlackClock    string // move: Black's remaining time

	Kind     string   // irregularity
	Law      string   // irregularity, ruling, result
	Offender string   // irregularity
	Chooser  string   // irregularity
	Options  []Option // irregularity

	Option string // ruling
	By     string // ruling: white, black, arbiter or lapse

	Missing []string // mismatch
	Extra   []string // mismatch

	Result string // result
	Reason string // result; irregularity and ruling: a few words

	PGN string // end

	Button string // press (only in the journal, not in replay output)

	// Ply is the index of a move report's move in the game record (not
	// written out): a clock comment finds its move by it.
	Ply int
}

// AppendJSON writes the report as one compact JSON object (no newline).
func (r *Report) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = strconv.AppendQuote(dst, r.Type)
	dst = append(dst, `,"t":`...)
	dst = strconv.AppendFloat(dst, float64(r.T)/float64(time.Millisecond), 'f', -1, 64)
	str := func(key, v string) {
		dst = append(dst, ',', '"')
		dst = append(dst, key...)
		dst = append(dst, '"', ':')
		dst = strconv.AppendQuote(dst, v)
	}
	list := func(key string, vs []string) {
		dst = append(dst, ',', '"')
		dst = append(dst, key...)
		dst = append(dst, `":[`...)
		for i, v := range vs {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendQuote(dst, v)
		}
		dst = append(dst, ']')
	}
	switch r.Type {
	case "touch":
		str("side", r.Side)
		str("square", r.Square)
		str("piece", r.Piece)
	case "adjust":
		str("side", r.Side)
		str("square", r.Square)
		dst = append(dst, `,"announced":`...)
		dst = strconv.AppendBool(dst, r.Announced)
	case "move":
		str("side", r.Side)
		str("uci", r.UCI)
		str("san", r.SAN)
		str("fen", r.FEN)
		if r.WhiteClock != "" {
			str("white_clock", r.WhiteClock)
			str("black_clock", r.BlackClock)
		}
	case "irregularity":
		str("kind", r.Kind)
		str("law", r.Law)
		str("offender", r.Offender)
		str("chooser", r.Chooser)
		dst = append(dst, `,"options":[`...)
		for i, o := range r.Options {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"id":`...)
			dst = strconv.AppendQuote(dst, o.ID)
			list("squares", o.Squares)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
		if r.Reason != "" {
			str("reason", r.Reason)
		}
	case "ruling":
		str("option", r.Option)
		str("by", r.By)
		str("law", r.Law)
		if r.Reason != "" {
			str("reason", r.Reason)
		}
	case "mismatch":
		list("missing", r.Missing)
		list("extra", r.Extra)
	case "result":
		str("result", r.Result)
		str("reason", r.Reason)
		str("law", r.Law)
	case "clock":
		str("side", r.Side)
		str("white_clock", r.WhiteClock)
		str("black_clock", r.BlackClock)
		if r.Reason != "" {
			str("reason", r.Reason)
		}
	case "end":
		str("fen", r.FEN)
		str("pgn", r.PGN)
	}
	return append(dst, '}')
}

// reportJSON is a report's JSON shape, as AppendJSON writes it.
type reportJSON struct {
	Type       *string  `json:"type"`
	T          *float64 `json:"t"`
	Side       string   `json:"side"`
	Square     string   `json:"square"`
	Piece      string   `json:"piece"`
	Announced  bool     `json:"announced"`
	UCI        string   `json:"uci"`
	SAN        string   `json:"san"`
	FEN        string   `json:"fen"`
	WhiteClock string   `json:"white_clock"`
	BlackClock string   `json:"black_clock"`
	Kind       string   `json:"kind"`
	Law        string   `json:"law"`
	Offender   string   `json:"offender"`
	Chooser    string   `json:"chooser"`
	Options    []Option `json:"options"`
	Option     string   `json:"option"`
	By         string   `json:"by"`
	Missing    []string `json:"missing"`
	Extra      []string `json:"extra"`
	Result     string   `json:"result"`
	Reason     string   `json:"reason"`
	PGN        string   `json:"pgn"`
	Button     string   `json:"button"`
}

// ParseReport reads a report line as AppendJSON writes it (the journal and
// the hall read reports back this way). Unknown fields are ignored; the type
// and the time are required.
func ParseReport(data []byte) (Report, error) {
	var w reportJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return Report{}, fmt.Errorf("report: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	switch {
	case w.Type == nil || *w.Type == "":
		return Report{}, errors.New(`report: no "type"`)
	case w.T == nil:
		return Report{}, errors.New(`report: no "t"`)
	case *w.T < 0 || *w.T > 1e15 || math.IsNaN(*w.T):
		return Report{}, fmt.Errorf(`report: "t" %v is not a time in milliseconds`, *w.T)
	}
	return Report{
		Type: *w.Type, T: time.Duration(math.Round(*w.T * float64(time.Millisecond))), Side: w.Side, Square: w.Square, Piece: w.Piece,
		Announced: w.Announced, UCI: w.UCI, SAN: w.SAN, FEN: w.FEN, WhiteClock: w.WhiteClock, BlackClock: w.BlackClock,
		Kind: w.Kind, Law: w.Law, Offender: w.Offender, Chooser: w.Chooser, Options: w.Options, Option: w.Option,
		By: w.By, Missing: w.Missing, Extra: w.Extra, Result: w.Result, Reason: w.Reason, PGN: w.PGN, Button: w.Button,
	}, nil
}
