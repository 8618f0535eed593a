// The scoresheet: moves recorded, taken back and annulled, and the notes
// each ruling leaves in the PGN.

package arbiter

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// record appends a move to the game and reports it.
func (g *Game) record(t time.Duration, rd *gesture.Reading, before *board.Analysis, legal bool) {
	m := rd.Move
	var next board.Position
	san := ""
	if legal {
		next = before.Position.Apply(m)
	} else {
		next = before.Position
		next.Men = rd.After
		san = before.Position.RoughSAN(m)
	}
	g.setPosition(next, before)
	if legal {
		san = before.SANAfter(m, g.cur)
	}
	rec := record{side: rd.Mover, move: m, uci: m.UCI(), san: san, legal: legal, t: t, before: before.Position}
	if !legal {
		resume := g.cur.Position
		rec.resume = &resume
	}
	g.moves = append(g.moves, rec)
	g.movedSincePress[rd.Mover] = true
	g.lastMove, g.hasLast = m, true
	g.emit(report.Report{Type: report.Move, T: t, Made: g.madeAt(t, rd), Side: rd.Mover.String(), UCI: rec.uci, SAN: san, FEN: g.cur.Position.FEN(), Ply: len(g.moves) - 1, Law: g.blindLaw(rd.Mover, false)})
	g.noteCheck(rd.Mover)
}

// setPosition makes p, reached from before, the current position, and
// expects play to go on from it.
func (g *Game) setPosition(p board.Position, before *board.Analysis) {
	a, err := g.analyses.Analyse(p)
	if err != nil {
		a = before
	}
	g.cur = a
	g.seen.push(a.Position.Key())
	g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: a}
	g.touched = g.touched[:0]
}

// recordStanding records a false move that a ruling or a lapse lets stand.
func (g *Game) recordStanding(t time.Duration, d *decision) {
	rd := d.reading
	m := rd.Move
	before := d.before
	var san string
	if rd.Legal {
		san = before.SANAfter(m, d.provisional)
	} else {
		san = before.Position.RoughSAN(m)
	}
	g.cur = d.provisional
	g.seen.push(g.cur.Position.Key())
	g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: g.cur}
	rec := record{side: rd.Mover, move: m, uci: m.UCI(), san: san, legal: rd.Legal, t: t, before: before.Position}
	if !rd.Legal || rd.Mover != before.Position.Turn {
		// The rules of movement do not lead here (a false move, a move
		// out of turn): the PGN goes on from this position.
		resume := g.cur.Position
		rec.resume = &resume
	}
	g.moves = append(g.moves, rec)
	g.movedSincePress[rd.Mover] = true
	g.lastMove, g.hasLast = m, true
	g.emit(report.Report{Type: report.Move, T: t, Made: g.madeAt(t, rd), Side: rd.Mover.String(), UCI: rec.uci, SAN: san, FEN: g.cur.Position.FEN(), Ply: len(g.moves) - 1, Law: g.blindLaw(rd.Mover, false)})
	g.noteCheck(rd.Mover)
}

// Comment adds a PGN comment to the move at ply (its index in the record),
// after any comment it has. Out-of-range plies are ignored.
func (g *Game) Comment(ply int, text string) {
	if ply >= 0 && ply < len(g.moves) {
		g.moves[ply].comments = append(g.moves[ply].comments, text)
	}
}

// comment notes c at the last move that stands, or before the first move
// while none does: every ruling keeps its note in the PGN, those that take
// the offending move back included.
func (g *Game) comment(c string) {
	if len(g.moves) == 0 {
		g.notes = append(g.notes, c)
		return
	}
	last := &g.moves[len(g.moves)-1]
	last.comments = append(last.comments, c)
}

// moveLabel names the move at ply i as a reader of the PGN would: "3. Nf3"
// or "3... Nc6".
func (g *Game) moveLabel(i int) string {
	m := &g.moves[i]
	if m.side == board.White {
		return fmt.Sprintf("%d. %s", m.before.FullMove, m.san)
	}
	return fmt.Sprintf("%d... %s", m.before.FullMove, m.san)
}

// dropMoves takes the moves from ply keep on out of the record (a ruling
// took them back). Their notes, not their clock commands, go to the move
// kept last (or before the first move), each naming the move it was made
// at, so that no ruling leaves the PGN.
func (g *Game) dropMoves(keep int) {
	if keep < 0 || keep >= len(g.moves) {
		return
	}
	var carried []string
	for i := keep; i < len(g.moves); i++ {
		for _, c := range g.moves[i].comments {
			if strings.HasPrefix(c, "[%") {
				continue
			}
			carried = append(carried, fmt.Sprintf("at %s, since taken back: %s", g.moveLabel(i), c))
		}
	}
	g.moves = g.moves[:keep]
	for _, c := range carried {
		g.comment(c)
	}
}

// movesText is the moves that stand, as a PGN reader would write them
// without comments: "1. e4 e5 2. Nf3".
func (g *Game) movesText() string {
	var b strings.Builder
	for i, m := range g.moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case m.side == board.White:
			fmt.Fprintf(&b, "%d. ", m.before.FullMove)
		case i == 0:
			fmt.Fprintf(&b, "%d... ", m.before.FullMove)
		}
		b.WriteString(m.san)
	}
	return b.String()
}

// annulNote is the note of an annulment: the ruling, and the moves it
// voids (the PGN of the game begun anew starts with it).
func (g *Game) annulNote(note string) string {
	if len(g.moves) == 0 {
		return note
	}
	return note + "; the moves annulled: " + g.movesText()
}

// annul begins the game anew from start after an annulment, with its note
// before the first move.
func (g *Game) annul(start *board.Analysis, note string) {
	note = g.annulNote(note)
	g.begin(start)
	g.notes = []string{note}
}

// takenBackNote is the note of a ruling on a move that does not stand (or
// on a man touched, before any move): the irregularity, the move or the
// man, the law, the option and who chose it.
func (g *Game) takenBackNote(d *decision, option report.OptionID, by report.Party) string {
	what := ""
	switch {
	case d.reading != nil && d.before != nil:
		what = " " + d.before.SAN(d.reading.Move)
	case d.touched.Valid():
		what = " " + d.touched.String()
	}
	return fmt.Sprintf("%s%s, %s: %s by %s", d.kind, what, d.law, option, by)
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// madeAt is when the move read as rd was made, as far as the board can
// tell: its last placement (or lift, for a man taken off), no later than t,
// the moment it was reported. A visually impaired player's move is made
// only once announced (fide2023:D.2.3), and boardd announces it as it
// reports it: at t.
func (g *Game) madeAt(t time.Duration, rd *gesture.Reading) time.Duration {
	if g.blindLaw(rd.Mover, false) != "" {
		return t
	}
	if n := len(rd.Events); n > 0 && rd.Events[n-1].T < t {
		return rd.Events[n-1].T
	}
	return t
}
