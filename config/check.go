package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
)

// Each checkX returns "" when s will do, else what was expected.

func checkLaws(s string) string {
	// A law-set id is a word: a huge value is not worth looking up.
	if len(s) > maxShown {
		return "a law-set: " + strings.Join(lawset.IDs(), ", ")
	}
	if _, err := lawset.Lookup(s); err != nil {
		return "a law-set: " + strings.Join(lawset.IDs(), ", ")
	}
	return ""
}

func checkWiring(names []string) func(string) string {
	return func(s string) string {
		if strings.HasPrefix(s, SerialPrefix) && len(s) > len(SerialPrefix) {
			return ""
		}
		for _, n := range names {
			if s == n {
				return ""
			}
		}
		return "one of " + strings.Join(names, ", ") + ", or serial:PATH"
	}
}

const (
	expectSPI  = `an SPI port such as "SPI0.0" or "/dev/spidev0.0"`
	expectI2C  = `an I²C bus such as "I2C1" or "/dev/i2c-1"`
	expectGPIO = `a GPIO of the Raspberry Pi's header, "GPIO0" to "GPIO27" (Broadcom numbers, as gpioinfo names them)`
	expectLine = `a line name of the GPIO chip, such as "GPIO25" on the Pi's header or the name an expander's chip gives its line`
)

// Patterns of names and values; compiled once, never changed.
var (
	spiName   = regexp.MustCompile(`^(?:SPI|/dev/spidev)(\d+)\.(\d+)$`)
	i2cName   = regexp.MustCompile(`^(?:I2C|/dev/i2c-)(\d+)$`)
	gpioName  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,31}$`)
	headerPin = regexp.MustCompile(`^GPIO(?:[0-9]|1[0-9]|2[0-7])$`)
	chipName  = regexp.MustCompile(`^(?:/dev/)?gpiochip\d+$`)
	boardIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
)

func checkSPI(s string) string {
	if !spiName.MatchString(s) {
		return expectSPI
	}
	return ""
}

func checkI2C(s string) string {
	if !i2cName.MatchString(s) {
		return expectI2C
	}
	return ""
}

// checkGPIO accepts the GPIOs of the Raspberry Pi's 40-pin header by the
// names periph and gpioinfo give them: GPIO0 to GPIO27, exactly so (periph
// finds a pin by its exact name).
func checkGPIO(s string) string {
	if !headerPin.MatchString(s) {
		return expectGPIO
	}
	return ""
}

// checkLine accepts a line name of any GPIO chip: the matrix may be on an
// expander's chip (gpiochip = "gpiochip2"), whose lines have the names its
// driver gives them. Check then holds lines on the Pi's own chip to the
// header's names.
func checkLine(s string) string {
	if !gpioName.MatchString(s) {
		return expectLine
	}
	return ""
}

func checkGPIOChip(s string) string {
	if s != "" && !chipName.MatchString(s) {
		return `a GPIO character device such as "gpiochip0", or "" for the first`
	}
	return ""
}

func checkListen(s string) string {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return `an address host:port such as "127.0.0.1:8080" or ":8080"`
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "a port number from 0 to 65535 after the colon"
	}
	_ = host
	return ""
}

func checkFile(s string) string {
	if s != "" && !strings.HasPrefix(s, "/") {
		return `an absolute file name such as "/etc/boardd/console.pem", or "" for none`
	}
	return ""
}

func checkDir(s string) string {
	if s != "" && !strings.HasPrefix(s, "/") {
		return `an absolute directory such as "/var/lib/boardd", or "" for the default`
	}
	return ""
}

func checkHall(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return `a broker URL such as "mqtt://hall.local:1883", or "" for no hall`
	}
	switch u.Scheme {
	case "mqtt", "mqtts", "tcp", "ssl", "tls", "ws", "wss":
		return ""
	}
	return `a broker URL with scheme mqtt, mqtts, tcp, ssl, tls, ws or wss`
}

func checkBoardID(s string) string {
	if s != "" && !boardIDRe.MatchString(s) {
		return `an id of letters, digits, '.', '_' and '-' (at most 64), or "" for the host name`
	}
	return ""
}

// checkEmulate accepts "" (no emulation) and chesslink: with an absolute
// device path (the port need not exist yet: a USB gadget's comes with its
// host).
func checkEmulate(s string) string {
	if s == "" {
		return ""
	}
	if path, ok := strings.CutPrefix(s, EmulateChessLink); ok && strings.HasPrefix(path, "/") {
		return ""
	}
	return `a board to answer apps as and its serial port, such as "chesslink:/dev/ttyGS0" (an absolute path), or "" for none`
}

func checkLogLevel(s string) string {
	switch s {
	case "debug", "info", "warn", "error":
		return ""
	}
	return "debug, info, warn or error"
}

// checkPlayerName accepts a player's name for a PGN tag by the PGN
// writer's rules (pgn.CheckPlayerName): at most 100 characters, no control
// characters, or "" for unknown.
func checkPlayerName(s string) string {
	if pgn.CheckPlayerName(s) != nil {
		return `a player's name (at most 100 characters, none of them a control character), or "" for unknown`
	}
	return ""
}

// checkTimeControl accepts "" (no clock) and whatever --time-control
// accepts: the clock's presets and stages, with increments or delays. It is
// the clocks' own reading, so a file that passes here is not refused when
// the game starts; what is wrong is said (cut short: a value may be huge).
func checkTimeControl(s string) string {
	if s == "" {
		return ""
	}
	if _, err := clock.Parse(s); err != nil {
		fault := err.Error()
		var pe *clock.ParseError
		if errors.As(err, &pe) {
			fault = pe.Fault
			if pe.Stage > 0 {
				fault = fmt.Sprintf("stage %d: %s", pe.Stage, fault)
			}
		}
		return "a time control (" + clipTo(fault, 4*maxShown) + `), or "" for none: ` + clock.Syntax
	}
	return ""
}

func checkEngineSide(s string) string {
	switch s {
	case "white", "black", "random":
		return ""
	}
	return "white, black or random"
}

func checkVoiceLanguage(s string) string {
	switch s {
	case VoiceOff, "en", "de":
		return ""
	}
	return `"off", "en" (English) or "de" (German)`
}

// checkPairWith accepts "" (not paired), hall:BOARD, listen:ADDR and
// connect:ADDR.
func checkPairWith(s string) string {
	const want = `"hall:BOARD" (the other board's id, through the hall's broker), "listen:ADDR" (wait for the other board, e.g. "listen:0.0.0.0:7070"), "connect:ADDR" (e.g. "connect:board-01.lan:7070") or "" for none`
	if s == "" {
		return ""
	}
	mode, addr, _ := strings.Cut(s, ":")
	switch mode {
	case "hall":
		if addr == "" || checkBoardID(addr) != "" {
			return want
		}
	case "listen", "connect":
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return want
		}
	default:
		return want
	}
	return ""
}

func checkPairSide(s string) string {
	switch s {
	case "", "white", "black":
		return ""
	}
	return `"white" or "black": the side played at this board`
}

func checkVoiceConvention(s string) string {
	switch s {
	case VoicePlain, VoiceAppendixD:
		return ""
	}
	return `"plain" ("knight from g1 to f3") or "appendix-d" (FIDE's Appendix D.2.1: "Springer Gustav eins Felix drei")`
}

func checkEngineClock(s string) string {
	switch s {
	case EngineClockCarried, EngineClockShown:
		return ""
	}
	return `"carried" (the engine's clock runs until its move is carried out on the board) or "shown" (until it is shown)`
}

func checkLichessSeek(s string) string {
	if s == "" {
		return ""
	}
	if _, _, want := LichessSeekClock(s); want != "" {
		return want + `, or "" for no seek`
	}
	return ""
}

func checkLichessColor(s string) string {
	switch s {
	case "", "white", "black", "random":
		return ""
	}
	return `white, black or random (the side the seek asks for)`
}

// checkLichessName accepts a lichess user name (2 to 30 letters, digits,
// "_" and "-") or "anyone".
func checkLichessName(s string) string {
	const want = `a lichess user name (2 to 30 letters, digits, "_" or "-") or "anyone"`
	if len(s) < 2 || len(s) > 30 {
		return want
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return want
		}
	}
	return ""
}

// checkEngineLimit accepts "" and what --engine-limit accepts: the limit
// items of a level (movetime, depth, nodes), read as the engine reads them.
func checkVisuallyImpaired(s string) string {
	switch s {
	case "", "white", "black":
		return ""
	}
	return `"white" or "black" (the side whose player is visually impaired), or "" for neither`
}

func checkEngineLimit(s string) string {
	const want = `a limit a move such as "movetime:2s", "depth:8" or "nodes:20000" (joined by commas), or "" for the level's default`
	if s == "" {
		return ""
	}
	l, err := computer.ParseLevel(s)
	if err != nil || l.Strength != computer.StrengthFull || l.Limit.IsZero() {
		return want
	}
	return ""
}

// Check checks a configuration whole: each value in range, the wiring's
// layout covering the board, and no pin or bus used twice; every fault it
// finds is in the Errors it returns. It is what Parse
// runs after decoding, and what the daemon runs again after its flags have
// overridden the file.
func (c *Config) Check() error {
	var errs Errors
	fail := func(key string, v any, expected string) {
		errs = append(errs, &Error{Key: key, Value: show(v), Expected: expected})
	}
	if c.Hands.QuickSettle > c.Hands.Settle {
		fail("hands.quick_settle", c.Hands.QuickSettle.String(), fmt.Sprintf("no longer than hands.settle (%v): a move is shown as pending before it is made", c.Hands.Settle))
	}
	for _, f := range []struct {
		key, v string
		check  func(string) string
	}{
		{"laws", c.Laws, checkLaws},
		{"time_control", c.TimeControl, checkTimeControl},
		{"listen", c.Listen, checkListen},
		{"tls_cert", c.TLSCert, checkFile},
		{"tls_key", c.TLSKey, checkFile},
		{"state_dir", c.StateDir, checkDir},
		{"hall", c.Hall, checkHall},
		{"board_id", c.BoardID, checkBoardID},
		{"log_level", c.LogLevel, checkLogLevel},
		{"emulate", c.Emulate, checkEmulate},
		{"sensor.wiring", c.Sensor.Wiring, checkWiring(SensorWirings())},
		{"led.wiring", c.LED.Wiring, checkWiring(LEDWirings())},
		{"engine.side", c.Engine.Side, checkEngineSide},
		{"engine.limit", c.Engine.Limit, checkEngineLimit},
		{"engine.book", c.Engine.Book, checkFile},
		{"engine.clock", c.Engine.Clock, checkEngineClock},
		{"lichess.seek", c.Lichess.Seek, checkLichessSeek},
		{"lichess.color", c.Lichess.Color, checkLichessColor},
		{"voice.language", c.Voice.Language, checkVoiceLanguage},
		{"voice.convention", c.Voice.Convention, checkVoiceConvention},
		{"visually_impaired", c.VisuallyImpaired, checkVisuallyImpaired},
		{"pair.with", c.Pair.With, checkPairWith},
		{"pair.side", c.Pair.Side, checkPairSide},
	} {
		if want := f.check(f.v); want != "" {
			fail(f.key, f.v, want)
		}
	}
	if c.VisuallyImpaired != "" && checkVisuallyImpaired(c.VisuallyImpaired) == "" {
		if ls, err := lawset.Lookup(c.Laws); err == nil && ls.AppendixD == nil {
			fail("visually_impaired", c.VisuallyImpaired, fmt.Sprintf(`"" under laws %q: a visually impaired player's board is read by FIDE's Appendix D (laws = "fide2023")`, c.Laws))
		} else if c.Engine.Path != "" && c.Engine.Side == c.VisuallyImpaired {
			fail("visually_impaired", c.VisuallyImpaired, fmt.Sprintf("the side of the player at the board, not the engine's (engine.side = %q)", c.Engine.Side))
		}
	}
	if c.WarnOnly && c.Tournament {
		fail("warn_only", c.WarnOnly, "false when tournament is on (tournament = true or --tournament): a tournament exacts every penalty, warn-only none; give one")
	}
	if c.Engine.Elo > 0 && c.Engine.Skill >= 0 {
		fail("engine.skill", int64(c.Engine.Skill), "-1 (none) with engine.elo set: an Elo or a Skill Level, not both")
	}
	for i, name := range c.Lichess.Accept {
		if want := checkLichessName(name); want != "" {
			fail(fmt.Sprintf("lichess.accept[%d]", i), name, want)
		}
	}
	if c.Pair.With != "" && c.Pair.Side == "" && !c.unread["pair.side"] {
		fail("pair.side", c.Pair.Side, `"white" or "black" with pair.with: the side played at this board`)
	}
	if c.Pair.With == "" && c.Pair.Side != "" && !c.unread["pair.with"] {
		fail("pair.with", c.Pair.With, "the other board, with pair.side: hall:BOARD, listen:ADDR or connect:ADDR")
	}
	if strings.HasPrefix(c.Pair.With, "hall:") && c.Hall == "" && !c.unread["hall"] {
		fail("pair.with", c.Pair.With, `"listen:ADDR" or "connect:ADDR" without hall: pairing through the hall's broker needs hall`)
	}
	if c.Lichess.Seek == "" {
		if c.Lichess.Color != "" {
			fail("lichess.color", c.Lichess.Color, `"" without lichess.seek: the colour is a seek's`)
		}
		if c.Lichess.Rated {
			fail("lichess.rated", c.Lichess.Rated, "false without lichess.seek: rated or casual is a seek's")
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		if c.TLSCert == "" {
			fail("tls_cert", c.TLSCert, "the console's certificate, to go with tls_key")
		} else {
			fail("tls_key", c.TLSKey, "the certificate's private key, to go with tls_cert")
		}
	}
	// The layouts, lines, pins, buses and ADC are checked even when a value
	// above will not do, so that every fault is found at once. Each of those
	// checks looks only at the parts of a wiring it knows: an unknown
	// sensor.wiring or led.wiring (a flag's, say; a file's keeps its
	// default) is skipped by them, having no pins or layout to check.
	c.checkLayouts(fail)
	c.checkLines(fail)
	c.checkSharing(fail)
	c.checkADC(fail)
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func (c *Config) checkADC(fail func(string, any, string)) {
	if c.Sensor.Wiring != WiringMCP3008 && c.Sensor.Wiring != WiringMCP3208 {
		return
	}
	full := int64(1024)
	if c.Sensor.Wiring == WiringMCP3208 {
		full = 4096
	}
	if int64(c.Sensor.ADC.Quiet) >= full {
		fail("sensor.adc.quiet", int64(c.Sensor.ADC.Quiet), fmt.Sprintf("a reading below %d, the %s's full scale", full, c.Sensor.Wiring))
	}
	if int64(c.Sensor.ADC.Threshold) >= full/2 {
		fail("sensor.adc.threshold", int64(c.Sensor.ADC.Threshold), fmt.Sprintf("a distance below %d, half the %s's full scale", full/2, c.Sensor.Wiring))
	}
}

// checkLines holds the matrix's lines to the Pi header's GPIO names when
// they are on the Pi's own chip (gpiochip ""); on a chip named, they are that
// chip's line names, which only the chip knows.
func (c *Config) checkLines(fail func(string, any, string)) {
	m := &c.Sensor.Matrix
	if c.Sensor.Wiring != WiringMatrix || m.GPIOChip != "" {
		return
	}
	for _, l := range []struct {
		key   string
		names []string
	}{{"sensor.matrix.rows", m.Rows}, {"sensor.matrix.columns", m.Columns}} {
		for i, n := range l.names {
			if want := checkGPIO(n); want != "" {
				fail(fmt.Sprintf("%s[%d]", l.key, i), n, want+`; or name the chip the lines are on (gpiochip = "gpiochip2") to use its own line names`)
			}
		}
	}
}

// checkLayouts checks that the sensor inputs and LEDs cover the board.
func (c *Config) checkLayouts(fail func(string, any, string)) {
	if n := c.SensorInputs(); n > 0 {
		l := c.Sensor.Layout
		if len(l.Squares) > 0 && len(l.Squares) != n {
			fail("sensor.squares", squareList(l.Squares), fmt.Sprintf("one square for each of the %d inputs of the %s wiring", n, c.Sensor.Wiring))
		} else if dup, ok := repeated(c.SensorSquares()); ok {
			fail("sensor.squares", squareList(l.Squares), fmt.Sprintf("each square at most once (%s is there twice)", dup))
		}
	}
	if c.ledHardware() && len(c.LED.Layout.Squares) > 0 {
		sq := c.LED.Layout.Squares
		v := squareList(sq)
		if c.LED.Wiring == WiringMAX7219 || c.LED.Wiring == WiringHT16K33 {
			if len(sq) != 64 {
				fail("led.squares", v, fmt.Sprintf("64 squares, one for each LED of the %s", c.LED.Wiring))
				return
			}
		}
		if len(sq) < 64 || len(sq) > 1024 {
			fail("led.squares", v, "64 to 1024 entries, one for each LED of the strip")
			return
		}
		if dup, ok := repeated(sq); ok {
			fail("led.squares", v, fmt.Sprintf("each square once (%s is there twice)", dup))
			return
		}
		var seen board.Occupancy
		for _, s := range sq {
			if s.Valid() {
				seen = seen.With(s)
			}
		}
		if missing := (^seen).Squares(); len(missing) > 0 {
			fail("led.squares", v, fmt.Sprintf("every square (%s has no LED)", missing[0]))
		}
	}
}

func squareList(sq []board.Square) []any {
	out := make([]any, len(sq))
	for i, s := range sq {
		if s.Valid() {
			out[i] = s.String()
		} else {
			out[i] = "-"
		}
	}
	return out
}

func repeated(sq []board.Square) (board.Square, bool) {
	var seen board.Occupancy
	for _, s := range sq {
		if !s.Valid() {
			continue
		}
		if seen.Has(s) {
			return s, true
		}
		seen = seen.With(s)
	}
	return board.NoSquare, false
}

func (c *Config) ledHardware() bool {
	switch c.LED.Wiring {
	case WiringWS2812, WiringSK6812, WiringAPA102, WiringMAX7219, WiringHT16K33:
		return true
	}
	return false
}

// use is one part's claim on a pin or bus.
type use struct {
	key  string // the config key that claims it
	what string // what for, in an error
}

// piBusPins returns the Raspberry Pi GPIOs of the buses boardd uses.
func piBusPins() map[string]map[string]int {
	return map[string]map[string]int{
		"SPI0": {"MISO": 9, "MOSI": 10, "SCLK": 11, "CE0": 8, "CE1": 7},
		"SPI1": {"MISO": 19, "MOSI": 20, "SCLK": 21, "CE0": 18, "CE1": 17, "CE2": 16},
		"I2C1": {"SDA": 2, "SCL": 3},
	}
}

// checkSharing finds GPIOs claimed twice (by name, and on a Raspberry Pi
// against the bus pins in use), SPI ports opened twice, LED strips sharing
// an SPI bus (they have no chip select: every transfer on the bus would
// reach them), and I²C addresses claimed twice. A pin or bus whose key
// would not do (unread: its default kept) claims nothing.
func (c *Config) checkSharing(fail func(string, any, string)) {
	busPins := piBusPins()
	pins := map[string]use{}
	claimPin := func(key, name, what string) {
		if c.unread[unindexed(key)] {
			return
		}
		norm := strings.ToUpper(name)
		if prev, ok := pins[norm]; ok {
			fail(key, name, fmt.Sprintf("a GPIO no other part uses (%s is %s, %s)", name, prev.what, prev.key))
			return
		}
		pins[norm] = use{key, what}
	}
	ports := map[string]use{}
	buses := map[string][]use{}
	stripBus := map[string]use{}
	claimSPI := func(key, name, what string, strip, ownCS bool) {
		m := spiName.FindStringSubmatch(name)
		if m == nil || c.unread[key] {
			return
		}
		port, bus := "SPI"+m[1]+"."+m[2], "SPI"+m[1]
		if prev, ok := ports[port]; ok {
			fail(key, name, fmt.Sprintf("an SPI port no other part uses (%s is %s, %s)", port, prev.what, prev.key))
			return
		}
		if prev, ok := stripBus[bus]; ok {
			fail(key, name, fmt.Sprintf("an SPI bus other than %s: %s has it to itself (%s)", bus, prev.what, prev.key))
			return
		}
		if strip && len(buses[bus]) > 0 {
			prev := buses[bus][0]
			fail(key, name, fmt.Sprintf("an SPI bus of its own: %s is on %s (%s), and an LED strip has no chip select", prev.what, bus, prev.key))
			return
		}
		ports[port] = use{key, what}
		buses[bus] = append(buses[bus], use{key, what})
		if strip {
			stripBus[bus] = use{key, what}
		}
		if pp, ok := busPins[bus]; ok {
			for _, sig := range []string{"MISO", "MOSI", "SCLK"} {
				if n := fmt.Sprintf("GPIO%d", pp[sig]); pins[n].key == "" {
					pins[n] = use{key, fmt.Sprintf("%s %s", bus, sig)}
				}
			}
			if ownCS {
				if ce, ok := pp["CE"+m[2]]; ok {
					claimPin(key, fmt.Sprintf("GPIO%d", ce), fmt.Sprintf("%s CE%s", bus, m[2]))
				}
			}
		}
	}
	i2cAddrs := map[string]use{}
	claimI2C := func(key, name string, addrs []uint16, what string) {
		m := i2cName.FindStringSubmatch(name)
		if m == nil || c.unread[key] {
			return
		}
		bus := "I2C" + m[1]
		if pp, ok := busPins[bus]; ok {
			for _, sig := range []string{"SDA", "SCL"} {
				if n := fmt.Sprintf("GPIO%d", pp[sig]); pins[n].key == "" {
					pins[n] = use{key, bus + " " + sig}
				}
			}
		}
		for _, a := range addrs {
			id := fmt.Sprintf("%s@%#02x", bus, a)
			if prev, ok := i2cAddrs[id]; ok {
				fail(key, name, fmt.Sprintf("an address no other chip on %s has (%#02x is %s, %s)", bus, a, prev.what, prev.key))
				return
			}
			i2cAddrs[id] = use{key, what}
		}
	}

	s := &c.Sensor
	switch s.Wiring {
	case WiringHC165:
		claimSPI("sensor.hc165.spi", s.HC165.SPI, "the 74HC165 chain", false, true)
	case WiringMCP23017:
		claimI2C("sensor.mcp23017.i2c", s.MCP23017.I2C, s.MCP23017.Addresses, "an MCP23017")
	case WiringMCP3008, WiringMCP3208:
		claimSPI("sensor.adc.spi", s.ADC.SPI, "the "+strings.ToUpper(s.Wiring)+"s", false, len(s.ADC.ChipSelects) == 0)
	}
	l := &c.LED
	switch l.Wiring {
	case WiringWS2812:
		claimSPI("led.ws2812.spi", l.WS2812.SPI, "the WS2812 strip", true, false)
	case WiringSK6812:
		claimSPI("led.sk6812.spi", l.SK6812.SPI, "the SK6812 strip", true, false)
	case WiringAPA102:
		claimSPI("led.apa102.spi", l.APA102.SPI, "the APA102 strip", true, false)
	case WiringMAX7219:
		claimSPI("led.max7219.spi", l.MAX7219.SPI, "the MAX7219", false, true)
	case WiringHT16K33:
		claimI2C("led.ht16k33.i2c", l.HT16K33.I2C, []uint16{l.HT16K33.Address}, "the HT16K33")
	}
	switch s.Wiring {
	case WiringHC165:
		claimPin("sensor.hc165.load", s.HC165.Load, "the 74HC165 load pin")
	case WiringMatrix:
		for i, p := range s.Matrix.Rows {
			claimPin(fmt.Sprintf("sensor.matrix.rows[%d]", i), p, fmt.Sprintf("matrix row %d", i))
		}
		for i, p := range s.Matrix.Columns {
			claimPin(fmt.Sprintf("sensor.matrix.columns[%d]", i), p, fmt.Sprintf("matrix column %d", i))
		}
	case WiringMCP3008, WiringMCP3208:
		for i, p := range s.ADC.ChipSelects {
			claimPin(fmt.Sprintf("sensor.adc.chip_selects[%d]", i), p, fmt.Sprintf("the chip select of ADC %d", i))
		}
	}
	if cd := c.ClockDisplay; cd.Configured() {
		for _, p := range []struct{ key, pin, what string }{
			{"clock_display.white_clk", cd.WhiteCLK, "White's clock display clock pin"},
			{"clock_display.white_dio", cd.WhiteDIO, "White's clock display data pin"},
			{"clock_display.black_clk", cd.BlackCLK, "Black's clock display clock pin"},
			{"clock_display.black_dio", cd.BlackDIO, "Black's clock display data pin"},
		} {
			if p.pin == "" && !c.unread[p.key] {
				fail(p.key, p.pin, "a GPIO name: the clock display needs all four pins")
				continue
			}
			claimPin(p.key, p.pin, p.what)
		}
	}
	keys := make([]string, 0, len(c.Buttons.Pins))
	for k := range c.Buttons.Pins {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		claimPin("buttons."+k, c.Buttons.Pins[k], "the "+strings.ReplaceAll(k, "_", " ")+" button")
	}
}
