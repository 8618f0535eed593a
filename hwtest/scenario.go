package hwtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/trace"
)

// A scenario is a trace (format v1) with expectations between its lines,
// in one JSON Lines file; docs/rig.md specifies it. An expectation follows
// the input it answers: it must be met within its deadline after that input
// happened.

// Scenario is a parsed scenario file.
type Scenario struct {
	Name        string // from the header, else the file name
	Path        string // the file, for messages
	Description string
	// Laws is the law-set boardd must be applying ("" for any).
	Laws string
	// Setup is the FEN the game must stand at when the scenario starts
	// (the initial position if empty).
	Setup string
	// Strict fails the scenario for any move, irregularity, ruling or
	// result reported that no expectation asked for (default true).
	Strict bool
	// ChooseByNumber sends choices as option numbers (the colours a player
	// sees), as a board with option buttons does, rather than option ids.
	ChooseByNumber bool
	// Tail is how long the rig keeps listening after the last input and
	// deadline, to catch reports nobody asked for (default 1 s).
	Tail time.Duration
	// Events are the inputs and rig actions, in time order.
	Events []Event
	// Expectations are the checks, in file order.
	Expectations []Expectation
}

// Rig actions: what the rig does to the link itself.
const (
	RigUnplug     = "unplug"      // pull the cable: close the rig's end
	RigReplug     = "replug"      // plug it back in (a new port; boardd reopens it)
	RigGarbage    = "garbage"     // send Bytes bytes of noise
	RigCorrupt    = "corrupt"     // spoil the next frame's CRC
	RigBadVersion = "bad-version" // announce a protocol version boardd does not speak, then the right one
)

// Event is one timed line of a scenario: an input the board makes (a trace
// line) or a rig action.
type Event struct {
	Line  int           // line in the file
	T     time.Duration // from the start of the scenario
	Input trace.Line    // an input (Kind != 0)
	Rig   string        // a rig action (Input.Kind == 0)
	Bytes int           // RigGarbage: how many bytes
}

// String describes the event as a scenario line would.
func (e Event) String() string {
	if e.Rig != "" {
		return "rig " + e.Rig
	}
	s := strings.TrimSpace(string(trace.Append(nil, e.Input)))
	return s
}

// Physical reports whether the event is something hands did on the board
// or its buttons (the start of a latency measurement).
func (e Event) Physical() bool { return e.Input.Kind != 0 && e.Input.Kind != trace.Setup }

// Expectation is one check: a report boardd must make, or LEDs it must
// show, within a deadline after the event it follows.
type Expectation struct {
	Line int
	// Anchor is the index in Events of the event the deadline runs from,
	// or -1 for the start of the scenario.
	Anchor int
	Within time.Duration
	// Report is the report type expected (move, irregularity, ...), or ""
	// for an LED check.
	Report string
	// Fields are the report's fields that must match, decoded from JSON.
	// "options" may list option ids only.
	Fields map[string]any
	// LEDs are the squares whose LEDs must show a given state.
	LEDs []LEDWant
	// RestOff requires every square not in LEDs to be dark.
	RestOff bool
	// Text is the line as written, for reports.
	Text string
}

// LEDWant is the state one square's LED must show.
type LEDWant struct {
	Square board.Square
	Lit    bool     // any role but off
	Role   led.Role // a role (when !Lit)
	Blink  *led.Blink
}

// Matches reports whether frame f shows w on w.Square.
func (w LEDWant) Matches(f *led.Frame) bool {
	r := f.Role[w.Square]
	if w.Lit {
		return r != led.Off
	}
	if r != w.Role {
		return false
	}
	return w.Blink == nil || f.Blink[w.Square] == *w.Blink
}

func (w LEDWant) String() string {
	s := w.Square.String() + ":"
	if w.Lit {
		return s + "lit"
	}
	s += w.Role.String()
	if w.Blink != nil {
		s += "/" + w.Blink.String()
	}
	return s
}

// DefaultWithin is an expectation's deadline when the line gives none.
const DefaultWithin = time.Second

// reportTypes lists the report types a scenario may expect.
const reportTypes = "touch, adjust, move, irregularity, ruling, mismatch, synced, result, clock"

func reportType(s string) bool {
	switch s {
	case "touch", "adjust", "move", "irregularity", "ruling", "mismatch", "synced", "result", "clock":
		return true
	}
	return false
}

// strictTypes are the reports a strict scenario must account for.
func strictType(typ string) bool {
	return typ == "move" || typ == "irregularity" || typ == "ruling" || typ == "result"
}

// ReadScenarioFile reads the scenario in file path.
func ReadScenarioFile(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	defer f.Close()
	sc, err := ReadScenario(f, path)
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// ScenarioError is a fault in a scenario file, naming the line.
type ScenarioError struct {
	Path  string
	Line  int
	Fault string
}

func (e *ScenarioError) Error() string {
	return fmt.Sprintf("scenario %s line %d: %s", e.Path, e.Line, e.Fault)
}

// ReadScenario reads a scenario from r; name is the file's name for
// messages (and the scenario's name if the header gives none).
func ReadScenario(r io.Reader, name string) (*Scenario, error) {
	sc := &Scenario{Name: name, Path: name, Strict: true, Tail: time.Second}
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64*1024), 1<<20)
	lineNo, lines := 0, 0
	var last time.Duration
	fail := func(format string, args ...any) error {
		return &ScenarioError{Path: name, Line: lineNo, Fault: fmt.Sprintf(format, args...)}
	}
	for s.Scan() {
		lineNo++
		text := bytes.TrimSpace(s.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		lines++
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(text, &keys); err != nil {
			return nil, fail("not a JSON object: %v", err)
		}
		switch {
		case keys["scenario"] != nil:
			if lines != 1 {
				return nil, fail("the scenario header must be the first line")
			}
			if err := sc.header(text); err != nil {
				return nil, fail("%v", err)
			}
		case keys["expect"] != nil:
			e, err := parseExpectation(keys)
			if err != nil {
				return nil, fail("%v", err)
			}
			e.Line, e.Anchor, e.Text = lineNo, len(sc.Events)-1, string(text)
			sc.Expectations = append(sc.Expectations, e)
		case keys["rig"] != nil:
			ev, err := parseRig(text)
			if err != nil {
				return nil, fail("%v", err)
			}
			if ev.T < last {
				return nil, fail("t goes back in time")
			}
			last, ev.Line = ev.T, lineNo
			sc.Events = append(sc.Events, ev)
		default:
			l, err := trace.Parse(text)
			if err != nil {
				return nil, fail("%v", err)
			}
			switch l.Kind {
			case trace.Setup:
				if len(sc.Events) > 0 || len(sc.Expectations) > 0 {
					return nil, fail("setup must come before every input")
				}
				sc.Setup = l.FEN
				continue
			case trace.Arbiter:
				return nil, fail("arbiter lines cannot be played over the board's link")
			}
			if l.T < last {
				return nil, fail("t goes back in time")
			}
			last = l.T
			sc.Events = append(sc.Events, Event{Line: lineNo, T: l.T, Input: l})
		}
	}
	if err := s.Err(); err != nil {
		return nil, fail("%v", err)
	}
	if len(sc.Events) == 0 {
		return nil, &ScenarioError{Path: name, Line: lineNo, Fault: "no inputs"}
	}
	return sc, nil
}

func (sc *Scenario) header(text []byte) error {
	var h struct {
		Scenario    string   `json:"scenario"`
		Description string   `json:"description"`
		Laws        string   `json:"laws"`
		Strict      *bool    `json:"strict"`
		ChooseBy    string   `json:"choose_by"`
		Tail        *float64 `json:"tail"`
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("header: %v", err)
	}
	if h.Scenario != "" {
		sc.Name = h.Scenario
	}
	sc.Description, sc.Laws = h.Description, h.Laws
	if h.Strict != nil {
		sc.Strict = *h.Strict
	}
	switch h.ChooseBy {
	case "", "id":
	case "number":
		sc.ChooseByNumber = true
	default:
		return fmt.Errorf(`header: choose_by %q: want "id" or "number"`, h.ChooseBy)
	}
	if h.Tail != nil {
		if *h.Tail < 0 {
			return fmt.Errorf("header: tail %v: want milliseconds", *h.Tail)
		}
		sc.Tail = ms(*h.Tail)
	}
	return nil
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func parseRig(text []byte) (Event, error) {
	var r struct {
		T     *float64 `json:"t"`
		Rig   string   `json:"rig"`
		Bytes int      `json:"bytes"`
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Event{}, fmt.Errorf("rig line: %v", err)
	}
	if r.T == nil || *r.T < 0 {
		return Event{}, fmt.Errorf(`rig line: want "t" in milliseconds`)
	}
	ev := Event{T: ms(*r.T), Rig: r.Rig, Bytes: r.Bytes}
	switch r.Rig {
	case RigUnplug, RigReplug, RigCorrupt, RigBadVersion:
	case RigGarbage:
		if r.Bytes <= 0 || r.Bytes > 4096 {
			return Event{}, fmt.Errorf("rig garbage: bytes %d: want 1 to 4096", r.Bytes)
		}
	default:
		return Event{}, fmt.Errorf("rig %q: want unplug, replug, garbage, corrupt or bad-version", r.Rig)
	}
	return ev, nil
}

func parseExpectation(keys map[string]json.RawMessage) (Expectation, error) {
	var e Expectation
	var kind string
	if err := json.Unmarshal(keys["expect"], &kind); err != nil {
		return e, fmt.Errorf("expect: want a string")
	}
	e.Within = DefaultWithin
	if raw := keys["within"]; raw != nil {
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil || v <= 0 {
			return e, fmt.Errorf("within: want milliseconds")
		}
		e.Within = ms(v)
	}
	if kind == "leds" {
		for k := range keys {
			switch k {
			case "expect", "within", "squares", "rest", "comment":
			default:
				return e, fmt.Errorf("leds: unknown key %q (want squares, rest, within)", k)
			}
		}
		var squares map[string]string
		if err := json.Unmarshal(keys["squares"], &squares); err != nil || len(squares) == 0 {
			return e, fmt.Errorf(`leds: want "squares": {"e2": "must-move", ...}`)
		}
		for name, state := range squares {
			sq, err := board.ParseSquare(name)
			if err != nil {
				return e, fmt.Errorf("leds: square %q: want a1 to h8", name)
			}
			w, err := parseLEDState(state)
			if err != nil {
				return e, fmt.Errorf("leds: %s: %v", name, err)
			}
			w.Square = sq
			e.LEDs = append(e.LEDs, w)
		}
		slices.SortFunc(e.LEDs, func(a, b LEDWant) int { return int(a.Square) - int(b.Square) })
		if raw := keys["rest"]; raw != nil {
			var rest string
			if err := json.Unmarshal(raw, &rest); err != nil || (rest != "off" && rest != "any") {
				return e, fmt.Errorf(`leds: rest: want "off" or "any"`)
			}
			e.RestOff = rest == "off"
		}
		return e, nil
	}
	if !reportType(kind) {
		return e, fmt.Errorf("expect %q: want leds or a report type (%s)", kind, reportTypes)
	}
	e.Report = kind
	e.Fields = map[string]any{}
	for k, raw := range keys {
		switch k {
		case "expect", "within", "comment":
			continue
		case "t", "type":
			return e, fmt.Errorf("expect %s: %q cannot be matched (the deadline is \"within\")", kind, k)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return e, fmt.Errorf("expect %s: %s: %v", kind, k, err)
		}
		e.Fields[k] = v
	}
	return e, nil
}

// parseLEDState reads "role", "role/blink", "lit" or "off".
func parseLEDState(s string) (LEDWant, error) {
	if s == "lit" {
		return LEDWant{Lit: true}, nil
	}
	name, blink, hasBlink := strings.Cut(s, "/")
	var w LEDWant
	found := false
	for r := led.Off; r <= led.Fault; r++ {
		if r.String() == name {
			w.Role, found = r, true
		}
	}
	if !found {
		return w, fmt.Errorf("state %q: want lit, off or a role (must-move, destination, option-1 ... option-6, missing, extra, guide, touched, last-move, winner, loser, draw, fault), optionally /steady, /slow or /fast", s)
	}
	if hasBlink {
		for _, b := range []led.Blink{led.Steady, led.Slow, led.Fast} {
			if b.String() == blink {
				w.Blink = &b
			}
		}
		if w.Blink == nil {
			return w, fmt.Errorf("state %q: blink %q: want steady, slow or fast", s, blink)
		}
	}
	return w, nil
}

// StartPosition returns the position the scenario starts from.
func (sc *Scenario) StartPosition() (board.Position, error) {
	if sc.Setup == "" {
		return board.Start(), nil
	}
	return board.ParseFEN(sc.Setup)
}

// Duration returns the time of the last event.
func (sc *Scenario) Duration() time.Duration {
	if len(sc.Events) == 0 {
		return 0
	}
	return sc.Events[len(sc.Events)-1].T
}
