// Package journaltest makes the hand events of whole games, for tests of
// code that journals and recovers games: what a player's hands do on the
// board for each move, as trace lines.
package journaltest

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/trace"
)

// Timing spaces the events of a game.
type Timing struct {
	Step  time.Duration // between the events of one move
	Pause time.Duration // after the last event of a move
}

// Player plays moves onto a board and writes the hand events.
type Player struct {
	Pos    board.Position
	T      time.Duration // the time of the next event
	Timing Timing
	Lines  []trace.Line
}

// NewPlayer starts from the initial position at time t.
func NewPlayer(t time.Duration, tm Timing) *Player {
	return &Player{Pos: board.Start(), T: t, Timing: tm}
}

func (p *Player) event(k trace.Kind, sq board.Square) {
	p.Lines = append(p.Lines, trace.Line{T: p.T, Kind: k, Square: sq})
	p.T += p.Timing.Step
}

// Move plays moves given in UCI (no promotions): lift and place for a plain
// move, the victim lifted first for a capture, king then rook for castling,
// the victim lifted last for en passant.
func (p *Player) Move(ucis ...string) error {
	for _, u := range ucis {
		m, err := board.ParseUCI(u)
		if err != nil {
			return err
		}
		a, err := board.Analyse(p.Pos)
		if err != nil {
			return err
		}
		if !a.IsLegal(m) {
			return fmt.Errorf("journaltest: %s is not legal in %s", u, p.Pos.FEN())
		}
		if p.Pos.IsPromotion(m) {
			return fmt.Errorf("journaltest: %s: promotions are not played", u)
		}
		occ := p.Pos.Occupancy()
		switch {
		case p.Pos.IsCastling(m):
			rf, rt := board.CastlingRook(m.From, m.To)
			p.event(trace.Lift, m.From)
			p.event(trace.Place, m.To)
			p.event(trace.Lift, rf)
			p.event(trace.Place, rt)
		case p.Pos.IsEnPassant(m):
			p.event(trace.Lift, m.From)
			p.event(trace.Place, m.To)
			p.event(trace.Lift, board.EnPassantVictim(m))
		case occ.Has(m.To):
			p.event(trace.Lift, m.To)
			p.event(trace.Lift, m.From)
			p.event(trace.Place, m.To)
		default:
			p.event(trace.Lift, m.From)
			p.event(trace.Place, m.To)
		}
		p.T += p.Timing.Pause - p.Timing.Step
		p.Pos = p.Pos.Apply(m)
	}
	return nil
}

// Slide plays one move in UCI, a plain move or a capture, as a hand that
// slides the man: it is set down in passing on each square of via (and
// lifted again) before it reaches its square. A capture's victim is lifted
// first. Promotions and castling are played by Move and Promote.
func (p *Player) Slide(uci string, via ...string) error {
	m, err := p.legal(uci)
	if err != nil {
		return err
	}
	if p.Pos.IsCastling(m) || p.Pos.IsEnPassant(m) || p.Pos.IsPromotion(m) {
		return fmt.Errorf("journaltest: %s: slides are plain moves and captures", uci)
	}
	path := make([]board.Square, 0, len(via))
	for _, v := range via {
		sq, err := board.ParseSquare(v)
		if err != nil {
			return fmt.Errorf("journaltest: slide %s via %q: %w", uci, v, err)
		}
		if p.Pos.Occupancy().Has(sq) {
			return fmt.Errorf("journaltest: slide %s via %s: the square is occupied", uci, v)
		}
		path = append(path, sq)
	}
	if p.Pos.Occupancy().Has(m.To) {
		p.event(trace.Lift, m.To)
	}
	p.event(trace.Lift, m.From)
	for _, sq := range path {
		p.event(trace.Place, sq)
		p.event(trace.Lift, sq)
	}
	p.event(trace.Place, m.To)
	p.T += p.Timing.Pause - p.Timing.Step
	p.Pos = p.Pos.Apply(m)
	return nil
}

// Promote plays a promotion in UCI with its piece (e7e8n): the piece is
// named first (a promote line), then the victim, if any, is lifted, and the
// pawn is lifted and set down on the last rank.
func (p *Player) Promote(uci string) error {
	m, err := p.legal(uci)
	if err != nil {
		return err
	}
	if !p.Pos.IsPromotion(m) || len(uci) != 5 {
		return fmt.Errorf("journaltest: %s is no promotion with its piece", uci)
	}
	side := "white"
	if m.To.Rank() == 0 {
		side = "black"
	}
	piece, err := board.ParsePromotion(uci[4:])
	if err != nil {
		return fmt.Errorf("journaltest: %s: %w", uci, err)
	}
	p.Lines = append(p.Lines, trace.Line{T: p.T, Kind: trace.Promote, Piece: piece, Side: side})
	p.T += p.Timing.Step
	if p.Pos.Occupancy().Has(m.To) {
		p.event(trace.Lift, m.To)
	}
	p.event(trace.Lift, m.From)
	p.event(trace.Place, m.To)
	p.T += p.Timing.Pause - p.Timing.Step
	p.Pos = p.Pos.Apply(m)
	return nil
}

// legal parses a move in UCI and checks it is legal in the position.
func (p *Player) legal(uci string) (board.Move, error) {
	m, err := board.ParseUCI(uci)
	if err != nil {
		return board.Move{}, fmt.Errorf("journaltest: %w", err)
	}
	a, err := board.Analyse(p.Pos)
	if err != nil {
		return board.Move{}, fmt.Errorf("journaltest: %w", err)
	}
	if !a.IsLegal(m) {
		return board.Move{}, fmt.Errorf("journaltest: %s is not legal in %s", uci, p.Pos.FEN())
	}
	return m, nil
}

// Touch lifts the man on sq and puts it back (a touch).
func (p *Player) Touch(sq string) error {
	s, err := board.ParseSquare(sq)
	if err != nil {
		return err
	}
	p.event(trace.Lift, s)
	p.event(trace.Place, s)
	p.T += p.Timing.Pause - p.Timing.Step
	return nil
}

// Press presses a button.
func (p *Player) Press(button, side string) {
	p.Lines = append(p.Lines, trace.Line{T: p.T, Kind: trace.Press, Button: button, Side: side})
	p.T += p.Timing.Pause
}

// Reset clears the board and sets up the initial position, as players do
// after a game.
func (p *Player) Reset() {
	for _, sq := range p.Pos.Occupancy().Squares() {
		p.event(trace.Lift, sq)
	}
	p.T += p.Timing.Pause
	p.Pos = board.Start()
	for _, sq := range p.Pos.Occupancy().Squares() {
		p.event(trace.Place, sq)
	}
	p.T += p.Timing.Pause - p.Timing.Step
}

// RichGame is the hand events of a short game with everything a hand does
// on the board: men slid through squares on the way (set down in passing
// and lifted again, a rook over three squares), captures, castling on both
// sides and a promotion with capture (the piece named first). It returns
// the lines and the game's plies.
func RichGame() ([]trace.Line, int, error) {
	p := NewPlayer(0, Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	steps := []struct {
		uci string
		via []string
	}{
		{"e2e4", []string{"e3"}}, {"d7d5", []string{"d6"}},
		{"e4d5", nil}, {"c7c6", nil},
		{"d5c6", nil}, {"g8f6", nil},
		{"g1f3", nil}, {"e7e6", nil},
		{"f1e2", nil}, {"f8e7", nil},
		{"e1g1", nil}, {"e8g8", nil},
		{"c6b7", nil}, {"b8c6", nil},
		{"b7a8q", nil}, {"d8b6", []string{"c7"}},
		{"d2d4", []string{"d3"}}, {"c8d7", nil},
		{"a8a7", nil}, {"f8b8", []string{"e8", "d8", "c8"}},
		{"b2b3", nil},
	}
	for _, s := range steps {
		var err error
		switch {
		case len(s.uci) == 5:
			err = p.Promote(s.uci)
		case s.via != nil:
			err = p.Slide(s.uci, s.via...)
		default:
			err = p.Move(s.uci)
		}
		if err != nil {
			return nil, 0, err
		}
	}
	return p.Lines, len(steps), nil
}
