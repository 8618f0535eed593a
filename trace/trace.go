// Package trace reads and writes trace format v1: the JSON Lines record of
// what a board sensed and what people pressed and chose, one input a line.
//
// The same format is replayed by `boardd replay`, journalled by the daemon
// and played by the test rig; docs/trace-format.md is its specification. This
// package only parses and formats lines; it knows nothing of debouncing,
// gestures or law-sets.
package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/jsonstring"
)

// Kind is the kind of a trace line.
type Kind uint8

// The kinds of trace line.
const (
	Lift     Kind = iota + 1 // a debounced lift of the man on Square
	Place                    // a debounced placement on Square
	Frame                    // a raw scan: Occupancy (and Analog levels, if Bits is set) holds until the next frame
	Press                    // a button: Button by Side
	Choose                   // Side (or the arbiter) picks Option
	Promote                  // Side names the promotion piece Piece
	Setup                    // the game starts from FEN (first line only)
	Arbiter                  // an arbiter action from the console or hall: Action
	Remote                   // Side is played from off the board (or Side "none": neither)
	Opponent                 // the remote side's Move, for the player to carry out
	TakeBack                 // Side takes back Plies moves (a game against an engine)
)

var kindNames = [...]string{Lift: "lift", Place: "place", Frame: "frame", Press: "press", Choose: "choose", Promote: "promote", Setup: "setup", Arbiter: "arbiter", Remote: "remote", Opponent: "opponent", TakeBack: "takeback"}

// String returns the kind's key in the JSON line.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// Buttons a board or the console can press.
const (
	ButtonJadoube = "jadoube"
	ButtonCheck   = "check"
	ButtonClaim   = "claim"
	ButtonClock   = "clock"
)

// Arbiter actions, as the console and the hall send them (an `arbiter`
// line, with a value where the action needs one).
const (
	ActionNewGame = "new-game" // start a new game; value: a FEN, or empty for the game's start
	ActionAnnul   = "annul"    // annul the game and begin it anew from its start
	ActionLaws    = "laws"     // change the law-set; value: the id
	ActionResult  = "result"   // declare the result; value: 1-0, 0-1 or 1/2-1/2
	// ActionWarnOnly switches warn-only (irregularities shown, penalties
	// not exacted); value: on or off.
	ActionWarnOnly = "warn-only"
)

// Sides that may appear in press, choose and promote lines.
const (
	SideWhite   = "white"
	SideBlack   = "black"
	SideArbiter = "arbiter"
	SideNone    = "none" // remote: neither side is played from off the board
	SideBoth    = "both" // remote: both are (a board following a game played elsewhere)
)

// MaxT is the latest time a line may carry: 10^12 ms, about 31 years of
// game time. A time is held in nanoseconds (time.Duration, good for 292
// years), and the game adds its timers (debounce, settle, the clocks) to the
// time of an input: a bound well below the limit keeps every sum from
// overflowing into a negative time.
const MaxT = maxTMillis * time.Millisecond

const maxTMillis = 1e12

// Line is one input of a trace.
type Line struct {
	T         time.Duration   // time since the start of the trace
	Kind      Kind            // what the line is
	Square    board.Square    // Lift, Place
	Occupancy board.Occupancy // Frame
	Button    string          // Press: jadoube, check, claim or clock
	Side      string          // Press, Choose, Promote: white, black (Choose: or arbiter)
	Option    string          // Choose: the option id
	Piece     board.Kind      // Promote
	FEN       string          // Setup
	Action    string          // Arbiter: the action (new-game, annul, laws, ...)
	Value     string          // Arbiter: the action's argument, if any
	Move      board.Move      // Opponent
	Plies     int             // TakeBack
	Seq       uint64          // the journal's sequence number, 0 when absent
	// Bits is the resolution of the ADC that read Analog, on a frame line
	// that carries analogue levels (1 to MaxBits); 0 on any other line.
	Bits uint8
	// Analog holds the 64 sensor levels of an analogue frame, in ADC counts
	// (0 to 2^Bits-1), channel i at index i: the order the scanner reads
	// them, which a calibration maps to squares. Occupancy then holds the
	// occupancy as read when the frame was recorded.
	Analog [64]uint16
	// Calibration names the calibration file that the trace's analogue
	// levels are read through (first line only), relative to the trace's
	// directory; empty when the trace names none.
	Calibration string
}

// Channels is the number of levels an analogue frame line carries.
const Channels = 64

// MaxBits is the finest ADC resolution an analogue frame may state: levels
// are held in 16 bits.
const MaxBits = 16

// wire is the JSON shape of a line; pointers tell absent keys from empty ones.
type wire struct {
	T       *float64 `json:"t"`
	Seq     uint64   `json:"seq,omitempty"`
	Lift    *string  `json:"lift,omitempty"`
	Place   *string  `json:"place,omitempty"`
	Frame   *string  `json:"frame,omitempty"`
	Press   *string  `json:"press,omitempty"`
	Choose  *string  `json:"choose,omitempty"`
	Promote *string  `json:"promote,omitempty"`
	Setup   *string  `json:"setup,omitempty"`
	Arbiter *string  `json:"arbiter,omitempty"`
	Remote  *string  `json:"remote,omitempty"`
	Opp     *string  `json:"opponent,omitempty"`
	Back    *int     `json:"takeback,omitempty"`
	Side    *string  `json:"side,omitempty"`
	Value   *string  `json:"value,omitempty"`
	// An analogue frame's resolution and levels, read by hand so that a
	// fault names the level at fault.
	Bits   json.RawMessage `json:"bits,omitempty"`
	Analog json.RawMessage `json:"analog,omitempty"`
	Cal    *string         `json:"calibration,omitempty"`
}

// Error is a fault in a trace, naming the line it is on.
type Error struct {
	Line  int    // 1-based line number
	Fault string // what is wrong
}

func (e *Error) Error() string { return fmt.Sprintf("trace line %d: %s", e.Line, e.Fault) }

// Reader reads trace lines one at a time, checking each as it goes.
type Reader struct {
	scanner *bufio.Scanner
	lineNo  int
	inputs  int
	last    time.Duration
	bits    uint8 // the resolution of the first analogue frame
	bitsAt  int   // its line
}

// NewReader returns a Reader of r. Lines may be up to 1 MiB long.
func NewReader(r io.Reader) *Reader {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64*1024), 1<<20)
	return &Reader{scanner: s}
}

// LineNumber returns the number of the line last read.
func (r *Reader) LineNumber() int { return r.lineNo }

// Next returns the next input line, io.EOF at the end, or an *Error naming the
// line at fault. Blank lines and lines starting with '#' are skipped.
func (r *Reader) Next() (Line, error) {
	for r.scanner.Scan() {
		r.lineNo++
		text := bytes.TrimSpace(r.scanner.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		l, err := Parse(text)
		if err != nil {
			return Line{}, &Error{Line: r.lineNo, Fault: err.Error()}
		}
		if l.Kind == Setup && r.inputs > 0 {
			return Line{}, &Error{Line: r.lineNo, Fault: "setup must be the first line"}
		}
		if l.Calibration != "" && r.inputs > 0 {
			return Line{}, &Error{Line: r.lineNo, Fault: "calibration must be named on the first line"}
		}
		if l.Bits != 0 {
			if r.bits != 0 && l.Bits != r.bits {
				return Line{}, &Error{Line: r.lineNo, Fault: fmt.Sprintf("bits %d, where line %d said %d: the levels of a trace come from one ADC", l.Bits, r.bitsAt, r.bits)}
			}
			if r.bits == 0 {
				r.bits, r.bitsAt = l.Bits, r.lineNo
			}
		}
		if l.T < r.last {
			return Line{}, &Error{Line: r.lineNo, Fault: fmt.Sprintf("t %s goes back in time (the line before had %s)", ms(l.T), ms(r.last))}
		}
		r.last = l.T
		r.inputs++
		return l, nil
	}
	if err := r.scanner.Err(); err != nil {
		return Line{}, &Error{Line: r.lineNo + 1, Fault: err.Error()}
	}
	return Line{}, io.EOF
}

// ReadAll reads every line of r.
func ReadAll(r io.Reader) ([]Line, error) {
	tr := NewReader(r)
	var out []Line
	for {
		l, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, l)
	}
}

// DecodeFault words a JSON decoding error of a line for the person who wrote it:
// a field of the wrong type is named with the type it wants, never with the
// decoder's Go names.
func DecodeFault(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return fmt.Errorf("not a JSON object: the line is a JSON %s", typeErr.Value)
		}
		return fmt.Errorf("%q is a JSON %s, want %s", typeErr.Field, typeErr.Value, jsonKind(typeErr.Type.Kind()))
	}
	return fmt.Errorf("not a JSON object: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// jsonKind names the JSON value a Go kind is decoded from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	if k >= reflect.Int && k <= reflect.Uint64 {
		return "a whole number"
	}
	return "another kind of value"
}

func ms(t time.Duration) string {
	return strconv.FormatFloat(float64(t)/float64(time.Millisecond), 'f', -1, 64)
}

// Parse reads one JSON line (without checking its place in a trace).
func Parse(text []byte) (Line, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&w); err != nil {
		return Line{}, DecodeFault(err)
	}
	if dec.More() {
		return Line{}, fmt.Errorf("more than one JSON value on the line")
	}
	if w.T == nil {
		return Line{}, fmt.Errorf(`missing "t" (milliseconds from the start)`)
	}
	if *w.T < 0 || math.IsNaN(*w.T) || *w.T > maxTMillis {
		return Line{}, fmt.Errorf(`"t" %v is not a time in milliseconds from the start (0 to %.0f, about 31 years)`, *w.T, maxTMillis)
	}
	l := Line{T: time.Duration(math.Round(*w.T * float64(time.Millisecond))), Seq: w.Seq}
	kinds := 0
	set := func(k Kind, v *string) {
		if v != nil {
			kinds++
			l.Kind = k
		}
	}
	set(Lift, w.Lift)
	set(Place, w.Place)
	set(Frame, w.Frame)
	set(Press, w.Press)
	set(Choose, w.Choose)
	set(Promote, w.Promote)
	set(Setup, w.Setup)
	set(Arbiter, w.Arbiter)
	set(Remote, w.Remote)
	set(Opponent, w.Opp)
	if w.Back != nil {
		kinds++
		l.Kind = TakeBack
	}
	switch kinds {
	case 0:
		return Line{}, fmt.Errorf("no input on the line: want one of lift, place, frame, press, choose, promote, setup, arbiter, remote, opponent, takeback")
	case 1:
	default:
		return Line{}, fmt.Errorf("more than one input on the line")
	}
	if w.Cal != nil {
		if *w.Cal == "" {
			return Line{}, fmt.Errorf("calibration: empty file name")
		}
		l.Calibration = *w.Cal
	}
	if err := parseAnalog(&l, w.Bits, w.Analog); err != nil {
		return Line{}, err
	}
	side := ""
	if w.Side != nil {
		side = *w.Side
	}
	var err error
	switch l.Kind {
	case Lift, Place:
		src := w.Lift
		if l.Kind == Place {
			src = w.Place
		}
		v := *src
		if l.Square, err = board.ParseSquare(v); err != nil {
			return Line{}, fmt.Errorf("%s: square %q: want a1 to h8", l.Kind, v)
		}
	case Frame:
		v := *w.Frame
		if len(v) != 16 {
			return Line{}, fmt.Errorf("frame %q: want 16 hex digits", v)
		}
		u, perr := strconv.ParseUint(v, 16, 64)
		if perr != nil {
			return Line{}, fmt.Errorf("frame %q: want 16 hex digits", v)
		}
		l.Occupancy = board.Occupancy(u)
	case Press:
		l.Button = *w.Press
		switch l.Button {
		case ButtonJadoube, ButtonCheck, ButtonClaim, ButtonClock:
		default:
			return Line{}, fmt.Errorf("press %q: want jadoube, check, claim or clock", l.Button)
		}
		if side != SideWhite && side != SideBlack {
			return Line{}, fmt.Errorf("press %s: side %q: want white or black", l.Button, side)
		}
		l.Side = side
	case Choose:
		l.Option = *w.Choose
		if l.Option == "" {
			return Line{}, fmt.Errorf("choose: empty option id")
		}
		if side != SideWhite && side != SideBlack && side != SideArbiter {
			return Line{}, fmt.Errorf("choose %s: side %q: want white, black or arbiter", l.Option, side)
		}
		l.Side = side
	case Promote:
		if l.Piece, err = board.ParsePromotion(*w.Promote); err != nil {
			return Line{}, fmt.Errorf("promote %q: want q, r, b or n", *w.Promote)
		}
		if side != SideWhite && side != SideBlack {
			return Line{}, fmt.Errorf("promote: side %q: want white or black", side)
		}
		l.Side = side
	case Setup:
		if _, err := board.ParseSetup(*w.Setup); err != nil {
			return Line{}, fmt.Errorf("setup: %v", strings.TrimPrefix(err.Error(), "board: "))
		}
		l.FEN = *w.Setup
	case Arbiter:
		l.Action = *w.Arbiter
		if l.Action == "" {
			return Line{}, fmt.Errorf("arbiter: empty action")
		}
		l.Side = SideArbiter
		if w.Value != nil {
			l.Value = *w.Value
		}
	case Remote:
		switch *w.Remote {
		case SideWhite, SideBlack, SideNone, SideBoth:
		default:
			return Line{}, fmt.Errorf("remote %q: want white, black, both or none", *w.Remote)
		}
		l.Side = *w.Remote
	case Opponent:
		if l.Move, err = board.ParseUCI(*w.Opp); err != nil {
			return Line{}, fmt.Errorf("opponent %q: want a move in UCI, e.g. e7e5", *w.Opp)
		}
	case TakeBack:
		if *w.Back < 1 || *w.Back > 1000 {
			return Line{}, fmt.Errorf("takeback %d: want a number of moves from 1", *w.Back)
		}
		if side != SideWhite && side != SideBlack {
			return Line{}, fmt.Errorf("takeback: side %q: want white or black", side)
		}
		l.Plies, l.Side = *w.Back, side
	}
	return l, nil
}

// Append writes l as one compact JSON line (with its newline) onto dst.
func Append(dst []byte, l Line) []byte {
	dst = append(dst, `{"t":`...)
	dst = strconv.AppendFloat(dst, float64(l.T)/float64(time.Millisecond), 'f', -1, 64)
	if l.Seq != 0 {
		dst = append(dst, `,"seq":`...)
		dst = strconv.AppendUint(dst, l.Seq, 10)
	}
	str := func(key, v string) {
		dst = append(dst, ',', '"')
		dst = append(dst, key...)
		dst = append(dst, '"', ':')
		dst = jsonstring.Append(dst, v)
	}
	if l.Calibration != "" {
		str("calibration", l.Calibration)
	}
	switch l.Kind {
	case Lift:
		str("lift", l.Square.String())
	case Place:
		str("place", l.Square.String())
	case Frame:
		str("frame", l.Occupancy.Hex())
		if l.Bits != 0 {
			dst = append(dst, `,"bits":`...)
			dst = strconv.AppendUint(dst, uint64(l.Bits), 10)
			dst = append(dst, `,"analog":[`...)
			for i, v := range l.Analog {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = strconv.AppendUint(dst, uint64(v), 10)
			}
			dst = append(dst, ']')
		}
	case Press:
		str("press", l.Button)
		str("side", l.Side)
	case Choose:
		str("choose", l.Option)
		str("side", l.Side)
	case Promote:
		str("promote", string(l.Piece.Letter()))
		str("side", l.Side)
	case Setup:
		str("setup", l.FEN)
	case Arbiter:
		str("arbiter", l.Action)
		if l.Value != "" {
			str("value", l.Value)
		}
	case Remote:
		str("remote", l.Side)
	case Opponent:
		str("opponent", l.Move.UCI())
	case TakeBack:
		dst = append(dst, `,"takeback":`...)
		dst = strconv.AppendInt(dst, int64(l.Plies), 10)
		str("side", l.Side)
	}
	return append(dst, '}', '\n')
}

// parseAnalog reads an analogue frame's resolution and levels into l. Both
// or neither must be present (a JSON null counts as absent, as for every
// key), and only on a frame line.
func parseAnalog(l *Line, bitsRaw, levelsRaw json.RawMessage) error {
	present := func(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
	hasBits, hasLevels := present(bitsRaw), present(levelsRaw)
	switch {
	case !hasBits && !hasLevels:
		return nil
	case l.Kind != Frame:
		return fmt.Errorf("%s line with analogue levels: \"bits\" and \"analog\" belong on a frame line", l.Kind)
	case !hasBits:
		return fmt.Errorf(`analog: missing "bits", the ADC's resolution (10 for an MCP3008, 12 for an MCP3208)`)
	case !hasLevels:
		return fmt.Errorf(`bits without "analog": the levels are missing`)
	}
	bits, ok := wholeNumber(bitsRaw)
	if !ok || bits < 1 || bits > MaxBits {
		return fmt.Errorf("bits %s: want the ADC's resolution, a whole number from 1 to %d", bitsRaw, MaxBits)
	}
	l.Bits = uint8(bits)
	return parseLevels(&l.Analog, levelsRaw, int(bits))
}

// parseLevels reads a JSON array of exactly Channels whole numbers, each
// within what an ADC of bits bits reads. raw is valid JSON (the decoder
// checked it), so a level that is not a number is told by its first byte.
func parseLevels(dst *[64]uint16, raw []byte, bits int) error {
	top := uint64(1)<<uint(bits) - 1
	i := skipSpace(raw, 0)
	if i == len(raw) || raw[i] != '[' {
		return fmt.Errorf("analog: want an array of %d levels, one a sensor channel", Channels)
	}
	i = skipSpace(raw, i+1)
	n := 0
	if i < len(raw) && raw[i] == ']' {
		return fmt.Errorf("analog: 0 levels, want %d (one a sensor channel)", Channels)
	}
	for i < len(raw) {
		end := i
		for end < len(raw) && raw[end] != ',' && raw[end] != ']' && !isSpace(raw[end]) {
			end++
		}
		tok := raw[i:end]
		if len(tok) == 0 || (tok[0] != '-' && (tok[0] < '0' || tok[0] > '9')) {
			return fmt.Errorf("analog level %d: want a whole number of ADC counts, not %s", n, describeJSON(raw[i:]))
		}
		v, digits := wholeNumber(tok)
		switch {
		case tok[0] == '-':
			return fmt.Errorf("analog level %d: %s is negative: want 0 to %d (a %d-bit ADC)", n, tok, top, bits)
		case !digits:
			return fmt.Errorf("analog level %d: %s is not a whole number of ADC counts", n, tok)
		case v > top:
			return fmt.Errorf("analog level %d: %s is more than a %d-bit ADC reads (0 to %d)", n, tok, bits, top)
		}
		if n < Channels {
			dst[n] = uint16(v)
		}
		n++
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == ']' {
			break
		}
		i = skipSpace(raw, i+1) // past the comma
	}
	if n != Channels {
		return fmt.Errorf("analog: %d levels, want %d (one a sensor channel)", n, Channels)
	}
	return nil
}

// wholeNumber reads a JSON number written with digits only (no sign,
// fraction or exponent); a number too long for 64 bits reads as the largest.
func wholeNumber(tok []byte) (uint64, bool) {
	if len(tok) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > math.MaxUint64/100 {
			v = math.MaxUint64
			continue
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// describeJSON names the kind of the JSON value at the start of b.
func describeJSON(b []byte) string {
	switch b[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "that"
}
