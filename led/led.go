// Package led is how boardd speaks through the light under each square: the
// LED language (what each colour and blink means), the frames that carry it,
// and the sinks that show frames on real LEDs or record them.
//
// A Frame says, square by square, which meaning to show (a Role) and how to
// blink. Sinks turn meanings into light: colour strips through a palette,
// single-colour matrices through on, off, slow and fast blink. Blinking is
// driven by the injected clock: a sink is told the time with every frame and
// asks to be woken at its next blink edge; a Driver does so in real time.
//
// led knows LEDs, squares and colours, not the game: it imports nothing of
// it. What the LEDs say about a game (a frame drawn from its snapshot) is
// package lighting's, above both.
package led

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
)

// Role is what a lit square means.
type Role uint8

// The LED language. docs/leds.md shows each on the board.
const (
	Off         Role = iota
	MustMove         // a man its side must move (touch-move, a penalty)
	Destination      // a square the man that must move may go to
	Option1          // the squares of the chooser's first option
	Option2          // ... second option
	Option3          // ... third option
	Option4          // ... fourth option
	Option5          // ... fifth option
	Option6          // ... sixth option
	Missing          // a man belongs here but the square is empty (mismatch)
	Extra            // a man stands here that does not belong (mismatch)
	Guide            // take-back in progress: a man must go back here
	Touched          // a man touched and in hand, for the player's eye
	LastMove         // the squares of the last move played
	Winner           // the winning king (or both kings, for a draw: Draw)
	Loser            // the losing king
	Draw             // both kings when the game is drawn
	Fault            // a fault: the board cannot be trusted (sensor, link)
	Carry            // the move of a side played from off the board (an engine, online), for the player to carry out
	Hint             // a move suggested to the player
	Landing          // a move the hands appear to have made, pending until the hand can no longer carry it on
	roleCount
)

var roleNames = [...]string{"off", "must-move", "destination", "option-1", "option-2", "option-3", "option-4", "option-5", "option-6", "missing", "extra", "guide", "touched", "last-move", "winner", "loser", "draw", "fault", "carry", "hint", "landing"}

// LastRole is the highest role number the LED language uses (a wire
// carrying roles by number admits none above it).
const LastRole = roleCount - 1

// String returns the role's name as docs/leds.md and the console write it.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("role(%d)", r)
}

// OptionRole returns the role of the chooser's option number i (0-based);
// options beyond the sixth share the sixth colour.
func OptionRole(i int) Role {
	if i < 0 {
		i = 0
	}
	if i > 5 {
		i = 5
	}
	return Option1 + Role(i)
}

// Blink says how a lit square blinks.
type Blink uint8

// Blink rates.
const (
	Steady Blink = iota
	Slow         // 1 Hz
	Fast         // 4 Hz
)

// Half-periods of the blink rates.
const (
	SlowHalfPeriod = 500 * time.Millisecond
	FastHalfPeriod = 125 * time.Millisecond
)

// String returns "steady", "slow" or "fast".
func (b Blink) String() string {
	switch b {
	case Slow:
		return "slow"
	case Fast:
		return "fast"
	}
	return "steady"
}

// Frame is what all 64 LEDs say: a role and a blink for each square.
type Frame struct {
	Role  [64]Role
	Blink [64]Blink
}

// Set gives square sq a role and blink. Off squares never blink.
func (f *Frame) Set(sq board.Square, r Role, b Blink) {
	if !sq.Valid() {
		return
	}
	if r == Off {
		b = Steady
	}
	f.Role[sq], f.Blink[sq] = r, b
}

// Codes returns the frame's roles and blinks by number, as a wire carries
// them (docs/serial-protocol.md tables the numbers).
func (f *Frame) Codes() (roles, blinks [64]uint8) {
	for sq := range f.Role {
		roles[sq], blinks[sq] = uint8(f.Role[sq]), uint8(f.Blink[sq])
	}
	return roles, blinks
}

// FrameOfCodes is the frame whose roles and blinks are numbered so (the
// inverse of Codes).
func FrameOfCodes(roles, blinks *[64]uint8) Frame {
	var f Frame
	for sq := range f.Role {
		f.Role[sq], f.Blink[sq] = Role(roles[sq]), Blink(blinks[sq])
	}
	return f
}

// SetAll gives every square of set o a role and blink.
func (f *Frame) SetAll(o board.Occupancy, r Role, b Blink) {
	for _, sq := range o.Squares() {
		f.Set(sq, r, b)
	}
}

// Lit reports whether square sq is lit at time t, taking its blink into
// account: blinking squares are lit in the first half of each period.
func (f *Frame) Lit(sq board.Square, t time.Duration) bool {
	if f.Role[sq] == Off {
		return false
	}
	return phaseOn(f.Blink[sq], t)
}

func phaseOn(b Blink, t time.Duration) bool {
	switch b {
	case Slow:
		return (t/SlowHalfPeriod)%2 == 0
	case Fast:
		return (t/FastHalfPeriod)%2 == 0
	}
	return true
}

// NextEdge returns the first time after t at which some square of f changes
// between lit and dark, or false when nothing blinks.
func (f *Frame) NextEdge(t time.Duration) (time.Duration, bool) {
	var slow, fast bool
	for sq, r := range f.Role {
		if r == Off {
			continue
		}
		switch f.Blink[sq] {
		case Slow:
			slow = true
		case Fast:
			fast = true
		}
	}
	switch {
	case fast:
		return (t/FastHalfPeriod + 1) * FastHalfPeriod, true
	case slow:
		return (t/SlowHalfPeriod + 1) * SlowHalfPeriod, true
	}
	return 0, false
}

// Squares returns the squares that have role r.
func (f *Frame) Squares(r Role) board.Occupancy {
	var o board.Occupancy
	for sq, role := range f.Role {
		if role == r {
			o = o.With(board.Square(sq))
		}
	}
	return o
}

// String draws the frame as eight ranks of role initials, rank 8 first; for
// logs and test failures.
func (f *Frame) String() string {
	const letters = ".MDabcdefXEGTLWlwFCH"
	b := make([]byte, 0, 72)
	for r := 7; r >= 0; r-- {
		for file := 0; file < 8; file++ {
			role := f.Role[board.NewSquare(file, r)]
			if int(role) < len(letters) {
				b = append(b, letters[role])
			} else {
				b = append(b, '?')
			}
		}
		b = append(b, '\n')
	}
	return string(b)
}

// Sink shows frames on LEDs. Show is called with every new frame and again at
// each deadline the sink asked for (to blink); a sink writes to its hardware
// only when what is lit changes. Sinks are not safe for concurrent use.
type Sink interface {
	// Show displays f as it should look at time t.
	Show(f *Frame, t time.Duration) error
	// Deadline returns when the sink next needs Show called to blink, or
	// false when nothing blinks.
	Deadline() (time.Duration, bool)
	// Halt turns the LEDs off and releases the hardware.
	Halt() error
	fmt.Stringer
}
