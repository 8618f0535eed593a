package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// The historical codes make the checking player say "check". boardd hears
// it as the `check` button: pressed by the checker during his move, or after
// it before the adversary moves, it announces the check.

// checkState is the last check given under a code that wants it announced.
type checkState struct {
	checker    board.Color
	ply        int             // index in g.moves of the checking move
	announced  bool            // the checker said "check"
	afterCheck *board.Analysis // the position right after the checking move
}

// falseCheckState is a check announced that was not given.
type falseCheckState struct {
	by  board.Color
	ply int // the number of moves recorded when it was announced
}

// checkLaws says whether the law-set wants checks announced.
func (g *Game) checkLaws() bool { return g.laws.CheckLaw != "" }

// noteCheck runs after each move recorded: it remembers a check given, and
// forgets it once the checked king is out of check.
func (g *Game) noteCheck(mover board.Color) {
	if !g.checkLaws() {
		return
	}
	pos := &g.cur.Position
	checked := mover.Other()
	switch {
	case pos.InCheck(checked) && g.checks != nil && g.checks.checker == mover && g.checkedBefore(checked):
		// The same check goes on (nycc:IV, hastings1895:VI): a late call
		// recalls every move since it was given, not from this one.
		g.checks.announced = g.checks.announced || g.announce[mover]
	case pos.InCheck(checked):
		g.checks = &checkState{checker: mover, ply: len(g.moves) - 1, announced: g.announce[mover], afterCheck: g.cur}
	case g.checks != nil && !pos.InCheck(g.checks.checker.Other()):
		g.checks = nil
	}
	if g.announce[mover] && !pos.InCheck(checked) {
		// "Check" said with a move that gives none.
		g.falseCheck = &falseCheckState{by: mover, ply: len(g.moves)}
	}
	g.announce[mover] = false
}

// misledByFalseCheck reports whether side is in the turn right after its
// adversary announced a check that was not given, under a code that frees
// his touches then (philidor1825:XIV, sarratt1808:20).
func (g *Game) misledByFalseCheck(side board.Color) bool {
	fc := g.falseCheck
	return g.laws.FalseCheckFreesTouch && fc != nil && fc.by == side.Other() && len(g.moves) == fc.ply
}

// checkedBefore reports whether side's king already stood in check before
// the last move recorded.
func (g *Game) checkedBefore(side board.Color) bool {
	if len(g.moves) == 0 {
		return false
	}
	before := g.moves[len(g.moves)-1].before
	return before.InCheck(side)
}

// uncalledCheckAgainst reports whether side's king stands in a check that was
// not announced.
func (g *Game) uncalledCheckAgainst(side board.Color) bool {
	c := g.checks
	return c != nil && !c.announced && c.checker != side && g.cur.Position.InCheck(side)
}

// checkExempt reports whether touch-move penalties cannot be enforced against
// the side to move because its king stands in an uncalled check (nycc:IV: a
// man touched after an unannounced check need not be moved; hastings1895:VI:
// the penalties of rule IV cannot be enforced).
func (g *Game) checkExempt() bool {
	return g.laws.TouchFreeAfterUncalledCheck && g.uncalledCheckAgainst(g.cur.Position.Turn)
}

// mayIgnoreCheck reports whether a move leaving the mover's king in an
// unannounced check stands (philidor1825:XIII, sarratt1808:18, nycc:IV: the
// attacked king need not parry it).
func (g *Game) mayIgnoreCheck(rd *gesture.Reading) bool {
	if !g.laws.UncalledCheckMayBeIgnored {
		return false
	}
	if rd.False != report.KindMovedIntoCheck || rd.Mover != g.cur.Position.Turn || !g.uncalledCheckAgainst(rd.Mover) {
		return false
	}
	return true
}

// onCheckPress handles the `check` button pressed by side.
func (g *Game) onCheckPress(t time.Duration, side board.Color) {
	if !g.checkLaws() || g.result != nil {
		return
	}
	c := g.checks
	switch {
	case c != nil && c.checker == side && !c.announced && len(g.moves)-1 > c.ply && g.cur.Position.InCheck(side.Other()):
		// A check left unannounced, ignored, and now called.
		g.lateAnnouncement(t, c)
	case g.cur.Position.Turn == side:
		// Said during his own move: it announces the check the move gives.
		g.announce[side] = true
	case c != nil && c.checker == side && c.ply == len(g.moves)-1:
		c.announced = true
	case len(g.moves) > 0 && g.moves[len(g.moves)-1].side == side:
		// "Check" said after a move that gives none.
		g.falseCheck = &falseCheckState{by: side, ply: len(g.moves)}
	}
}

// lateAnnouncement takes the game back to the uncalled check so that it is
// parried (philidor1825:XIII, sarratt1808:18, nycc:IV, hastings1895:VI).
func (g *Game) lateAnnouncement(t time.Duration, c *checkState) {
	checked := c.checker.Other()
	rule := g.laws.LateCheck
	d := &decision{kind: report.KindUnannounced, law: rule.Law, offender: c.checker, chooser: rule.Chooser,
		before: c.afterCheck, provisional: g.cur, touched: c.afterCheck.Position.KingSquare(checked), recorded: true, recallTo: c.ply + 1}
	for _, id := range g.filter(rule.Options) {
		sqs := []string{d.touched.String()}
		d.options = append(d.options, report.Option{ID: id, Squares: sqs})
	}
	c.announced = true
	g.raise(t, d)
}

// noticedCheck handles the claim button pressed by side in its turn while
// its king stands in a check nobody called, given before side's last move:
// the king has been in check during two or more moves, and its player,
// noticing it himself, may put back his last move and cover the check or
// move the king (sarratt1808:19). The law asks that nobody can tell how it
// happened; boardd's record always could, but the players at the board did
// not, so boardd reads it as applying to every check left uncalled that
// long. It reports whether the claim was of a check noticed.
func (g *Game) noticedCheck(t time.Duration, side board.Color) bool {
	rule := g.laws.NoticedCheck
	c := g.checks
	if rule == nil || side != g.cur.Position.Turn || !g.uncalledCheckAgainst(side) {
		return false
	}
	last := len(g.moves) - 2 // side's own last move
	if last <= c.ply || g.moves[last].side != side {
		return false // a check given by the last move: nothing of his to put back
	}
	king := g.cur.Position.KingSquare(side)
	d := &decision{kind: report.KindNoticedCheck, law: rule.Law, offender: c.checker, chooser: rule.Chooser,
		before: g.analysed(g.moves[last].before), provisional: g.cur, touched: king, recorded: true, recallTo: last}
	for _, id := range g.filter(rule.Options) {
		d.options = append(d.options, report.Option{ID: id, Squares: []string{king.String()}})
	}
	c.announced = true // noticed: from now on the check must be parried
	g.raise(t, d)
	return true
}

// afterFalseCheck runs when a move completes: if the mover's adversary had
// said "check" falsely just before, the mover may take his move back
// (philidor1825:XIV, sarratt1808:20, nycc:IV).
func (g *Game) afterFalseCheck(t time.Duration, mover board.Color) {
	fc := g.falseCheck
	if fc == nil || fc.by == mover && len(g.moves) == fc.ply {
		return // the move that said "check" itself
	}
	g.falseCheck = nil
	if fc.by == mover || len(g.moves) != fc.ply+1 {
		return
	}
	law := g.laws.FalseCheckLaw
	if law == "" {
		return
	}
	last := g.moves[len(g.moves)-1]
	d := &decision{kind: report.KindFalseCheck, law: law, offender: fc.by, chooser: lawset.Offended, before: g.analysed(last.before), provisional: g.cur,
		touched: last.move.From, recorded: true, recallTo: len(g.moves) - 1, lapseByOffender: true, lapseOnTouch: g.laws.FalseCheckLapsesOnTouch}
	d.options = []report.Option{{ID: report.OptRecall, Squares: []string{last.move.From.String(), last.move.To.String()}}, {ID: report.OptStand, Squares: []string{last.move.To.String()}}}
	g.raise(t, d)
}

// setupClaim handles a claim, before each side has made four moves, that the
// men were set up wrongly or one was left off (philidor1825:I and III,
// sarratt1808:2 and 3, nycc:IX, hastings1895:I; fide2023:7.2.1 at any time).
// It reports whether the claim was a set-up claim.
func (g *Game) setupClaim(t time.Duration, side board.Color) bool {
	if g.opts.Odds != "" {
		return false
	}
	start := board.Start()
	if g.startAt.Position.Men == start.Men || !looksLikeInitialSetUp(&g.startAt.Position) {
		return false
	}
	early := countMoves(g.moves, board.White) < 4 || countMoves(g.moves, board.Black) < 4
	missing := g.startAt.Position.Occupancy().Count() < start.Occupancy().Count()
	rule := g.laws.Setup
	anyTime := missing && rule.MissingAnyTime
	law, chooser := rule.Law, lawset.ByArbiter
	if missing {
		law, chooser = rule.MissingLaw, rule.MissingChooser
	}
	switch rule.Window {
	case lawset.BeforeClaimantsFourthMove:
		// "before his fourth move": the claimant's own moves count.
		early = countMoves(g.moves, side) < 4
	case lawset.AnyTime:
		early = true
	}
	if !early && !anyTime || law == "" {
		return false
	}
	// The side whose man was forgotten is the one whose set is short.
	offender := side.Other()
	if missing {
		for _, c := range [2]board.Color{board.White, board.Black} {
			if g.startAt.Position.OccupancyOf(c).Count() < 16 {
				offender = c
			}
		}
	}
	a, err := g.analyses.Analyse(start)
	if err != nil {
		return false
	}
	d := &decision{kind: report.KindSetup, law: law, offender: offender, chooser: chooser, before: a, provisional: g.cur, touched: board.NoSquare, recorded: true, restart: a}
	wrong := squareNames(setupDifferences(&start, &g.startAt.Position))
	d.options = []report.Option{{ID: report.OptAnnul, Squares: wrong}}
	if missing && chooser == lawset.Offended {
		ids := rule.MissingOptions
		if len(ids) == 0 {
			ids = []report.OptionID{report.OptAnnul, report.OptStand}
		}
		d.options = d.options[:0]
		for _, id := range ids {
			switch id {
			case report.OptPlaceForgotten:
				// Only where the forgotten men's squares are free.
				sqs := g.forgotten()
				if len(sqs) == 0 {
					continue
				}
				d.options = append(d.options, report.Option{ID: id, Squares: squareNames(sqs)})
			default:
				d.options = append(d.options, report.Option{ID: id, Squares: wrong})
			}
		}
	}
	g.raise(t, d)
	return true
}

// forgotten lists the home squares of the men left off at the start, each
// free now; none if any of them is taken.
func (g *Game) forgotten() []board.Square {
	start := board.Start()
	var out []board.Square
	for sq, m := range start.Men {
		s := board.Square(sq)
		if m == board.NoMan || g.startAt.Position.Men[sq] != board.NoMan {
			continue
		}
		if g.cur.Position.Men[sq] != board.NoMan {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// placeForgotten sets the men left off at the start on their home squares
// in the current position (philidor1825:III); a rook regains its castling
// right only while its king has never moved.
func (g *Game) placeForgotten() *board.Analysis {
	start := board.Start()
	p := g.cur.Position
	for _, sq := range g.forgotten() {
		p.Men[sq] = start.Men[sq]
		m := start.Men[sq]
		if m.Kind() != board.Rook || g.kingMoved(m.Color()) {
			continue
		}
		p.Castling |= board.Right(m.Color(), sq.File() == 7)
	}
	p.Castling &= castlingStillPossible(&p)
	a, err := g.analyses.Analyse(p)
	if err != nil {
		return g.cur
	}
	return a
}

// kingMoved reports whether side's king has left its home square in the
// game.
func (g *Game) kingMoved(side board.Color) bool {
	home := board.NewSquare(4, 0)
	if side == board.Black {
		home = board.NewSquare(4, 7)
	}
	if g.cur.Position.Men[home] != board.NewMan(side, board.King) {
		return true
	}
	for _, r := range g.moves {
		if r.move.From == home && r.side == side {
			return true
		}
	}
	return false
}

// looksLikeInitialSetUp reports whether p is meant as the initial position:
// move 1, with the men of a full set (one may be missing), so that it is a
// set-up gone wrong rather than a composed position.
func looksLikeInitialSetUp(p *board.Position) bool {
	if p.FullMove != 1 {
		return false
	}
	want := [7]int{board.Pawn: 8, board.Knight: 2, board.Bishop: 2, board.Rook: 2, board.Queen: 1, board.King: 1}
	short := 0
	for _, c := range [2]board.Color{board.White, board.Black} {
		var n [7]int
		for _, m := range p.Men {
			if m != board.NoMan && m.Color() == c {
				n[m.Kind()]++
			}
		}
		for k := board.Pawn; k <= board.King; k++ {
			if n[k] > want[k] {
				return false
			}
			short += want[k] - n[k]
		}
	}
	return short <= 1
}

func countMoves(ms []record, side board.Color) int {
	n := 0
	for _, m := range ms {
		if m.side == side {
			n++
		}
	}
	return n
}

// oddsPosition removes the men given as odds from the initial position. The
// spec lists squares (or named odds: pawn, knight, rook, queen, each given by
// White from the king's bishop's pawn and the queen's side), comma-separated;
// "move" gives the move as well. The side giving odds has the move unless it
// gives the move too (philidor1825:II, sarratt1808:6, nycc:VII); a side
// giving a rook cannot castle on that side (nycc:XVI).
func oddsPosition(spec string) (board.Position, error) {
	p := board.Start()
	giveMove := false
	giver := board.Color(2)
	for _, item := range splitComma(spec) {
		var sq board.Square
		switch item {
		case "move":
			giveMove = true
			continue
		case "pawn":
			sq = board.NewSquare(5, 1) // the king's bishop's pawn (nycc:XVI)
		case "pawn-and-move":
			sq, giveMove = board.NewSquare(5, 1), true
		case "knight":
			sq = board.NewSquare(1, 0)
		case "rook":
			sq = board.NewSquare(0, 0)
		case "queen":
			sq = board.NewSquare(3, 0)
		default:
			var err error
			if sq, err = board.ParseSquare(item); err != nil {
				return p, fmt.Errorf("odds %q: %q is neither a square nor one of pawn, knight, rook, queen, pawn-and-move, move", spec, item)
			}
		}
		m := p.Men[sq]
		if m == board.NoMan || m.Kind() == board.King {
			return p, fmt.Errorf("odds %q: no man that can be given stands on %s", spec, sq)
		}
		if giver != 2 && m.Color() != giver {
			return p, fmt.Errorf("odds %q: men of both sides given", spec)
		}
		giver = m.Color()
		p.Men[sq] = board.NoMan
	}
	if giver == 2 {
		return p, fmt.Errorf("odds %q: no man given", spec)
	}
	p.Castling &= castlingStillPossible(&p)
	p.Turn = giver
	if giveMove {
		p.Turn = giver.Other()
	}
	return p, nil
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// setupDifferences returns the squares where the position the game began
// from differs from the correct set-up: the squares an annulment or a
// standing set-up is about, which the LEDs show with the option.
func setupDifferences(correct, began *board.Position) []board.Square {
	var out []board.Square
	for sq := board.Square(0); sq < 64; sq++ {
		if correct.Men[sq] != began.Men[sq] {
			out = append(out, sq)
		}
	}
	return out
}
