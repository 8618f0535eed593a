package computer

import (
	"fmt"
	"strconv"
	"strings"
)

// engineOption is one option an engine advertises in its answer to "uci",
// such as "option name Skill Level type spin default 20 min 0 max 20".
//
// The rules library's uci.Option parser takes only the first word of a name
// and rejects the line when the name has more (it finds no type), so that
// "Skill Level", "Move Overhead" and the like are lost; this package reads
// the option lines itself.
type engineOption struct {
	Name     string // as the engine spells it
	Type     string // check, spin, combo, button or string
	Default  string
	Min, Max int  // for a spin option
	HasRange bool // Min and Max were given
	Vars     []string
}

// parseOptionLine reads one "option" line of the UCI protocol: "option name
// N type T [default D] [min A] [max B] [var V]...". Names and string values
// may hold spaces.
func parseOptionLine(line string) (engineOption, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "option" {
		return engineOption{}, fmt.Errorf("option line %q: want \"option name ... type ...\"", line)
	}
	var o engineOption
	keyword := ""
	var value []string
	seen := map[string]bool{}
	var hasMin, hasMax bool
	flush := func() error {
		v := strings.Join(value, " ")
		switch keyword {
		case "":
			if len(value) > 0 {
				return fmt.Errorf("option line %q: %q before name", line, v)
			}
		case "name":
			o.Name = v
		case "type":
			o.Type = v
		case "default":
			o.Default = v
		case "min", "max":
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("option line %q: %s %q is not a whole number", line, keyword, v)
			}
			if keyword == "min" {
				o.Min, hasMin = n, true
			} else {
				o.Max, hasMax = n, true
			}
		case "var":
			o.Vars = append(o.Vars, v)
		}
		return nil
	}
	for _, f := range fields[1:] {
		var isKeyword bool
		switch keyword {
		case "":
			isKeyword = f == "name"
		case "name":
			isKeyword = f == "type"
		default:
			isKeyword = f == "default" || f == "min" || f == "max" || f == "var"
		}
		if !isKeyword {
			value = append(value, f)
			continue
		}
		if err := flush(); err != nil {
			return engineOption{}, err
		}
		if f != "var" && seen[f] {
			return engineOption{}, fmt.Errorf("option line %q: %s given twice", line, f)
		}
		seen[f] = true
		keyword, value = f, nil
	}
	if err := flush(); err != nil {
		return engineOption{}, err
	}
	if o.Name == "" {
		return engineOption{}, fmt.Errorf("option line %q: no name", line)
	}
	switch o.Type {
	case "check", "spin", "combo", "button", "string":
	default:
		return engineOption{}, fmt.Errorf("option line %q: type %q: want check, spin, combo, button or string", line, o.Type)
	}
	if o.Type == "spin" && hasMin && hasMax {
		if o.Min > o.Max {
			return engineOption{}, fmt.Errorf("option line %q: min %d above max %d", line, o.Min, o.Max)
		}
		o.HasRange = true
	}
	return o, nil
}

// engineOptions are the options an engine advertised, by lower-case name
// (UCI option names are not case-sensitive).
type engineOptions map[string]engineOption

func (e engineOptions) get(name string) (engineOption, bool) {
	o, ok := e[strings.ToLower(name)]
	return o, ok
}

func (e engineOptions) has(name string) bool {
	_, ok := e.get(name)
	return ok
}

// clamp brings v into the range the engine advertises for the spin option
// name; an option without a range leaves v alone.
func (e engineOptions) clamp(name string, v int) int {
	o, ok := e.get(name)
	if !ok || !o.HasRange {
		return v
	}
	return min(max(v, o.Min), o.Max)
}
