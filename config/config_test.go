package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"periph.io/x/conn/v3/physic"
)

func TestEmptyFileIsTheSimulatedBoard(t *testing.T) {
	for _, data := range []string{"", "# nothing\n", "[sensor]\n[led]\n"} {
		c, err := Parse([]byte(data))
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if !reflect.DeepEqual(c, Default()) {
			t.Errorf("%q: %+v, want the defaults", data, c)
		}
		if c.Sensor.Wiring != WiringSim || c.LED.Wiring != WiringNone || c.Laws != "fide2023" {
			t.Errorf("defaults: sensor %s, led %s, laws %s", c.Sensor.Wiring, c.LED.Wiring, c.Laws)
		}
	}
}

func TestParseValid(t *testing.T) {
	sq := func(n string) board.Square { s, _ := board.ParseSquare(n); return s }
	cases := []struct {
		name  string
		data  string
		check func(t *testing.T, c *Config)
	}{
		{"daemon keys", `laws = "nycc"
tournament = true
time_control = "40/5400+30:1800+30"
listen = ":9000"
state_dir = "/var/lib/boardd"
hall = "mqtt://hall.local:1883"
board_id = "board-7"
log_level = "debug"
emulate = "chesslink:/dev/ttyGS0"
white = "Anna Łopuszańska"
black = "Ben"`, func(t *testing.T, c *Config) {
			want := Default()
			want.White, want.Black = "Anna Łopuszańska", "Ben"
			want.Laws, want.Tournament, want.TimeControl, want.Listen = "nycc", true, "40/5400+30:1800+30", ":9000"
			want.StateDir, want.Hall, want.BoardID, want.LogLevel = "/var/lib/boardd", "mqtt://hall.local:1883", "board-7", "debug"
			want.Emulate = "chesslink:/dev/ttyGS0"
			if !reflect.DeepEqual(c, want) {
				t.Errorf("got %+v", c)
			}
		}},
		{"lichess", `[lichess]
seek = "7.5+3"
rated = true
color = "black"
accept = ["alice", "anyone"]`, func(t *testing.T, c *Config) {
			want := Lichess{Seek: "7.5+3", Rated: true, Color: "black", Accept: []string{"alice", "anyone"}}
			if !reflect.DeepEqual(c.Lichess, want) {
				t.Errorf("lichess %+v, want %+v", c.Lichess, want)
			}
			if i, inc, fault := LichessSeekClock(c.Lichess.Seek); i != 7*time.Minute+30*time.Second || inc != 3*time.Second || fault != "" {
				t.Errorf("seek clock %v+%v %q", i, inc, fault)
			}
		}},
		{"an engine", `[engine]
path = "/usr/games/stockfish"
side = "random"
skill = 3
limit = "movetime:800ms,depth:12"
book = "/usr/share/boardd/book.bin"
clock = "shown"
evaluate = false
hint_time = "2s"`, func(t *testing.T, c *Config) {
			want := Engine{Path: "/usr/games/stockfish", Side: "random", Skill: 3, Limit: "movetime:800ms,depth:12", Book: "/usr/share/boardd/book.bin", Clock: "shown", HintTime: 2 * time.Second}
			if c.Engine != want {
				t.Errorf("engine %+v, want %+v", c.Engine, want)
			}
			if l := c.Engine.Level(); l != "skill:3,movetime:800ms,depth:12" {
				t.Errorf("level %q", l)
			}
		}},
		{"an engine's Elo", `[engine]
elo = 1800`, func(t *testing.T, c *Config) {
			if l := c.Engine.Level(); l != "elo:1800" || Default().Engine.Level() != "" {
				t.Errorf("level %q, default %q", l, Default().Engine.Level())
			}
		}},
		{"a time-control preset", `time_control = "fide-rapid"`, func(t *testing.T, c *Config) {
			if c.TimeControl != "fide-rapid" {
				t.Errorf("time control %q", c.TimeControl)
			}
		}},
		{"74hc165 chain", `[sensor]
wiring = "hc165"
rate = 250.5
retries = 0
fault_after = 3
debounce = "15ms"
[sensor.hc165]
spi = "/dev/spidev1.2"
speed = "2.5MHz"
load = "GPIO24"
chips = 4
check = false
active_low = false`, func(t *testing.T, c *Config) {
			s := c.Sensor
			if s.Wiring != "hc165" || s.Rate != 250.5 || s.Retries != 0 || s.FaultAfter != 3 || s.Debounce != 15*time.Millisecond {
				t.Errorf("sensor %+v", s)
			}
			want := HC165{SPI: "/dev/spidev1.2", Speed: 2500 * physic.KiloHertz, Load: "GPIO24", Chips: 4}
			if s.HC165 != want {
				t.Errorf("hc165 %+v, want %+v", s.HC165, want)
			}
			if n := c.SensorInputs(); n != 32 || len(c.SensorSquares()) != 32 {
				t.Errorf("%d inputs, %d squares; want 32", n, len(c.SensorSquares()))
			}
		}},
		{"mcp23017 with two chips", `[sensor]
wiring = "mcp23017"
[sensor.mcp23017]
i2c = "/dev/i2c-3"
addresses = [0x24, 0x27]`, func(t *testing.T, c *Config) {
			if m := c.Sensor.MCP23017; m.I2C != "/dev/i2c-3" || !reflect.DeepEqual(m.Addresses, []uint16{0x24, 0x27}) || !m.ActiveLow {
				t.Errorf("mcp23017 %+v", m)
			}
		}},
		{"matrix", `[sensor]
wiring = "matrix"
[sensor.matrix]
gpiochip = "gpiochip4"
rows = ["GPIO4", "GPIO5"]
columns = ["GPIO6", "GPIO12", "GPIO13"]
settle = "25us"`, func(t *testing.T, c *Config) {
			m := c.Sensor.Matrix
			if m.GPIOChip != "gpiochip4" || len(m.Rows) != 2 || len(m.Columns) != 3 || m.Settle != 25*time.Microsecond || c.SensorInputs() != 6 {
				t.Errorf("matrix %+v", m)
			}
		}},
		{"mcp3208 on the port's chip select", `[sensor]
wiring = "mcp3208"
[sensor.adc]
chip_selects = []
quiet = 2000
threshold = 300`, func(t *testing.T, c *Config) {
			if a := c.Sensor.ADC; len(a.ChipSelects) != 0 || a.Quiet != 2000 || a.Threshold != 300 || c.SensorInputs() != 8 {
				t.Errorf("adc %+v, %d inputs", a, c.SensorInputs())
			}
		}},
		{"LED strip with explicit squares and gaps", `[led]
wiring = "apa102"
brightness = 80
gamma = 2.2
squares = [` + quoteList(strings.Split("a1 b1 c1 d1 e1 f1 g1 h1 - h2 g2 f2 e2 d2 c2 b2 a2", " ")) + `, ` + restOfBoard(2) + `]
[led.apa102]
spi = "SPI1.0"
speed = "8MHz"`, func(t *testing.T, c *Config) {
			l := c.LED
			if l.Wiring != "apa102" || l.Brightness != 80 || l.Gamma != 2.2 || l.APA102.Speed != 8*physic.MegaHertz {
				t.Errorf("led %+v", l)
			}
			order := c.LEDSquares()
			if len(order) != 65 || order[8] != board.NoSquare || order[9] != sq("h2") {
				t.Errorf("order %v", order[:10])
			}
		}},
		{"buttons", `[buttons]
debounce = "50ms"
active_high = true
white_clock = "GPIO5"
black_claim = "GPIO6"
black_check = ""`, func(t *testing.T, c *Config) {
			b := c.Buttons
			if b.Debounce != 50*time.Millisecond || !b.ActiveHigh || !reflect.DeepEqual(b.Pins, map[string]string{"white_clock": "GPIO5", "black_claim": "GPIO6"}) {
				t.Errorf("buttons %+v", b)
			}
		}},
		{"clock display", `[clock_display]
white_clk = "GPIO20"
white_dio = "GPIO21"
black_clk = "GPIO19"
black_dio = "GPIO26"
brightness = 8`, func(t *testing.T, c *Config) {
			want := ClockDisplay{WhiteCLK: "GPIO20", WhiteDIO: "GPIO21", BlackCLK: "GPIO19", BlackDIO: "GPIO26", Brightness: 8}
			if c.ClockDisplay != want || !c.ClockDisplay.Configured() {
				t.Errorf("clock display %+v", c.ClockDisplay)
			}
		}},
		{"serial wirings", `[sensor]
wiring = "serial:/dev/ttyACM0"
[led]
wiring = "serial:/dev/ttyACM0"`, func(t *testing.T, c *Config) {
			if c.Sensor.Wiring != "serial:/dev/ttyACM0" || c.LED.Wiring != "serial:/dev/ttyACM0" {
				t.Errorf("wirings %q %q", c.Sensor.Wiring, c.LED.Wiring)
			}
		}},
		{"a paired board", `hall = "mqtts://broker.club.lan"
[pair]
with = "hall:board-02"
side = "black"`, func(t *testing.T, c *Config) {
			if c.Pair != (Pair{With: "hall:board-02", Side: "black"}) {
				t.Errorf("pair %+v", c.Pair)
			}
		}},
		{"a paired board over a direct link", `[pair]
with = "listen:0.0.0.0:7070"
side = "white"`, func(t *testing.T, c *Config) {
			if c.Pair != (Pair{With: "listen:0.0.0.0:7070", Side: "white"}) {
				t.Errorf("pair %+v", c.Pair)
			}
		}},
		{"a 74hc165 and a MAX7219 share SPI0 on their own chip selects", `[sensor]
wiring = "hc165"
[led]
wiring = "max7219"`, func(t *testing.T, c *Config) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse([]byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, cfg)
		})
	}
}

// restOfBoard lists ranks from+1..8 as a serpentine continuing from rank
// from, quoted and comma-separated.
func restOfBoard(from int) string {
	var names []string
	for r := from; r < 8; r++ {
		for f := 0; f < 8; f++ {
			ff := f
			if r%2 == 1 {
				ff = 7 - f
			}
			names = append(names, board.NewSquare(ff, r).String())
		}
	}
	return quoteList(names)
}

// topKeys are the keys of the file's top level.
const topKeys = `the keys here are black, board, board_id, buttons, clock_display, emulate, engine, hall, hands, laws, led, lichess, listen, log_level, pair, sensor, state_dir, time_control, tls_cert, tls_key, tournament, visually_impaired, voice, warn_only, white`

func TestParseInvalid(t *testing.T) {
	cases := []struct {
		name string
		data string
		want []string // each fault's message, in order
	}{
		{"unknown law-set", `laws = "fide2018"`,
			[]string{`laws = "fide2018": expected a law-set: sarratt1808, philidor1825, nycc, hastings1895, fide2023`}},
		{"wrong type", `tournament = "yes"`, []string{`tournament = "yes": expected true or false`}},
		{"unknown key", `[sensor]
wiring = "hc165"
rat = 100`, []string{`sensor.rat = 100: expected no such key: the keys here are adc, along, debounce, fault_after, first, hc165, matrix, mcp23017, rate, retries, serpentine, squares, wiring`}},
		{"unknown table", `[leds]
wiring = "ws2812"`, []string{`leds = {wiring}: expected no such key: the keys here are black, board, board_id, buttons, clock_display, emulate, engine, hall, hands, laws, led, lichess, listen, log_level, pair, sensor, state_dir, time_control, tls_cert, tls_key, tournament, visually_impaired, voice, warn_only, white`}},
		{"engine side", `[engine]
side = "both"`, []string{`engine.side = "both": expected white, black or random`}},
		{"visually impaired side", `visually_impaired = "both"`, []string{`visually_impaired = "both": expected "white" or "black" (the side whose player is visually impaired), or "" for neither`}},
		{"visually impaired the engine's side", `visually_impaired = "black"
[engine]
path = "/usr/games/stockfish"`, []string{`visually_impaired = "black": expected the side of the player at the board, not the engine's (engine.side = "black")`}},
		{"visually impaired under an old code", `laws = "nycc"
visually_impaired = "white"`, []string{`visually_impaired = "white": expected "" under laws "nycc": a visually impaired player's board is read by FIDE's Appendix D (laws = "fide2023")`}},
		{"settle too short", `[hands]
settle = "20ms"`, []string{`hands.settle = "20ms": expected how long a move must stand still before it is made, a duration from 100ms to 2s such as "450ms"`}},
		{"warn-only in a tournament", "tournament = true\nwarn_only = true", []string{`warn_only = true: expected false when tournament is on (tournament = true or --tournament): a tournament exacts every penalty, warn-only none; give one`}},
		{"quick settle past settle", `[hands]
settle = "300ms"
quick_settle = "400ms"`, []string{`hands.quick_settle = "400ms": expected no longer than hands.settle (300ms): a move is shown as pending before it is made`}},
		{"engine limit", `[engine]
limit = "elo:1500"`, []string{`engine.limit = "elo:1500": expected a limit a move such as "movetime:2s", "depth:8" or "nodes:20000" (joined by commas), or "" for the level's default`}},
		{"engine clock", `[engine]
clock = "never"`, []string{`engine.clock = "never": expected "carried" (the engine's clock runs until its move is carried out on the board) or "shown" (until it is shown)`}},
		{"engine book", `[engine]
book = "book.bin"`, []string{`engine.book = "book.bin": expected an absolute file name such as "/etc/boardd/console.pem", or "" for none`}},
		{"lichess seek", `[lichess]
seek = "fifteen"`, []string{`lichess.seek = "fifteen": expected a clock "MINUTES+SECONDS" such as "15+10" (minutes up to 180, seconds up to 180), or "" for no seek`}},
		{"lichess blitz seek", `[lichess]
seek = "3+2"`, []string{`lichess.seek = "3+2": expected a clock "MINUTES+SECONDS" such as "15+10" (minutes up to 180, seconds up to 180) for a rapid or classical game, as the Board API seeks no others: minutes + 40 × seconds must come to 8 or more, or "" for no seek`}},
		{"pair with", `[pair]
with = "shout:board-02"
side = "white"`, []string{`pair.with = "shout:board-02": expected "hall:BOARD" (the other board's id, through the hall's broker), "listen:ADDR" (wait for the other board, e.g. "listen:0.0.0.0:7070"), "connect:ADDR" (e.g. "connect:board-01.lan:7070") or "" for none`}},
		{"pair with an address without a port", `[pair]
with = "connect:board-01.lan"
side = "white"`, []string{`pair.with = "connect:board-01.lan": expected "hall:BOARD" (the other board's id, through the hall's broker), "listen:ADDR" (wait for the other board, e.g. "listen:0.0.0.0:7070"), "connect:ADDR" (e.g. "connect:board-01.lan:7070") or "" for none`}},
		{"pair side", `[pair]
with = "connect:board-01.lan:7070"
side = "green"`, []string{`pair.side = "green": expected "white" or "black": the side played at this board`}},
		{"pair without a side", `[pair]
with = "connect:board-01.lan:7070"`, []string{`pair.side = "": expected "white" or "black" with pair.with: the side played at this board`}},
		{"pair side without a board", `[pair]
side = "white"`, []string{`pair.with = "": expected the other board, with pair.side: hall:BOARD, listen:ADDR or connect:ADDR`}},
		{"pair through the hall without a hall", `[pair]
with = "hall:board-02"
side = "white"`, []string{`pair.with = "hall:board-02": expected "listen:ADDR" or "connect:ADDR" without hall: pairing through the hall's broker needs hall`}},
		{"lichess color", `[lichess]
seek = "15+10"
color = "green"`, []string{`lichess.color = "green": expected white, black or random (the side the seek asks for)`}},
		{"lichess color and rated without a seek", `[lichess]
rated = true
color = "white"`, []string{`lichess.color = "white": expected "" without lichess.seek: the colour is a seek's`, `lichess.rated = true: expected false without lichess.seek: rated or casual is a seek's`}},
		{"lichess accept", `[lichess]
accept = ["alice", "bob smith"]`, []string{`lichess.accept[1] = "bob smith": expected a lichess user name (2 to 30 letters, digits, "_" or "-") or "anyone"`}},
		{"lichess token", `[lichess]
token = "lip_x"`, []string{`lichess.token = "lip_x": expected no such key: the keys here are accept, color, play, rated, seek`}},
		{"engine elo and skill", `[engine]
elo = 1500
skill = 5`, []string{`engine.skill = 5: expected -1 (none) with engine.elo set: an Elo or a Skill Level, not both`}},
		{"rate out of range", `[sensor]
rate = 0`, []string{`sensor.rate = 0: expected scans a second, a number from 1 to 2000`}},
		{"rate not a number", `[sensor]
rate = "fast"`, []string{`sensor.rate = "fast": expected scans a second, a number from 1 to 2000`}},
		{"unknown wiring", `[sensor]
wiring = "hc595"`, []string{`sensor.wiring = "hc595": expected one of sim, none, hc165, mcp23017, matrix, mcp3008, mcp3208, or serial:PATH`}},
		{"bad duration", `[sensor]
debounce = "20"`, []string{`sensor.debounce = "20": expected a debounce window, a duration from 1ms to 1s such as "20ms"`}},
		{"bad frequency", `[sensor.hc165]
speed = "1GHz"`, []string{`sensor.hc165.speed = "1GHz": expected a frequency from 10kHz to 25MHz such as "1MHz"`}},
		{"bad spi port", `[sensor.hc165]
spi = "spi0"`, []string{`sensor.hc165.spi = "spi0": expected an SPI port such as "SPI0.0" or "/dev/spidev0.0"`}},
		{"bad address", `[sensor.mcp23017]
addresses = [0x20, 0x48]`, []string{`sensor.mcp23017.addresses[1] = 72: expected a MCP23017 address from 0x20 to 0x27`}},
		{"address twice", `[sensor.mcp23017]
addresses = [0x20, 0x20]`, []string{`sensor.mcp23017.addresses[1] = 32: expected an address not already in the list`}},
		{"nine rows", `[sensor.matrix]
rows = ["GPIO1", "GPIO2", "GPIO3", "GPIO4", "GPIO5", "GPIO6", "GPIO7", "GPIO8", "GPIO9"]`,
			[]string{`sensor.matrix.rows = ["GPIO1", "GPIO2", "GPIO3", "GPIO4", "GPIO5", "GPIO6", ... (9 in all)]: expected a list of 1 to 8 GPIO line names`}},
		{"bad GPIO in a list", `[sensor.matrix]
columns = ["GPIO6", 7]`, []string{`sensor.matrix.columns[1] = 7: expected GPIO line names`}},
		{"not a corner", `[board]
a1 = "e4"`, []string{`board.a1 = "e4": expected a corner: "a1", "h1", "a8" or "h8"`}},
		{"bad along", `[led]
along = "diagonals"`, []string{`led.along = "diagonals": expected "ranks" or "files"`}},
		{"bad square in a list", `[sensor]
squares = ["a1", "i9"]`, []string{`sensor.squares[1] = "i9": expected square names such as "a1"`}},
		{"sensor squares too few", `[sensor]
wiring = "hc165"
squares = ["a1", "b1"]`, []string{`sensor.squares = ["a1", "b1"]: expected one square for each of the 64 inputs of the hc165 wiring`}},
		{"LED square twice", `[led]
wiring = "ws2812"
squares = [` + quoteList(strings.Split("a1 a1", " ")) + `, ` + restOfBoard(1) + `, "-", "-", "-", "-", "-", "-"]`,
			[]string{`led.squares = ["a1", "a1", "h2", "g2", "f2", "e2", "d2", "c2", "b2", "a2", ... (64 in all)]: expected each square once (a1 is there twice)`}},
		{"LED square missing", `[led]
wiring = "ws2812"
squares = [` + restOfBoard(1) + `, "-", "-", "-", "-", "-", "-", "-", "-"]`,
			[]string{`led.squares = ["h2", "g2", "f2", "e2", "d2", "c2", "b2", "a2", "a3", "b3", ... (64 in all)]: expected every square (a1 has no LED)`}},
		{"brightness", `[led]
brightness = 0`, []string{`led.brightness = 0: expected a brightness in percent, a whole number from 1 to 100`}},
		{"listen", `listen = "localhost"`, []string{`listen = "localhost": expected an address host:port such as "127.0.0.1:8080" or ":8080"`}},
		{"hall scheme", `hall = "http://hall.local"`, []string{`hall = "http://hall.local": expected a broker URL with scheme mqtt, mqtts, tcp, ssl, tls, ws or wss`}},
		{"relative state dir", `state_dir = "state"`, []string{`state_dir = "state": expected an absolute directory such as "/var/lib/boardd", or "" for the default`}},
		{"emulate another board", `emulate = "dgt:/dev/ttyGS0"`, []string{`emulate = "dgt:/dev/ttyGS0": expected a board to answer apps as and its serial port, such as "chesslink:/dev/ttyGS0" (an absolute path), or "" for none`}},
		{"emulate on a relative path", `emulate = "chesslink:ttyGS0"`, []string{`emulate = "chesslink:ttyGS0": expected a board to answer apps as and its serial port, such as "chesslink:/dev/ttyGS0" (an absolute path), or "" for none`}},
		{"board id", `board_id = "board/7"`, []string{`board_id = "board/7": expected an id of letters, digits, '.', '_' and '-' (at most 64), or "" for the host name`}},
		{"a name with a newline", `white = "Anna\nBen"`, []string{`white = "Anna\nBen": expected a player's name (at most 100 characters, none of them a control character), or "" for unknown`}},
		{"a name too long", `black = "` + strings.Repeat("x", 101) + `"`, []string{`black = "` + strings.Repeat("x", 64) + `... (101 bytes)": expected a player's name (at most 100 characters, none of them a control character), or "" for unknown`}},
		{"time control", `time_control = "40/90min"`, []string{`time_control = "40/90min": expected a time control (stage 1: unexpected 'm' after 90: want '+' (increment), 'd' (simple delay), 'b' (Bronstein delay), ':' (next stage) or the end), or "" for none: ` + clock.Syntax}},
		// The clocks' own reading: what they cannot keep is refused here,
		// not when the game starts.
		{"absurd time control", `time_control = "99999999999999999999"`, []string{`time_control = "99999999999999999999": expected a time control (stage 1: "99999999999999999999": too large for seconds), or "" for none: ` + clock.Syntax}},
		{"no such preset", `time_control = "rapid-15-10"`, []string{`time_control = "rapid-15-10": expected a time control (unknown preset "rapid-15-10": want one of hastings1895, fide-classical, fide-rapid, fide-blitz, or stages such as 40/5400+30:1800+30), or "" for none: ` + clock.Syntax}},
		{"no time", `time_control = "1/0"`, []string{`time_control = "1/0": expected a time control (stage 1: no time: the flag would fall at once; want seconds above 0, or an increment or simple delay), or "" for none: ` + clock.Syntax}},
		{"TLS certificate without key", `tls_cert = "/etc/boardd/console.pem"`, []string{`tls_key = "": expected the certificate's private key, to go with tls_cert`}},
		{"TLS key without certificate", `tls_key = "/etc/boardd/console.key"`, []string{`tls_cert = "": expected the console's certificate, to go with tls_key`}},
		{"relative TLS files", "tls_cert = \"console.pem\"\ntls_key = \"console.key\"", []string{`tls_cert = "console.pem": expected an absolute file name such as "/etc/boardd/console.pem", or "" for none`, `tls_key = "console.key": expected an absolute file name such as "/etc/boardd/console.pem", or "" for none`}},
		// A huge value or key is not echoed whole.
		{"huge value", `laws = "` + strings.Repeat("x", 20<<20) + `"`, []string{`laws = "` + strings.Repeat("x", 64) + `... (20971520 bytes)": expected a law-set: sarratt1808, philidor1825, nycc, hastings1895, fide2023`}},
		{"huge key", strings.Repeat("k", 20<<20) + ` = 1`, []string{strings.Repeat("k", 64) + `... (20971520 bytes) = 1: expected no such key: ` + topKeys}},
		{"huge list", "[sensor.matrix]\nrows = [" + strings.Repeat(`"`+strings.Repeat("r", 1000)+`", `, 2000) + `"r"]`, []string{`sensor.matrix.rows = ["` + strings.Repeat("r", 64) + `... (1000 bytes)", ... (2001 in all)]: expected a list of 1 to 8 GPIO line names`}},
		{"log level", `log_level = "trace"`, []string{`log_level = "trace": expected debug, info, warn or error`}},
		{"clock display short of a pin", `[clock_display]
white_clk = "GPIO20"
white_dio = "GPIO21"
black_clk = "GPIO19"`, []string{`clock_display.black_dio = "": expected a GPIO name: the clock display needs all four pins`}},
		{"clock display too bright", `[clock_display]
brightness = 9`, []string{`clock_display.brightness = 9: expected a brightness step (1 dimmest, 8 brightest, 0 the default), a whole number from 0 to 8`}},
		{"unknown button", `[buttons]
white_resign = "GPIO5"`, []string{`buttons.white_resign = "GPIO5": expected no such key: the keys here are active_high, black_check, black_claim, black_clock, black_jadoube, debounce, white_check, white_claim, white_clock, white_jadoube`}},
		{"button pin not a name", `[buttons]
white_clock = 5`, []string{`buttons.white_clock = 5: expected a GPIO of the Raspberry Pi's header, "GPIO0" to "GPIO27" (Broadcom numbers, as gpioinfo names them), or "" for no button`}},
		{"a GPIO used twice", `[sensor]
wiring = "hc165"
[buttons]
white_clock = "GPIO25"`, []string{`buttons.white_clock = "GPIO25": expected a GPIO no other part uses (GPIO25 is the 74HC165 load pin, sensor.hc165.load)`}},
		{"a button on a bus pin", `[sensor]
wiring = "hc165"
[buttons]
black_jadoube = "GPIO10"`, []string{`buttons.black_jadoube = "GPIO10": expected a GPIO no other part uses (GPIO10 is SPI0 MOSI, sensor.hc165.spi)`}},
		{"an LED strip on the sensor's bus", `[sensor]
wiring = "hc165"
[led]
wiring = "ws2812"
[led.ws2812]
spi = "SPI0.1"`, []string{`led.ws2812.spi = "SPI0.1": expected an SPI bus of its own: the 74HC165 chain is on SPI0 (sensor.hc165.spi), and an LED strip has no chip select`}},
		{"one SPI port twice", `[sensor]
wiring = "hc165"
[led]
wiring = "max7219"
[led.max7219]
spi = "SPI0.0"`, []string{`led.max7219.spi = "SPI0.0": expected an SPI port no other part uses (SPI0.0 is the 74HC165 chain, sensor.hc165.spi)`}},
		{"ADC quiet beyond 10 bits", `[sensor]
wiring = "mcp3008"
[sensor.adc]
quiet = 2048`, []string{`sensor.adc.quiet = 2048: expected a reading below 1024, the mcp3008's full scale`}},
		{"several faults at once", `laws = "x"
[sensor]
rate = -1
retries = 99`, []string{
			`laws = "x": expected a law-set: sarratt1808, philidor1825, nycc, hastings1895, fide2023`,
			`sensor.rate = -1: expected scans a second, a number from 1 to 2000`,
			`sensor.retries = 99: expected retries of a failed read, a whole number from 0 to 10`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.data))
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %v (%T), want Errors", err, err)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("faults\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestParseSyntaxError(t *testing.T) {
	_, err := Parse([]byte("laws = \"fide2023\"\n[sensor\nrate = 5\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("error %v, want one naming line 2", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(good, []byte("laws = \"sarratt1808\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("laws = 1\n[led]\nbrightness = 500\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(good)
	if err != nil || c.Laws != "sarratt1808" {
		t.Errorf("Load good: %v %v", c, err)
	}
	_, err = Load(bad)
	want := bad + ": 2 faults:\nlaws = 1: expected a string\nled.brightness = 500: expected a brightness in percent, a whole number from 1 to 100"
	if err == nil || err.Error() != want {
		t.Errorf("Load bad:\n got %v\nwant %s", err, want)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("Load missing: %v", err)
	}
}

func TestLayouts(t *testing.T) {
	names := func(sqs []board.Square) string {
		var s []string
		for _, q := range sqs {
			s = append(s, q.String())
		}
		return strings.Join(s, " ")
	}
	sq := func(n string) board.Square { s, _ := board.ParseSquare(n); return s }
	cases := []struct {
		name   string
		layout Layout
		a1     string
		want   string // the first ten squares
	}{
		{"a1 along ranks", Layout{First: sq("a1"), Along: "ranks"}, "a1", "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2"},
		{"a1 serpentine", Layout{First: sq("a1"), Along: "ranks", Serpentine: true}, "a1", "a1 b1 c1 d1 e1 f1 g1 h1 h2 g2"},
		{"h8 along ranks", Layout{First: sq("h8"), Along: "ranks"}, "a1", "h8 g8 f8 e8 d8 c8 b8 a8 h7 g7"},
		{"a8 along files, serpentine", Layout{First: sq("a8"), Along: "files", Serpentine: true}, "a1", "a8 a7 a6 a5 a4 a3 a2 a1 b1 b2"},
		{"h1 along files", Layout{First: sq("h1"), Along: "files"}, "a1", "h1 h2 h3 h4 h5 h6 h7 h8 g1 g2"},
		{"board turned round", Layout{First: sq("a1"), Along: "ranks"}, "h8", "h8 g8 f8 e8 d8 c8 b8 a8 h7 g7"},
		{"wired h1 is a1", Layout{First: sq("a1"), Along: "ranks"}, "h1", "a8 a7 a6 a5 a4 a3 a2 a1 b8 b7"},
		{"wired a8 is a1", Layout{First: sq("a1"), Along: "ranks"}, "a8", "h1 h2 h3 h4 h5 h6 h7 h8 g1 g2"},
		{"explicit squares turned", Layout{Squares: []board.Square{sq("a1"), board.NoSquare, sq("b1")}}, "h8", "h8 - g8"},
	}
	for _, c := range cases {
		got := c.layout.order(64, sq(c.a1))
		if len(c.layout.Squares) > 0 {
			got = c.layout.order(3, sq(c.a1))
		}
		s := names(got)
		s = strings.ReplaceAll(s, board.NoSquare.String(), "-")
		if n := strings.Fields(s); len(n) > 10 {
			s = strings.Join(n[:10], " ")
		}
		if s != c.want {
			t.Errorf("%s: %s, want %s", c.name, s, c.want)
		}
		if len(c.layout.Squares) == 0 {
			if _, dup := repeated(got); dup || len(got) != 64 {
				t.Errorf("%s: not a permutation of the board", c.name)
			}
		}
	}
}

func TestExamplesPassCheck(t *testing.T) {
	for _, name := range append(Examples(), "") {
		text, err := Example(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse([]byte(text))
		if err != nil {
			t.Errorf("example %q refused:\n%v\n%s", name, err, text)
			continue
		}
		if !strings.Contains(text, "\n[lichess]\n") || c.Lichess.Seek != "" || c.Lichess.Rated || c.Lichess.Color != "" || len(c.Lichess.Accept) != 0 {
			t.Errorf("example %q: no [lichess] section with the defaults (%+v)", name, c.Lichess)
		}
		want := name
		if name == "" {
			want = WiringSim
		}
		if c.Sensor.Wiring != want && c.LED.Wiring != want {
			t.Errorf("example %q configures sensor %s and LEDs %s", name, c.Sensor.Wiring, c.LED.Wiring)
		}
	}
	if _, err := Example("hc595"); err == nil || !strings.Contains(err.Error(), "expected one of apa102") {
		t.Errorf("unknown example: %v", err)
	}
}

func TestSensorWiringsHaveExamples(t *testing.T) {
	ex := examples()
	for _, w := range append(SensorWirings(), LEDWirings()...) {
		if w == WiringNone {
			continue
		}
		if _, ok := ex[w]; !ok {
			t.Errorf("wiring %s has no example", w)
		}
	}
}

// Every key the decoder knows is named in the comments or keys of some
// example, in its own section (commented out or not): `boardd config -h`
// says the examples name every key. A section added to the decoder and not
// to the examples fails here.
func TestExamplesNameEveryKey(t *testing.T) {
	header := regexp.MustCompile(`^(?:# ?)?\[([a-z0-9_.]+)\]\s*$`)
	mentioned := map[string]map[string]bool{} // section -> words in it
	for _, name := range Examples() {
		text, err := Example(name)
		if err != nil {
			t.Fatal(err)
		}
		section := ""
		for _, line := range strings.Split(text, "\n") {
			if m := header.FindStringSubmatch(line); m != nil {
				section = m[1]
				continue
			}
			if mentioned[section] == nil {
				mentioned[section] = map[string]bool{}
			}
			for _, w := range regexp.MustCompile(`[a-z0-9_]+`).FindAllString(line, -1) {
				mentioned[section][w] = true
			}
		}
	}
	keys := knownKeys()
	if len(keys) < 50 {
		t.Fatalf("knownKeys lists %d keys: %v", len(keys), keys)
	}
	for _, want := range []string{"laws", "sensor.hc165.load", "buttons.black_check", "clock_display.brightness", "lichess.accept"} {
		if !slices.Contains(keys, want) {
			t.Errorf("knownKeys misses %s", want)
		}
	}
	for _, key := range keys {
		section, name := "", key
		if i := strings.LastIndex(key, "."); i >= 0 {
			section, name = key[:i], key[i+1:]
		}
		if !mentioned[section][name] {
			t.Errorf("no example names %s (in [%s])", key, section)
		}
	}
}

// The commented-out [clock_display] of each example is ready to use: with
// its lines uncommented, the example still passes, the displays on pins
// no other part of that example uses.
func TestExampleClockDisplayUncommented(t *testing.T) {
	for _, name := range Examples() {
		text, err := Example(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(text, "\n")
		start := slices.Index(lines, "# [clock_display]")
		if start < 0 {
			t.Errorf("example %q has no commented-out [clock_display]", name)
			continue
		}
		for i := start; i < len(lines) && strings.HasPrefix(lines[i], "# "); i++ {
			lines[i] = strings.TrimPrefix(lines[i], "# ")
		}
		c, err := Parse([]byte(strings.Join(lines, "\n")))
		if err != nil {
			t.Errorf("example %q with [clock_display] uncommented refused:\n%v", name, err)
			continue
		}
		if cd := c.ClockDisplay; cd.WhiteCLK == "" || cd.WhiteDIO == "" || cd.BlackCLK == "" || cd.BlackDIO == "" || cd.Brightness == 0 {
			t.Errorf("example %q: uncommented [clock_display] sets %+v", name, cd)
		}
	}
}

// Parse reports every fault at once: a fault in a value does not hide the
// pins and buses used twice, and a key that would not do (kept at its
// default) is not held against the others.
func TestParseFindsEveryFault(t *testing.T) {
	for _, c := range []struct {
		name   string
		file   string
		want   []string // the faults' keys, in order
		absent string   // a fault a skipped check would report
	}{
		{"cross-key faults and a shared pin",
			"[engine]\nelo = 1500\nskill = 3\n[lichess]\ncolor = \"white\"\n[buttons]\nwhite_clock = \"GPIO5\"\nblack_clock = \"GPIO5\"\n",
			[]string{"engine.skill", "lichess.color", "buttons.white_clock"}, ""},
		{"a lone certificate, a short LED layout and a pin on the LED strip's bus",
			"tls_cert = \"/etc/boardd/console.pem\"\n[led]\nwiring = \"ws2812\"\nsquares = [\"a1\"]\n[buttons]\nwhite_clock = \"GPIO20\"\n",
			[]string{"tls_key", "led.squares", "buttons.white_clock"}, ""},
		{"a bad clock display pin is not also a missing one",
			"[clock_display]\nwhite_clk = \"GPIO99\"\nwhite_dio = \"GPIO21\"\nblack_clk = \"GPIO19\"\nblack_dio = \"GPIO26\"\n",
			[]string{"clock_display.white_clk"}, "all four pins"},
		{"a bad matrix row keeps the default rows, which clash with nothing",
			"[sensor]\nwiring = \"matrix\"\n[sensor.matrix]\nrows = [\"GPIO4\", \"GPIO99\"]\n[buttons]\nwhite_clock = \"GPIO7\"\nblack_clock = \"GPIO7\"\n",
			[]string{"sensor.matrix.rows[1]", "buttons.white_clock"}, "sensor.matrix.rows[0]"},
	} {
		_, err := Parse([]byte(c.file))
		var es Errors
		if !errors.As(err, &es) {
			t.Errorf("%s: %v, want Errors", c.name, err)
			continue
		}
		var keys []string
		for _, e := range es {
			keys = append(keys, e.Key)
		}
		if !slices.Equal(keys, c.want) {
			t.Errorf("%s: faults in %v, want %v:\n%v", c.name, keys, c.want, err)
		}
		if c.absent != "" && strings.Contains(err.Error(), c.absent) {
			t.Errorf("%s: says %q:\n%v", c.name, c.absent, err)
		}
	}
}

// [hands] sets how long a move must stand before it is made and how soon
// it shows as pending.
func TestHandsSection(t *testing.T) {
	cases := []struct {
		name, toml    string
		settle, quick time.Duration
	}{
		{"defaults", ``, DefaultSettle, DefaultQuickSettle},
		{"slower hands", "[hands]\nsettle = \"700ms\"", 700 * time.Millisecond, DefaultQuickSettle},
		{"nothing shown early", "[hands]\nquick_settle = \"0s\"", DefaultSettle, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse([]byte(c.toml))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Hands.Settle != c.settle || cfg.Hands.QuickSettle != c.quick {
				t.Fatalf("hands %+v, want settle %v, quick_settle %v", cfg.Hands, c.settle, c.quick)
			}
		})
	}
}
