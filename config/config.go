// Package config reads boardd's configuration file: one TOML file
// (DefaultPath, /etc/boardd/boardd.toml) naming the law-set and daemon
// settings, the board's orientation, the sensor scanner and LED sink with
// their buses, pins and chip addresses, wiring orders and rates, and the
// players' buttons. docs/hardware.md documents every key.
//
// Every key has a default, and the defaults are a simulated board, so boardd
// runs with no file at all. A file is checked whole: each fault is reported
// as an *Error naming the key, the value found and what was expected, and
// every fault found is reported at once. Checking touches no hardware.
//
// This package only reads and checks; opening buses and pins is the
// daemon's (cmd/boardd), and the drivers live in sensor, led and button.
package config

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/physic"
)

// The defaults of [hands], the game's own (game.DefaultSettle and
// game.DefaultQuickSettle; a test holds them equal).
const (
	DefaultSettle      = 450 * time.Millisecond
	DefaultQuickSettle = 100 * time.Millisecond
)

// DefaultPath is where boardd looks for its configuration when none is named.
const DefaultPath = "/etc/boardd/boardd.toml"

// Config is a whole configuration.
type Config struct {
	Laws        string // law-set id: laws
	Tournament  bool   // tournament mode: tournament
	WarnOnly    bool   // irregularities shown and explained, no penalty exacted: warn_only
	TimeControl string // time control, empty for none: time_control
	Listen      string // console address: listen
	TLSCert     string // the console's certificate (PEM), empty for plain HTTP: tls_cert
	TLSKey      string // its private key (PEM): tls_key
	StateDir    string // state directory, empty for the daemon's default: state_dir
	Hall        string // club hall broker URL, empty for none: hall
	BoardID     string // this board's id in the hall, empty for the host name: board_id
	LogLevel    string // debug, info, warn or error: log_level
	// Emulate is a board protocol boardd answers chess apps in, and the
	// serial port it answers on: "chesslink:/dev/ttyGS0"; empty for none:
	// emulate.
	Emulate string
	// White and Black are the names of the players at the board, written
	// in the PGN and shown in the console; empty for unknown ("?"). The
	// engine's side takes the engine's name: white, black.
	White string
	Black string
	// VisuallyImpaired names the side whose player at this board is
	// visually impaired, "white" or "black" ("" for neither): his lifts
	// are touches and his moves made once announced by FIDE's Appendix D
	// (fide2023:D.2.2, D.2.3; fide2023 only): visually_impaired.
	VisuallyImpaired string

	// A1 is the corner of the wired board (as the sensor and LED layouts
	// name it) where a1 really is: a1 when the board stands as wired, h8
	// when it is turned round ([board] a1).
	A1 board.Square

	Hands        Hands
	Sensor       Sensor
	LED          LED
	Buttons      Buttons
	ClockDisplay ClockDisplay
	Engine       Engine
	Lichess      Lichess
	Voice        Voice
	Pair         Pair

	// unread holds the keys whose values in the file would not do (each
	// kept its default), by name without an index ("sensor.matrix.rows"):
	// Check does not hold their defaults against the other parts, which
	// would report a clash the file does not have.
	unread map[string]bool
}

// Hands holds how boardd reads the players' hands ([hands]).
type Hands struct {
	// Settle is how long the men must stand still as a move before it is
	// made (when neither a clock press nor the adversary's hand ends it
	// sooner): the longest a hand may set a man down in passing and still
	// carry him on: settle.
	Settle time.Duration
	// QuickSettle is how soon a move standing still is shown as pending on
	// the LEDs and the console; zero shows nothing before the move is made:
	// quick_settle.
	QuickSettle time.Duration
}

// Lichess holds the settings of online play on lichess ([lichess]), used
// when boardd runs with --lichess or with play set; the flags --lichess-seek,
// --lichess-rated, --lichess-color and --lichess-accept override them. The
// token is never here: it is a file of its own (docs/online.md).
type Lichess struct {
	// Play turns online play on at every start, as --lichess does: a board
	// run as a service plays online without a flag in its unit.
	Play bool
	// Seek is the clock of the game to seek, "MINUTES+SECONDS" ("15+10");
	// "" seeks none (boardd resumes, or waits for a game or a challenge).
	Seek string
	// Rated seeks a rated game (casual otherwise).
	Rated bool
	// Color is the side the seek asks for: white, black or random ("" is
	// random).
	Color string
	// Accept names the lichess players whose challenges are accepted;
	// "anyone" accepts all.
	Accept []string
}

// LichessSeekClock reads a seek's clock "MINUTES+SECONDS" (the minutes may
// have a fraction: "7.5+3"). It returns what was expected when s will not
// do: the Board API seeks rapid and classical games only, whose minutes
// plus 40 times the increment come to 8 or more.
func LichessSeekClock(s string) (initial, increment time.Duration, want string) {
	const syntax = `a clock "MINUTES+SECONDS" such as "15+10" (minutes up to 180, seconds up to 180)`
	minutes, inc, ok := strings.Cut(s, "+")
	m, err1 := strconv.ParseFloat(minutes, 64)
	i, err2 := strconv.Atoi(inc)
	if !ok || err1 != nil || err2 != nil || !(m > 0) || m > 180 || i < 0 || i > 180 {
		return 0, 0, syntax
	}
	initial, increment = time.Duration(m*float64(time.Minute)), time.Duration(i)*time.Second
	if initial+40*increment < 8*time.Minute {
		return 0, 0, syntax + ` for a rapid or classical game, as the Board API seeks no others: minutes + 40 × seconds must come to 8 or more`
	}
	return initial, increment, ""
}

// Voice configures boardd's voice ([voice], docs/voice.md): the moves,
// rulings and clocks read aloud by a speech program (espeak-ng).
type Voice struct {
	// Language is "off" (silent), "en" or "de": the words and the speech
	// program's voice.
	Language string
	// Convention is how a move is said: "plain" ("knight from g1 to f3")
	// or "appendix-d" (FIDE's Appendix D.2.1: "Springer Gustav eins Felix
	// drei").
	Convention string
	// Program is the speech program; "" finds espeak-ng in $PATH.
	Program string
	// Args are further arguments to it, e.g. ["-a", "150"] (loudness) or
	// ["-s", "140"] (words a minute).
	Args []string
}

// Pair pairs the board with another for one game ([pair], docs/voice.md:
// FIDE's Appendix D play, a sighted player's board and a visually disabled
// player's); an empty With: not paired.
type Pair struct {
	// With is the other board: "hall:BOARD" (its id, through the hall's
	// broker), "listen:ADDR" (wait for it on ADDR) or "connect:ADDR".
	With string
	// Side is the side played at this board: "white" or "black".
	Side string
}

// The voice's settings (Voice.Language, Voice.Convention).
const (
	VoiceOff       = "off"
	VoicePlain     = "plain"
	VoiceAppendixD = "appendix-d"
)

// Engine configures the chess engine that plays one side ([engine]); an
// empty Path: none, both sides play at the board.
type Engine struct {
	Path string // the UCI engine's executable (a bare name is looked up in $PATH)
	Side string // white, black or random (drawn at each new game)
	// Elo limits the engine to a rating (0: not); Skill sets its Skill
	// Level (-1: not). At most one of them; neither is the engine's
	// default level (docs/engine.md).
	Elo   int
	Skill int
	// Limit bounds each move: "movetime:2s", "depth:8", "nodes:20000",
	// joined by commas; "" for the level's default (1 s a move).
	Limit string
	Book  string // an opening book in Polyglot format, "" for none
	// Clock says how long the engine's clock runs: until its move is
	// "carried" out on the board, or until it is "shown".
	Clock string
	// Evaluate shows the engine's evaluation in the console and writes it
	// in the PGN.
	Evaluate bool
	HintTime time.Duration // how long a hint thinks
}

// The engine's clock modes (Engine.Clock).
const (
	EngineClockCarried = "carried"
	EngineClockShown   = "shown"
)

// Level returns the engine's level in computer.ParseLevel's syntax: the
// strength (elo:N or skill:N) and the limit, joined by commas; "" for the
// default level.
func (e Engine) Level() string {
	var parts []string
	switch {
	case e.Elo > 0:
		parts = append(parts, fmt.Sprintf("elo:%d", e.Elo))
	case e.Skill >= 0:
		parts = append(parts, fmt.Sprintf("skill:%d", e.Skill))
	}
	if e.Limit != "" {
		parts = append(parts, e.Limit)
	}
	return strings.Join(parts, ",")
}

// ClockDisplay configures two TM1637 4-digit displays that show the game
// clocks ([clock_display]); each display needs its own clock and data pin.
// Empty pins: no display.
type ClockDisplay struct {
	WhiteCLK, WhiteDIO string // GPIO names of White's display
	BlackCLK, BlackDIO string // GPIO names of Black's display
	Brightness         int    // a step from 1 (dimmest) to 8 (brightest), 0 for the driver's default
}

// Configured reports whether the clock display is wired.
func (c ClockDisplay) Configured() bool {
	return c.WhiteCLK != "" || c.WhiteDIO != "" || c.BlackCLK != "" || c.BlackDIO != ""
}

// Layout says which square each input of a sensor wiring, or each LED of a
// strip, lies under: either by geometry (the first corner, the direction,
// serpentine or not) or square by square.
type Layout struct {
	First      board.Square   // corner of input 0: a1, h1, a8 or h8 (first)
	Along      string         // "ranks" (input 1 is beside input 0 on its rank) or "files" (along)
	Serpentine bool           // every other rank (or file) runs backwards (serpentine)
	Squares    []board.Square // explicit order; board.NoSquare for an LED under no square (squares)
}

// Sensor configures the scanner ([sensor] and its wiring's table).
type Sensor struct {
	// Wiring is sim (the console's simulated board), none, hc165,
	// mcp23017, matrix, mcp3008, mcp3208 or serial:PATH.
	Wiring     string
	Rate       float64       // scans a second
	Retries    int           // retries of a failed read
	FaultAfter int           // failed scans in a row before a fault
	Debounce   time.Duration // per-square debounce window
	Layout     Layout

	HC165    HC165
	MCP23017 MCP23017
	Matrix   Matrix
	ADC      ADC // mcp3008 and mcp3208
}

// HC165 configures a 74HC165 chain ([sensor.hc165]).
type HC165 struct {
	SPI       string           // SPI port, "SPI0.0"
	Speed     physic.Frequency // SPI clock
	Load      string           // GPIO on every SH/LD
	Chips     int              // chips in the chain
	Check     bool             // read the check byte (last chip's SER grounded)
	ActiveLow bool             // a magnet pulls its input low
}

// MCP23017 configures MCP23017 expanders ([sensor.mcp23017]).
type MCP23017 struct {
	I2C       string   // I²C bus, "I2C1"
	Addresses []uint16 // chip addresses
	ActiveLow bool     // a magnet pulls its input low
}

// Matrix configures a GPIO row/column matrix ([sensor.matrix]).
type Matrix struct {
	GPIOChip string        // GPIO character device holding the lines, empty for the first
	Rows     []string      // row lines (outputs)
	Columns  []string      // column lines (inputs, pull-ups)
	Settle   time.Duration // wait after driving a row
}

// ADC configures MCP3008/MCP3208 ADCs ([sensor.adc]).
type ADC struct {
	SPI         string           // SPI port
	Speed       physic.Frequency // SPI clock
	ChipSelects []string         // one GPIO per chip; empty: one chip on the port's own chip select
	Quiet       int              // reading with no magnet, 0 for mid-scale
	Threshold   int              // distance from quiet that means a man, 0 for an eighth of full scale
}

// LED configures the LED sink ([led] and its wiring's table).
type LED struct {
	// Wiring is none, sim (the console shows the LEDs), ws2812, sk6812,
	// apa102, max7219, ht16k33 or serial:PATH.
	Wiring     string
	Brightness int     // percent
	Gamma      float64 // colour strips
	Layout     Layout

	WS2812  Strip // [led.ws2812]
	SK6812  Strip // [led.sk6812]
	APA102  Strip // [led.apa102]
	MAX7219 Strip // [led.max7219]
	HT16K33 I2CMatrix
}

// Strip configures an LED driver on an SPI port.
type Strip struct {
	SPI   string           // SPI port
	Speed physic.Frequency // SPI clock limit (apa102), 0 for the driver's own
}

// I2CMatrix configures an HT16K33 ([led.ht16k33]).
type I2CMatrix struct {
	I2C     string // I²C bus
	Address uint16 // chip address
}

// Buttons configures the players' buttons ([buttons]).
type Buttons struct {
	Debounce   time.Duration
	ActiveHigh bool
	// Pins maps "white_clock", "black_jadoube" and so on to GPIO names.
	Pins map[string]string
}

// Sensor and LED wirings.
const (
	WiringSim      = "sim"
	WiringNone     = "none"
	WiringHC165    = "hc165"
	WiringMCP23017 = "mcp23017"
	WiringMatrix   = "matrix"
	WiringMCP3008  = "mcp3008"
	WiringMCP3208  = "mcp3208"
	WiringWS2812   = "ws2812"
	WiringSK6812   = "sk6812"
	WiringAPA102   = "apa102"
	WiringMAX7219  = "max7219"
	WiringHT16K33  = "ht16k33"
	SerialPrefix   = "serial:"
)

// EmulateChessLink is the prefix of an emulate value that answers apps as a
// Millennium ChessLink board (docs/chesslink.md) on the serial port whose
// path follows.
const EmulateChessLink = "chesslink:"

// SensorWirings returns the sensor wirings a file or --sensor may name
// (besides serial:PATH).
func SensorWirings() []string {
	return []string{WiringSim, WiringNone, WiringHC165, WiringMCP23017, WiringMatrix, WiringMCP3008, WiringMCP3208}
}

// LEDWirings returns the LED wirings a file or --led may name (besides
// serial:PATH).
func LEDWirings() []string {
	return []string{WiringNone, WiringSim, WiringWS2812, WiringSK6812, WiringAPA102, WiringMAX7219, WiringHT16K33}
}

// Default returns the configuration with every key at its default: a
// simulated board with no LEDs, fide2023, the console on 127.0.0.1:8080.
func Default() *Config {
	sq := func(n string) board.Square { s, _ := board.ParseSquare(n); return s }
	return &Config{
		Laws:     "fide2023",
		Listen:   "127.0.0.1:8080",
		LogLevel: "info",
		A1:       sq("a1"),
		Hands:    Hands{Settle: DefaultSettle, QuickSettle: DefaultQuickSettle},
		Sensor: Sensor{
			Wiring:     WiringSim,
			Rate:       100,
			Retries:    2,
			FaultAfter: 5,
			Debounce:   20 * time.Millisecond,
			Layout:     Layout{First: sq("a1"), Along: "ranks"},
			HC165: HC165{SPI: "SPI0.0", Speed: physic.MegaHertz, Load: "GPIO25", Chips: 8,
				Check: true, ActiveLow: true},
			MCP23017: MCP23017{I2C: "I2C1", Addresses: []uint16{0x20, 0x21, 0x22, 0x23}, ActiveLow: true},
			Matrix: Matrix{
				Rows:    []string{"GPIO4", "GPIO5", "GPIO6", "GPIO12", "GPIO13", "GPIO16", "GPIO17", "GPIO22"},
				Columns: []string{"GPIO18", "GPIO19", "GPIO20", "GPIO21", "GPIO23", "GPIO24", "GPIO26", "GPIO27"},
				Settle:  10 * time.Microsecond,
			},
			ADC: ADC{SPI: "SPI0.0", Speed: physic.MegaHertz,
				ChipSelects: []string{"GPIO4", "GPIO5", "GPIO6", "GPIO12", "GPIO13", "GPIO22", "GPIO23", "GPIO24"}},
		},
		LED: LED{
			Wiring:     WiringNone,
			Brightness: 30,
			Gamma:      1,
			Layout:     Layout{First: sq("a1"), Along: "ranks"},
			WS2812:     Strip{SPI: "SPI1.0"},
			SK6812:     Strip{SPI: "SPI1.0"},
			APA102:     Strip{SPI: "SPI1.0", Speed: 4 * physic.MegaHertz},
			MAX7219:    Strip{SPI: "SPI0.1"},
			HT16K33:    I2CMatrix{I2C: "I2C1", Address: 0x70},
		},
		Buttons: Buttons{Debounce: 30 * time.Millisecond, Pins: map[string]string{}},
		Engine:  Engine{Side: "black", Skill: -1, Clock: EngineClockCarried, Evaluate: true, HintTime: 500 * time.Millisecond},
		Voice:   Voice{Language: VoiceOff, Convention: VoicePlain},
	}
}

// Error is one fault in a configuration: the key (dotted, as in
// "sensor.hc165.load"), the value found (as TOML writes it; "(missing)" if
// absent) and what was expected.
type Error struct {
	Key      string
	Value    string
	Expected string
}

// Error returns the fault as a message.
func (e *Error) Error() string {
	return fmt.Sprintf("%s = %s: expected %s", e.Key, e.Value, e.Expected)
}

// Errors is every fault found in a file, in the file's key order. Its
// message has one fault a line.
type Errors []*Error

// Error returns the fault as one line per fault.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// FileError is a configuration file that cannot be used, naming the file.
type FileError struct {
	Path string
	Err  error // Errors, a TOML syntax error, or the read error
}

// Error returns the fault as a message.
func (e *FileError) Error() string {
	var es Errors
	if errors.As(e.Err, &es) && len(es) > 1 {
		return fmt.Sprintf("%s: %d faults:\n%s", e.Path, len(es), es.Error())
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

// Unwrap returns the fault in the file.
func (e *FileError) Unwrap() error { return e.Err }

// Load reads and checks the file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	c, err := Parse(data)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return c, nil
}

// LoadUnchecked reads the file at path as Load does but does not check the
// whole (Check): the caller lays its own values over the configuration and
// checks it then. A key whose value will not do keeps its default and is a
// fault: the configuration is returned with a FileError holding the Errors.
// A file that cannot be read or is not TOML returns no configuration.
func LoadUnchecked(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	c, err := decodeKeys(data)
	if err != nil {
		if c == nil {
			return nil, &FileError{Path: path, Err: err}
		}
		return c, &FileError{Path: path, Err: err}
	}
	return c, nil
}

// decodeKeys returns the defaults overridden by what data sets, with
// Errors for the keys that would not do (they keep their defaults); broken
// TOML returns no configuration.
func decodeKeys(data []byte) (*Config, error) {
	c := Default()
	if err := decode(data, c); err != nil {
		var faults Errors
		if !errors.As(err, &faults) {
			return nil, err // broken TOML
		}
		c.unread = map[string]bool{}
		for _, f := range faults {
			c.unread[unindexed(f.Key)] = true
		}
		return c, faults
	}
	return c, nil
}

// unindexed returns key without its list index: "sensor.matrix.rows[3]"
// is "sensor.matrix.rows".
func unindexed(key string) string {
	if i := strings.IndexByte(key, '['); i >= 0 {
		return key[:i]
	}
	return key
}

// Parse reads and checks a configuration: the defaults, overridden by what
// data sets. The error is Errors, or a TOML syntax error with its line.
func Parse(data []byte) (*Config, error) {
	c, err := decodeKeys(data)
	if c == nil {
		return nil, err
	}
	var faults Errors
	errors.As(err, &faults)
	// Keys that failed keep their defaults: the whole is still checked, so
	// that every fault is reported at once.
	if err := c.Check(); err != nil {
		var more Errors
		if !errors.As(err, &more) {
			return nil, err
		}
		faults = append(faults, more...)
	}
	if len(faults) > 0 {
		return nil, faults
	}
	return c, nil
}

// SensorInputs returns how many inputs the sensor wiring has (the length its
// layout's squares must have), or 0 for wirings without inputs here.
func (c *Config) SensorInputs() int {
	s := &c.Sensor
	switch s.Wiring {
	case WiringHC165:
		return 8 * s.HC165.Chips
	case WiringMCP23017:
		return 16 * len(s.MCP23017.Addresses)
	case WiringMatrix:
		return len(s.Matrix.Rows) * len(s.Matrix.Columns)
	case WiringMCP3008, WiringMCP3208:
		return 8 * max(1, len(s.ADC.ChipSelects))
	}
	return 0
}

// SensorSquares returns the square of each sensor input, the board's
// orientation applied.
func (c *Config) SensorSquares() []board.Square {
	return c.Sensor.Layout.order(c.SensorInputs(), c.A1)
}

// LEDSquares returns the square under each LED (board.NoSquare for none),
// the board's orientation applied.
func (c *Config) LEDSquares() []board.Square {
	return c.LED.Layout.order(64, c.A1)
}

// order returns the squares of n inputs: the explicit list, or n inputs laid
// out by geometry; each then turned so that corner a1 of the wiring lands
// where a1 really is.
func (l Layout) order(n int, a1 board.Square) []board.Square {
	var out []board.Square
	if len(l.Squares) > 0 {
		out = append(out, l.Squares...)
	} else {
		for i := 0; i < n && i < 64; i++ {
			out = append(out, l.place(i))
		}
	}
	for i, sq := range out {
		if sq.Valid() {
			out[i] = turn(sq, a1)
		}
	}
	return out
}

// place lays input i out by geometry.
func (l Layout) place(i int) board.Square {
	major, minor := i/8, i%8
	if l.Serpentine && major%2 == 1 {
		minor = 7 - minor
	}
	fromRight := l.First.File() == 7
	fromTop := l.First.Rank() == 7
	var file, rank int
	if l.Along == "files" {
		file, rank = major, minor
	} else {
		file, rank = minor, major
	}
	if fromRight {
		file = 7 - file
	}
	if fromTop {
		rank = 7 - rank
	}
	return board.NewSquare(file, rank)
}

// turn maps a square of the wired board to the real board when the wired
// corner a1 names is where a1 really is.
func turn(sq, a1 board.Square) board.Square {
	f, r := sq.File(), sq.Rank()
	switch {
	case a1.File() == 7 && a1.Rank() == 0: // wired h1 is a1: a quarter turn
		return board.NewSquare(r, 7-f)
	case a1.File() == 0 && a1.Rank() == 7: // wired a8 is a1
		return board.NewSquare(7-r, f)
	case a1.File() == 7 && a1.Rank() == 7: // turned round
		return board.NewSquare(7-f, 7-r)
	}
	return sq
}
