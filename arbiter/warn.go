// Warn-only: each irregularity detected, shown and explained with the law it
// rests on, but no penalty exacted; only what keeps the game a legal game (an
// illegal move set back, a man put back) is still required, by the board.

package arbiter

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// ErrWarnOnlyTournament is the refusal of warn-only together with
// tournament mode: a tournament exacts every penalty, warn-only none.
var ErrWarnOnlyTournament = errors.New("warn-only and tournament mode together: a tournament exacts every penalty (--tournament), warn-only none (--warn-only): give one")

// WarnOnly reports whether the game shows irregularities without exacting
// their penalties.
func (g *Game) WarnOnly() bool { return g.opts.WarnOnly }

// SetWarnOnly turns warn-only on or off for the rest of the game and the
// games after it. It is refused in tournament mode, and while a ruling
// waits for its chooser (it was raised to be exacted, and is decided so).
func (g *Game) SetWarnOnly(on bool) error {
	if on && g.opts.Tournament {
		return fmt.Errorf("warn-only: %w", ErrWarnOnlyTournament)
	}
	if d := g.pending; d != nil && on != g.opts.WarnOnly {
		return fmt.Errorf("warn-only: a ruling under %s is waiting (%s, %s): decide it before switching warn-only", g.laws.ID, d.kind, d.law)
	}
	g.opts.WarnOnly = on
	return nil
}

// warn handles the irregularity d under warn-only and reports whether it
// did: it is reported with the penalty the law would exact (chooser
// report.WarnOnly, nobody choosing) and the words that explain it, noted in
// the PGN as a warning, and only what the game needs to stay a legal game
// is done: a lawful move stands (a touch-move broken, an obligation not
// kept, a check not called), an illegal one is set back to the position
// before it with no obligation after it, a forgotten man is set in his
// place, moves that left a king in check are recalled. A promotion's piece
// still to be named is no penalty: that choice is left as it is (false).
func (g *Game) warn(t time.Duration, d *decision) bool {
	if slices.ContainsFunc(d.options, func(o report.Option) bool { return isPromotionOption(o.ID) }) {
		return false
	}
	required := g.warnRequires(d)
	penalties := make([]report.Option, 0, len(d.options))
	for _, o := range d.options {
		if !isWaiver(o.ID) && o.ID != required {
			penalties = append(penalties, o)
		}
	}
	words := g.warningWords(d, penalties, required)
	warning := report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: d.offender.String(), Chooser: report.WarnOnly, Options: penalties, Reason: words}
	note := fmt.Sprintf("warning (warn-only), %s%s, %s: %s", d.kind, g.offenceLabel(d), d.law, strings.TrimPrefix(words, "Under "+string(d.law)+" "))
	g.pending = nil
	switch {
	case d.pre:
		// Nothing moved: the obligation the touch would impose is not.
		g.emit(warning)
		g.imposed = nil
		g.comment(note)
	case d.recorded:
		g.emit(warning)
		g.comment(note)
		if required != "" {
			g.applyToRecorded(t, d, required, report.WarnOnly)
		}
	case required == "":
		// The move stands: it is recorded first, the warning after it
		// (the page and the voice tell it with the move it is about).
		g.recordStanding(t, d)
		g.emit(warning)
		g.comment(note)
		g.imposed = nil
		g.afterMove(t)
	default:
		g.emit(warning)
		g.comment(note)
		g.restoreTo(t, d.before, nil)
	}
	return true
}

// warnRequires is what the board still requires of d under warn-only, the
// game having to stay a legal game: "" (nothing: play on),
// report.OptRecall or OptReplace (an illegal move set back, an adverse man
// moved put back), OptPlaceForgotten (a man left off set in his place), or,
// on moves recorded, OptRecall where they left a king in check.
func (g *Game) warnRequires(d *decision) report.OptionID {
	has := func(id report.OptionID) bool {
		return slices.ContainsFunc(d.options, func(o report.Option) bool { return o.ID == id })
	}
	switch {
	case d.pre:
		return ""
	case d.recorded:
		pos := &g.cur.Position
		switch {
		case has(report.OptPlaceForgotten):
			return report.OptPlaceForgotten
		case pos.InCheck(pos.Turn.Other()) && has(report.OptRecall):
			return report.OptRecall
		}
		return ""
	case d.reading == nil || d.reading.Legal && d.reading.Mover == d.before.Position.Turn && bothKings(&d.provisional.Position):
		return ""
	case d.kind == report.KindMovedAdverse:
		return report.OptReplace
	}
	return report.OptRecall
}

// warningWords explains d under warn-only in a sentence, the offender
// addressed: the law, what it would exact (penalties, the options left
// unexacted), and what happens instead. "Under fide2023:4.3.1 you would
// have to move the knight on g1; warn-only: play on."
func (g *Game) warningWords(d *decision, penalties []report.Option, required report.OptionID) string {
	var phrases []string
	for _, o := range penalties {
		phrases = append(phrases, g.penaltyPhrase(d, o))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Under %s ", d.law)
	switch {
	case len(phrases) == 0:
		b.WriteString("this is an irregularity")
	case len(phrases) > 1 && d.chooser == lawset.Offender:
		fmt.Fprintf(&b, "you would choose: %s", strings.Join(phrases, ", or "))
	case len(phrases) > 1 && g.chooserName(d) != report.Arbiter:
		fmt.Fprintf(&b, "your opponent could choose: %s", strings.Join(phrases, ", or "))
	default:
		b.WriteString(strings.Join(phrases, ", or "))
	}
	if d.reading != nil && !d.reading.Legal && g.laws.IllegalMoveLaw != "" && !g.uncompleted(d.reading) {
		switch {
		case g.illegal[d.offender] > 0:
			fmt.Fprintf(&b, "; under %s this second illegal move would lose the game", g.laws.IllegalMoveLaw)
		case g.opts.Clocked:
			fmt.Fprintf(&b, "; under %s your opponent would get extra time, and a second illegal move would lose the game", g.laws.IllegalMoveLaw)
		default:
			fmt.Fprintf(&b, "; under %s a second illegal move would lose the game", g.laws.IllegalMoveLaw)
		}
	}
	b.WriteString("; warn-only: ")
	switch required {
	case "":
		b.WriteString("play on")
	case report.OptReplace:
		b.WriteString("no penalty, but the board requires the man moved put back (an illegal move cannot stand); then play any move")
	case report.OptPlaceForgotten:
		b.WriteString("no penalty, but the board requires the man left off set in his place")
	default:
		if d.recorded {
			b.WriteString("no penalty, but the board requires the moves that left the king in check taken back (an illegal position cannot stand); then play any move")
		} else {
			b.WriteString("no penalty, but the board requires the position before the move set up again (an illegal move cannot stand); then play any move")
		}
	}
	return b.String()
}

// penaltyPhrase says what option o would have exacted, the offender
// addressed: "you would have to move the knight on g1". The position before
// the illegal move set up again (fide2023:7.5.1) names the man 4.3 would
// bind.
func (g *Game) penaltyPhrase(d *decision, o report.Option) string {
	id, sq := o.ID, board.NoSquare
	if len(o.Squares) > 0 {
		sq, _ = board.ParseSquare(o.Squares[0])
	}
	prefix := ""
	if id == report.OptRestore {
		ob := g.replacementObligation(d, d.before)
		if ob == nil {
			return "the position before the move would be set up again"
		}
		prefix = "the position before the move would be set up again and "
		id, sq = ob.what, ob.square
	}
	w := id.Words()
	if sq.Valid() && d.before != nil && id.NamesMan() {
		man := d.before.Position.Men[sq]
		if man == board.NoMan && d.beforeFirst != nil {
			// Successive moves: the man stood there before the first.
			man = d.beforeFirst.Position.Men[sq]
		}
		if man != board.NoMan {
			w = id.WordsOn(man.Kind().String(), sq.String())
		}
	}
	if rest, ok := strings.CutPrefix(w, "He must "); ok {
		return prefix + "you would have to " + strings.ReplaceAll(rest, "his ", "your ")
	}
	w = strings.ReplaceAll(w, "he may", "you could")
	return prefix + "the law would " + strings.ToLower(w[:1]) + w[1:]
}

// offenceLabel names the offending move or man for a PGN note: " Nf3",
// " g1", or nothing.
func (g *Game) offenceLabel(d *decision) string {
	switch {
	case d.reading != nil && d.before != nil:
		return " " + d.before.SAN(d.reading.Move)
	case d.touched.Valid():
		return " " + d.touched.String()
	}
	return ""
}

// isPromotionOption reports whether id names a promotion's piece.
func isPromotionOption(id report.OptionID) bool {
	switch id {
	case report.OptPromoteQ, report.OptPromoteR, report.OptPromoteB, report.OptPromoteN:
		return true
	}
	return false
}
