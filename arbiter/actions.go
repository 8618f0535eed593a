package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
)

// NewGame starts a new game at t from fen (a FEN; empty: the game's own
// start, the initial position unless the game was set up or given odds).
// The board is then guided to the start position.
func (g *Game) NewGame(t time.Duration, fen string) error {
	start := g.startAt
	if fen != "" {
		p, err := board.ParseFEN(fen)
		if err != nil {
			return fmt.Errorf("new-game: %w", err)
		}
		if start, err = g.analyses.Analyse(p); err != nil {
			return fmt.Errorf("new-game: %w", err)
		}
	} else if !g.opts.keepSetup {
		a, err := g.analyses.Analyse(board.Start())
		if err != nil {
			return err
		}
		start = a
	}
	g.startAt = start
	g.begin(start)
	g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: start}
	return nil
}

// Annul annuls the game at t, by the arbiter's decision: it begins anew from
// its start, and the board is guided there.
func (g *Game) Annul(t time.Duration) {
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptAnnul, By: report.Arbiter, Law: ""})
	g.annulled++
	g.annul(g.startAt, "game annulled by the arbiter")
	g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: g.startAt}
}

// Declare ends the game at t with a result the arbiter declares (a
// resignation, an agreement, a ruling).
func (g *Game) Declare(t time.Duration, result report.Outcome) error {
	if !result.Valid() {
		return fmt.Errorf("result %q: want 1-0, 0-1 or 1/2-1/2", result)
	}
	if g.result != nil {
		return fmt.Errorf("the game is already over (%s)", g.result.Result)
	}
	g.finishAs(t, pgn.Adjudication, result, "declared by the arbiter", "")
	return nil
}

// SetLaws puts another law-set in force. A ruling still waiting for its
// chooser was made under the old code: the switch is refused until it is
// decided (so no pending ruling is ever lapsed or stood under another
// code's law ids). Obligations already imposed by a decided ruling stay.
// With a visually impaired player at the board, a code without his rules
// (Appendix D) is refused: the law-set in force stays.
func (g *Game) SetLaws(ls *lawset.LawSet) error {
	if ls == nil {
		return fmt.Errorf("laws: no law-set")
	}
	if d := g.pending; d != nil {
		return fmt.Errorf("laws: a ruling under %s is waiting (%s, %s): decide it before changing the law-set", g.laws.ID, d.kind, d.law)
	}
	if err := checkAppendixD(ls, g.opts.VisuallyImpaired); err != nil {
		// The player would lose the rules his board is read by, mid-game.
		return fmt.Errorf("laws: %w; the law-set stays %s", err, g.laws.ID)
	}
	g.laws = ls
	g.opts.Laws = ls
	g.intended = nil // a claim on the intended move is the old code's
	return nil
}
