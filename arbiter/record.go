package arbiter

import (
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
)

// Record returns the game as played, for the PGN writer: the tags (the
// law-set's among them), the start position, the notes of rulings made
// before any move stood, every move that stands with the rulings and clock
// times noted on it (and, after a false move let stand or a man set in its
// place, the position play went on from), and the result with its
// standard Termination and the law's words. The record is a copy: later
// play does not change it.
func (g *Game) Record() pgn.Game {
	tags := make(map[string]string, len(g.opts.Tags)+1)
	for k, v := range g.opts.Tags {
		tags[k] = v
	}
	tags["LawSet"] = g.laws.ID
	rec := pgn.Game{Tags: tags, Start: g.startAt.Position, Notes: append([]string(nil), g.notes...), Moves: make([]pgn.Move, len(g.moves))}
	if g.startResume != nil {
		// Changed before any move (a forgotten man set in its place): the
		// game is written from the position play went on from; the note
		// says what happened.
		rec.Start = *g.startResume
	}
	for i, m := range g.moves {
		rec.Moves[i] = pgn.Move{Side: m.side, SAN: m.san, Comments: append([]string(nil), m.comments...)}
		if m.resume != nil {
			p := *m.resume
			rec.Moves[i].Resume = &p
		}
	}
	if g.result != nil {
		rec.Result, rec.Termination = g.result.Result, g.termination
		rec.TerminationDetails = terminationDetails(g.result)
	}
	return rec
}

// terminationDetails is the result's reason in the law's words, with the
// law's id where it has one: "threefold repetition (hastings1895:VII)".
func terminationDetails(r *report.Report) string {
	if r.Law == "" {
		return r.Reason
	}
	return r.Reason + " (" + string(r.Law) + ")"
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
