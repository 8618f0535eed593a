package opponent

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
)

// The commands a player (or the arbiter) gives a match, as the console's
// API and the buttons name them.
const (
	CommandTakeBack = "takeback" // take back the player's last move (value: "1" or "2" plies, or "" for his last move and the reply)
	CommandHint     = "hint"     // show the opponent's best move for the player
	CommandNewGame  = "new-game" // end this game and begin another
	CommandResign   = "resign"   // the player resigns
	CommandDraw     = "draw"     // the player offers a draw
	CommandSide     = "side"     // the opponent plays this side (value: white, black or random)
	CommandLevel    = "level"    // the opponent plays at this level (value: computer.ParseLevel's syntax)
)

// Commands lists the commands Do takes.
func Commands() []string {
	return []string{CommandTakeBack, CommandHint, CommandNewGame, CommandResign, CommandDraw, CommandSide, CommandLevel}
}

// ErrRefused wraps a command the game or the opponent would not take (no
// move to take back, a hint while the opponent is to move): the player's
// doing, not a fault.
var ErrRefused = errors.New("opponent: refused")

func refused(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}

// Do carries out a command by name, with its value.
func (m *Match) Do(ctx context.Context, command, value string) error {
	noValue := func() error {
		if value != "" {
			return refused("%s takes no value", command)
		}
		return nil
	}
	switch command {
	case CommandTakeBack:
		plies := 0
		switch value {
		case "":
		case "1", "2":
			plies = int(value[0] - '0')
		default:
			return refused("takeback %q: want 1 or 2 moves, or none for the last move and its reply", value)
		}
		return m.TakeBack(ctx, plies)
	case CommandHint:
		if err := noValue(); err != nil {
			return err
		}
		return m.Hint(ctx)
	case CommandNewGame:
		if err := noValue(); err != nil {
			return err
		}
		return m.NewGame(ctx)
	case CommandResign:
		if err := noValue(); err != nil {
			return err
		}
		return m.Resign(ctx)
	case CommandDraw:
		if err := noValue(); err != nil {
			return err
		}
		return m.OfferDraw(ctx)
	case CommandSide:
		s, err := ParseSide(value)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrRefused, err)
		}
		return m.SetSide(ctx, s)
	case CommandLevel:
		return m.SetLevel(ctx, value)
	}
	return refused("unknown command %q: want takeback, hint, new-game, resign, draw, side or level", command)
}

// human is the side the player at the board plays.
func (m *Match) human() board.Color {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.side.Other()
}

// TakeBack takes back plies moves (0: the player's last move, and the
// opponent's reply if it has been made): the board is guided back by the
// LEDs, and the opponent's thinking on the position taken back stops. A
// move of the player's still pending (his hand has just set the man down)
// ends his hand: it is made, and it alone is taken back (game.TakeBack).
// Against a TakeBacker the take-back is asked of the opponent instead.
func (m *Match) TakeBack(ctx context.Context, plies int) error {
	snap, err := m.snapshot(ctx)
	if err != nil {
		return err
	}
	human := m.human()
	switch {
	case snap.HasLanding && snap.Position.Turn == human:
		plies = 1 // the move pending, once made
	case plies == 0:
		plies = 1
		if snap.Position.Turn == human {
			plies = 2
		}
		plies = min(plies, snap.Moves)
	}
	if tb, ok := m.o.Player.(TakeBacker); ok {
		// Taken back only by agreement: asked of the opponent (or his
		// own request agreed to), never here alone.
		if err := tb.TakeBack(ctx, max(plies, 1)); err != nil {
			return fmt.Errorf("%w: take back: %v", ErrRefused, err)
		}
		m.log.Info("opponent: take-back asked or agreed", "plies", plies)
		return nil
	}
	if plies == 0 {
		return refused("no move to take back")
	}
	err = m.o.Runner.Submit(ctx, trace.Line{Kind: trace.TakeBack, Plies: plies, Side: human.String()})
	if err != nil {
		return fmt.Errorf("%w: take back: %v", ErrRefused, err)
	}
	// What was shown of the position taken back goes with it, until the
	// opponent has evaluated the position the board goes back to.
	m.update(func(s *State) { s.Hint, s.HintEval, s.Draw, s.Eval = "", nil, "", nil })
	m.log.Info("opponent: moves taken back", "plies", plies)
	return nil
}

// Hint asks the opponent for the player's best move, shown by the LEDs when
// it comes.
func (m *Match) Hint(ctx context.Context) error {
	if _, ok := m.o.Player.(Hinter); !ok {
		return refused("%s gives no hints", m.o.Player.Name())
	}
	snap, err := m.snapshot(ctx)
	if err != nil {
		return err
	}
	m.mu.Lock()
	side := m.side
	m.mu.Unlock()
	if _, ok := m.hintFor(snap, side); !ok {
		if snap.Result != nil || snap.Mode == game.AwaitNewGame {
			return refused("no hint: the game is over")
		}
		if snap.Pending != nil {
			return refused("no hint while a ruling waits")
		}
		return refused("no hint: it is %s's move", side)
	}
	m.mu.Lock()
	m.wantHint = true
	m.mu.Unlock()
	m.poke()
	return nil
}

// NewGame ends the game and begins another from the start (a side drawn at
// random is drawn again).
func (m *Match) NewGame(ctx context.Context) error {
	l := trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}
	if err := m.o.Runner.Submit(ctx, l); err != nil {
		return fmt.Errorf("%w: new game: %v", ErrRefused, err)
	}
	m.mu.Lock()
	m.drawOffered = false
	if m.random {
		m.setSide(Random)
	}
	m.mu.Unlock()
	m.update(func(s *State) {
		s.Move, s.Book, s.Eval, s.Hint, s.HintEval, s.Draw = "", false, nil, "", nil, ""
	})
	m.poke()
	return nil
}

// Resign ends the game: the player at the board resigns.
func (m *Match) Resign(ctx context.Context) error {
	l := trace.Line{Kind: trace.Arbiter, Action: game.ActionResign, Value: m.human().String(), Side: trace.SideArbiter}
	if err := m.o.Runner.Submit(ctx, l); err != nil {
		return fmt.Errorf("%w: resign: %v", ErrRefused, err)
	}
	return nil
}

// OfferDraw offers the opponent a draw: it answers with its next move (at
// once if it is thinking: it thinks again, weighing the offer). While the
// opponent's own draw offer stands (a DrawOfferer's), it accepts that
// offer instead, and the game ends drawn.
func (m *Match) OfferDraw(ctx context.Context) error {
	snap, err := m.snapshot(ctx)
	if err != nil {
		return err
	}
	if snap.Result != nil || snap.Mode == game.AwaitNewGame {
		return refused("no draw offer: the game is over")
	}
	if o, ok := m.o.Player.(DrawOfferer); ok {
		if stands, ok := o.DrawOffer(); ok {
			l := trace.Line{Kind: trace.Arbiter, Action: game.ActionAgreeDraw, Side: trace.SideArbiter}
			if err := m.o.Runner.SubmitIf(ctx, l, stands); err != nil {
				return fmt.Errorf("%w: accepting %s's draw offer: %v", ErrRefused, m.o.Player.Name(), err)
			}
			m.log.Info("opponent: its draw offer accepted")
			return nil
		}
	}
	m.mu.Lock()
	m.drawOffered = true
	m.mu.Unlock()
	m.update(func(s *State) { s.Draw = DrawOffered })
	m.poke()
	return nil
}

// SetSide gives the opponent another side, from now on (Random: drawn now
// and at each new game).
func (m *Match) SetSide(ctx context.Context, s Side) error {
	if s != White && s != Black && s != Random {
		return refused("side %v: want white, black or random", s)
	}
	m.mu.Lock()
	m.setSide(s)
	m.drawOffered = false
	side := m.side
	m.mu.Unlock()
	m.update(func(st *State) { st.Side, st.Random, st.Draw = side, s == Random, "" })
	m.log.Info("opponent: plays", "side", side, "random", s == Random)
	m.poke()
	return nil
}

// SetLevel sets the opponent's level from its next move on.
func (m *Match) SetLevel(ctx context.Context, level string) error {
	l, ok := m.o.Player.(Leveller)
	if !ok {
		return refused("%s takes no level", m.o.Player.Name())
	}
	if err := l.SetLevel(level); err != nil {
		return fmt.Errorf("%w: %v", ErrRefused, err)
	}
	name, lv := m.names()
	m.update(func(s *State) { s.Name, s.Level = name, lv })
	m.log.Info("opponent: level", "level", lv)
	m.poke()
	return nil
}
