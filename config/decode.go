package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boardd/boardd/board"
	"github.com/pelletier/go-toml/v2"
	"periph.io/x/conn/v3/physic"
)

// decoder walks a TOML document decoded into maps, setting the fields of a
// Config and collecting an Error for every key it cannot use.
type decoder struct {
	errs Errors
	// keys, when not nil, makes the decoder list the keys it knows instead
	// of reading a document (knownKeys).
	keys *[]string
}

// knownKeys returns every key the decoder knows, dotted as in errors
// ("sensor.hc165.load"), sorted: what the example files' comments must name.
func knownKeys() []string {
	var keys []string
	d := &decoder{keys: &keys}
	d.top(nil, Default())
	sort.Strings(keys)
	return keys
}

func (d *decoder) fail(key string, v any, expected string) {
	if d.keys != nil {
		*d.keys = append(*d.keys, key) // listing: a key that is no table
		return
	}
	d.errs = append(d.errs, &Error{Key: clip(key), Value: show(v), Expected: expected})
}

// decode overrides c with what data sets.
func decode(data []byte, c *Config) error {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if asDecodeError(err, &de) {
			row, col := de.Position()
			return fmt.Errorf("line %d column %d: %v", row, col, de.Error())
		}
		return err
	}
	d := &decoder{}
	d.top(doc, c)
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

func asDecodeError(err error, de **toml.DecodeError) bool {
	e, ok := err.(*toml.DecodeError)
	if ok {
		*de = e
	}
	return ok
}

// field reads one key's value.
type field func(key string, v any)

// table applies fields to the keys of m, in key order; unknown keys are
// faults.
func (d *decoder) table(prefix string, m map[string]any, fields map[string]field) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if d.keys != nil {
		// Listing: every key the table knows, a sub-table's by its keys.
		keys, m = keys[:0], map[string]any{}
		for k := range fields {
			keys = append(keys, k)
			m[k] = listing{}
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		f, ok := fields[k]
		if !ok {
			d.fail(key, m[k], "no such key: "+known(fields))
			continue
		}
		f(key, m[k])
	}
}

// listing is the value each key has while the decoder lists its keys: a
// sub-table lists its own keys, any other field fails to read it and is
// listed.
type listing struct{}

func known(fields map[string]field) string {
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 1 {
		return "the only key here is " + names[0]
	}
	return "the keys here are " + strings.Join(names, ", ")
}

// sub reads a sub-table.
func (d *decoder) sub(fields map[string]field) field {
	return func(key string, v any) {
		if _, ok := v.(listing); ok {
			d.table(key, nil, fields)
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			d.fail(key, v, "a table ["+key+"]")
			return
		}
		d.table(key, m, fields)
	}
}

func (d *decoder) str(dst *string, check func(string) string) field {
	return func(key string, v any) {
		s, ok := v.(string)
		if !ok {
			d.fail(key, v, "a string")
			return
		}
		if check != nil {
			if want := check(s); want != "" {
				d.fail(key, v, want)
				return
			}
		}
		*dst = s
	}
}

func (d *decoder) boolean(dst *bool) field {
	return func(key string, v any) {
		b, ok := v.(bool)
		if !ok {
			d.fail(key, v, "true or false")
			return
		}
		*dst = b
	}
}

func (d *decoder) integer(dst *int, lo, hi int, what string) field {
	return func(key string, v any) {
		n, ok := v.(int64)
		if !ok || n < int64(lo) || n > int64(hi) {
			d.fail(key, v, fmt.Sprintf("%s, a whole number from %d to %d", what, lo, hi))
			return
		}
		*dst = int(n)
	}
}

func (d *decoder) number(dst *float64, lo, hi float64, what string) field {
	return func(key string, v any) {
		var x float64
		switch n := v.(type) {
		case int64:
			x = float64(n)
		case float64:
			x = n
		default:
			d.fail(key, v, fmt.Sprintf("%s, a number from %g to %g", what, lo, hi))
			return
		}
		if math.IsNaN(x) || x < lo || x > hi {
			d.fail(key, v, fmt.Sprintf("%s, a number from %g to %g", what, lo, hi))
			return
		}
		*dst = x
	}
}

func (d *decoder) duration(dst *time.Duration, lo, hi time.Duration, what string) field {
	return func(key string, v any) {
		want := fmt.Sprintf("%s, a duration from %v to %v such as \"%v\"", what, lo, hi, *dst)
		s, ok := v.(string)
		if !ok {
			d.fail(key, v, want)
			return
		}
		x, err := time.ParseDuration(s)
		if err != nil || x < lo || x > hi {
			d.fail(key, v, want)
			return
		}
		*dst = x
	}
}

func (d *decoder) frequency(dst *physic.Frequency, lo, hi physic.Frequency) field {
	return func(key string, v any) {
		want := fmt.Sprintf("a frequency from %s to %s such as \"1MHz\"", lo, hi)
		s, ok := v.(string)
		if !ok {
			d.fail(key, v, want)
			return
		}
		var f physic.Frequency
		if err := f.Set(s); err != nil || f < lo || f > hi {
			d.fail(key, v, want)
			return
		}
		*dst = f
	}
}

// list reads an array of strings, each checked.
func (d *decoder) list(dst *[]string, lo, hi int, what string, check func(string) string) field {
	return func(key string, v any) {
		want := fmt.Sprintf("a list of %d to %d %s", lo, hi, what)
		a, ok := v.([]any)
		if !ok || len(a) < lo || len(a) > hi {
			d.fail(key, v, want)
			return
		}
		out := make([]string, len(a))
		for i, e := range a {
			s, ok := e.(string)
			if !ok {
				d.fail(fmt.Sprintf("%s[%d]", key, i), e, what)
				return
			}
			if check != nil {
				if w := check(s); w != "" {
					d.fail(fmt.Sprintf("%s[%d]", key, i), e, w)
					return
				}
			}
			out[i] = s
		}
		*dst = out
	}
}

// corner reads one of the four corner squares.
func (d *decoder) corner(dst *board.Square) field {
	return func(key string, v any) {
		s, ok := v.(string)
		sq, err := board.ParseSquare(s)
		if !ok || err != nil || (sq.File() != 0 && sq.File() != 7) || (sq.Rank() != 0 && sq.Rank() != 7) {
			d.fail(key, v, `a corner: "a1", "h1", "a8" or "h8"`)
			return
		}
		*dst = sq
	}
}

// squares reads an explicit wiring order; with gaps, "-" marks an LED under
// no square.
func (d *decoder) squares(dst *[]board.Square, gaps bool) field {
	return func(key string, v any) {
		what := `square names such as "a1"`
		if gaps {
			what += `, or "-" for an LED under no square`
		}
		a, ok := v.([]any)
		if !ok {
			d.fail(key, v, "a list of "+what)
			return
		}
		out := make([]board.Square, len(a))
		for i, e := range a {
			s, _ := e.(string)
			if gaps && s == "-" {
				out[i] = board.NoSquare
				continue
			}
			sq, err := board.ParseSquare(s)
			if err != nil {
				d.fail(fmt.Sprintf("%s[%d]", key, i), e, what)
				return
			}
			out[i] = sq
		}
		*dst = out
	}
}

// address reads an I²C address in [lo, hi].
func (d *decoder) address(dst *uint16, lo, hi uint16, what string) field {
	return func(key string, v any) {
		n, ok := v.(int64)
		if !ok || n < int64(lo) || n > int64(hi) {
			d.fail(key, v, fmt.Sprintf("%s, an address from %#02x to %#02x", what, lo, hi))
			return
		}
		*dst = uint16(n)
	}
}

func (d *decoder) addresses(dst *[]uint16, lo, hi uint16, max int, what string) field {
	return func(key string, v any) {
		a, ok := v.([]any)
		if !ok || len(a) < 1 || len(a) > max {
			d.fail(key, v, fmt.Sprintf("a list of 1 to %d %s addresses from %#02x to %#02x", max, what, lo, hi))
			return
		}
		out := make([]uint16, len(a))
		for i, e := range a {
			n, ok := e.(int64)
			if !ok || n < int64(lo) || n > int64(hi) {
				d.fail(fmt.Sprintf("%s[%d]", key, i), e, fmt.Sprintf("a %s address from %#02x to %#02x", what, lo, hi))
				return
			}
			for _, prev := range out[:i] {
				if uint16(n) == prev {
					d.fail(fmt.Sprintf("%s[%d]", key, i), e, "an address not already in the list")
					return
				}
			}
			out[i] = uint16(n)
		}
		*dst = out
	}
}

func (d *decoder) layout(l *Layout, gaps bool) map[string]field {
	return map[string]field{
		"first": d.corner(&l.First),
		"along": d.str(&l.Along, func(s string) string {
			if s != "ranks" && s != "files" {
				return `"ranks" or "files"`
			}
			return ""
		}),
		"serpentine": d.boolean(&l.Serpentine),
		"squares":    d.squares(&l.Squares, gaps),
	}
}

// top reads the whole document.
func (d *decoder) top(doc map[string]any, c *Config) {
	s, l, b := &c.Sensor, &c.LED, &c.Buttons
	sensor := d.layout(&s.Layout, false)
	sensor["wiring"] = d.str(&s.Wiring, checkWiring(SensorWirings()))
	sensor["rate"] = d.number(&s.Rate, 1, 2000, "scans a second")
	sensor["retries"] = d.integer(&s.Retries, 0, 10, "retries of a failed read")
	sensor["fault_after"] = d.integer(&s.FaultAfter, 1, 1000, "failed scans in a row")
	sensor["debounce"] = d.duration(&s.Debounce, time.Millisecond, time.Second, "a debounce window")
	sensor["hc165"] = d.sub(map[string]field{
		"spi":        d.str(&s.HC165.SPI, checkSPI),
		"speed":      d.frequency(&s.HC165.Speed, 10*physic.KiloHertz, 25*physic.MegaHertz),
		"load":       d.str(&s.HC165.Load, checkGPIO),
		"chips":      d.integer(&s.HC165.Chips, 1, 8, "chips in the chain"),
		"check":      d.boolean(&s.HC165.Check),
		"active_low": d.boolean(&s.HC165.ActiveLow),
	})
	sensor["mcp23017"] = d.sub(map[string]field{
		"i2c":        d.str(&s.MCP23017.I2C, checkI2C),
		"addresses":  d.addresses(&s.MCP23017.Addresses, 0x20, 0x27, 4, "MCP23017"),
		"active_low": d.boolean(&s.MCP23017.ActiveLow),
	})
	sensor["matrix"] = d.sub(map[string]field{
		"gpiochip": d.str(&s.Matrix.GPIOChip, checkGPIOChip),
		"rows":     d.list(&s.Matrix.Rows, 1, 8, "GPIO line names", checkLine),
		"columns":  d.list(&s.Matrix.Columns, 1, 8, "GPIO line names", checkLine),
		"settle":   d.duration(&s.Matrix.Settle, 0, 10*time.Millisecond, "a settle time"),
	})
	sensor["adc"] = d.sub(map[string]field{
		"spi":          d.str(&s.ADC.SPI, checkSPI),
		"speed":        d.frequency(&s.ADC.Speed, 10*physic.KiloHertz, 3600*physic.KiloHertz),
		"chip_selects": d.list(&s.ADC.ChipSelects, 0, 8, "GPIO names", checkGPIO),
		"quiet":        d.integer(&s.ADC.Quiet, 0, 4095, "the reading with no magnet (0: mid-scale)"),
		"threshold":    d.integer(&s.ADC.Threshold, 0, 4095, "the distance from quiet that means a man (0: an eighth of full scale)"),
	})

	led := d.layout(&l.Layout, true)
	led["wiring"] = d.str(&l.Wiring, checkWiring(LEDWirings()))
	led["brightness"] = d.integer(&l.Brightness, 1, 100, "a brightness in percent")
	led["gamma"] = d.number(&l.Gamma, 0.5, 4, "a gamma exponent (1: none)")
	strip := func(st *Strip, speed bool) field {
		fields := map[string]field{"spi": d.str(&st.SPI, checkSPI)}
		if speed {
			fields["speed"] = d.frequency(&st.Speed, 100*physic.KiloHertz, 20*physic.MegaHertz)
		}
		return d.sub(fields)
	}
	led["ws2812"] = strip(&l.WS2812, false)
	led["sk6812"] = strip(&l.SK6812, false)
	led["apa102"] = strip(&l.APA102, true)
	led["max7219"] = strip(&l.MAX7219, false)
	led["ht16k33"] = d.sub(map[string]field{
		"i2c":     d.str(&l.HT16K33.I2C, checkI2C),
		"address": d.address(&l.HT16K33.Address, 0x70, 0x77, "an HT16K33"),
	})

	buttons := map[string]field{
		"debounce":    d.duration(&b.Debounce, time.Millisecond, time.Second, "a debounce window"),
		"active_high": d.boolean(&b.ActiveHigh),
	}
	for _, side := range []string{"white", "black"} {
		for _, name := range buttonNames() {
			k := side + "_" + name
			buttons[k] = func(key string, v any) {
				pin, ok := v.(string)
				switch {
				case ok && pin == "":
					delete(b.Pins, k)
				case ok && checkGPIO(pin) == "":
					b.Pins[k] = pin
				default:
					d.fail(key, v, expectGPIO+`, or "" for no button`)
				}
			}
		}
	}

	cd := &c.ClockDisplay
	clockDisplay := map[string]field{
		"white_clk":  d.str(&cd.WhiteCLK, checkGPIO),
		"white_dio":  d.str(&cd.WhiteDIO, checkGPIO),
		"black_clk":  d.str(&cd.BlackCLK, checkGPIO),
		"black_dio":  d.str(&cd.BlackDIO, checkGPIO),
		"brightness": d.integer(&cd.Brightness, 0, 8, "a brightness step (1 dimmest, 8 brightest, 0 the default)"),
	}

	e := &c.Engine
	engine := map[string]field{
		"path":      d.str(&e.Path, nil),
		"side":      d.str(&e.Side, checkEngineSide),
		"elo":       d.integer(&e.Elo, 0, 4000, "a rating (0: none)"),
		"skill":     d.integer(&e.Skill, -1, 100, "a Skill Level (-1: none)"),
		"limit":     d.str(&e.Limit, checkEngineLimit),
		"book":      d.str(&e.Book, checkFile),
		"clock":     d.str(&e.Clock, checkEngineClock),
		"evaluate":  d.boolean(&e.Evaluate),
		"hint_time": d.duration(&e.HintTime, 10*time.Millisecond, time.Minute, "how long a hint thinks"),
	}

	li := &c.Lichess
	lichess := map[string]field{
		"play":   d.boolean(&li.Play),
		"seek":   d.str(&li.Seek, checkLichessSeek),
		"rated":  d.boolean(&li.Rated),
		"color":  d.str(&li.Color, checkLichessColor),
		"accept": d.list(&li.Accept, 0, 100, "lichess user names", checkLichessName),
	}

	vo := &c.Voice
	voice := map[string]field{
		"language":   d.str(&vo.Language, checkVoiceLanguage),
		"convention": d.str(&vo.Convention, checkVoiceConvention),
		"program":    d.str(&vo.Program, nil),
		"args":       d.list(&vo.Args, 0, 20, "arguments to the speech program", nil),
	}

	pair := map[string]field{
		"with": d.str(&c.Pair.With, checkPairWith),
		"side": d.str(&c.Pair.Side, checkPairSide),
	}

	hands := map[string]field{
		"settle":       d.duration(&c.Hands.Settle, 100*time.Millisecond, 2*time.Second, "how long a move must stand still before it is made"),
		"quick_settle": d.duration(&c.Hands.QuickSettle, 0, 2*time.Second, "how soon a move standing still is shown as pending (0s: not before it is made)"),
	}

	d.table("", doc, map[string]field{
		"laws":              d.str(&c.Laws, checkLaws),
		"tournament":        d.boolean(&c.Tournament),
		"warn_only":         d.boolean(&c.WarnOnly),
		"time_control":      d.str(&c.TimeControl, checkTimeControl),
		"white":             d.str(&c.White, checkPlayerName),
		"black":             d.str(&c.Black, checkPlayerName),
		"visually_impaired": d.str(&c.VisuallyImpaired, checkVisuallyImpaired),
		"listen":            d.str(&c.Listen, checkListen),
		"tls_cert":          d.str(&c.TLSCert, checkFile),
		"tls_key":           d.str(&c.TLSKey, checkFile),
		"state_dir":         d.str(&c.StateDir, checkDir),
		"hall":              d.str(&c.Hall, checkHall),
		"board_id":          d.str(&c.BoardID, checkBoardID),
		"log_level":         d.str(&c.LogLevel, checkLogLevel),
		"emulate":           d.str(&c.Emulate, checkEmulate),
		"board":             d.sub(map[string]field{"a1": d.corner(&c.A1)}),
		"hands":             d.sub(hands),
		"sensor":            d.sub(sensor),
		"led":               d.sub(led),
		"buttons":           d.sub(buttons),
		"clock_display":     d.sub(clockDisplay),
		"engine":            d.sub(engine),
		"lichess":           d.sub(lichess),
		"voice":             d.sub(voice),
		"pair":              d.sub(pair),
	})
}

// buttonNames are the buttons each side may have, as trace press lines name
// them.
func buttonNames() []string { return []string{"jadoube", "check", "claim", "clock"} }

// show writes a value as TOML would.
func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "(missing)"
	case string:
		return strconv.Quote(clip(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = show(e)
		}
		return showList("[", parts, "]")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, clip(k))
		}
		sort.Strings(keys)
		return showList("{", keys, "}")
	}
	return fmt.Sprint(v)
}

// showList joins parts between open and end, the first few of them only
// when they are long.
func showList(open string, parts []string, end string) string {
	if s := open + strings.Join(parts, ", ") + end; len(s) <= 80 {
		return s
	}
	n, width := 1, len(parts[0])+2
	for n < len(parts) && width+len(parts[n]) <= 60 {
		width += len(parts[n]) + 2
		n++
	}
	return open + strings.Join(parts[:n], ", ") + fmt.Sprintf(", ... (%d in all)", len(parts)) + end
}

// maxShown is the most of a key or value an error message shows: a file
// may hold a 20 MiB value, which no one wants echoed whole.
const maxShown = 64

// clip returns s, or its beginning and how long it is when it is longer
// than maxShown bytes (cut between characters).
func clip(s string) string { return clipTo(s, maxShown) }

// clipTo returns s cut to about max bytes, saying how long it was.
func clipTo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("... (%d bytes)", len(s))
}
