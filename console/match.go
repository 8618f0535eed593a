package console

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/boardd/boardd/opponent"
)

// MatchSource shows a match against an opponent from off the board (an
// engine) on a Local board, and gives it the page's commands; evaluate
// says whether the engine's evaluations are shown.
func MatchSource(m *opponent.Match, evaluate bool) OpponentSource {
	return matchSource{m: m, evaluate: evaluate}
}

type matchSource struct {
	m        *opponent.Match
	evaluate bool
}

func (s matchSource) Opponent() *Opponent {
	st := s.m.State()
	o := &Opponent{
		Name: st.Name, Level: st.Level, Side: st.Side.String(), Random: st.Random,
		Thinking: st.Thinking, Hinting: st.Hinting, Move: st.Move, Book: st.Book,
		Hint: st.Hint, Draw: st.Draw, Fault: st.Fault, Recovered: st.Recovered,
		Commands: []string{opponent.CommandTakeBack, opponent.CommandNewGame, opponent.CommandResign, opponent.CommandDraw, opponent.CommandSide},
	}
	if st.Hints {
		o.Commands = append(o.Commands, opponent.CommandHint)
	}
	if st.Levels {
		o.Commands = append(o.Commands, opponent.CommandLevel)
	}
	if s.evaluate {
		o.Eval, o.HintEval = evaluation(st.Eval), evaluation(st.HintEval)
	}
	return o
}

// evaluation is an engine's evaluation as the page shows it.
func evaluation(e *opponent.Eval) *Evaluation {
	if e == nil {
		return nil
	}
	pv := e.PV
	if pv == nil {
		pv = []string{}
	}
	return &Evaluation{Score: e.White.String(), Centipawns: e.White.Centipawns, Mate: e.White.Mate, Depth: e.Depth, PV: pv, Ply: e.Ply}
}

// Command carries out a command; what the match refuses is a RefusedError
// (409).
func (s matchSource) Command(ctx context.Context, command, value string) error {
	err := s.m.Do(ctx, command, value)
	if errors.Is(err, opponent.ErrRefused) {
		return &RefusedError{Err: errors.New(strings.TrimPrefix(err.Error(), opponent.ErrRefused.Error()+": "))}
	}
	return err
}

func (s matchSource) Watch(fn func()) func() { return s.m.Watch(fn) }

// OpponentCommands lists the commands POST .../opponent takes: an engine's
// (opponent.Commands) and a game on lichess's (package online: decline,
// abort, claim-victory besides takeback, draw and resign), sorted.
func OpponentCommands() []string {
	known := slices.Concat(opponent.Commands(), []string{"decline", "abort", "claim-victory"})
	slices.Sort(known)
	return slices.Compact(known)
}
