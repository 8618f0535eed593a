package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
)

// Arbiter actions, as the console and the hall send them (trace kind
// "arbiter", with a value where the action needs one).
const (
	ActionNewGame = "new-game" // start a new game; value: a FEN, or empty for the initial position
	ActionAnnul   = "annul"    // annul the game and begin it anew from its start
	ActionLaws    = "laws"     // change the law-set; value: the id
	ActionResult  = "result"   // declare the result; value: 1-0, 0-1 or 1/2-1/2 (resignation, agreement, a ruling)
)

// Action carries out an arbiter action. The board is then guided to the
// position the action calls for.
func (g *Game) Action(t time.Duration, action, value string) error {
	switch action {
	case ActionNewGame:
		start := g.startAt
		if value != "" {
			p, err := board.ParseFEN(value)
			if err != nil {
				return fmt.Errorf("new-game: %w", err)
			}
			if start, err = board.Analyse(p); err != nil {
				return fmt.Errorf("new-game: %w", err)
			}
		} else if !g.opts.keepSetup {
			a, err := board.Analyse(board.Start())
			if err != nil {
				return err
			}
			start = a
		}
		g.startAt = start
		g.begin(start)
		g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: start}
		return nil
	case ActionAnnul:
		g.emit(Report{Type: "ruling", T: t, Option: OptAnnul, By: "arbiter", Law: ""})
		g.annulled++
		g.begin(g.startAt)
		g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: g.startAt}
		return nil
	case ActionLaws:
		ls, err := Lookup(value)
		if err != nil {
			return err
		}
		g.laws = ls
		g.opts.Laws = ls
		return nil
	case ActionResult:
		switch value {
		case "1-0", "0-1", "1/2-1/2":
		default:
			return fmt.Errorf("result %q: want 1-0, 0-1 or 1/2-1/2", value)
		}
		if g.result != nil {
			return fmt.Errorf("the game is already over (%s)", g.result.Result)
		}
		g.finish(t, value, "declared by the arbiter", "")
		return nil
	}
	return fmt.Errorf("unknown arbiter action %q: want %s, %s, %s or %s", action, ActionNewGame, ActionAnnul, ActionLaws, ActionResult)
}
