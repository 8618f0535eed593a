package arbiter

import (
	"github.com/boardd/boardd/pgn"
)

// Record returns the game as played, for the PGN writer: the tags (the
// law-set's among them), the start position, every move that stands with
// the rulings and clock times noted on it, and the result. The record is a
// copy: later play does not change it.
func (g *Game) Record() pgn.Game {
	tags := make(map[string]string, len(g.opts.Tags)+1)
	for k, v := range g.opts.Tags {
		tags[k] = v
	}
	tags["LawSet"] = g.laws.ID
	rec := pgn.Game{Tags: tags, Start: g.startAt.Position, Moves: make([]pgn.Move, len(g.moves))}
	for i, m := range g.moves {
		rec.Moves[i] = pgn.Move{Side: m.side, SAN: m.san, Comments: append([]string(nil), m.comments...)}
	}
	if g.result != nil {
		rec.Result, rec.Termination = g.result.Result, g.result.Reason
	}
	return rec
}

// SetTag sets a PGN tag of the game (a date learnt once the clock is
// synchronised, say); it holds for the games that follow too.
func (g *Game) SetTag(name, value string) {
	tags := make(map[string]string, len(g.opts.Tags)+1)
	for k, v := range g.opts.Tags {
		tags[k] = v
	}
	tags[name] = value
	g.opts.Tags = tags
}
