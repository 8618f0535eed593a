package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/jsonstring"
)

// AppendJSON writes the report as one compact JSON object (no newline): the
// type, the time in milliseconds, then the fields its type gives meaning to.
func (r *Report) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonstring.Append(dst, string(r.Type))
	dst = append(dst, `,"t":`...)
	dst = strconv.AppendFloat(dst, float64(r.T)/float64(time.Millisecond), 'f', -1, 64)
	str := func(key, v string) {
		dst = append(dst, ',', '"')
		dst = append(dst, key...)
		dst = append(dst, '"', ':')
		dst = jsonstring.Append(dst, v)
	}
	list := func(key string, vs []string) {
		dst = append(dst, ',', '"')
		dst = append(dst, key...)
		dst = append(dst, `":[`...)
		for i, v := range vs {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstring.Append(dst, v)
		}
		dst = append(dst, ']')
	}
	switch r.Type {
	case Touch:
		str("side", r.Side)
		str("square", r.Square)
		str("piece", r.Piece)
		if r.Law != "" {
			str("law", string(r.Law))
		}
	case Adjust:
		str("side", r.Side)
		str("square", r.Square)
		dst = append(dst, `,"announced":`...)
		dst = strconv.AppendBool(dst, r.Announced)
	case Move:
		str("side", r.Side)
		str("uci", r.UCI)
		str("san", r.SAN)
		str("fen", r.FEN)
		if r.WhiteClock != "" {
			str("white_clock", r.WhiteClock)
			str("black_clock", r.BlackClock)
		}
		if r.Law != "" {
			str("law", string(r.Law))
		}
	case Irregularity:
		str("kind", string(r.Kind))
		str("law", string(r.Law))
		str("offender", r.Offender)
		str("chooser", string(r.Chooser))
		dst = append(dst, `,"options":[`...)
		for i, o := range r.Options {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"id":`...)
			dst = jsonstring.Append(dst, string(o.ID))
			list("squares", o.Squares)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
		if r.Reason != "" {
			str("reason", r.Reason)
		}
	case Ruling:
		str("option", string(r.Option))
		str("by", string(r.By))
		str("law", string(r.Law))
		if r.Reason != "" {
			str("reason", r.Reason)
		}
	case Mismatch:
		list("missing", r.Missing)
		list("extra", r.Extra)
	case Result:
		str("result", string(r.Result))
		str("reason", r.Reason)
		str("law", string(r.Law))
	case Clock:
		str("side", r.Side)
		if r.WhiteClock != "" || r.BlackClock != "" {
			str("white_clock", r.WhiteClock)
			str("black_clock", r.BlackClock)
		}
		if r.Reason != "" {
			str("reason", r.Reason)
		}
		if r.Law != "" {
			str("law", string(r.Law))
		}
	case End:
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
	Kind       Kind     `json:"kind"`
	Law        Law      `json:"law"`
	Offender   string   `json:"offender"`
	Chooser    Party    `json:"chooser"`
	Options    []Option `json:"options"`
	Option     OptionID `json:"option"`
	By         Party    `json:"by"`
	Missing    []string `json:"missing"`
	Extra      []string `json:"extra"`
	Result     Outcome  `json:"result"`
	Reason     string   `json:"reason"`
	PGN        string   `json:"pgn"`
	Button     string   `json:"button"`
}

// Parse reads a report line as AppendJSON writes it (the journal and the
// hall read reports back this way). Unknown fields are ignored; the type and
// the time are required.
func Parse(data []byte) (Report, error) {
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
		Type: Type(*w.Type), T: time.Duration(math.Round(*w.T * float64(time.Millisecond))), Side: w.Side, Square: w.Square, Piece: w.Piece,
		Announced: w.Announced, UCI: w.UCI, SAN: w.SAN, FEN: w.FEN, WhiteClock: w.WhiteClock, BlackClock: w.BlackClock,
		Kind: w.Kind, Law: w.Law, Offender: w.Offender, Chooser: w.Chooser, Options: w.Options, Option: w.Option,
		By: w.By, Missing: w.Missing, Extra: w.Extra, Result: w.Result, Reason: w.Reason, PGN: w.PGN, Button: w.Button,
	}, nil
}
