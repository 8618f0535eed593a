// Package opponenttest is the player at a simulated board for the tests of
// games against an opponent from off the board: hands that carry out the
// opponent's moves as announced, play the player's own moves, and put the
// board right when the game asks (a take-back), every one of them as the
// lift, place and promote lines a real board's hands make, through the
// game's door.
package opponenttest

import (
	"context"
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
)

// Door is where the hands' inputs go and the game is read: a game.Runner.
type Door interface {
	Submit(ctx context.Context, l trace.Line) error
	Snapshot(ctx context.Context) (*game.Snapshot, error)
}

// Hands play on a simulated board.
type Hands struct {
	Door Door
	// Human is the side the hands play; the other side's moves they carry
	// out as announced.
	Human board.Color
	// Choose picks the player's move in a position (nil: the hands only
	// carry out the opponent's moves and put the board right).
	Choose func(a *board.Analysis) board.Move
	// Step is the pause between two hand events (default 5ms).
	Step time.Duration
	// Timeout bounds the wait for the game to take a move (default 10s).
	Timeout time.Duration

	men  [64]board.Man
	hand []board.Man
	init bool
	// Carried counts the opponent's moves carried out, Played the
	// player's moves made.
	Carried, Played int
	// Lines are the hands' inputs, in order.
	Lines []trace.Line
}

func (h *Hands) step() time.Duration {
	if h.Step <= 0 {
		return 5 * time.Millisecond
	}
	return h.Step
}

func (h *Hands) timeout() time.Duration {
	if h.Timeout <= 0 {
		return 10 * time.Second
	}
	return h.Timeout
}

func (h *Hands) submit(ctx context.Context, l trace.Line) error {
	if err := h.Door.Submit(ctx, l); err != nil {
		return fmt.Errorf("hands: %s: %w", trace.Append(nil, l), err)
	}
	h.Lines = append(h.Lines, l)
	time.Sleep(h.step())
	return nil
}

func (h *Hands) lift(ctx context.Context, sq board.Square) error {
	h.hand = append(h.hand, h.men[sq])
	h.men[sq] = board.NoMan
	return h.submit(ctx, trace.Line{Kind: trace.Lift, Square: sq})
}

// place sets down man (the last lifted when NoMan) on sq.
func (h *Hands) place(ctx context.Context, sq board.Square, man board.Man) error {
	if man == board.NoMan && len(h.hand) > 0 {
		man = h.hand[len(h.hand)-1]
		h.hand = h.hand[:len(h.hand)-1]
	}
	h.men[sq] = man
	return h.submit(ctx, trace.Line{Kind: trace.Place, Square: sq})
}

// Move makes move m of position p on the board with the hands' usual
// order: a capture lifts the victim first, castling moves the king then the
// rook, en passant lifts the pawn taken last, a promotion sets the new
// piece down on the last rank (naming it, if name).
func (h *Hands) Move(ctx context.Context, p board.Position, m board.Move, name bool) error {
	occ := p.Occupancy()
	mover := p.Men[m.From]
	var err error
	do := func(f func() error) {
		if err == nil {
			err = f()
		}
	}
	switch {
	case p.IsCastling(m):
		rf, rt := board.CastlingRook(m.From, m.To)
		do(func() error { return h.lift(ctx, m.From) })
		do(func() error { return h.place(ctx, m.To, board.NoMan) })
		do(func() error { return h.lift(ctx, rf) })
		do(func() error { return h.place(ctx, rt, board.NoMan) })
	case p.IsEnPassant(m):
		do(func() error { return h.lift(ctx, m.From) })
		do(func() error { return h.place(ctx, m.To, board.NoMan) })
		do(func() error { return h.lift(ctx, board.EnPassantVictim(m)) })
		h.hand = h.hand[:0]
	default:
		if occ.Has(m.To) {
			do(func() error { return h.lift(ctx, m.To) })
		}
		do(func() error { return h.lift(ctx, m.From) })
		if m.Promo != board.NoKind {
			h.hand = h.hand[:0]
			do(func() error { return h.place(ctx, m.To, board.NewMan(mover.Color(), m.Promo)) })
			if name {
				side := trace.SideWhite
				if mover.Color() == board.Black {
					side = trace.SideBlack
				}
				do(func() error { return h.submit(ctx, trace.Line{Kind: trace.Promote, Piece: m.Promo, Side: side}) })
			}
		} else {
			do(func() error { return h.place(ctx, m.To, board.NoMan) })
		}
		h.hand = h.hand[:0]
	}
	return err
}

// fix brings the board to the expected position: every man that is not
// where it should be is lifted, then every square that lacks its man gets
// it. It reports whether it moved anything.
func (h *Hands) fix(ctx context.Context, want board.Position) (bool, error) {
	moved := false
	for sq := board.Square(0); sq < 64; sq++ {
		if h.men[sq] != board.NoMan && h.men[sq] != want.Men[sq] {
			moved = true
			if err := h.lift(ctx, sq); err != nil {
				return moved, err
			}
		}
	}
	h.hand = h.hand[:0]
	for sq := board.Square(0); sq < 64; sq++ {
		if want.Men[sq] != board.NoMan && h.men[sq] == board.NoMan {
			moved = true
			if err := h.place(ctx, sq, want.Men[sq]); err != nil {
				return moved, err
			}
		}
	}
	return moved, nil
}

// Play plays until done says the game has come far enough (or it is over,
// when done is nil), and returns the last snapshot. The board is taken to
// show the game's position at the start.
func (h *Hands) Play(ctx context.Context, done func(s *game.Snapshot) bool) (*game.Snapshot, error) {
	if done == nil {
		done = func(s *game.Snapshot) bool { return s.Result != nil }
	}
	var last *game.Snapshot
	idleSince := time.Now()
	for {
		s, err := h.Door.Snapshot(ctx)
		if err != nil {
			return last, err
		}
		if !h.init {
			h.men, h.init = s.Expected.Men, true
		}
		last = s
		if done(s) {
			return s, nil
		}
		acted := false
		switch {
		case s.Syncing:
			if s.Mode != game.AwaitNewGame {
				acted, err = h.fix(ctx, s.Expected)
			}
		case s.Pending != nil || s.Result != nil || s.Mode != game.Play:
		case s.HasAwaiting:
			if err = h.Move(ctx, s.Position, s.Awaiting, false); err == nil {
				err = h.await(ctx, s.Moves)
				h.Carried++
			}
			acted = true
		case s.Position.Turn == h.Human && h.Choose != nil:
			a, aerr := board.Analyse(s.Position)
			if aerr != nil {
				return s, aerr
			}
			if len(a.Moves) == 0 {
				break
			}
			m := h.Choose(a)
			if err = h.Move(ctx, s.Position, m, true); err == nil {
				err = h.await(ctx, s.Moves)
				h.Played++
			}
			acted = true
		}
		if err != nil {
			return s, err
		}
		if acted {
			idleSince = time.Now()
			continue
		}
		if time.Since(idleSince) > h.timeout() {
			return s, fmt.Errorf("hands: nothing to do for %v: %s to move, %d moves, awaiting %v, syncing %v, mode %v, pending %v, result %v",
				h.timeout(), s.Position.Turn, s.Moves, s.HasAwaiting, s.Syncing, s.Mode, s.Pending != nil, s.Result != nil)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// await waits until the game has recorded a move more than moves (or
// stopped waiting for one: a mismatch, a ruling, a result, the board to put
// right after a take-back that came at once).
func (h *Hands) await(ctx context.Context, moves int) error {
	deadline := time.Now().Add(h.timeout())
	for time.Now().Before(deadline) {
		s, err := h.Door.Snapshot(ctx)
		if err != nil {
			return err
		}
		if s.Moves != moves || s.Pending != nil || s.Result != nil || s.Mismatch || s.Syncing {
			return nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return fmt.Errorf("hands: the move was not taken within %v", h.timeout())
}
