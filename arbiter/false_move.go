// False moves: a completed man-move that no legal move explains (a false
// move, a false capture, an own man taken), its penalties, and the count of
// completed illegal moves (fide2023:7.5.5).

package arbiter

import (
	"slices"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
)

// falseMove judges a completed man-move that no legal move explains: a
// false move (sarratt1808:13, philidor1825:VIII, nycc:XII,
// hastings1895:IV, fide2023:7.5.1), a false capture (sarratt1808:11), an
// own man taken (sarratt1808:12), a move into check (into_check.go), a
// false castling (castling.go), a promotion on a wrong square (nycc:XII),
// successive moves or an adverse man moved (out_of_turn.go). It raises the
// irregularity with the options of its law that can be carried out, and
// counts a completed illegal move where the law-set does (fide2023:7.5.5).
func (g *Game) falseMove(t time.Duration, rd *gesture.Reading) {
	a := g.cur
	kind, r, taken := g.falseMoveRule(rd)
	physical := g.positionAfterFalseMove(rd)
	prov, err := g.analyses.Analyse(physical)
	if err != nil {
		prov = a
	}
	d := &decision{kind: kind, law: r.Law, offender: rd.Mover, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: rd.Move.From, adverse: taken}
	g.noteMenConcerned(d)
	g.offerFalseMoveOptions(d, r.Options, r.KingFallback, &physical)
	g.raise(t, d)
	if g.laws.IllegalMoveLaw != "" && !g.uncompleted(rd) {
		g.countIllegal(t, rd.Mover)
	}
}

// falseMoveRule returns the irregularity a false move read as rd makes, the
// rule that judges it, and the adverse man it took, if any. A false move
// that takes an adverse man is a false capture where the law-set has a rule
// for one (sarratt1808:11, hastings1895:IV); a move into check by the side
// to move follows intoCheckRule; a pawn promoted on a wrong square is a bad
// promotion where the law-set says so (nycc:XII).
func (g *Game) falseMoveRule(rd *gesture.Reading) (report.Kind, lawset.Rule, board.Square) {
	pos := &g.cur.Position
	kind := rd.False
	ruleKind := kind
	taken := rd.Move.To // the adverse man the false move took, if any
	if rd.TookElsewhere {
		taken = rd.Taken
	}
	if kind == report.KindFalseMove && pos.Men[taken] != board.NoMan && pos.Men[taken].Color() != pos.Men[rd.Move.From].Color() {
		if _, ok := g.laws.Rule(report.KindFalseCapture); ok {
			ruleKind = report.KindFalseCapture
		}
	}
	r, ok := g.laws.Rule(ruleKind)
	if !ok {
		r, _ = g.laws.Rule(report.KindFalseMove)
	}
	if kind == report.KindMovedIntoCheck && rd.Mover == pos.Turn {
		r = g.intoCheckRule(r, rd)
	}
	if pr := g.laws.PromotionOnWrongSquare; pr != nil && rd.Mover == pos.Turn && promotesOffTarget(pos, rd.Move) {
		kind, r = report.KindBadPromotion, *pr
	}
	return kind, r, taken
}

// positionAfterFalseMove is the position as the men stand after the false
// move read as rd, the adversary to move. A false move by the side to move
// counts as his move (its counters, and the castling rights the move would
// have left, less those whose king or rook no longer stands at home).
func (g *Game) positionAfterFalseMove(rd *gesture.Reading) board.Position {
	pos := &g.cur.Position
	physical := *pos
	physical.Men = rd.After
	physical.Turn = rd.Mover.Other()
	if rd.Mover == pos.Turn {
		physical.FullMove, physical.HalfMoves = pos.FullMove, pos.HalfMoves
		after := pos.Apply(rd.Move)
		physical.Castling, physical.EnPassant, physical.HalfMoves, physical.FullMove = after.Castling, board.NoSquare, after.HalfMoves, after.FullMove
		physical.Castling &= castlingStillPossible(&physical)
	}
	return physical
}

// noteMenConcerned notes on d the men its penalties may fall on besides
// the man moved: the adverse man moved (sarratt1808:10), the own man taken
// (sarratt1808:12), the position before the first of two moves made
// running (nycc:XIV, philidor1825:VIII), the castling attempted
// (sarratt1808:16).
func (g *Game) noteMenConcerned(d *decision) {
	rd := d.reading
	switch {
	case d.kind == report.KindMovedAdverse:
		d.adverse = rd.Move.From
	case d.kind == report.KindOwnCapture:
		d.taken = rd.Move.To
	case d.kind == report.KindSuccessive && len(g.moves) > 0:
		d.beforeFirst = g.analysed(g.moves[len(g.moves)-1].before)
		d.secondOnly = g.laws.SuccessiveRevokesSecondOnly
	}
	if d.before.Position.IsCastling(rd.Move) {
		d.castleKing = rd.Move
	}
}

// offerFalseMoveOptions sets d's options: those of its rule (ruleOptions)
// that can be carried out, the waivers dropped where a king was taken (it
// can never stand); under the old codes one for each other own man touched
// (otherTouchedMen); the king only where no other penalty can be exacted,
// where the rule says so (kingAsFallback); and the recall where nothing
// else can be carried out, or only a waiver can (philidor1825:VIII "if the
// irregular move be not revoked in time"). physical is the position as the
// men stand after the false move.
func (g *Game) offerFalseMoveOptions(d *decision, ruleOptions []report.OptionID, kingFallback bool, physical *board.Position) {
	ids := g.filter(ruleOptions)
	if d.kind == report.KindSuccessive && len(g.moves) == 0 {
		// A man of the side not to move, moved before any move was made:
		// a move out of turn, with no first move to keep. Keeping the
		// first is recalling this one.
		ids = recallForKeepFirst(ids)
	}
	if !bothKings(physical) {
		// A king cannot be taken: the move can never stand.
		ids = withoutWaiver(ids)
	}
	d.options = g.feasibleOptions(d, ids)
	if slices.Contains(ids, report.OptMoveTouched) && !g.laws.FirstTouchedBinds {
		d.options = append(d.options, g.otherTouchedMen(d)...)
	}
	if kingFallback {
		d.options = kingAsFallback(d.options)
	}
	if onlyWaivers(d.options) && (len(d.options) == 0 || slices.ContainsFunc(ids, func(id report.OptionID) bool { return !isWaiver(id) })) {
		// Nothing can be carried out, or every penalty the law names is
		// impossible here (the king cannot move, the man cannot move
		// lawfully): the false move is revoked without penalty, or (where
		// the law lets it stand) the adversary may have it revoked
		// (philidor1825:VIII "if the irregular move be not revoked in
		// time").
		d.options = append(d.options, recallOption(d))
	}
}

// uncompleted reports whether an illegal move was taken back before it was
// completed: with a clock, fide2023:7.5.1 completes an illegal move only by
// its player's clock press, and 7.5.5 penalises only completed illegal
// moves. One ended by the adversary's hand (or the end of the input) is put
// right all the same, but not counted.
func (g *Game) uncompleted(rd *gesture.Reading) bool {
	return g.opts.Clocked && g.laws.ClockCompletesIllegalMove && rd.CompletedBy != gesture.ByClock
}

// onlyWaivers reports whether every option lets the offending move stand.
func onlyWaivers(options []report.Option) bool {
	for _, o := range options {
		if !isWaiver(o.ID) {
			return false
		}
	}
	return true
}

// isWaiver reports whether option id lets the offending move stand.
func isWaiver(id report.OptionID) bool { return id == report.OptStand || id == report.OptKeepAll }

// kingAsFallback drops the king from options where another penalty can be
// exacted: the king is owed only when none can (hastings1895:IV,
// philidor1825:VI). A lone king stays; waivers do not count as penalties.
func kingAsFallback(options []report.Option) []report.Option {
	other := false
	for _, o := range options {
		switch o.ID {
		case report.OptKing, report.OptStand, report.OptKeepAll, report.OptRecall:
		default:
			other = true
		}
	}
	if !other {
		return options
	}
	out := options[:0:0]
	for _, o := range options {
		if o.ID != report.OptKing {
			out = append(out, o)
		}
	}
	return out
}

// bothKings reports whether each side still has its king on the board.
func bothKings(p *board.Position) bool {
	return p.KingSquare(board.White) != board.NoSquare && p.KingSquare(board.Black) != board.NoSquare
}

// withoutWaiver drops the options that let the offending move stand.
func withoutWaiver(ids []report.OptionID) []report.OptionID {
	var out []report.OptionID
	for _, id := range ids {
		if !isWaiver(id) {
			out = append(out, id)
		}
	}
	return out
}

// countIllegal applies fide2023:7.5.5; under warn-only it only counts (the
// warning's words say which illegal move it is): no time added, no loss by
// a repeated illegal move.
func (g *Game) countIllegal(t time.Duration, offender board.Color) {
	g.illegal[offender]++
	if g.opts.WarnOnly {
		return
	}
	if g.OnIllegal != nil {
		g.OnIllegal(t, offender, g.illegal[offender])
	}
	if g.illegal[offender] >= 2 {
		if g.cur.Position.CanMate(offender.Other()) {
			g.finishAs(t, pgn.RulesInfraction, winFor(offender.Other()), "second illegal move", g.laws.IllegalMoveLaw)
		} else {
			g.finishAs(t, pgn.RulesInfraction, report.Draw, "second illegal move, but the opponent cannot mate", g.laws.IllegalMoveLaw)
		}
	}
}

// winFor is the outcome that c wins.
func winFor(c board.Color) report.Outcome {
	if c == board.White {
		return report.WhiteWins
	}
	return report.BlackWins
}
