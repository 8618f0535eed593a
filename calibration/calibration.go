package calibration

import (
	"fmt"
	"math"
	"time"

	"github.com/boardd/boardd/board"
)

// Identity names the sensor hardware a calibration was made on. A calibration
// is only valid on the hardware it names: another scanner, or another number
// of channels, means the wiring and levels it holds are someone else's.
type Identity struct {
	// Scanner is the scanner's String(): its driver, bus and address. Real
	// drivers must keep it stable from one start to the next.
	Scanner string `json:"scanner"`
	// Channels is how many readings the scanner gives per frame.
	Channels int `json:"channels"`
	// Digital says the sensors are on/off switches: the scanner fills
	// Occupancy bits (channel i = bit i) and no analogue readings.
	Digital bool `json:"digital,omitempty"`
}

// String describes the hardware for messages.
func (id Identity) String() string {
	kind := "analogue"
	if id.Digital {
		kind = "digital"
	}
	return fmt.Sprintf("%q with %d %s sensors", id.Scanner, id.Channels, kind)
}

// Polarity says whether White's and Black's men carry opposite magnetic poles
// downwards, which lets an analogue board read the man's colour.
type Polarity string

// The two polarities a builder may choose.
const (
	Dual   Polarity = "dual"   // White and Black read on opposite sides of the empty level
	Single Polarity = "single" // every man reads the same way: occupancy only
)

// Level is a sensor's mean reading in one condition and its noise (standard
// deviation), in ADC counts.
type Level struct {
	Mean  float64 `json:"mean"`
	Noise float64 `json:"noise"`
}

// Flag marks something the wizard found suspicious about a square.
type Flag string

// Flags a square may carry.
const (
	FlagDead      Flag = "dead"      // no sensor answered a man on the square
	FlagWeak      Flag = "weak"      // the man's signal is small against the noise
	FlagNoisy     Flag = "noisy"     // the empty reading is much noisier than the other squares'
	FlagFlat      Flag = "flat"      // the empty reading has no noise at all: a disconnected input
	FlagCrosstalk Flag = "crosstalk" // the square's sensor also answers a man on another square
	FlagPolarity  Flag = "polarity"  // on a dual-polarity board, both colours read the same way here
	FlagNoLED     Flag = "no-led"    // no LED was found for the square
)

func knownFlag(f Flag) bool {
	switch f {
	case FlagDead, FlagWeak, FlagNoisy, FlagFlat, FlagCrosstalk, FlagPolarity, FlagNoLED:
		return true
	}
	return false
}

// Square is what the calibration knows of one square.
type Square struct {
	// Square is the square's name, "a1" to "h8", for people reading the file.
	Square string `json:"square"`
	// Channel is the index of the square's sensor in the scanner's readings;
	// -1 when no sensor was found.
	Channel int `json:"channel"`
	// LED is the index of the square's LED on the LED chain; -1 when none.
	LED int `json:"led"`
	// Empty is the reading with nothing on the square.
	Empty Level `json:"empty"`
	// White and Black are the readings under a man of each colour; nil when
	// not learned.
	White *Level `json:"white,omitempty"`
	Black *Level `json:"black,omitempty"`
	// Flags are what the wizard found suspicious.
	Flags []Flag `json:"flags,omitempty"`
}

// Has reports whether the square carries flag f.
func (s *Square) Has(f Flag) bool {
	for _, g := range s.Flags {
		if g == f {
			return true
		}
	}
	return false
}

func (s *Square) flag(f Flag) {
	if !s.Has(f) {
		s.Flags = append(s.Flags, f)
	}
}

// Default threshold fractions: an empty square becomes occupied when its
// reading has moved half-way from the empty level towards the weaker man's
// level, and becomes empty again only when it is back within a quarter.
const (
	DefaultOn  = 0.5
	DefaultOff = 0.25
)

// Calibration is everything boardd knows about one board's sensors and LEDs.
type Calibration struct {
	Identity
	// LEDs is the length of the LED chain, 0 for a board without LEDs.
	LEDs int `json:"leds"`
	// Made is when the wizard finished (wall clock; for people).
	Made time.Time `json:"made"`
	// Polarity is what the men's magnets allow.
	Polarity Polarity `json:"polarity"`
	// On and Off are the threshold fractions of the gap between the empty
	// level and the weaker man's level (DefaultOn, DefaultOff).
	On  float64 `json:"on"`
	Off float64 `json:"off"`
	// Squares holds a1 first, h8 last.
	Squares [64]Square `json:"squares"`
}

// Flagged returns the squares carrying flag f.
func (c *Calibration) Flagged(f Flag) board.Occupancy {
	var o board.Occupancy
	for i := range c.Squares {
		if c.Squares[i].Has(f) {
			o = o.With(board.Square(i))
		}
	}
	return o
}

// Unfit returns why a board with this calibration cannot be trusted for
// play (squares with no working sensor), or nil.
func (c *Calibration) Unfit() error {
	var dead board.Occupancy
	for i := range c.Squares {
		s := &c.Squares[i]
		if s.Channel < 0 || s.Has(FlagDead) {
			dead = dead.With(board.Square(i))
		}
	}
	if dead != 0 {
		return fmt.Errorf("calibration: no working sensor on %v: repair the board and run 'boardd calibrate', or 'boardd selftest' for details", dead.SquareNames())
	}
	return nil
}

// LEDIndex returns the LED index of square sq, or -1.
func (c *Calibration) LEDIndex(sq board.Square) int {
	if !sq.Valid() {
		return -1
	}
	return c.Squares[sq].LED
}

// thresholds are a square's decision levels, as deviations from its empty
// level. A direction that can never be reached has +Inf thresholds.
type thresholds struct {
	onUp, offUp, onDown, offDown float64
	// gapUp and gapDown are the distances to the weaker man's level.
	gapUp, gapDown float64
	// upBlack says a man read upwards is Black; colourUp and colourDown say
	// whether the direction tells the colour at all.
	upBlack, colourUp, colourDown bool
}

// thresholds derives square s's decision levels from its learned levels.
// A direction no man was seen in mirrors the other (a man placed upside down
// is still a man), without a colour.
func (c *Calibration) thresholds(s *Square) thresholds {
	inf := math.Inf(1)
	t := thresholds{onUp: inf, offUp: inf, onDown: inf, offDown: inf, gapUp: inf, gapDown: inf}
	if s.Channel < 0 || s.Has(FlagDead) {
		return t
	}
	var up, down float64 // weakest man's distance in each direction, 0 if none
	var upCol, downCol []board.Color
	note := func(l *Level, col board.Color) {
		if l == nil {
			return
		}
		d := l.Mean - s.Empty.Mean
		switch {
		case d > 0:
			if up == 0 || d < up {
				up = d
			}
			upCol = append(upCol, col)
		case d < 0:
			if down == 0 || -d < down {
				down = -d
			}
			downCol = append(downCol, col)
		}
	}
	note(s.White, board.White)
	note(s.Black, board.Black)
	switch {
	case up == 0 && down == 0:
		return t
	case up == 0:
		up = down
	case down == 0:
		down = up
	}
	t.gapUp, t.gapDown = up, down
	t.onUp, t.offUp = c.On*up, c.Off*up
	t.onDown, t.offDown = c.On*down, c.Off*down
	if c.Polarity == Dual && len(upCol) == 1 && len(downCol) == 1 {
		t.colourUp, t.colourDown = true, true
		t.upBlack = upCol[0] == board.Black
	}
	return t
}
