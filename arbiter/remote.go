package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/report"
)

// A side may be played from off the board: a chess engine, or an opponent
// online. Its moves are announced (Play), shown on the LEDs, and carried out
// on the board by the player at it; the laws never apply to that execution:
// a wrong man moved, or the right man set on the wrong square, is put right,
// never a move. Where the remote side is offended, nobody is there to choose
// a penalty: the arbiter exacts the first the law gives.

// SetRemote says whether side is played from off the board.
func (g *Game) SetRemote(side board.Color, remote bool) {
	g.remote[side] = remote
	if !remote && g.awaiting != nil && g.cur.Position.Turn == side {
		g.awaiting = nil
	}
}

// Remote reports whether side is played from off the board.
func (g *Game) Remote(side board.Color) bool { return g.remote[side] }

// Awaiting returns the remote side's move that the board must be made to
// show, if one is announced and not yet carried out.
func (g *Game) Awaiting() (board.Move, bool) {
	if g.awaiting == nil {
		return board.Move{}, false
	}
	return *g.awaiting, true
}

// Play announces the remote side's move m: it must be a legal move of the
// side to move, which must be remote. The board is then expected to show
// it; once the player has carried it out, it is recorded.
func (g *Game) Play(t time.Duration, m board.Move) error {
	side := g.cur.Position.Turn
	switch {
	case g.result != nil:
		return fmt.Errorf("the game is over (%s)", g.result.Result)
	case !g.remote[side]:
		return fmt.Errorf("%s is not played from off the board", side)
	case g.pending != nil:
		return fmt.Errorf("a ruling is waiting (%s, %s)", g.pending.kind, g.pending.law)
	}
	if g.cur.Position.IsPromotion(m) && m.Promo == board.NoKind {
		m.Promo = board.Queen
	}
	if !g.cur.IsLegal(m) {
		return fmt.Errorf("%s is not a legal move in %s", m.UCI(), g.cur.Position.FEN())
	}
	g.awaiting = &m
	return nil
}

// carried judges a completed move of a remote side: the announced move,
// carried out, is recorded; anything else is put right.
func (g *Game) carried(t time.Duration, rd *gesture.Reading) {
	want := g.awaiting
	m := rd.Move
	if want != nil && rd.Legal && m.From == want.From && m.To == want.To && (m.Promo == want.Promo || m.Promo == board.NoKind) {
		rd.Move = *want
		g.awaiting = nil
		g.record(t, rd, g.cur, true)
		g.afterMove(t)
		return
	}
	// Not the announced move (or none announced yet): the board goes back.
	target := g.cur.Position.Occupancy()
	var physical board.Occupancy
	for sq, man := range rd.After {
		if man != board.NoMan {
			physical = physical.With(board.Square(sq))
		}
	}
	g.emit(report.Report{Type: report.Mismatch, T: t, Missing: (target &^ physical).SquareNames(), Extra: (physical &^ target).SquareNames()})
	g.restoreTo(t, g.cur, nil)
}

// exactForRemote rules, at once, an irregularity whose chooser is a remote
// side: nobody at the board may choose for it, so the arbiter exacts the
// first penalty the law gives (or the only option). It reports whether it
// ruled.
func (g *Game) exactForRemote(t time.Duration, d *decision) bool {
	if d.chooser != lawset.Offended || !g.remote[d.offender.Other()] || len(d.options) == 0 {
		return false
	}
	choice := d.options[0].ID
	for _, o := range d.options {
		if o.ID != report.OptStand && o.ID != report.OptKeepAll {
			choice = o.ID
			break
		}
	}
	g.apply(t, choice, report.Arbiter)
	return true
}

// TakeBack takes back the last plies moves at a player's request (a game
// against an engine: boardd's own rule, no law's): the board is guided back
// to the position before them, and any ruling or duty in force goes.
func (g *Game) TakeBack(t time.Duration, plies int, by board.Color) error {
	switch {
	case plies < 1:
		return fmt.Errorf("take back %d moves: want 1 or more", plies)
	case plies > len(g.moves):
		return fmt.Errorf("take back %d moves: only %d played", plies, len(g.moves))
	case g.result != nil:
		return fmt.Errorf("the game is over (%s)", g.result.Result)
	}
	keep := len(g.moves) - plies
	target := g.analysed(g.moves[keep].before)
	g.dropMoves(keep)
	g.seen.truncate(keep + 1)
	g.pending, g.imposed, g.awaiting, g.checks, g.falseCheck, g.count = nil, nil, nil, nil, nil, nil
	g.hasLast = keep > 0
	if g.hasLast {
		g.lastMove = g.moves[keep-1].move
	}
	reason := report.TakeBackReason(plies)
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptTakeBack, By: party(by), Reason: reason})
	g.comment(fmt.Sprintf("%s by %s: %s", report.OptTakeBack, party(by), reason))
	g.restoreTo(t, target, nil)
	return nil
}

// Line returns the position play last went on from (the start, or the
// position after a false move let stand or a man set in its place) and the
// moves played since: the game as an engine is given it, with the history
// it needs to see repetitions.
func (g *Game) Line() (board.Position, []board.Move) {
	start := g.startAt.Position
	if g.startResume != nil {
		start = *g.startResume
	}
	moves := make([]board.Move, 0, len(g.moves))
	for _, m := range g.moves {
		if m.resume != nil {
			start, moves = *m.resume, moves[:0]
			continue
		}
		moves = append(moves, m.move)
	}
	return start, moves
}

// Resign ends the game at t: side resigns (a game against an engine or an
// opponent online, where the player says so through boardd).
func (g *Game) Resign(t time.Duration, side board.Color) error {
	if g.result != nil {
		return fmt.Errorf("the game is already over (%s)", g.result.Result)
	}
	result := report.WhiteWins
	if side == board.White {
		result = report.BlackWins
	}
	g.finishAs(t, pgn.Normal, result, side.String()+" resigns", "")
	return nil
}

// AgreeDraw ends the game at t in a draw the players agreed (a draw offer
// the engine accepted).
func (g *Game) AgreeDraw(t time.Duration) error {
	if g.result != nil {
		return fmt.Errorf("the game is already over (%s)", g.result.Result)
	}
	g.finishAs(t, pgn.Normal, report.Draw, "draw agreed", "")
	return nil
}
