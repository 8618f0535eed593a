// A man of the side not to move moved: two moves made running
// (sarratt1808:14, philidor1825:VIII, nycc:XIV, hastings1895:differences)
// and an adverse man moved (sarratt1808:10, philidor1825:VI, nycc:XII,
// fide2023:7.5.1 with 4.3.2: see replacementObligation).

package arbiter

import (
	"fmt"
	"slices"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// recallForKeepFirst returns ids with keep-first read as recall, each once:
// a man of the side not to move moved before any move was made has no first
// move to keep (sarratt1808:14, hastings1895:differences).
func recallForKeepFirst(ids []report.OptionID) []report.OptionID {
	var out []report.OptionID
	for _, id := range ids {
		if id == report.OptKeepFirst {
			id = report.OptRecall
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// recallsBoth reports whether d is of two moves made running whose
// penalties take both back (nycc:XIV; philidor1825:VIII revokes the second
// alone).
func (d *decision) recallsBoth() bool {
	return d.kind == report.KindSuccessive && d.beforeFirst != nil && !d.secondOnly
}

// keepSecondSquares says whether, of two moves made running, the second
// can stand alone: it must be a lawful move where the first was made
// (nycc:XIV "any one of them"). The squares are the first man's, where he
// goes back to and where he stands, then the second move's.
func (g *Game) keepSecondSquares(d *decision) ([]board.Square, bool) {
	if !d.recallsBoth() || d.reading == nil {
		return nil, false
	}
	second := d.reading.Move
	for _, m := range d.beforeFirst.MovesFrom(second.From) {
		if m.To == second.To && m.Promo == second.Promo {
			first := g.moves[len(g.moves)-1].move
			return []board.Square{first.From, first.To, second.From, second.To}, true
		}
	}
	return nil, false
}

// keepSecond takes the first of two moves made running back and lets the
// second stand alone (nycc:XIV): the second is recorded from the position
// before the first, and the board is guided to the position it makes.
func (g *Game) keepSecond(t time.Duration, d *decision, by report.Party) {
	first := len(g.moves) - 1
	firstSAN := g.moves[first].san
	g.dropMoves(first)
	g.seen.truncate(g.seen.len() - 1)
	rd := *d.reading
	rd.Legal = true
	g.record(t, &rd, d.beforeFirst, true)
	g.comment(fmt.Sprintf("%s, %s: %s by %s (%s taken back)", d.kind, d.law, report.OptKeepSecond, by, firstSAN))
	g.restoreTo(t, g.cur, nil)
	g.afterMove(t)
}

// successiveMen returns, for two moves made running and recalled, one
// option for each man they moved that can move lawfully once both are taken
// back: the adversary decides which of the men touched shall be moved
// (nycc:XIV). The king is left to the king option where there is one.
func (g *Game) successiveMen(d *decision, kingOffered bool) []report.Option {
	a := d.beforeFirst
	first := g.moves[len(g.moves)-1].move
	men := []board.Square{first.From}
	if second := d.reading.Move.From; second != first.To {
		men = append(men, second)
	}
	var out []report.Option
	for _, sq := range men {
		if kingOffered && a.Position.Men[sq].Kind() == board.King {
			continue
		}
		if sqs, ok := g.manSquares(a, d.offender, sq); ok {
			out = append(out, report.Option{ID: report.MoveTouchedOn(sq.String()), Squares: squareNames(sqs)})
		}
	}
	return out
}
