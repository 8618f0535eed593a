package arbiter

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
)

func (g *Game) onMove(gs gesture.Gesture) {
	rd := gs.Reading
	t := gs.T
	if g.result != nil {
		return
	}
	if ic := g.intended; ic != nil && ic.side == rd.Mover {
		// The move the claim rested on: decided once the move is judged.
		g.intended = nil
		defer g.decideIntended(t, ic, len(g.moves))
	}
	if p := g.pending; p != nil {
		switch {
		case p.lapseByOffender:
			if rd.Mover == p.offender {
				g.lapse(t)
			}
		case p.pre && rd.Mover == p.offender:
			// The offender moved before the offended chose: the obligation
			// in force decides (see checkObligations).
			g.pending = nil
		case !p.pre && rd.Mover == p.offender.Other():
			if g.exactOnLapse(t, p) {
				if g.exp.Mode != gesture.Play || g.result != nil {
					// The penalty takes the board back: the offended
					// player's move is undone with the offending one.
					g.touched = g.touched[:0]
					return
				}
				// The penalty left the position as it stands (a
				// promotion named): the move is judged from it.
				break
			}
			g.lapse(t)
		case !p.pre && rd.Mover == p.offender:
			// The offender moved again before the choice: the choice stays
			// open and this move is judged from the position as it stands.
		}
		if g.result != nil {
			// The lapse let a move stand that ended the game (a mate):
			// nothing is played after it.
			g.touched = g.touched[:0]
			return
		}
	}
	if g.remote[g.cur.Position.Turn] && (rd.Mover == g.cur.Position.Turn || rd.AdverseMan) {
		// The remote side's move, carried out by the player.
		g.touched = g.touched[:0]
		g.carried(t, rd)
		return
	}
	if to := g.cur.Position.Men[rd.Move.To]; to.Kind() == board.King && to.Color() != rd.Mover && rd.False != report.KindMovedAdverse {
		// A king left in a check nobody called (a code that lets it be
		// ignored), or next to the other after a false move let stand, can
		// stand en prise, and the rules library then offers its capture as
		// a move (or the capture reads as a move into a check that may be
		// ignored): a king is never taken.
		rd.Legal, rd.False = false, report.KindFalseMove
	}
	if rd.Legal {
		g.legalMove(t, rd)
	} else if g.mayIgnoreCheck(rd) {
		// The king may stay in a check nobody announced.
		g.recordPhysical(t, rd)
		g.afterMove(t)
	} else {
		g.falseMove(t, rd)
	}
	g.touched = g.touched[:0]
	if g.pending == nil && g.result == nil {
		g.afterFalseCheck(t, rd.Mover)
	}
}

// recordPhysical records a move the rules of movement forbid but the law-set
// lets stand without a ruling, with the men as they physically stand.
func (g *Game) recordPhysical(t time.Duration, rd *gesture.Reading) {
	before := g.cur
	p := before.Position
	p.Men = rd.After
	p.Turn = rd.Mover.Other()
	p.EnPassant = board.NoSquare
	p.HalfMoves++
	if rd.Mover == board.Black {
		p.FullMove++
	}
	p.Castling &= castlingStillPossible(&p)
	a, err := g.analyses.Analyse(p)
	if err != nil {
		a = before
	}
	d := &decision{reading: rd, before: before, provisional: a}
	g.recordStanding(t, d)
}

// legalMove judges a move the rules of movement allow.
func (g *Game) legalMove(t time.Duration, rd *gesture.Reading) {
	a := g.cur
	m := rd.Move
	if a.Position.IsPromotion(m) && m.Promo == board.NoKind {
		switch g.laws.UnnamedPromotion {
		case lawset.PromoteIncomplete:
			r, _ := g.laws.Rule(report.KindBadPromotion)
			// Until it is named the man on the last rank is taken for a
			// queen, so the board is expected to stand as it does.
			asQueen := m
			asQueen.Promo = board.Queen
			prov, err := g.analyses.Analyse(a.Position.Apply(asQueen))
			if err != nil {
				prov = a
			}
			rd.Move = asQueen
			d := &decision{kind: report.KindBadPromotion, law: r.Law, offender: rd.Mover, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: m.From}
			for _, id := range r.Options {
				d.options = append(d.options, report.Option{ID: id, Squares: []string{m.To.String()}})
			}
			g.pending = d
			g.emit(report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: d.offender.String(), Chooser: g.chooserName(d), Options: d.options, Reason: "the promotion piece was not named"})
			g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: prov}
			return
		case lawset.PromoteQueenIllegal:
			if g.opts.Clocked && rd.CompletedBy != gesture.ByClock {
				// The promotion was made when the hand left it (fide2023:4.7,
				// 6.2.1); 7.5.2 punishes only the clock pressed with the
				// pawn unreplaced, and no press came before this.
				m.Promo = board.Queen
				rd.Move = m
				break
			}
			m.Promo = board.Queen
			rd.Move = m
			g.record(t, rd, a, true)
			g.emit(report.Report{Type: report.Irregularity, T: t, Kind: report.KindBadPromotion, Law: g.laws.PromotionLaw, Offender: rd.Mover.String(), Chooser: report.Arbiter, Options: []report.Option{{ID: report.OptStand, Squares: []string{m.To.String()}}}, Reason: "the promotion piece was not named: the pawn becomes a queen"})
			g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptStand, By: report.Arbiter, Law: g.laws.PromotionLaw})
			g.comment(fmt.Sprintf("%s, %s: promotion not named, queen", report.KindBadPromotion, g.laws.PromotionLaw))
			g.countIllegal(t, rd.Mover)
			g.afterMove(t)
			return
		default:
			m.Promo = board.Queen
			rd.Move = m
		}
	}
	if d := g.touchMoveViolation(rd); d != nil {
		g.raise(t, d)
		return
	}
	if g.imposed != nil && g.imposed.side == rd.Mover {
		g.imposed = nil // carried out
	}
	g.record(t, rd, a, true)
	g.afterMove(t)
}

// falseMove judges a completed man-move that no legal move explains.
func (g *Game) falseMove(t time.Duration, rd *gesture.Reading) {
	a := g.cur
	pos := &a.Position
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
	offender := rd.Mover
	if kind == report.KindMovedIntoCheck && offender == pos.Turn {
		r = g.intoCheckRule(r, rd)
	}
	if pr := g.laws.PromotionOnWrongSquare; pr != nil && offender == pos.Turn && promotesOffTarget(pos, rd.Move) {
		kind, r = report.KindBadPromotion, *pr
	}
	physical := a.Position
	physical.Men = rd.After
	physical.Turn = offender.Other()
	if offender == pos.Turn {
		physical.FullMove, physical.HalfMoves = pos.FullMove, pos.HalfMoves
		after := pos.Apply(rd.Move)
		physical.Castling, physical.EnPassant, physical.HalfMoves, physical.FullMove = after.Castling, board.NoSquare, after.HalfMoves, after.FullMove
		physical.Castling &= castlingStillPossible(&physical)
	}
	prov, err := g.analyses.Analyse(physical)
	if err != nil {
		prov = a
	}
	d := &decision{kind: kind, law: r.Law, offender: offender, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: rd.Move.From, adverse: taken}
	if kind == report.KindMovedAdverse {
		d.adverse = rd.Move.From
	}
	if kind == report.KindOwnCapture {
		d.taken = rd.Move.To
	}
	if kind == report.KindSuccessive && len(g.moves) > 0 {
		d.beforeFirst = g.analysed(g.moves[len(g.moves)-1].before)
		d.secondOnly = g.laws.SuccessiveRevokesSecondOnly
	}
	if pos.IsCastling(rd.Move) {
		d.castleKing = rd.Move
	}
	ids := g.filter(r.Options)
	if kind == report.KindSuccessive && len(g.moves) == 0 {
		// A man of the side not to move, moved before any move was made:
		// a move out of turn, with no first move to keep. Keeping the
		// first is recalling this one.
		ids = recallForKeepFirst(ids)
	}
	if !bothKings(&physical) {
		// A king cannot be taken: the move can never stand.
		ids = withoutWaiver(ids)
	}
	d.options = g.feasibleOptions(d, ids)
	if slices.Contains(ids, report.OptMoveTouched) && !g.laws.FirstTouchedBinds {
		d.options = append(d.options, g.otherTouchedMen(d)...)
	}
	if r.KingFallback {
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
	g.raise(t, d)
	if g.laws.IllegalMoveLaw != "" && !g.uncompleted(rd) {
		g.countIllegal(t, offender)
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

// recallForKeepFirst returns ids with keep-first read as recall, each once.
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

// intoCheckRule is the rule for a move that leaves the mover's king
// attacked: under nycc:XIII a man that discovered the check must be moved
// so that it stays covered (its lawful moves are exactly those), the king
// only when it cannot; under sarratt1808 and philidor1825 the
// moved-into-check rule (17, XV) is for a man that could not move without
// exposing its king, and one that could made a false move (13, VIII).
func (g *Game) intoCheckRule(r lawset.Rule, rd *gesture.Reading) lawset.Rule {
	a := g.cur
	from := rd.Move.From
	man := a.Position.Men[from]
	canMove := len(a.MovesFrom(from)) > 0
	if canMove && g.laws.IntoCheckByMovableMan != nil {
		return *g.laws.IntoCheckByMovableMan
	}
	if g.laws.DiscoveredCheckCovered && canMove && man.Kind() != board.King && !a.Position.InCheck(rd.Mover) {
		r.Options = []report.OptionID{report.OptMoveTouched}
	}
	return r
}

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

// promotesOffTarget reports whether m plays a pawn of the side to move from
// its seventh rank to its last rank on a square no pawn move reaches: a
// promotion whose new man was set on a wrong square.
func promotesOffTarget(p *board.Position, m board.Move) bool {
	man := p.Men[m.From]
	if man.Kind() != board.Pawn || man.Color() != p.Turn {
		return false
	}
	seventh, last := 6, 7
	if man.Color() == board.Black {
		seventh, last = 1, 0
	}
	return m.From.Rank() == seventh && m.To.Rank() == last && !p.Geometric(m)
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

// castlingStillPossible keeps only the rights whose king and rook still stand
// at home.
func castlingStillPossible(p *board.Position) board.Castling {
	var keep board.Castling
	for _, c := range [2]board.Color{board.White, board.Black} {
		home := 0
		if c == board.Black {
			home = 7
		}
		if p.Men[board.NewSquare(4, home)] != board.NewMan(c, board.King) {
			continue
		}
		if p.Men[board.NewSquare(7, home)] == board.NewMan(c, board.Rook) {
			keep |= board.Right(c, true)
		}
		if p.Men[board.NewSquare(0, home)] == board.NewMan(c, board.Rook) {
			keep |= board.Right(c, false)
		}
	}
	return keep
}

// feasible keeps the options that can be carried out in the position before
// the offending move, each with its squares; it never returns none: where
// none can, the move is recalled.
func (g *Game) feasible(d *decision, ids []report.OptionID) []report.Option {
	out := g.feasibleOptions(d, ids)
	if len(out) == 0 {
		out = []report.Option{recallOption(d)}
	}
	return out
}

// recallOption is the option that takes the offending move back without
// penalty.
func recallOption(d *decision) report.Option {
	return report.Option{ID: report.OptRecall, Squares: squareNames([]board.Square{d.touched})}
}

// feasibleOptions keeps the options that can be carried out in the position
// before the offending move, each with its squares; it may return none.
func (g *Game) feasibleOptions(d *decision, ids []report.OptionID) []report.Option {
	side := d.offender
	var out []report.Option
	for _, id := range ids {
		a := d.before
		if d.kind == report.KindSuccessive && d.beforeFirst != nil && id != report.OptKeepFirst {
			// Recalling both moves gives the offender his turn back.
			a = d.beforeFirst
		}
		var sqs []board.Square
		ok := true
		switch id {
		case report.OptStand, report.OptKeepAll:
			sqs = validSquares(d.touched, d.reading.Move.To)
		case report.OptRecall, report.OptReplace, report.OptRestore, report.OptKeepFirst, report.OptAnnul:
			sqs = []board.Square{d.touched}
		case report.OptKeepSecond:
			sqs, ok = g.keepSecondSquares(d)
		case report.OptMoveTouched:
			if d.recallsBoth() {
				out = append(out, g.successiveMen(d, slices.Contains(ids, report.OptKing))...)
				continue
			}
			sqs, ok = g.manSquares(a, side, d.touched)
		case report.OptMoveTaken:
			sqs, ok = g.manSquares(a, side, d.taken)
		case report.OptTakeTouched:
			sqs, ok = g.takeSquares(a, side, d.adverse)
		case report.OptKing:
			k := a.Position.KingSquare(side)
			moves := g.kingMoves(a, side)
			ok = len(moves) > 0
			sqs = append([]board.Square{k}, moves...)
		case report.OptRook:
			sqs, ok = g.rookSquares(a, side, d)
		case report.OptCastle:
			sqs, ok = g.castleSquares(a, side, d)
		}
		if ok {
			out = append(out, report.Option{ID: id, Squares: squareNames(sqs)})
		}
	}
	// Moving the touched man and moving the king are one penalty when the
	// touched man is the king.
	if d.touched.Valid() && d.before.Position.Men[d.touched].Kind() == board.King {
		var kept []report.Option
		hasMoveTouched := false
		for _, o := range out {
			hasMoveTouched = hasMoveTouched || o.ID == report.OptMoveTouched
		}
		for _, o := range out {
			if o.ID == report.OptKing && hasMoveTouched {
				continue
			}
			kept = append(kept, o)
		}
		out = kept
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

func validSquares(sqs ...board.Square) []board.Square {
	var out []board.Square
	for _, s := range sqs {
		if s.Valid() {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) manSquares(a *board.Analysis, side board.Color, sq board.Square) ([]board.Square, bool) {
	if side != a.Position.Turn || !sq.Valid() || a.Position.Men[sq] == board.NoMan || a.Position.Men[sq].Color() != side {
		return nil, false
	}
	out := []board.Square{sq}
	for _, m := range a.MovesFrom(sq) {
		out = append(out, m.To)
	}
	return out, len(out) > 1
}

func (g *Game) takeSquares(a *board.Analysis, side board.Color, sq board.Square) ([]board.Square, bool) {
	if side != a.Position.Turn || !sq.Valid() {
		return nil, false
	}
	out := []board.Square{sq}
	for _, m := range a.Moves {
		if m.To == sq {
			out = append(out, m.From)
		}
	}
	return out, len(out) > 1
}

func (g *Game) rookSquares(a *board.Analysis, side board.Color, d *decision) ([]board.Square, bool) {
	rook := board.NoSquare
	if d.castleKing.From.Valid() && (d.castleKing != board.Move{}) {
		rook, _ = board.CastlingRook(d.castleKing.From, d.castleKing.To)
	} else if a.Position.Men[d.touched].Kind() == board.Rook {
		rook = d.touched
	}
	if rook == board.NoSquare {
		return nil, false
	}
	return g.manSquares(a, side, rook)
}

func (g *Game) castleSquares(a *board.Analysis, side board.Color, d *decision) ([]board.Square, bool) {
	k := a.Position.KingSquare(side)
	out := []board.Square{k}
	for _, m := range a.MovesFrom(k) {
		if a.Position.IsCastling(m) {
			out = append(out, m.To)
		}
	}
	return out, len(out) > 1
}

// touchMoveViolation checks the move against the men the mover touched and
// any obligation a penalty imposed. It returns the irregularity, or nil.
func (g *Game) touchMoveViolation(rd *gesture.Reading) *decision {
	a := g.cur
	pos := &a.Position
	side := rd.Mover
	m := rd.Move
	honoured := func(sq board.Square) bool {
		if sq == m.From || sq == m.To {
			return true
		}
		if pos.IsEnPassant(m) && sq == board.EnPassantVictim(m) {
			return true
		}
		if pos.IsCastling(m) {
			rf, _ := board.CastlingRook(m.From, m.To)
			return sq == rf
		}
		return false
	}
	newDecision := func(law report.Law, touched, adverse board.Square, ids []report.OptionID) *decision {
		next := pos.Apply(m)
		prov, err := g.analyses.Analyse(next)
		if err != nil {
			prov = a
		}
		r, _ := g.laws.Rule(report.KindTouchMove)
		if law == "" {
			law = r.Law
		}
		d := &decision{kind: report.KindTouchMove, law: law, offender: side, chooser: r.Chooser, reading: rd, before: a, provisional: prov, touched: touched, adverse: adverse}
		d.options = g.feasible(d, g.filter(ids))
		return d
	}
	// An obligation imposed by an earlier ruling.
	if ob := g.imposed; ob != nil && ob.side == side {
		ok := true
		switch ob.what {
		case report.OptKing:
			ok = pos.Men[m.From].Kind() == board.King && !(ob.noCastle && pos.IsCastling(m))
		case report.OptMoveTouched, report.OptMoveTaken, report.OptRook:
			ok = m.From == ob.square
		case report.OptTakeTouched:
			ok = m.To == ob.square || (pos.IsEnPassant(m) && board.EnPassantVictim(m) == ob.square)
		case report.OptCastle:
			ok = pos.IsCastling(m)
		}
		if !ok {
			return newDecision(ob.law, ob.square, ob.square, []report.OptionID{report.OptStand, ob.what})
		}
		return nil
	}
	var orderBuf, ownBuf, adverseBuf [64]board.Square
	order, own, adverse := touchedMen(rd, orderBuf[:0], ownBuf[:0], adverseBuf[:0])
	if len(order) == 0 || g.checkExempt() || g.misledByFalseCheck(side) {
		return nil
	}
	canMove := func(sq board.Square) bool { return len(a.MovesFrom(sq)) > 0 }
	if g.laws.FirstTouchedBinds {
		// fide2023:4.4.1: the king touched, then a rook of its own: the
		// player must castle on that side if it is legal.
		if k := pos.KingSquare(side); len(order) >= 2 && order[0] == k {
			for _, sq := range order[1:] {
				if pos.Men[sq] != board.NewMan(side, board.Rook) {
					continue
				}
				for _, lm := range a.MovesFrom(k) {
					if !pos.IsCastling(lm) {
						continue
					}
					if rf, _ := board.CastlingRook(lm.From, lm.To); rf == sq && m != lm {
						return newDecision(g.laws.FirstTouched.KingThenRook, k, board.NoSquare, []report.OptionID{report.OptStand, report.OptCastle})
					}
				}
			}
		}
		// fide2023:4.4.2: rook touched before the king: no castling that side.
		if pos.IsCastling(m) {
			rf, _ := board.CastlingRook(m.From, m.To)
			for _, sq := range order {
				if sq == m.From {
					break
				}
				if sq == rf {
					return newDecision(g.laws.FirstTouched.RookFirst, rf, board.NoSquare, []report.OptionID{report.OptStand, report.OptRook})
				}
			}
		}
		// fide2023:4.3.3: men of both colours touched: the first touched
		// adverse man must be taken with the first touched own man, if that
		// is legal; otherwise the first touched man that can be moved or
		// taken binds, as below.
		if len(own) > 0 && len(adverse) > 0 {
			for _, lm := range a.Moves {
				if lm.From == own[0] && (lm.To == adverse[0] || pos.IsEnPassant(lm) && board.EnPassantVictim(lm) == adverse[0]) {
					if m.From == own[0] && honoured(adverse[0]) {
						return nil
					}
					return newDecision(g.laws.FirstTouched.Both, own[0], adverse[0], []report.OptionID{report.OptStand, report.OptTakeTouched})
				}
			}
		}
		for _, sq := range order {
			isOwn := contains(own, sq)
			if isOwn && canMove(sq) || !isOwn && capturable(a, sq) {
				if honoured(sq) {
					return nil
				}
				if isOwn {
					return newDecision(g.laws.FirstTouched.Own, sq, board.NoSquare, []report.OptionID{report.OptStand, report.OptMoveTouched})
				}
				return newDecision(g.laws.FirstTouched.Adverse, sq, sq, []report.OptionID{report.OptStand, report.OptTakeTouched})
			}
		}
		return nil // fide2023:4.5: nothing touched can be moved or taken
	}
	// The historical codes: every touched man binds; the adversary elects.
	// Only nycc:XI lets him require a king move instead when several men
	// were touched.
	plural := len(order) > 1 && g.laws.KingForSeveralTouched
	var unhonoured []board.Square
	for _, sq := range own {
		if canMove(sq) && !honoured(sq) {
			unhonoured = append(unhonoured, sq)
		}
	}
	if len(unhonoured) > 0 {
		ids := []report.OptionID{report.OptStand, report.OptMoveTouched}
		if plural {
			ids = append(ids, report.OptKing)
		}
		d := newDecision("", unhonoured[0], board.NoSquare, ids)
		// Several men bind: the adversary elects which must move
		// (nycc:XI, hastings1895:IV), one option for each.
		for _, sq := range unhonoured[1:] {
			if sqs, ok := g.manSquares(a, side, sq); ok {
				d.options = append(d.options, report.Option{ID: report.MoveTouchedOn(sq.String()), Squares: squareNames(sqs)})
			}
		}
		return d
	}
	for _, sq := range adverse {
		if capturable(a, sq) && !(m.To == sq || honoured(sq) && sq != m.From) {
			ids := []report.OptionID{report.OptStand, report.OptTakeTouched}
			if plural {
				ids = append(ids, report.OptKing)
			}
			return newDecision(g.laws.AdverseTouchLaw, board.NoSquare, sq, ids)
		}
	}
	return nil
}

// touchedMen appends to order, own and adverse the men the mover touched
// this turn, in order and without repeats: all of them, his own and the
// adversary's. A touch announced by j'adoube, a bump and a nudge do not
// count. Given slices of capacity 64 (a square is touched once), it does not
// allocate.
func touchedMen(rd *gesture.Reading, order, own, adverse []board.Square) ([]board.Square, []board.Square, []board.Square) {
	seen := board.Occupancy(0)
	for _, tm := range rd.Touches {
		if tm.Announced || tm.Bump || !tm.Square.Valid() || seen.Has(tm.Square) || tm.Man == board.NoMan {
			continue
		}
		seen = seen.With(tm.Square)
		order = append(order, tm.Square)
		if tm.Man.Color() == rd.Mover {
			own = append(own, tm.Square)
		} else {
			adverse = append(adverse, tm.Square)
		}
	}
	return order, own, adverse
}

// otherTouchedMen returns, for a false move under a code where every
// touched man binds, one move-touched-<square> option for each other own
// man the offender touched that turn and can move once the false move is
// taken back: the adversary may call on any of them (hastings1895:IV "a
// plurality", nycc:X, sarratt1808:7, philidor1825:V), not only on the man
// that made the false move.
func (g *Game) otherTouchedMen(d *decision) []report.Option {
	rd := d.reading
	if rd == nil || d.kind == report.KindSuccessive || (d.castleKing != board.Move{}) || d.before.Position.Turn != d.offender {
		return nil
	}
	if g.checkExempt() || g.misledByFalseCheck(d.offender) {
		return nil
	}
	var orderBuf, ownBuf, adverseBuf [64]board.Square
	_, own, _ := touchedMen(rd, orderBuf[:0], ownBuf[:0], adverseBuf[:0])
	var out []report.Option
	for _, sq := range own {
		if sq == rd.Move.From || sq == rd.Move.To || sq == d.taken || d.before.Position.Men[sq].Color() != d.offender {
			continue
		}
		if sqs, ok := g.manSquares(d.before, d.offender, sq); ok {
			out = append(out, report.Option{ID: report.MoveTouchedOn(sq.String()), Squares: squareNames(sqs)})
		}
	}
	return out
}

// firstTouchedBinding returns the obligation fide2023:4.3 puts on the move
// that replaces an illegal one (7.5.1): the first man the player touched
// that can be moved, or taken if it is the adversary's. The man moved
// counts as touched. It returns nil when none can.
func (g *Game) firstTouchedBinding(d *decision, target *board.Analysis) *obligation {
	side := d.offender
	order := []board.Square{d.touched}
	if d.reading != nil {
		var orderBuf, ownBuf, adverseBuf [64]board.Square
		if touched, _, _ := touchedMen(d.reading, orderBuf[:0], ownBuf[:0], adverseBuf[:0]); len(touched) > 0 {
			order = touched
		}
	}
	for _, sq := range order {
		man := target.Position.Men[sq]
		switch {
		case man == board.NoMan:
		case man.Color() == side && len(target.MovesFrom(sq)) > 0:
			return &obligation{side: side, what: report.OptMoveTouched, square: sq, law: g.laws.FirstTouched.Own}
		case man.Color() != side && capturable(target, sq):
			return &obligation{side: side, what: report.OptTakeTouched, square: sq, law: g.laws.FirstTouched.Adverse}
		}
	}
	return nil
}

func contains(sqs []board.Square, sq board.Square) bool {
	for _, s := range sqs {
		if s == sq {
			return true
		}
	}
	return false
}

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
	g.emit(report.Report{Type: report.Move, T: t, Made: madeAt(t, rd), Side: rd.Mover.String(), UCI: rec.uci, SAN: san, FEN: g.cur.Position.FEN(), Ply: len(g.moves) - 1})
	g.noteCheck(rd.Mover)
}

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
	g.emit(report.Report{Type: report.Move, T: t, Made: madeAt(t, rd), Side: rd.Mover.String(), UCI: rec.uci, SAN: san, FEN: g.cur.Position.FEN(), Ply: len(g.moves) - 1})
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

// countIllegal applies fide2023:7.5.5.
func (g *Game) countIllegal(t time.Duration, offender board.Color) {
	g.illegal[offender]++
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

func winFor(c board.Color) report.Outcome {
	if c == board.White {
		return report.WhiteWins
	}
	return report.BlackWins
}

// Choose applies an option chosen by side ("white", "black" or "arbiter").
func (g *Game) Choose(t time.Duration, option report.OptionID, side report.Party) error {
	d := g.pending
	if d == nil {
		return fmt.Errorf("no choice is pending")
	}
	found := false
	for _, o := range d.options {
		if o.ID == option {
			found = true
		}
	}
	if !found {
		ids := make([]report.OptionID, len(d.options))
		for i, o := range d.options {
			ids[i] = o.ID
		}
		return fmt.Errorf("option %q is not offered (offered: %v)", option, ids)
	}
	if side != report.Arbiter && side != g.chooserName(d) {
		return fmt.Errorf("%s may not choose: the chooser is %s", side, g.chooserName(d))
	}
	g.apply(t, option, side)
	return nil
}

// apply carries out a chosen option.
func (g *Game) apply(t time.Duration, option report.OptionID, by report.Party) {
	d := g.pending
	g.pending = nil
	g.emit(report.Report{Type: report.Ruling, T: t, Option: option, By: by, Law: d.law})
	if d.pre {
		g.comment(g.takenBackNote(d, option, by))
		if option == report.OptStand {
			g.imposed = nil
		}
		return
	}
	side := d.offender
	if d.recorded {
		switch option {
		case report.OptStand:
			g.comment(fmt.Sprintf("%s, %s: %s by %s", d.kind, d.law, report.OptStand, by))
		case report.OptPlaceForgotten:
			placed := g.placeForgotten()
			g.comment(fmt.Sprintf("%s, %s: the forgotten man set in its place by %s; position %s", d.kind, d.law, by, placed.Position.FEN()))
			// No move leads there: the PGN goes on from the position.
			resume := placed.Position
			if n := len(g.moves); n > 0 {
				g.moves[n-1].resume = &resume
			} else {
				g.startResume = &resume
			}
			g.restoreTo(t, placed, nil)
		case report.OptAnnul:
			g.annulled++
			g.startAt = d.restart
			g.annul(d.restart, fmt.Sprintf("%s, %s: game annulled by %s", d.kind, d.law, by))
			g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: d.restart}
		case report.OptRecall:
			keep := d.recallTo
			recalled := len(g.moves) - keep
			g.dropMoves(keep)
			// The note goes on the move that stays: the one the recall
			// returns to.
			g.comment(fmt.Sprintf("%s, %s: %d %s recalled by %s", d.kind, d.law, recalled, plural(recalled, "move", "moves"), by))
			g.seen.truncate(keep + 1)
			g.restoreTo(t, d.before, nil)
		}
		return
	}
	switch option {
	case report.OptStand, report.OptKeepAll:
		g.stand(t, d, by)
		return
	case report.OptKeepSecond:
		g.keepSecond(t, d, by)
		return
	case report.OptPromoteQ, report.OptPromoteR, report.OptPromoteB, report.OptPromoteN:
		rd := *d.reading
		rd.Move.Promo, _ = board.ParsePromotion(string(option[len(option)-1:]))
		g.record(t, &rd, d.before, true)
		g.comment(fmt.Sprintf("%s, %s: promotion named %s", d.kind, d.law, rd.Move.Promo))
		g.afterMove(t)
		return
	case report.OptAnnul:
		g.annulled++
		note := g.annulNote(fmt.Sprintf("%s, %s: game annulled by %s", d.kind, d.law, by))
		g.restoreTo(t, g.startAt, nil)
		g.moves = nil
		g.notes, g.startResume = []string{note}, nil
		g.seen.reset(g.startAt.Position.Key())
		return
	}
	target := d.before
	_, elected := option.TouchedSquare()
	if (option == report.OptRecall || option == report.OptKing || elected) && d.recallsBoth() {
		target = d.beforeFirst
		g.dropMoves(len(g.moves) - 1)
		g.seen.truncate(g.seen.len() - 1)
	}
	// The offending move does not stand: the note goes on the move kept
	// last, or before the first move.
	g.comment(g.takenBackNote(d, option, by))
	var ob *obligation
	if name, ok := option.TouchedSquare(); ok {
		if sq, err := board.ParseSquare(name); err == nil {
			ob = &obligation{side: side, what: report.OptMoveTouched, square: sq, law: d.law}
		}
	}
	switch option {
	case report.OptMoveTouched:
		ob = &obligation{side: side, what: report.OptMoveTouched, square: d.touched, law: d.law}
	case report.OptMoveTaken:
		ob = &obligation{side: side, what: report.OptMoveTouched, square: d.taken, law: d.law}
	case report.OptTakeTouched:
		ob = &obligation{side: side, what: report.OptTakeTouched, square: d.adverse, law: d.law}
	case report.OptKing:
		ob = &obligation{side: side, what: report.OptKing, noCastle: g.laws.KingPenaltyNoCastling, law: d.law, square: target.Position.KingSquare(side)}
	case report.OptRook:
		sqs, _ := g.rookSquares(target, side, d)
		if len(sqs) > 0 {
			ob = &obligation{side: side, what: report.OptMoveTouched, square: sqs[0], law: d.law}
		}
	case report.OptCastle:
		ob = &obligation{side: side, what: report.OptCastle, law: d.law, square: target.Position.KingSquare(side)}
	case report.OptRestore:
		// fide2023:7.5.1: the replacement move is bound by 4.3 and 4.7: the
		// man moved must be moved (the king, after a false castling: 4.4.3).
		sq := d.touched
		if d.kind == report.KindFalseCastling {
			sq = target.Position.KingSquare(side)
		}
		switch {
		case d.kind == report.KindMovedAdverse && target.Position.Turn == side && capturable(target, d.adverse):
			ob = &obligation{side: side, what: report.OptTakeTouched, square: d.adverse, law: g.laws.FirstTouched.Adverse}
		case d.kind == report.KindFalseCastling && target.Position.Turn == side && len(target.MovesFrom(sq)) > 0:
			ob = &obligation{side: side, what: report.OptMoveTouched, square: sq, law: g.laws.FirstTouched.Own}
		case d.kind != report.KindSuccessive && d.kind != report.KindMovedAdverse && d.kind != report.KindFalseCastling && target.Position.Turn == side:
			ob = g.firstTouchedBinding(d, target)
		}
	}
	g.restoreTo(t, target, ob)
}

// stand lets the offending move remain.
func (g *Game) stand(t time.Duration, d *decision, by report.Party) {
	g.recordStanding(t, d)
	g.comment(fmt.Sprintf("%s, %s: %s by %s", d.kind, d.law, report.OptStand, by))
	g.imposed = nil
	g.afterMove(t)
}

// restoreTo takes the board back to an earlier position; once it matches,
// play resumes with the obligation in force.
func (g *Game) restoreTo(t time.Duration, target *board.Analysis, ob *obligation) {
	g.cur = target
	g.intended = nil // the position it was made in is gone
	g.restored = &restoreState{then: target, imposed: ob}
	g.imposed = nil
	g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: target}
}

func (g *Game) onSynced(t time.Duration) {
	g.emit(report.Report{Type: report.Synced, T: t})
	switch {
	case g.restored != nil:
		rs := g.restored
		g.restored = nil
		g.imposed = rs.imposed
		g.cur = rs.then
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: rs.then}
	case g.exp.Mode == gesture.AwaitNewGame:
		g.begin(g.startAt)
	default:
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: g.cur}
	}
}

func (g *Game) onPromote(gs gesture.Gesture) {
	if d := g.pending; d != nil && d.kind == report.KindBadPromotion && gs.Side == d.offender {
		g.apply(gs.T, report.OptionID("promote-"+string(gs.Piece.Letter())), party(gs.Side))
	}
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
// the moment it was reported.
func madeAt(t time.Duration, rd *gesture.Reading) time.Duration {
	if n := len(rd.Events); n > 0 && rd.Events[n-1].T < t {
		return rd.Events[n-1].T
	}
	return t
}
