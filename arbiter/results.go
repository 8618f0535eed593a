package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// afterMove ends the game where the position calls for it.
func (g *Game) afterMove(t time.Duration) {
	a := g.cur
	pos := &a.Position
	mover := pos.Turn.Other()
	switch {
	case a.Checkmate():
		law := g.laws.MateLaw
		reason := "checkmate"
		if law == "" {
			reason = "checkmate (the code has no law for it: mate is the end of the game)"
		}
		g.finish(t, winFor(mover), reason, law)
		return
	case a.Stalemate():
		if g.laws.StalemateWins {
			g.finish(t, winFor(pos.Turn), "stalemate: the stalemated player wins", g.laws.StalemateLaw)
			return
		}
		reason := "stalemate"
		if g.laws.StalemateLaw == "" {
			reason = "stalemate (the code has no law for it: no legal move is left, so the game is drawn)"
		}
		g.finish(t, report.Draw, reason, g.laws.StalemateLaw)
		return
	}
	if g.laws.InsufficientDraw && pos.Dead() {
		g.finish(t, report.Draw, g.laws.InsufficientReason, g.laws.InsufficientLaw)
		return
	}
	reps := g.repetitions()
	if g.laws.Repetition == lawset.ThreefoldAutomatic && reps >= 3 {
		g.finish(t, report.Draw, "threefold repetition", g.laws.RepetitionLaw)
		return
	}
	if g.laws.FivefoldLaw != "" && reps >= 5 {
		g.finish(t, report.Draw, "fivefold repetition", g.laws.FivefoldLaw)
		return
	}
	if g.laws.SeventyFiveLaw != "" && pos.HalfMoves >= 150 {
		g.finish(t, report.Draw, "seventy-five moves without capture or pawn move", g.laws.SeventyFiveLaw)
		return
	}
	if c := g.count; c != nil && g.laws.Count != nil && !g.laws.Count.ResetByPawn {
		if len(g.moves)-c.startPly >= g.laws.Count.Plies {
			g.finish(t, report.Draw, fmt.Sprintf("%d moves counted without mate", g.laws.Count.Plies/2), c.law)
		}
	}
}

// repetitions counts how often the current position has stood on the board.
func (g *Game) repetitions() int { return g.seen.current(g.laws.RepetitionByPlacement) }

// Finish ends the game with a result decided outside the board, a flag
// fallen, unless it has ended already.
func (g *Game) Finish(t time.Duration, result report.Outcome, reason string, law report.Law) {
	if g.result == nil {
		g.finishAs(t, pgn.TimeForfeit, result, reason, law)
	}
}

// finish ends the game on the board: mate, stalemate, a draw.
func (g *Game) finish(t time.Duration, result report.Outcome, reason string, law report.Law) {
	g.finishAs(t, pgn.Normal, result, reason, law)
}

// finishAs ends the game, termination being the PGN's standard word for
// how (pgn.Normal, pgn.TimeForfeit, ...).
func (g *Game) finishAs(t time.Duration, termination string, result report.Outcome, reason string, law report.Law) {
	r := report.Report{Type: report.Result, T: t, Result: result, Reason: reason, Law: law}
	g.termination = termination
	g.result = &r
	g.pending = nil
	g.imposed = nil
	g.emit(r)
	g.exp = gesture.Expectation{Mode: gesture.AwaitNewGame, Analysis: g.startAt}
}

// onPress handles the buttons the arbiter cares about: claims.
func (g *Game) onPress(gs gesture.Gesture) {
	if g.result != nil {
		return
	}
	switch gs.Button {
	case trace.ButtonClaim:
		if p := g.pending; p != nil && p.kind == report.KindSetup {
			return
		}
		if g.setupClaim(gs.T, gs.Side) || g.noticedCheck(gs.T, gs.Side) {
			return
		}
		g.claim(gs.T, gs.Side)
	case trace.ButtonCheck:
		g.onCheckPress(gs.T, gs.Side)
	case trace.ButtonClock:
		g.clockWithoutMove(gs.T, gs.Side)
	}
}

// claim handles a draw claim or a count called by side.
func (g *Game) claim(t time.Duration, side board.Color) {
	pos := &g.cur.Position
	if g.laws.ClaimOnMoveOnly && side != pos.Turn {
		// fide2023:9.2 and 9.3: the claim is the right of the player
		// having the move.
		return
	}
	if ic := g.intended; ic != nil && ic.side == side {
		return // claimed already: his next move decides it
	}
	if law := g.laws.ClaimAfterTouchLaw; law != "" && len(g.touched) > 0 {
		// fide2023:9.4: a man touched to move or take it ends the right to
		// claim on this move, whatever the position.
		g.refuse(t, side, law, fmt.Sprintf("%s touched the man on %s before claiming: no claim on this move", side, g.touched[0].Square))
		return
	}
	if ob := g.imposed; g.laws.ClaimAfterTouchLaw != "" && ob != nil && ob.side == side {
		// fide2023:9.4 with 7.5.1: an illegal move or a touch-move
		// violation taken back leaves its player on the same move, bound
		// to the man he touched (4.3): he touched it on this move.
		g.refuse(t, side, g.laws.ClaimAfterTouchLaw, fmt.Sprintf("%s is bound to the man on %s he touched on this move: no claim on this move", side, ob.square))
		return
	}
	reps := g.repetitions()
	switch g.laws.Repetition {
	case lawset.ThreefoldClaim:
		if reps >= 3 {
			g.finish(t, report.Draw, "threefold repetition claimed", g.laws.RepetitionLaw)
			return
		}
	case lawset.ContinualRepetition:
		if reps >= 3 {
			g.finish(t, report.Draw, "continual repetition of the same moves", g.laws.RepetitionLaw)
			return
		}
	}
	cr := g.laws.Count
	if cr == nil {
		return
	}
	if cr.ResetByPawn && !cr.OnNotice {
		if pos.HalfMoves >= cr.Plies {
			g.finish(t, report.Draw, "fifty moves without capture or pawn move, claimed", cr.Law)
			return
		}
		if g.laws.IntendedMoveClaim != nil && g.someMoveBearsClaim() {
			// fide2023:9.2.1.1, 9.3.1: the claim rests on the move he is
			// about to make; it is decided when he makes it.
			g.intended = &intendedClaim{side: side}
			// The claim is told as it is made, so that the clocks stand
			// (9.5.1) and the console shows what waits.
			g.emit(report.Report{Type: report.Clock, T: t, Side: side.String(), Law: g.laws.IntendedMoveClaim.PauseLaw,
				Reason: fmt.Sprintf("%s claims a draw on the move about to be made: decided when it is made", side)})
			return
		}
		g.incorrectClaim(t, side)
		return
	}
	if g.count == nil {
		g.count = &countState{law: cr.Law, startPly: len(g.moves), by: side}
		reason := fmt.Sprintf("%d moves each to mate, counted from now", cr.Plies/2)
		g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptCount, By: party(side), Law: cr.Law, Reason: reason})
		g.comment(fmt.Sprintf("%s called by %s, %s: %s", report.OptCount, party(side), cr.Law, reason))
		return
	}
	if cr.ResetByPawn {
		// hastings1895:VIII: the fifty moves run from the call; a capture or
		// a pawn move within them means no draw from that count. Every
		// claim is answered.
		since := len(g.moves) - g.count.startPly
		switch {
		case since < cr.Plies:
			g.refuse(t, side, cr.Law, fmt.Sprintf("%d moves of the count remain", (cr.Plies-since+1)/2))
		case pos.HalfMoves >= since:
			g.finish(t, report.Draw, fmt.Sprintf("%d moves each since the call without capture, pawn move or mate", cr.Plies/2), cr.Law)
		default:
			g.count = nil // the next claim calls a new count
			g.refuse(t, side, cr.Law, "a capture or pawn move within the count: no draw from it")
		}
	}
}

// refuse answers a claim that is not borne out, with a ruling and a note at
// the move it was made on.
func (g *Game) refuse(t time.Duration, claimant board.Color, law report.Law, reason string) {
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptRefused, By: report.Arbiter, Law: law, Reason: reason})
	g.comment(fmt.Sprintf("claim by %s refused, %s: %s", claimant, law, reason))
}

// clockWithoutMove rules a clock press by the side to move, which has not
// moved (a completed move passes the turn before the press is told):
// fide2023:7.5.3 treats and penalises it as an illegal move. It applies
// only where a clock runs and the law-set knows the rule.
func (g *Game) clockWithoutMove(t time.Duration, side board.Color) {
	if !g.opts.Clocked || g.laws.ClockWithoutMoveLaw == "" || g.pending != nil || g.restored != nil || g.exp.Mode != gesture.Play {
		return
	}
	moved := g.movedSincePress[side]
	g.movedSincePress[side] = false
	if side != g.cur.Position.Turn || moved {
		// A press after one's own move, even once the opponent has replied,
		// completes that move (fide2023:6.2.2): no press without a move.
		return
	}
	d := &decision{kind: report.KindClockWithoutMove, law: g.laws.ClockWithoutMoveLaw, offender: side, chooser: lawset.ByArbiter, pre: true, before: g.cur, provisional: g.cur, touched: board.NoSquare}
	// No man moved: the option names the king of the side penalised.
	d.options = []report.Option{{ID: report.OptStand, Squares: []string{g.cur.Position.KingSquare(side).String()}}}
	if g.opts.WarnOnly {
		words := fmt.Sprintf("Under %s the clock pressed without a move is penalised as an illegal move (%s); warn-only: play on, not counted", d.law, g.laws.IllegalMoveLaw)
		g.emit(report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: side.String(), Chooser: report.WarnOnly, Options: d.options, Reason: words})
		g.comment(fmt.Sprintf("warning (warn-only), %s, %s: the clock pressed without a move; not counted", d.kind, d.law))
		return
	}
	g.emit(report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: side.String(), Chooser: report.Arbiter, Options: d.options, Reason: "the clock pressed without a move: penalised as an illegal move"})
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptStand, By: report.Arbiter, Law: d.law})
	g.comment(fmt.Sprintf("%s, %s: the clock pressed without a move", d.kind, d.law))
	g.countIllegal(t, side)
}

// incorrectClaim rules a draw claim that is not borne out (fide2023:9.5.3):
// play goes on, and where a clock runs the opponent gets extra time.
func (g *Game) incorrectClaim(t time.Duration, claimant board.Color) {
	reason := "incorrect claim: play goes on"
	switch {
	case g.opts.Clocked && g.opts.WarnOnly:
		reason = "incorrect claim: play goes on (warn-only: no extra time to the opponent)"
	case g.opts.Clocked:
		reason = "incorrect claim: play goes on, extra time to the opponent"
	}
	law := g.laws.IncorrectClaimLaw
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptRefused, By: report.Arbiter, Law: law, Reason: reason})
	g.comment(fmt.Sprintf("claim by %s refused, %s", claimant, law))
	if g.OnIncorrectClaim != nil && !g.opts.WarnOnly {
		g.OnIncorrectClaim(t, claimant)
	}
}

// intendedClaim is a draw claim made before the claimant's move, resting on
// that move (fide2023:9.2.1.1, 9.3.1).
type intendedClaim struct {
	side board.Color
}

// someMoveBearsClaim reports whether some legal move of the side to move
// would make the position stand for the third time or complete the count
// without capture or pawn move: only then can a claim rest on the move
// about to be made.
func (g *Game) someMoveBearsClaim() bool {
	a := g.cur
	cr := g.laws.Count
	for _, m := range a.Moves {
		next := a.Position.Apply(m)
		if g.laws.Repetition == lawset.ThreefoldClaim && g.seen.count(next.Key(), g.laws.RepetitionByPlacement) >= 2 {
			return true
		}
		if cr != nil && cr.ResetByPawn && !cr.OnNotice && next.HalfMoves >= cr.Plies {
			return true
		}
	}
	return false
}

// decideIntended decides a claim resting on the move the claimant has just
// made, once that move is judged (movesBefore: how many moves stood before
// it). The move drew only if it stands, lawful, as the claimant's: a move
// taken back or left waiting for a ruling bears nothing out. A game the
// move ended otherwise (a mate, the fivefold repetition) needs no answer.
func (g *Game) decideIntended(t time.Duration, ic *intendedClaim, movesBefore int) {
	if g.result != nil {
		return
	}
	stands := g.pending == nil && g.restored == nil && len(g.moves) == movesBefore+1
	if stands {
		last := g.moves[len(g.moves)-1]
		stands = last.legal && last.side == ic.side && last.resume == nil
	}
	laws := g.laws.IntendedMoveClaim
	if stands && laws != nil {
		if g.laws.Repetition == lawset.ThreefoldClaim && g.repetitions() >= 3 {
			g.finish(t, report.Draw, "threefold repetition claimed on the move then made", laws.RepetitionLaw)
			return
		}
		if cr := g.laws.Count; cr != nil && cr.ResetByPawn && !cr.OnNotice && g.cur.Position.HalfMoves >= cr.Plies {
			g.finish(t, report.Draw, "fifty moves without capture or pawn move, claimed on the move then made", laws.CountLaw)
			return
		}
	}
	g.incorrectClaim(t, ic.side)
}
