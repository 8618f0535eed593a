package online

import (
	"context"
	"fmt"
	"slices"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/opponent"
)

// Player is the opponent at lichess as an opponent.Player: asked for its
// move, it answers with the move lichess lists next. It sends nothing: the
// session hands lichess the board's moves (Session.send). It gives no hints
// and takes no levels.
type Player struct{ s *Session }

// Name is the opponent's name on lichess, with its title ("?" until
// lichess has said).
func (p *Player) Name() string {
	st := p.s.State()
	name := st.Opponent
	if name == "" {
		name = "?"
	}
	if st.Title != "" {
		name = st.Title + " " + name
	}
	return name
}

// Move asks for the opponent's move in the board's game q: the answer is
// lichess's next move once it comes (the board's last move reaches lichess
// through the session meanwhile). A question whose game lichess does not
// continue (moves taken back, refused) is left unanswered until cancelled:
// the session takes the board back and the match asks again.
func (p *Player) Move(ctx context.Context, q opponent.Question) <-chan opponent.Answer {
	out := make(chan opponent.Answer, 1)
	go func() { out <- p.answer(ctx, q) }()
	return out
}

func (p *Player) answer(ctx context.Context, q opponent.Question) opponent.Answer {
	local := make([]string, len(q.Moves))
	for i, m := range q.Moves {
		local[i] = m.UCI()
	}
	for {
		changed := p.s.changes()
		lichessMoves := p.s.game.Snapshot().Moves
		if len(lichessMoves) > len(local) && slices.Equal(lichessMoves[:len(local)], local) {
			return p.reply(q, lichessMoves[len(local)])
		}
		select {
		case <-ctx.Done():
			return opponent.Answer{Err: ctx.Err()}
		case <-changed:
		}
	}
}

// reply is the answer carrying lichess's move uci in q's game.
func (p *Player) reply(q opponent.Question, uci string) opponent.Answer {
	m, err := board.ParseUCI(uci)
	if err != nil {
		return opponent.Answer{Err: fmt.Errorf("online: lichess's move %q: %w", uci, err)}
	}
	pos := q.Start
	for _, mv := range q.Moves {
		pos = pos.Apply(mv)
	}
	a, err := board.Analyse(pos)
	if err != nil {
		return opponent.Answer{Err: fmt.Errorf("online: lichess's move %s: %w", uci, err)}
	}
	if !a.IsLegal(m) {
		return opponent.Answer{Err: fmt.Errorf("online: lichess's move %s is not legal on the board in %s", uci, pos.FEN())}
	}
	return opponent.Answer{Move: m, SAN: a.SAN(m)}
}
