package game

import (
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// Mode is what the game expects of the board: the gesture reader's own
// (Play, Restore, AwaitNewGame), named here so that nobody past the door
// need import it.
type Mode = gesture.Mode

// What the board is expected to do.
const (
	// Play: the board shows the game's position and the side to move may
	// move.
	Play = gesture.Play
	// Restore: the board must be brought to Expected (a take-back, a
	// mismatch to fix, the start of a game); nothing is a move until it is.
	Restore = gesture.Restore
	// AwaitNewGame: the game is over; when the men are set up in the start
	// position (the board cleared first or not), a new game begins.
	AwaitNewGame = gesture.AwaitNewGame
)

// Obligation is what the side to move must do with its next move because of
// a ruling or a touch, with the squares the LEDs light for it.
type Obligation struct {
	Side board.Color
	// What names the duty: report.OptKing, OptTakeTouched, OptCastle, or
	// the man that must move (OptMoveTouched, OptMoveTaken, OptRook).
	What report.OptionID
	// Square is the man that must move (the king for OptKing and
	// OptCastle), or the adverse man that must be taken.
	Square board.Square
	// Destinations are where that man may go; for OptTakeTouched, the men
	// that can take.
	Destinations board.Occupancy
	Law          report.Law
}

// Clocks is the state of the game clocks.
type Clocks struct {
	Control   string        // the time control, as the PGN TimeControl tag writes it
	White     string        // White's time left (h:mm:ss)
	Black     string        // Black's time left
	WhiteLeft time.Duration // the same, exactly
	BlackLeft time.Duration
	Running   board.Color // whose time runs, when Status is clock.Running
	Status    clock.Status
}

// Snapshot is the game as it stands at one moment, for anyone who draws or
// serves it. It is a value: nothing the game does later changes it, and it
// may be read from any goroutine.
type Snapshot struct {
	T    time.Duration  // the time of the last input or timer handled
	Laws *lawset.LawSet // the law-set in force (read only)
	// Tournament: nobody may waive a penalty.
	Tournament bool
	// WarnOnly: irregularities are shown and explained, their penalties
	// not exacted; Warning is the last warning given (an irregularity
	// report whose Chooser is report.WarnOnly), until the next move or
	// ruling.
	WarnOnly bool
	Warning  *report.Report
	// Position is the game's current position (a false move left standing
	// included); Moves counts the moves recorded.
	Position board.Position
	Moves    int
	// Mode says what the board is expected to do, and Expected is the
	// position it must show (the game's position in Play).
	Mode     Mode
	Expected board.Position
	// Occupancy is the board as it reads now; InHand, the men of the
	// expected position lifted and not back.
	Occupancy board.Occupancy
	InHand    board.Occupancy
	// Syncing: waiting for the board to match Expected; Mismatch: because
	// of a reported mismatch (otherwise a take-back or a set-up).
	Syncing  bool
	Mismatch bool
	// Fault: the board's sensors are not to be trusted.
	Fault bool
	// JournalFault: the game is not being saved (a journal write failed);
	// it clears when the journal has caught up.
	JournalFault bool
	// LastMove is the last move recorded, when HasLastMove.
	LastMove    board.Move
	HasLastMove bool
	// Landing is a move the hands appear to have made while the hand may
	// still carry the man on, when HasLanding: the men have stood as a legal
	// move (or its first part) for the quick settle time, but the move is
	// made only when the hand can no longer carry it on (the settle time, a
	// clock press, the adversary's hand). The LEDs and the console show it
	// as pending; nothing is ruled, journalled or sent from it, and it goes
	// without a word if the man moves on. LandingNeeds says what it still
	// needs: "" (nothing), "rook" (castling begun with the king), "victim"
	// (the pawn an en passant capture takes), "piece" (a promotion's piece).
	Landing      board.Move
	HasLanding   bool
	LandingNeeds string
	// Pending is the irregularity waiting for a choice, as reported.
	Pending *report.Report
	// Obligation is the duty in force for the side to move.
	Obligation *Obligation
	// Result ends the game, as reported.
	Result *report.Report
	// Clocks, when a time control runs.
	Clocks *Clocks
	// Remote says which sides are played from off the board; Awaiting is
	// the remote side's move the board must be made to show, when
	// HasAwaiting.
	Remote      [2]bool
	Awaiting    board.Move
	HasAwaiting bool
	// Hint is a move suggested to the player, when HasHint.
	Hint    board.Move
	HasHint bool
	// Promotion is the piece each side has named for its next promotion
	// (board.NoKind if none), by board.Color: what a pawn set down on its
	// last rank becomes.
	Promotion [2]board.Kind
}

// Snapshot returns the game as it stands. Snapshots are built again only
// when the game has changed (see Version); between changes the same value
// comes back.
func (g *Game) Snapshot() *Snapshot {
	if g.snap != nil && g.snapAt == g.version {
		s := *g.snap
		s.T = g.now
		s.Clocks = g.clocks()
		return &s
	}
	exp := g.rec.Expectation()
	syncing, mismatch := g.rec.Syncing()
	s := &Snapshot{
		T: g.now, Laws: g.laws, Tournament: g.opts.Tournament, WarnOnly: g.arb.WarnOnly(), Warning: copyReport(g.warning),
		Position: g.arb.Position(), Moves: g.arb.MoveCount(),
		Mode: exp.Mode, Expected: exp.Analysis.Position,
		Occupancy: g.rec.Occupancy(), InHand: g.rec.InHand(),
		Syncing: syncing, Mismatch: mismatch, Fault: g.fault, JournalFault: g.unsaved,
		Pending: g.arb.Pending(), Result: copyReport(g.arb.Result()),
	}
	s.LastMove, s.HasLastMove = g.arb.LastMove()
	if p, ok := g.rec.Pending(); ok {
		s.Landing, s.HasLanding, s.LandingNeeds = p.Move, true, p.Needs.String()
	}
	s.Remote = [2]bool{g.arb.Remote(board.White), g.arb.Remote(board.Black)}
	s.Awaiting, s.HasAwaiting = g.arb.Awaiting()
	s.Promotion = [2]board.Kind{g.rec.Promotion(board.White), g.rec.Promotion(board.Black)}
	if g.hint != nil {
		s.Hint, s.HasHint = *g.hint, true
	}
	if ob, ok := g.arb.Obligation(); ok {
		s.Obligation = &Obligation{Side: ob.Side, What: ob.What, Square: ob.Square, Destinations: ob.Destinations, Law: ob.Law}
	}
	g.snap, g.snapAt = s, g.version
	c := *s
	c.Clocks = g.clocks()
	return &c
}

// clocks reads the clocks' state now.
func (g *Game) clocks() *Clocks {
	if g.tk == nil {
		return nil
	}
	k := g.tk.Clock()
	wl, bl := k.Times(g.now)
	side, _ := k.Running()
	return &Clocks{Control: g.tk.Tag(), White: clock.Format(wl), Black: clock.Format(bl), WhiteLeft: wl, BlackLeft: bl, Running: side, Status: k.Status()}
}

func copyReport(r *report.Report) *report.Report {
	if r == nil {
		return nil
	}
	c := *r
	return &c
}
