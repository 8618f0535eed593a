package console

import (
	"context"
	"net/http"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// worded is a Board whose states carry the pending choice's options in
// plain words (Pending.Words), whatever Board lies under it: the server
// wraps every board in one, so a board the hall follows reads as a local
// one does.
type worded struct{ Board }

// State returns the board's state with the options' words filled in.
func (w worded) State(ctx context.Context) (State, error) {
	st, err := w.Board.State(ctx)
	if err == nil {
		st.Pending = withWords(st.Pending, st.FEN)
	}
	return st, err
}

// withWords returns a copy of p (which its board may share) with Words
// filled in: each option in plain words, naming the man it binds where the
// position fen (the position before the offending move, while a choice
// waits) shows him: "He must move the knight on g1".
func withWords(p *Pending, fen string) *Pending {
	if p == nil {
		return nil
	}
	pos, err := board.ParseFEN(fen)
	words := make([]string, len(p.Options))
	for i, o := range p.Options {
		words[i] = o.ID.Words()
		if err != nil || !o.ID.NamesMan() || len(o.Squares) == 0 {
			continue
		}
		sq, serr := board.ParseSquare(o.Squares[0])
		if serr != nil {
			continue
		}
		if m := pos.Men[sq]; m != board.NoMan {
			words[i] = o.ID.WordsOn(m.Kind().String(), sq.String())
		}
	}
	out := *p
	out.Words = words
	return &out
}

// optionWords serves GET /api/options: every option id and its plain
// words, for the page's move list, where rulings are shown.
func (s *Server) optionWords(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, report.OptionWords())
}
