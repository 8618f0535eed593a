// Package clock keeps the players' time: time controls (sudden death, Fischer
// increment, simple and Bronstein delay, stages by move count), the two
// running clocks on injected time, the rulings a law-set gives when a flag
// falls, the time penalties of fide2023, and the formatting of remaining
// times for output lines, the PGN TimeControl tag and [%clk] comments.
//
// A Clock never reads the wall clock: every call carries the time since the
// game's epoch, and Deadline says when the running side's flag will fall
// so that the driver can wake it in virtual or real time. It knows sides and
// move counts, not positions or laws; the rulings take what the board knows
// (whether the opponent can mate) from the caller. docs/clocks.md describes
// the syntax, the presets and how boardd wires the clock to the arbiter.
package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Mode is what a stage gives the player for each move.
type Mode uint8

// The timing methods.
const (
	// Sudden: nothing per move; the stage's time is all there is.
	Sudden Mode = iota
	// Increment (Fischer): Bonus is added to the player's time before each
	// of his moves, as the FIDE glossary defines an increment.
	Increment
	// Delay (simple, US): the clock waits Bonus at the start of each move
	// before it starts counting down; unused delay is lost.
	Delay
	// Bronstein: the clock counts down at once and, when the move is made,
	// gives back the time used on it, up to Bonus.
	Bronstein
)

var modeNames = [...]string{Sudden: "sudden death", Increment: "increment", Delay: "simple delay", Bronstein: "Bronstein delay"}

// String names the mode.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", m)
}

// Stage is one period of a time control.
type Stage struct {
	// Moves is how many moves each player must make in the stage; 0 means
	// the rest of the game. When the last stage has Moves, it repeats.
	Moves int
	// Time is added to the player's clock when the stage begins; unused
	// time carries over to the next stage.
	Time time.Duration
	// Mode and Bonus say what each move of the stage gives: the increment
	// or the delay.
	Mode  Mode
	Bonus time.Duration
}

// Control is a time control: its stages in order. The zero Control is not
// valid; build one with Parse or Preset, or check it with Validate.
type Control struct {
	// Name is the preset the control came from, "" when it was parsed from
	// stages.
	Name   string
	Stages []Stage
}

// Limits on what Parse and Validate accept.
const (
	MaxStages = 16
	MaxMoves  = 500
	MaxTime   = 100 * time.Hour
	MaxBonus  = time.Hour
)

// The presets, by name.
var presetNames = []string{"hastings1895", "fide-classical", "fide-rapid", "fide-blitz"}

// PresetNames lists the named presets Parse and Preset know.
func PresetNames() []string { return append([]string(nil), presetNames...) }

// Preset returns a named time control:
//
//	hastings1895    30 moves in 2 hours, then 15 moves an hour (30/7200:15/3600)
//	fide-classical  90 min for 40 moves, then 30 min, 30 s from move 1 (40/5400+30:1800+30)
//	fide-rapid      15 min, 10 s from move 1 (900+10)
//	fide-blitz      3 min, 2 s from move 1 (180+2)
func Preset(name string) (Control, bool) {
	var s []Stage
	switch name {
	case "hastings1895": // a time-control preset, named for the tournament (not a law-set)
		s = []Stage{{Moves: 30, Time: 2 * time.Hour}, {Moves: 15, Time: time.Hour}}
	case "fide-classical":
		s = []Stage{
			{Moves: 40, Time: 90 * time.Minute, Mode: Increment, Bonus: 30 * time.Second},
			{Time: 30 * time.Minute, Mode: Increment, Bonus: 30 * time.Second},
		}
	case "fide-rapid":
		s = []Stage{{Time: 15 * time.Minute, Mode: Increment, Bonus: 10 * time.Second}}
	case "fide-blitz":
		s = []Stage{{Time: 3 * time.Minute, Mode: Increment, Bonus: 2 * time.Second}}
	default:
		return Control{}, false
	}
	return Control{Name: name, Stages: s}, true
}

// ParseError is a time control that cannot be read: what was given, where
// and what is wrong.
type ParseError struct {
	Input string
	Stage int // 1-based stage at fault; 0 for the whole text
	Fault string
}

func (e *ParseError) Error() string {
	if e.Stage > 0 {
		return fmt.Sprintf("time control %q: stage %d: %s", e.Input, e.Stage, e.Fault)
	}
	return fmt.Sprintf("time control %q: %s", e.Input, e.Fault)
}

// Syntax is a one-line summary of what Parse accepts, for flag help and
// error messages.
const Syntax = "a preset (hastings1895, fide-classical, fide-rapid, fide-blitz) or stages in seconds separated by ':', each [moves/]seconds[+increment|d<delay>|b<delay>], as in 40/5400+30:1800+30, 300+2, 5400, 300d5"

// Parse reads a time control: a preset name, or the PGN TimeControl syntax
// extended for delays. Stages are separated by ':'; each is
//
//	[moves/]seconds[+increment | d<delay> | b<delay>]
//
// with whole seconds: "40/5400+30:1800+30" is 90 minutes for 40 moves then
// 30 minutes for the rest, 30 s increment throughout; "300d5" is five
// minutes with a 5 s simple delay; "300b5" the same with a Bronstein delay.
// Every stage but the last needs a move count; a last stage with a move
// count repeats ("30/7200:15/3600" is Hastings 1895's thirty moves in two
// hours, then fifteen moves every hour). Surrounding spaces are ignored. The
// error says what is wrong and what was expected.
func Parse(text string) (Control, error) {
	in := strings.TrimSpace(text)
	fail := func(stage int, format string, args ...any) (Control, error) {
		return Control{}, &ParseError{Input: text, Stage: stage, Fault: fmt.Sprintf(format, args...)}
	}
	switch {
	case in == "":
		return fail(0, "empty: want %s", Syntax)
	case in == "-":
		return fail(0, `"-" is PGN for an untimed game: leave the time control out instead`)
	case in == "?":
		return fail(0, `"?" is PGN for an unknown time control: give the control that was played`)
	case in[0] == '*':
		return fail(0, "sandclock controls (*seconds) are not supported: want %s", Syntax)
	}
	if c, ok := Preset(in); ok {
		return c, nil
	}
	if len(in) > 1 && (in[0] == 'd' || in[0] == 'b') && in[1] >= '0' && in[1] <= '9' {
		return fail(1, "a delay needs the stage's seconds before it: want seconds%c<delay>, as in 300%s", in[0], in)
	}
	if isWord(in) {
		return fail(0, "unknown preset %q: want one of %s, or stages such as 40/5400+30:1800+30", in, strings.Join(presetNames, ", "))
	}
	parts := strings.Split(in, ":")
	if len(parts) > MaxStages {
		return fail(0, "%d stages: at most %d are supported", len(parts), MaxStages)
	}
	c := Control{Stages: make([]Stage, 0, len(parts))}
	for i, p := range parts {
		s, fault := parseStage(p)
		if fault != "" {
			return fail(i+1, "%s", fault)
		}
		c.Stages = append(c.Stages, s)
	}
	if err := c.validate(); err != nil {
		err.Input = text
		return Control{}, err
	}
	return c, nil
}

func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch == '-' || ch == '_' || ch >= '0' && ch <= '9') {
			return false
		}
	}
	return s[0] < '0' || s[0] > '9'
}

// parseStage reads one stage; the fault is "" when it is well formed.
func parseStage(p string) (Stage, string) {
	var s Stage
	if p == "" {
		return s, "empty: want [moves/]seconds[+increment|d<delay>|b<delay>]"
	}
	rest := p
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		n, fault := number(rest[:i], "a move count before '/'")
		if fault != "" {
			return s, fault
		}
		if n < 1 {
			return s, "the move count must be at least 1"
		}
		if n > MaxMoves {
			return s, fmt.Sprintf("move count %d: at most %d", n, MaxMoves)
		}
		s.Moves = int(n)
		rest = rest[i+1:]
		if rest == "" {
			return s, "want seconds after '/', as in 40/5400"
		}
	}
	// The seconds run to the first bonus sign.
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		if ch := rest[i]; ch < '0' || ch > '9' {
			end = i
			break
		}
	}
	if end == 0 {
		return s, fmt.Sprintf("%q: want seconds, as in 5400 or 40/5400+30", rest)
	}
	secs, fault := number(rest[:end], "seconds")
	if fault != "" {
		return s, fault
	}
	s.Time = time.Duration(secs) * time.Second
	if s.Time > MaxTime {
		return s, fmt.Sprintf("%d seconds: at most %d (%v)", secs, int64(MaxTime/time.Second), MaxTime)
	}
	if end == len(rest) {
		return s, ""
	}
	sign := rest[end]
	switch sign {
	case '+':
		s.Mode = Increment
	case 'd':
		s.Mode = Delay
	case 'b':
		s.Mode = Bronstein
	case '.', ',':
		return s, "fractions of a second are not supported: want whole seconds"
	case '/':
		return s, "a second '/': want one move count per stage, and ':' between stages"
	default:
		return s, fmt.Sprintf("unexpected %q after %s: want '+' (increment), 'd' (simple delay), 'b' (Bronstein delay), ':' (next stage) or the end", sign, rest[:end])
	}
	what := map[byte]string{'+': "increment seconds after '+'", 'd': "delay seconds after 'd'", 'b': "delay seconds after 'b'"}[sign]
	bonus := rest[end+1:]
	if bonus == "" {
		return s, "want " + what
	}
	for i := 0; i < len(bonus); i++ {
		if ch := bonus[i]; ch < '0' || ch > '9' {
			switch ch {
			case '+', 'd', 'b':
				return s, "more than one increment or delay: want one of +increment, d<delay>, b<delay>"
			case '.', ',':
				return s, "fractions of a second are not supported: want whole seconds"
			}
			return s, fmt.Sprintf("unexpected %q in %q: want %s", ch, bonus, what)
		}
	}
	b, fault := number(bonus, what)
	if fault != "" {
		return s, fault
	}
	s.Bonus = time.Duration(b) * time.Second
	if s.Bonus > MaxBonus {
		return s, fmt.Sprintf("%s %d: at most %d", s.Mode, b, int64(MaxBonus/time.Second))
	}
	if s.Mode == Increment && s.Bonus == 0 {
		// "300+0" is how lichess writes sudden death.
		s.Mode = Sudden
	}
	return s, ""
}

// number reads a decimal count; the fault names what was wanted.
func number(text, what string) (int64, string) {
	if text == "" {
		return 0, "want " + what
	}
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			return 0, fmt.Sprintf("%q: want %s (digits only)", text, what)
		}
	}
	if len(text) > 9 {
		return 0, fmt.Sprintf("%q: too large for %s", text, what)
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Sprintf("%q: want %s", text, what)
	}
	return n, ""
}

// Validate checks a control built by hand as Parse checks a parsed one.
func (c Control) Validate() error {
	if err := c.validate(); err != nil {
		err.Input = c.String()
		return err
	}
	return nil
}

func (c Control) validate() *ParseError {
	if len(c.Stages) == 0 {
		return &ParseError{Fault: "no stages: want " + Syntax}
	}
	if len(c.Stages) > MaxStages {
		return &ParseError{Fault: fmt.Sprintf("%d stages: at most %d are supported", len(c.Stages), MaxStages)}
	}
	for i, s := range c.Stages {
		fail := func(format string, args ...any) *ParseError {
			return &ParseError{Stage: i + 1, Fault: fmt.Sprintf(format, args...)}
		}
		switch {
		case s.Moves < 0 || s.Moves > MaxMoves:
			return fail("move count %d: want 1 to %d, or 0 for the rest of the game", s.Moves, MaxMoves)
		case s.Time < 0 || s.Time > MaxTime:
			return fail("time %v: want 0 to %v", s.Time, MaxTime)
		case s.Bonus < 0 || s.Bonus > MaxBonus:
			return fail("%s %v: want 0 to %v", s.Mode, s.Bonus, MaxBonus)
		case s.Mode > Bronstein:
			return fail("unknown timing mode %d", s.Mode)
		case s.Time%time.Second != 0 || s.Bonus%time.Second != 0:
			return fail("times must be whole seconds")
		case s.Mode == Sudden && s.Bonus != 0:
			return fail("a bonus of %v with no increment or delay mode", s.Bonus)
		case s.Mode != Sudden && s.Bonus == 0:
			return fail("%s of 0 seconds: leave it out instead", s.Mode)
		case s.Moves == 0 && i < len(c.Stages)-1:
			return fail("no move count, so it lasts the rest of the game and stage %d can never begin: want moves/seconds, as in 40/5400", i+2)
		}
	}
	first := c.Stages[0]
	if first.Time == 0 && first.Mode != Increment && first.Mode != Delay {
		return &ParseError{Stage: 1, Fault: "no time: the flag would fall at once; want seconds above 0, or an increment or simple delay"}
	}
	return nil
}

// String returns the control in the syntax Parse reads: the value of the PGN
// TimeControl tag, extended with d and b for delays ("40/5400+30:1800+30",
// "30/7200:15/3600", "300d5").
func (c Control) String() string {
	var b []byte
	for i, s := range c.Stages {
		if i > 0 {
			b = append(b, ':')
		}
		if s.Moves > 0 {
			b = strconv.AppendInt(b, int64(s.Moves), 10)
			b = append(b, '/')
		}
		b = appendSeconds(b, s.Time)
		switch s.Mode {
		case Increment:
			b = append(b, '+')
		case Delay:
			b = append(b, 'd')
		case Bronstein:
			b = append(b, 'b')
		default:
			continue
		}
		b = appendSeconds(b, s.Bonus)
	}
	return string(b)
}

func appendSeconds(b []byte, d time.Duration) []byte {
	if d%time.Second == 0 {
		return strconv.AppendInt(b, int64(d/time.Second), 10)
	}
	return strconv.AppendFloat(b, d.Seconds(), 'f', -1, 64)
}

// Category is the FIDE class of a time control, which sets the size of the
// time penalties.
type Category uint8

// The classes, by the time each player has for 60 moves (fide2023 Appendices
// A.1 and B.1): blitz 10 minutes or less, rapid more than 10 and less than 60
// minutes, standard the rest.
const (
	Standard Category = iota
	Rapid
	Blitz
)

func (k Category) String() string {
	switch k {
	case Rapid:
		return "rapid"
	case Blitz:
		return "blitz"
	}
	return "standard"
}

// Allotted60 returns the time a player has for his first 60 moves: the
// first stage's time, the time of every stage that begins within them, and
// 60 moves' increments or delays.
func (c Control) Allotted60() time.Duration {
	if len(c.Stages) == 0 {
		return 0
	}
	total := c.Stages[0].Time
	for n := 0; n < 60; n++ {
		idx, start := c.stageFor(n)
		total += c.Stages[idx].Bonus
		if n > 0 {
			if pidx, pstart := c.stageFor(n - 1); pidx != idx || pstart != start {
				total += c.Stages[idx].Time
			}
		}
	}
	return total
}

// Category classifies the control as FIDE does.
func (c Control) Category() Category {
	switch a := c.Allotted60(); {
	case a <= 10*time.Minute:
		return Blitz
	case a < 60*time.Minute:
		return Rapid
	}
	return Standard
}

// stageFor returns the stage in force for a player who has completed n
// moves, and the move count at which it (or, for a repeating last stage, its
// current period) began.
func (c Control) stageFor(n int) (idx, start int) {
	last := len(c.Stages) - 1
	for i, s := range c.Stages {
		if s.Moves == 0 || n < start+s.Moves {
			return i, start
		}
		if i == last {
			return i, start + (n-start)/s.Moves*s.Moves
		}
		start += s.Moves
	}
	return last, start
}

// Ahead says, for a player who has completed done moves, what his next
// move's stage gives: the moves still to make before the next control (0
// when the stage lasts the rest of the game) and the bonus each move gets,
// its increment or delay. A chess engine is told so (UCI movestogo, winc,
// binc).
func (c Control) Ahead(done int) (movesToGo int, mode Mode, bonus time.Duration) {
	if len(c.Stages) == 0 {
		return 0, Sudden, 0
	}
	idx, start := c.stageFor(max(done, 0))
	st := c.Stages[idx]
	if st.Moves > 0 {
		movesToGo = start + st.Moves - max(done, 0)
	}
	return movesToGo, st.Mode, st.Bonus
}
