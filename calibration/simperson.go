package calibration

import (
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// SimHands is a simulated board as a SimPerson handles it: a SimBoard, or
// another simulation of a board (hwtest/hallsim's physics).
type SimHands interface {
	// Place puts a man of colour c on square sq now; Clear takes every man
	// off now.
	Place(sq board.Square, c board.Color)
	Clear()
	// At runs fn when the board is next scanned at or after time t.
	At(t time.Duration, fn func())
	// Lit and LitSquares say which squares' LEDs are lit.
	Lit(sq board.Square) bool
	LitSquares() board.Occupancy
}

// SimPerson is a simulated person at a simulated board who does what the
// wizard and the self-test ask: puts a man on the named or lit square after
// a moment, lifts it when told, and, if given Answers, answers questions
// truthfully from what the board shows (presses Enter, names dark squares,
// skips a square they cannot find lit).
type SimPerson struct {
	Board SimHands
	Clock timing.Clock
	// Reach is how long the person takes to act (300 ms if zero).
	Reach time.Duration
	// Answers, if set, receives the person's typed lines; it must be
	// buffered (the person answers from within Observe).
	Answers chan<- string
}

func (p *SimPerson) reach() time.Duration {
	if p.Reach <= 0 {
		return 300 * time.Millisecond
	}
	return p.Reach
}

func (p *SimPerson) answer(line string) {
	if p.Answers != nil {
		p.Answers <- line
	}
}

// Observe acts on one request.
func (p *SimPerson) Observe(s Step) {
	at := p.Clock.Now() + p.reach()
	b := p.Board
	switch s.Kind {
	case StepClear:
		b.Clear()
		p.answer("")
	case StepPlace:
		col := s.Colour
		if s.Square != board.NoSquare {
			sq := s.Square
			b.At(at, func() { b.Place(sq, col) })
			return
		}
		lit := b.LitSquares()
		if lit.Count() != 1 {
			// Nothing lit (a dead LED) or too much: the person cannot tell
			// where to go, and says so.
			p.answer("s")
			return
		}
		sq := lit.Squares()[0]
		b.At(at, func() { b.Place(sq, col) })
	case StepLift:
		b.At(at, b.Clear)
	case StepAskDark:
		var dark []string
		for f := 0; f < 8; f++ {
			sq := board.NewSquare(f, s.Rank)
			if !b.Lit(sq) {
				dark = append(dark, sq.String())
			}
		}
		p.answer(strings.Join(dark, " "))
	}
}
