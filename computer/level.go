package computer

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Strength is how a level weakens the engine.
type Strength int

const (
	// StrengthDefault is the level for a club player: Elo 1500 where the
	// engine offers UCI_Elo, else Skill Level 5 where it offers a Skill
	// Level, else full strength.
	StrengthDefault Strength = iota
	// StrengthElo limits the engine to Level.Elo through UCI_LimitStrength
	// and UCI_Elo, clamped to the range the engine advertises.
	StrengthElo
	// StrengthSkill sets the engine's Skill Level option to Level.Skill
	// (0-20 in Stockfish), clamped to the range the engine advertises.
	StrengthSkill
	// StrengthFull lets the engine play as well as it can within its
	// per-move limit: a fixed time, depth or node count a move.
	StrengthFull
)

// The defaults a level falls back on.
const (
	// DefaultElo is the Elo of the default level where the engine has UCI_Elo.
	DefaultElo = 1500
	// DefaultSkill is the Skill Level of the default level where the engine
	// has a Skill Level but no UCI_Elo.
	DefaultSkill = 5
	// DefaultMoveTime is the time a move when neither a time control nor the
	// level says otherwise.
	DefaultMoveTime = time.Second
	// DefaultHintTime is the time a hint search takes unless Options.Hint
	// says otherwise.
	DefaultHintTime = 500 * time.Millisecond
)

// Limit bounds one search when the game has no time control. Fields left
// zero do not limit; a Limit with every field zero means DefaultMoveTime.
// Where several are set the engine stops at whichever comes first.
type Limit struct {
	MoveTime time.Duration // think this long ("go movetime")
	Depth    int           // search this many plies ("go depth")
	Nodes    int           // search this many nodes ("go nodes")
}

// IsZero reports whether no field of the limit is set.
func (l Limit) IsZero() bool { return l == Limit{} }

func (l Limit) orDefault(d time.Duration) Limit {
	if l.IsZero() {
		return Limit{MoveTime: d}
	}
	return l
}

// String writes the limit for people: "1s a move", "depth 8", "20000 nodes a
// move", joined by commas when several are set.
func (l Limit) String() string {
	var parts []string
	if l.MoveTime > 0 {
		parts = append(parts, l.MoveTime.String()+" a move")
	}
	if l.Depth > 0 {
		parts = append(parts, "depth "+strconv.Itoa(l.Depth))
	}
	if l.Nodes > 0 {
		parts = append(parts, strconv.Itoa(l.Nodes)+" nodes a move")
	}
	return strings.Join(parts, ", ")
}

// Level is how strongly the computer plays: a Strength (with its Elo or
// Skill Level) and the per-move Limit that applies when the game has no time
// control. With a time control the engine gets the clocks instead of
// Limit.MoveTime; a Depth or Nodes limit still caps its search. The zero
// Level is the default level.
type Level struct {
	Strength Strength
	Elo      int // for StrengthElo
	Skill    int // for StrengthSkill
	Limit    Limit
}

// String writes the level as asked for, before the engine has clamped it:
// "default", "Elo 1500", "Skill Level 5", "full strength", followed by the
// limit where one is set ("Elo 1500, 2s a move", "depth 8").
func (l Level) String() string {
	var s string
	switch l.Strength {
	case StrengthElo:
		s = "Elo " + strconv.Itoa(l.Elo)
	case StrengthSkill:
		s = "Skill Level " + strconv.Itoa(l.Skill)
	case StrengthFull:
		if l.Limit.IsZero() {
			s = "full strength"
		}
	default:
		s = "default"
	}
	if lim := l.Limit.String(); lim != "" {
		if s != "" {
			s += ", "
		}
		s += lim
	}
	return s
}

// ParseLevel reads a level as a flag or a form gives it: comma-separated
// items, each "elo:N", "skill:N", "full", "default", "movetime:DURATION"
// (Go syntax, "800ms", "2s"), "depth:N" or "nodes:N". Examples: "elo:1500",
// "skill:3,movetime:500ms", "depth:8" (full strength to depth 8). The empty
// text is the default level. At most one of elo, skill, full and default may
// be given; a limit alone plays at full strength.
func ParseLevel(text string) (Level, error) {
	var l Level
	strengthSet, limitSet := false, false
	fail := func(format string, args ...any) (Level, error) {
		return Level{}, fmt.Errorf("computer: level %q: %s", text, fmt.Sprintf(format, args...))
	}
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			if strings.TrimSpace(text) == "" {
				break
			}
			return fail("empty item")
		}
		key, value, hasValue := strings.Cut(item, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		number := func() (int, error) {
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("%s wants a whole number from 0, not %q", key, value)
			}
			return n, nil
		}
		switch key {
		case "elo", "skill", "full", "default":
			if strengthSet {
				return fail("%s: only one of elo, skill, full and default may be given", key)
			}
			strengthSet = true
		case "movetime", "depth", "nodes":
			limitSet = true
		default:
			return fail("unknown item %q: want elo:N, skill:N, full, default, movetime:DURATION, depth:N or nodes:N", item)
		}
		if (key == "full" || key == "default") && hasValue {
			return fail("%s takes no value", key)
		}
		if key != "full" && key != "default" && !hasValue {
			return fail("%s needs a value (%s:N)", key, key)
		}
		var err error
		switch key {
		case "elo":
			l.Strength = StrengthElo
			if l.Elo, err = number(); err == nil && l.Elo == 0 {
				err = fmt.Errorf("elo wants a rating above 0")
			}
		case "skill":
			l.Strength = StrengthSkill
			l.Skill, err = number()
		case "full":
			l.Strength = StrengthFull
		case "default":
			l.Strength = StrengthDefault
		case "movetime":
			l.Limit.MoveTime, err = time.ParseDuration(value)
			if err == nil && l.Limit.MoveTime < time.Millisecond {
				err = fmt.Errorf("movetime wants at least 1ms, not %q", value)
			}
		case "depth":
			if l.Limit.Depth, err = number(); err == nil && l.Limit.Depth == 0 {
				err = fmt.Errorf("depth wants at least 1")
			}
		case "nodes":
			if l.Limit.Nodes, err = number(); err == nil && l.Limit.Nodes == 0 {
				err = fmt.Errorf("nodes wants at least 1")
			}
		}
		if err != nil {
			return fail("%v", err)
		}
	}
	if limitSet && !strengthSet {
		l.Strength = StrengthFull
	}
	return l, nil
}

// strength is a level made concrete for one engine: the weakening it gets,
// clamped to what the engine offers, and the per-move limit.
type strength struct {
	kind  Strength // StrengthElo, StrengthSkill or StrengthFull
	elo   int
	skill int
	limit Limit
	// text is the level for people: "Elo 1500", "Skill Level 5", "depth 8".
	text string
}

// The UCI option names the levels use.
const (
	optLimitStrength = "UCI_LimitStrength"
	optElo           = "UCI_Elo"
	optSkill         = "Skill Level"
)

// resolve makes l concrete for an engine advertising opts: the default level
// becomes Elo, Skill Level or full strength by what the engine has, Elo and
// Skill Level are clamped to the engine's range, and an Elo or Skill Level
// the engine cannot play is an error.
func resolve(l Level, opts engineOptions, defaultTime time.Duration) (strength, error) {
	s := strength{kind: l.Strength, elo: l.Elo, skill: l.Skill, limit: l.Limit.orDefault(defaultTime)}
	hasElo := opts.has(optElo) && opts.has(optLimitStrength)
	if s.kind == StrengthDefault {
		switch {
		case hasElo:
			s.kind, s.elo = StrengthElo, DefaultElo
		case opts.has(optSkill):
			s.kind, s.skill = StrengthSkill, DefaultSkill
		default:
			s.kind = StrengthFull
		}
	}
	switch s.kind {
	case StrengthElo:
		if !hasElo {
			return strength{}, fmt.Errorf("computer: level %s: the engine has no UCI_LimitStrength and UCI_Elo options; choose a Skill Level or a fixed limit", l)
		}
		s.elo = opts.clamp(optElo, s.elo)
		s.text = "Elo " + strconv.Itoa(s.elo)
	case StrengthSkill:
		if !opts.has(optSkill) {
			return strength{}, fmt.Errorf("computer: level %s: the engine has no Skill Level option; choose an Elo or a fixed limit", l)
		}
		s.skill = opts.clamp(optSkill, s.skill)
		s.text = "Skill Level " + strconv.Itoa(s.skill)
	case StrengthFull:
		s.text = "full strength"
	default:
		return strength{}, fmt.Errorf("computer: level %s: unknown strength %d", l, l.Strength)
	}
	if lim := s.limit.String(); lim != "" && (s.kind == StrengthFull || s.limit != (Limit{MoveTime: defaultTime})) {
		if s.kind == StrengthFull {
			s.text = lim
		} else {
			s.text += ", " + lim
		}
	}
	return s, nil
}

// settings lists the option values that put an engine advertising opts at
// strength s, in the order they are sent. Full strength switches off
// whatever weakening the engine has, so that a level chosen after a weaker
// one does not inherit it.
func (s strength) settings(opts engineOptions) []setting {
	var out []setting
	add := func(name, value string) {
		if o, ok := opts.get(name); ok {
			out = append(out, setting{name: o.Name, value: value})
		}
	}
	switch s.kind {
	case StrengthElo:
		if o, ok := opts.get(optSkill); ok && o.HasRange {
			add(optSkill, strconv.Itoa(o.Max))
		}
		add(optElo, strconv.Itoa(s.elo))
		add(optLimitStrength, "true")
	case StrengthSkill:
		add(optLimitStrength, "false")
		add(optSkill, strconv.Itoa(s.skill))
	default:
		add(optLimitStrength, "false")
		if o, ok := opts.get(optSkill); ok && o.HasRange {
			add(optSkill, strconv.Itoa(o.Max))
		}
	}
	return out
}

// setting is one option value to send with setoption.
type setting struct{ name, value string }
