package led

import (
	"time"

	"github.com/boardd/boardd/board"
)

// RGB is a colour for a colour LED, 8 bits a channel.
type RGB struct{ R, G, B uint8 }

// Colour returns the role's colour on colour LEDs.
func (r Role) Colour() RGB {
	if r >= roleCount {
		return RGB{}
	}
	return palette()[r]
}

func palette() [roleCount]RGB {
	return [roleCount]RGB{
		Off:         {0, 0, 0},
		MustMove:    {0, 255, 0},
		Destination: {0, 96, 0},
		Option1:     {0, 64, 255},
		Option2:     {255, 0, 200},
		Option3:     {255, 200, 0},
		Option4:     {0, 220, 220},
		Option5:     {255, 100, 0},
		Option6:     {200, 200, 200},
		Missing:     {255, 0, 0},
		Extra:       {255, 0, 0},
		Guide:       {0, 64, 255},
		Touched:     {64, 64, 64},
		LastMove:    {24, 24, 24},
		Winner:      {0, 255, 0},
		Loser:       {255, 0, 0},
		Draw:        {255, 200, 0},
		Fault:       {255, 0, 0},
		Carry:       {255, 255, 255},
		Hint:        {160, 0, 255},
		Landing:     {0, 160, 96},
	}
}

// Colour returns what square sq of f shows at time t on a colour LED.
func (f *Frame) Colour(sq board.Square, t time.Duration) RGB {
	if !f.Lit(sq, t) {
		return RGB{}
	}
	return f.Role[sq].Colour()
}

// Pixels returns the colours of all 64 squares at time t.
func (f *Frame) Pixels(t time.Duration) [64]RGB {
	var out [64]RGB
	for sq := range out {
		out[sq] = f.Colour(board.Square(sq), t)
	}
	return out
}

// Mono returns the squares lit on a single-colour LED matrix at time t. Roles
// keep their blink; docs/leds.md shows how the states stay apart with only on,
// off, slow and fast blink.
func (f *Frame) Mono(t time.Duration) board.Occupancy {
	var o board.Occupancy
	for sq, r := range f.Role {
		if r != Off && phaseOn(r.MonoBlink(f.Blink[sq]), t) {
			o = o.With(board.Square(sq))
		}
	}
	return o
}

// MonoBlink is how a role blinks on a single-colour matrix, where blink is
// all there is to tell states apart: the man that must move and the
// chooser's options blink fast (a call to act), a missing man and a result's
// loser or draw blink slowly; the rest keep the frame's blink (given as b).
// Resting states stay steady, a take-back or mismatch shows slow squares to
// fill and fast ones to clear, a win one steady king and one slow.
func (r Role) MonoBlink(b Blink) Blink {
	switch r {
	case MustMove, Option1, Option2, Option3, Option4, Option5, Option6:
		return Fast
	case Missing, Loser, Draw:
		return Slow
	}
	return b
}

// Recorder is a Sink that keeps every distinct frame it is shown, for tests
// and the console.
type Recorder struct {
	Frames []Frame
	Times  []time.Duration
	last   Frame
	any    bool
}

// Show records f if it differs from the last frame recorded.
func (r *Recorder) Show(f *Frame, t time.Duration) error {
	if r.any && *f == r.last {
		return nil
	}
	r.any, r.last = true, *f
	r.Frames = append(r.Frames, *f)
	r.Times = append(r.Times, t)
	return nil
}

// Deadline reports that a recorder never needs waking to blink.
func (r *Recorder) Deadline() (time.Duration, bool) { return 0, false }

// Halt does nothing.
func (r *Recorder) Halt() error { return nil }

// Last returns the last frame shown.
func (r *Recorder) Last() Frame { return r.last }

func (r *Recorder) String() string { return "led recorder" }
