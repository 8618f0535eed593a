package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardd/boardd/lawset"
)

// example is one named wiring's example file: the sensor and LED wirings it
// shows, its settings beyond the defaults, and its buttons.
type example struct {
	title   string
	sensor  string
	led     string
	spiLED  string // the LED driver's SPI port, when not its default
	layout  string // the LED layout lines
	buttons [][2]string
	note    string
	// clockPins are the TM1637 displays' pins, white_clk, white_dio,
	// black_clk, black_dio, for its commented-out [clock_display]: pins
	// no other part of the example uses; zero for docs/hardware.md's.
	clockPins [4]string
}

func examples() map[string]example {
	serp := "first = \"a1\"\nalong = \"ranks\"\nserpentine = true\n"
	// Clock display pins clear of SPI1 (a strip's MOSI and SCLK, GPIO20
	// and GPIO21), and, where the board takes nearly every other GPIO, the
	// I2C1 and UART pins.
	spi1Free := [4]string{"GPIO16", "GPIO17", "GPIO24", "GPIO26"}
	crowded := [4]string{"GPIO2", "GPIO3", "GPIO14", "GPIO15"}
	return map[string]example{
		WiringSim: {title: "a simulated board: no hardware, the console plays the board", sensor: WiringSim, led: WiringNone},
		WiringHC165: {title: "8 x 74HC165 shift registers on SPI0, a WS2812B strip on SPI1, six buttons",
			sensor: WiringHC165, led: WiringWS2812, layout: serp,
			buttons: [][2]string{{"white_jadoube", "GPIO5"}, {"white_claim", "GPIO6"}, {"white_clock", "GPIO12"},
				{"black_jadoube", "GPIO13"}, {"black_claim", "GPIO22"}, {"black_clock", "GPIO23"}},
			clockPins: spi1Free},
		WiringMCP23017: {title: "4 x MCP23017 expanders and an HT16K33 LED matrix, all on I2C1, six buttons",
			sensor: WiringMCP23017, led: WiringHT16K33,
			buttons: [][2]string{{"white_jadoube", "GPIO5"}, {"white_claim", "GPIO6"}, {"white_clock", "GPIO12"},
				{"black_jadoube", "GPIO13"}, {"black_claim", "GPIO22"}, {"black_clock", "GPIO23"}}},
		WiringMatrix: {title: "an 8x8 switch matrix on 16 GPIOs and a MAX7219 LED matrix on SPI0, two clock buttons",
			sensor: WiringMatrix, led: WiringMAX7219, spiLED: "SPI0.0",
			buttons:   [][2]string{{"white_clock", "GPIO25"}, {"black_clock", "GPIO7"}},
			note:      "# GPIO7 is SPI0's CE1: free it with dtoverlay=spi0-1cs in /boot/firmware/config.txt.\n",
			clockPins: crowded},
		WiringMCP3008: {title: "analogue Hall sensors on 8 x MCP3008 (SPI0, GPIO chip selects), an APA102 strip on SPI1",
			sensor: WiringMCP3008, led: WiringAPA102, layout: serp,
			buttons:   [][2]string{{"white_jadoube", "GPIO25"}, {"white_clock", "GPIO26"}, {"black_jadoube", "GPIO27"}, {"black_clock", "GPIO16"}},
			clockPins: crowded},
		WiringMCP3208: {title: "analogue Hall sensors on 8 x MCP3208 (SPI0, GPIO chip selects), an APA102 strip on SPI1",
			sensor: WiringMCP3208, led: WiringAPA102, layout: serp,
			buttons:   [][2]string{{"white_jadoube", "GPIO25"}, {"white_clock", "GPIO26"}, {"black_jadoube", "GPIO27"}, {"black_clock", "GPIO16"}},
			clockPins: crowded},
		WiringWS2812:  {title: "a WS2812B strip on SPI1 with the simulated board", sensor: WiringSim, led: WiringWS2812, layout: serp, clockPins: spi1Free},
		WiringSK6812:  {title: "an SK6812 (RGB) strip on SPI1 with the simulated board", sensor: WiringSim, led: WiringSK6812, layout: serp, clockPins: spi1Free},
		WiringAPA102:  {title: "an APA102 strip on SPI1 with the simulated board", sensor: WiringSim, led: WiringAPA102, layout: serp, clockPins: spi1Free},
		WiringMAX7219: {title: "a MAX7219 LED matrix on SPI0 with the simulated board", sensor: WiringSim, led: WiringMAX7219},
		WiringHT16K33: {title: "an HT16K33 LED matrix on I2C1 with the simulated board", sensor: WiringSim, led: WiringHT16K33},
	}
}

// Examples returns the names Example knows, sorted.
func Examples() []string {
	var names []string
	for n := range examples() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Example returns a commented configuration file for the named wiring (a
// sensor or LED wiring; "" for the simulated board) that Parse accepts.
func Example(wiring string) (string, error) {
	if wiring == "" {
		wiring = WiringSim
	}
	ex, ok := examples()[wiring]
	if !ok {
		return "", fmt.Errorf("no example wiring %q: expected one of %s", wiring, strings.Join(Examples(), ", "))
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# boardd configuration: %s.\n", ex.title)
	w("# Install as %s (or pass --config FILE); check with: boardd config check FILE\n", DefaultPath)
	w("# Any key may be left out to take its default; docs/hardware.md explains each\n# key and gives its default.\n\n")
	w(`# The law-set the arbiter applies: %s.
laws = "fide2023"
# Tournament mode: the arbiter exacts every penalty; nobody may waive one.
tournament = false
# Warn-only, for casual games: each irregularity is shown and explained with
# its law, but no penalty is exacted (an illegal move is still set back).
# Never with tournament = true.
warn_only = false
# Time control, as --time-control takes it; "" for no clock. A preset
# (hastings1895, fide-classical, fide-rapid, fide-blitz), or stages in seconds
# joined by ':', each [moves/]seconds with an increment (+30), a simple delay
# (d5) or a Bronstein delay (b5): "40/5400+30:1800+30", "300+2", "300d5",
# "300b5", "30/7200:15/3600" (a last stage with a move count repeats).
time_control = ""
# The names of the players, White and Black, as the PGN and the console show
# them; "" for unknown. The side an engine plays takes the engine's name.
white = ""
black = ""
# The side whose player at this board is visually impaired, "white" or
# "black"; "" for neither. His lifts are his touches and his moves are made
# once boardd announces them, by FIDE's Appendix D (D.2.2, D.2.3; laws =
# "fide2023" only); the other side's hands are read as ever (docs/voice.md).
# --visually-impaired overrides it.
visually_impaired = ""
# The web console's address, host:port: "127.0.0.1:8080" for this machine only,
# ":8080" for every network it is on (then give tls_cert and tls_key).
listen = "127.0.0.1:8080"
# The console's certificate and private key (PEM files, absolute paths) to
# serve HTTPS, e.g. "/etc/boardd/console.pem" and "/etc/boardd/console.key";
# "" for plain HTTP. A console reached over the club's network needs them:
# without them the arbiter's token crosses the network in clear.
tls_cert = ""
tls_key = ""
# Where the game journal, the arbiter token and the calibration live (an
# absolute path); "" means, in this order: $STATE_DIRECTORY (systemd's; the
# first of several), else $XDG_STATE_HOME/boardd, else ~/.local/state/boardd.
state_dir = ""
# The club hall's MQTT broker: "mqtt://host:1883", or "mqtts://host:8883" for
# TLS; "" for none.
hall = ""
# This board's id in the hall; "" means the host name.
board_id = ""
# debug, info, warn or error.
log_level = "info"
# Answer chess apps as a board they know: "chesslink:/dev/ttyGS0" is a
# Millennium ChessLink board on that serial port (a Pi's USB gadget port, a
# UART); docs/chesslink.md. "" for none.
emulate = ""

[board]
# Orientation: the corner of the board, as the wiring below names it, where a1
# really is. "a1" when the board stands as wired, "h8" when it is turned round,
# "h1" or "a8" for a quarter turn.
a1 = "a1"

`, strings.Join(lawset.IDs(), ", "))
	d := Default()
	w("[sensor]\n# sim (the console's simulated board), none, hc165, mcp23017, matrix, mcp3008,\n# mcp3208, or a serial board: %s.\nwiring = %q\n", serialForms, ex.sensor)
	w("# Scans a second, retries of a failed read, failed scans in a row before the\n# LEDs and console show a fault, and the per-square debounce window.\n")
	w("rate = %g\nretries = %d\nfault_after = %d\ndebounce = %q\n", d.Sensor.Rate, d.Sensor.Retries, d.Sensor.FaultAfter, d.Sensor.Debounce.String())
	switch ex.sensor {
	case WiringHC165, WiringMCP23017, WiringMatrix, WiringMCP3008, WiringMCP3208:
		w("# Which square input 0 is, and how the inputs run (docs/hardware.md numbers\n# each wiring's inputs); or list all of them: squares = [\"a1\", \"b1\", ...].\n")
		w("first = \"a1\"\nalong = \"ranks\"\nserpentine = false\n")
	}
	w("\n")
	switch ex.sensor {
	case WiringHC165:
		h := d.Sensor.HC165
		w(`[sensor.hc165]
# The SPI port: MISO from chip 0's QH, SCLK to every CLK, the port's CE to every
# CLK INH (or tie CLK INH to ground).
spi = %q
speed = %q
# The GPIO on every chip's SH/LD.
load = %q
chips = %d
# Read one byte more, which must be 0x00: tie the last chip's SER to ground.
check = %t
# A magnet pulls its input low (Hall switches with pull-ups).
active_low = %t

`, h.SPI, "1MHz", h.Load, h.Chips, h.Check, h.ActiveLow)
	case WiringMCP23017:
		m := d.Sensor.MCP23017
		w(`[sensor.mcp23017]
i2c = %q
# One to four chips; A2..A1..A0 strapped 000, 001, 010, 011.
addresses = [0x20, 0x21, 0x22, 0x23]
active_low = %t

`, m.I2C, m.ActiveLow)
	case WiringMatrix:
		m := d.Sensor.Matrix
		w(`[sensor.matrix]
# The GPIO character device holding the lines; "" for the first (the Pi's
# header: lines GPIO0 to GPIO27). Name another chip, an expander's such as
# "gpiochip2", to use the line names its driver gives.
gpiochip = ""
# Rows are driven low one at a time; columns have pull-ups. A diode in series
# with each switch, cathode to the row.
rows = [%s]
columns = [%s]
# How long to wait after driving a row before reading the columns.
settle = %q

`, quoteList(m.Rows), quoteList(m.Columns), m.Settle.String())
	case WiringMCP3008, WiringMCP3208:
		a := d.Sensor.ADC
		w(`[sensor.adc]
spi = %q
speed = %q
# One GPIO chip select per ADC (1 to 8); [] for a single ADC on the port's own CE.
chip_selects = [%s]
# The reading with no magnet (0: mid-scale) and how far from it means a man
# (0: an eighth of full scale). boardd calibrate learns better values.
quiet = 0
threshold = 0

`, a.SPI, "1MHz", quoteList(a.ChipSelects))
	}

	w("[led]\n# none, sim (the console shows the LEDs), ws2812, sk6812, apa102, max7219,\n# ht16k33, or a serial board (as for the sensor).\nwiring = %q\n", ex.led)
	if ex.led != WiringNone {
		w("# Brightness in percent (64 WS2812s at full white draw nearly 4 A).\nbrightness = %d\n", d.LED.Brightness)
		if ex.led == WiringWS2812 || ex.led == WiringSK6812 || ex.led == WiringAPA102 {
			w("# 1 drives the palette as is; 2.2 makes steps look even.\ngamma = 1.0\n")
		}
		w("# Which square LED 0 lies under and how the LEDs run; or list them all, with\n# \"-\" for an LED under no square: squares = [\"a1\", \"b1\", ..., \"-\", ...].\n")
		if ex.layout != "" {
			w("%s", ex.layout)
		} else {
			w("first = \"a1\"\nalong = \"ranks\"\nserpentine = false\n")
		}
	}
	w("\n")
	switch ex.led {
	case WiringWS2812, WiringSK6812:
		port := d.LED.WS2812.SPI
		if ex.spiLED != "" {
			port = ex.spiLED
		}
		w("[led.%s]\n# The strip's DIN on the port's MOSI (through a 3.3 V to 5 V level shifter);\n# the bus must be the strip's alone. SPI1 needs dtoverlay=spi1-1cs.\nspi = %q\n\n", ex.led, port)
	case WiringAPA102:
		w("[led.apa102]\n# DI on MOSI, CI on SCLK (level-shifted); the bus must be the strip's alone.\nspi = %q\nspeed = \"4MHz\"\n\n", d.LED.APA102.SPI)
	case WiringMAX7219:
		port := d.LED.MAX7219.SPI
		if ex.spiLED != "" {
			port = ex.spiLED
		}
		w("[led.max7219]\n# DIN on MOSI, CLK on SCLK, LOAD on the port's CE.\nspi = %q\n\n", port)
	case WiringHT16K33:
		w("[led.ht16k33]\ni2c = %q\n# 0x70 to 0x77 (A2..A0).\naddress = 0x%02x\n\n", d.LED.HT16K33.I2C, d.LED.HT16K33.Address)
	}

	w("[buttons]\n# Each button joins its GPIO to ground (the pin's pull-up holds it high);\n# active_high = true for buttons to 3.3 V with pull-downs. Every pin in this\n# file is a GPIO of the Pi's header by its Broadcom name, GPIO0 to GPIO27.\n")
	w("debounce = %q\nactive_high = false\n", d.Buttons.Debounce.String())
	if ex.note != "" {
		w("%s", ex.note)
	}
	var names []string
	for _, side := range []string{"white", "black"} {
		for _, n := range buttonNames() {
			names = append(names, side+"_"+n)
		}
	}
	w("# One GPIO per button (\"\" or left out: none): %s.\n", wrapComment(strings.Join(names, ", "), len("# One GPIO per button (\"\" or left out: none): ")))
	if len(ex.buttons) == 0 {
		w("# e.g. white_clock = \"GPIO5\"\n")
	}
	for _, kv := range ex.buttons {
		w("%s = %q\n", kv[0], kv[1])
	}
	w(`
[hands]
# How the players' hands are read (README "How boardd reads hands").
# settle: how long the men must stand still as a move before it is made,
# when neither a clock press nor the adversary's hand ends it sooner: the
# longest a hand may set a man down in passing and carry him on. Longer
# reads slow hands safely; shorter reports moves sooner.
settle = %q
# quick_settle: how soon a move standing still is shown as pending on the
# LEDs and the console ("0s": not before it is made). Shorter answers the
# hand sooner; the move is still made only after settle.
quick_settle = %q
`, d.Hands.Settle.String(), d.Hands.QuickSettle.String())
	cp := ex.clockPins
	if cp == [4]string{} {
		cp = [4]string{"GPIO20", "GPIO21", "GPIO19", "GPIO26"}
	}
	w(`
# Two TM1637 4-digit displays showing the game clocks, or lichess's
# (docs/hardware.md): each display's CLK and DIO on GPIOs of their own, no
# other part's; all four pins once any is given. brightness is a step from 1
# (dimmest) to 8 (brightest), 0 for the displays' default. Without the
# section, no displays: take the "# " off its lines below to use it.
# [clock_display]
# white_clk = %q
# white_dio = %q
# black_clk = %q
# black_dio = %q
# brightness = 5
`, cp[0], cp[1], cp[2], cp[3])
	e := d.Engine
	w(`
[engine]
# A UCI chess engine that plays one side (docs/engine.md): its executable, e.g.
# "/usr/games/stockfish" (Debian's stockfish package); "" for none: both sides
# play at the board. The buttons of the engine's side then take back the
# player's last move (jadoube), give a hint (claim) and offer a draw (check).
path = %q
# The side it plays: "white", "black" or "random" (drawn again each new game).
side = %q
# Its strength: an Elo (elo = 1500: UCI_Elo) or a Skill Level (skill = 5: 0 to
# 20 in Stockfish), not both; elo = 0 and skill = -1 leave them out: Elo 1500
# where the engine has UCI_Elo, else Skill Level 5.
elo = %d
skill = %d
# A limit a move: "movetime:2s", "depth:8", "nodes:20000", joined by commas; ""
# for 1 s a move. With a time control the engine plays on the clocks instead
# (a depth or nodes limit still caps each search).
limit = %q
# An opening book in Polyglot format (an absolute path); "" for none.
book = %q
# The engine's clock runs until its move is "carried" out on the board, or
# until it is "shown" (then the player's clock runs while he carries it out).
clock = %q
# Show the engine's evaluation and best line in the console, and write its
# evaluations in the PGN.
evaluate = %t
# How long the engine thinks about a hint.
hint_time = %q
`, e.Path, e.Side, e.Elo, e.Skill, e.Limit, e.Book, e.Clock, e.Evaluate, e.HintTime.String())
	li := d.Lichess
	w(`
[lichess]
# Online play on lichess, when boardd runs with --lichess or play is true
# (docs/online.md); the flags --lichess-seek, --lichess-rated,
# --lichess-color and --lichess-accept override these. The token is never
# here: it is the file lichess-token in $CREDENTIALS_DIRECTORY or the state
# directory.
# Play online at every start, as --lichess does (a service needs no flag).
play = %t
# Seek a game with this clock, "MINUTES+SECONDS" such as "15+10" (rapid or
# classical: minutes + 40 x seconds must come to 8 or more); "" seeks none:
# boardd resumes the game in progress, or waits for one to start on lichess.
seek = %q
# A rated seek (casual otherwise), and the side it asks for: "white",
# "black" or "random" ("" is random). Both only with a seek.
rated = %t
color = %q
# Accept the challenges of these lichess players, e.g. ["alice", "bob"], or
# ["anyone"]; others are left to answer on lichess.
accept = [%s]
`, li.Play, li.Seek, li.Rated, li.Color, quoteList(li.Accept))
	vo := d.Voice
	w(`
[voice]
# boardd's voice (docs/voice.md): each move as made, the opponent's move to
# carry out, each irregularity and ruling, the result and the clocks, read
# aloud by espeak-ng on the sound card (ALSA). "off", "en" or "de"; the flag
# --voice overrides it.
language = %q
# How a move is said: "plain" ("knight from g1 to f3, check") or
# "appendix-d" (FIDE's Appendix D.2.1: "Springer Gustav eins Felix drei").
convention = %q
# The speech program; "" finds espeak-ng in $PATH (apt install espeak-ng).
program = %q
# Further arguments to it, e.g. ["-a", "150"] (louder) or ["-s", "140"]
# (slower).
args = [%s]
`, vo.Language, vo.Convention, vo.Program, quoteList(vo.Args))
	pa := d.Pair
	w(`
[pair]
# Two boards, one game (docs/voice.md, FIDE's Appendix D: a sighted
# player's board and a visually disabled player's). The other board:
# "hall:BOARD" (its board id, through the hall's broker: needs hall),
# "listen:ADDR" (wait for it, e.g. "listen:0.0.0.0:7070") or "connect:ADDR"
# (e.g. "connect:board-01.lan:7070"); "" pairs with none. The flag --pair
# overrides it.
with = %q
# The side played at this board, "white" or "black" (the other board plays
# the other); --pair-side overrides it.
side = %q
`, pa.With, pa.Side)
	return b.String(), nil
}

// serialForms are the ways a serial board may be named, for the wiring
// keys' comments.
const serialForms = `"serial:/dev/ttyACM0", a stable
# name "serial:/dev/serial/by-id/usb-...", "serial:usb:VID:PID" (e.g.
# "serial:usb:2E8A:000A"), or "serial:usb" for the only USB serial port; add
# "@BAUD" for a UART at another speed than 115200 ("serial:/dev/ttyAMA0@57600")`

// wrapComment breaks a comma-separated list into comment lines of at most
// 79 columns, the first starting at column first.
func wrapComment(list string, first int) string {
	var b strings.Builder
	col := first
	for i, word := range strings.Split(list, " ") {
		if i > 0 {
			if col+1+len(word) > 79 {
				b.WriteString("\n#")
				col = 1
			}
			b.WriteString(" ")
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}
