package opponent

import (
	"context"
	"strings"

	"github.com/boardd/boardd/computer"
)

// Engine is a chess engine (a computer.Player) as an opponent: it answers
// questions with the engine's moves, gives hints, evaluates positions and
// takes levels.
type Engine struct {
	p *computer.Player
}

// NewEngine returns p as an opponent.
func NewEngine(p *computer.Player) *Engine { return &Engine{p: p} }

// Name returns the engine's "id name".
func (e *Engine) Name() string { return e.p.Name() }

// Level says the engine's level in words: "Elo 1500", "depth 8".
func (e *Engine) Level() string {
	return strings.TrimPrefix(e.p.Level(), e.p.Name()+", ")
}

// SetLevel sets the level from the next move on (computer.ParseLevel's
// syntax).
func (e *Engine) SetLevel(text string) error {
	l, err := computer.ParseLevel(text)
	if err != nil {
		return err
	}
	return e.p.SetLevel(l)
}

// Move asks the engine for its move.
func (e *Engine) Move(ctx context.Context, q Question) <-chan Answer {
	return answers(e.p.Think(ctx, request(q)))
}

// Hint asks the engine for the best move of the player at the board.
func (e *Engine) Hint(ctx context.Context, q Question) <-chan Answer {
	return answers(e.p.Hint(ctx, request(q)))
}

// Evaluate asks the engine what it thinks of the position, at full
// strength within its evaluation limit.
func (e *Engine) Evaluate(ctx context.Context, q Question) <-chan Answer {
	return answers(e.p.Evaluate(ctx, request(q)))
}

// request turns a question into the engine's request.
func request(q Question) computer.Request {
	req := computer.Request{StartFEN: q.Start.FEN(), Moves: make([]string, len(q.Moves)), DrawOffered: q.DrawOffered}
	for i, m := range q.Moves {
		req.Moves[i] = m.UCI()
	}
	if c := q.Clocks; c != nil {
		req.Clocks = &computer.Clocks{White: c.White, Black: c.Black, WhiteInc: c.WhiteInc, BlackInc: c.BlackInc, MovesToGo: c.MovesToGo}
	}
	return req
}

// answers turns the engine's result into an answer when it comes.
func answers(results <-chan computer.Result) <-chan Answer {
	out := make(chan Answer, 1)
	go func() {
		r := <-results
		if r.Err != nil {
			out <- Answer{Err: r.Err}
			return
		}
		rp := r.Reply
		a := Answer{Move: rp.Move, SAN: rp.SAN, AcceptsDraw: rp.AcceptsDraw, Book: rp.FromBook, Recovered: rp.Faults}
		if rp.Info.Scored {
			a.Eval = &Eval{White: rp.Info.White, Depth: rp.Info.Depth, PV: rp.Info.PVSAN}
		}
		out <- a
	}()
	return out
}
