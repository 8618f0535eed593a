// Package arbiter applies a law-set to what the hands did: it keeps the game,
// decides whether each completed move stands, recognises touch-move
// obligations and false moves, offers the offended player the options the law
// gives and carries out the one chosen, ends the game by mate, stalemate or
// the draws the law-set knows, and says what the LEDs must show.
//
// It receives gestures (package gesture) and choices, and emits Reports (the
// lines of `boardd replay`) and LED frames. It never sees sensors or time
// other than the time carried by its inputs, and knows nothing of drivers.
package arbiter

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// Options configure a game.
type Options struct {
	Laws *lawset.LawSet
	// Setup is the FEN the game starts from; empty for the initial position.
	Setup string
	// Tournament makes every penalty automatic: nobody may waive one, and
	// where one option remains the arbiter applies it at once.
	Tournament bool
	// WarnOnly shows and explains each irregularity but exacts no penalty
	// (warn.go); never with Tournament.
	WarnOnly bool
	// Clocked is true when a time control runs: under fide2023 a move is then
	// completed by the clock press (fide2023:6.2.1).
	Clocked bool
	// Tags are extra PGN tags (Event, Site, White, Black, Round, Date).
	Tags map[string]string

	// Odds names the men given as odds (see oddsPosition); the giver has
	// the move unless it gives the move too.
	Odds string

	// VisuallyImpaired says, by colour, whose player at this board is
	// visually impaired: his touches and moves are read by the law-set's
	// Appendix D (fide2023:D.2.2, D.2.3), the other side's by Article 4.
	// Only a law-set with AppendixD takes it.
	VisuallyImpaired [2]bool

	keepSetup bool // a new game starts from Setup rather than the initial position
}

// record is one move of the game as played.
type record struct {
	side     board.Color
	move     board.Move
	uci      string
	san      string
	legal    bool
	t        time.Duration
	comments []string
	// before is the position the move was made in (its legal moves are
	// found again when a ruling needs them: a long game keeps a position a
	// move, not an analysis).
	before board.Position
	// resume is the position play went on from after the move when the
	// rules of movement do not lead there: a false move let stand, a man
	// set in its place (the PGN is written from it).
	resume *board.Position
}

// obligation is what the side to move must do with its next move.
type obligation struct {
	side   board.Color
	what   report.OptionID // OptMoveTouched, OptTakeTouched, OptKing, OptRook, OptCastle, OptMoveTaken
	square board.Square
	// bound: the own men the penalty is bound to: for OptTakeTouched
	// those one of which must take (fide2023:4.3.3, the own man
	// touched), for OptCastle the rook to castle with (fide2023:4.4.1);
	// empty, any man, or either side, will do.
	bound    board.Occupancy
	noCastle bool
	law      report.Law
}

// decision is an irregularity waiting for its chooser.
type decision struct {
	kind        report.Kind
	law         report.Law
	offender    board.Color
	chooser     lawset.Role
	options     []report.Option
	before      *board.Analysis // the position before the offending move
	beforeFirst *board.Analysis // successive moves: before the offender's earlier move
	secondOnly  bool            // successive moves: a penalty revokes the second alone (philidor1825:VIII)
	provisional *board.Analysis // the position as it stands on the board
	reading     *gesture.Reading
	pre         bool // reported on release of a touched man, before any move
	recorded    bool // the offending move is already recorded (a false check, a late announcement)
	recallTo    int  // recorded: how many moves remain after a recall
	restart     *board.Analysis
	// lapseByOffender: the right lapses when the offender acts (a false
	// check: once the checker moves, or touches under nycc:IV).
	lapseByOffender bool
	lapseOnTouch    bool
	touched         board.Square // the man touched or moved
	adverse         board.Square // the adverse man touched or taken
	// bound: the own men the penalty is bound to (see obligation.bound):
	// the men that may take under take-touched, the rook to castle with
	// under castle; empty, any.
	bound      board.Occupancy
	taken      board.Square // sarratt1808:12: the own man taken
	castleKing board.Move   // the castling the move attempted
}

// Game is a game under a law-set. It implements gesture.Judge. It is not safe
// for concurrent use.
type Game struct {
	opts    Options
	laws    *lawset.LawSet
	startAt *board.Analysis
	cur     *board.Analysis
	exp     gesture.Expectation
	moves   []record
	seen    positions // every position since the start, for repetition
	// analyses remembers the legal moves of the positions stood in lately
	// (a repetition, a take-back, a restore costs a look-up).
	analyses *board.AnalysisCache
	out      []report.Report

	pending *decision
	imposed *obligation
	touched []gesture.TouchMark // unannounced touches of the side to move this turn
	illegal [2]int              // fide2023:7.5.5 completed illegal moves
	// remote: the side is played from off the board (an engine, an online
	// opponent); awaiting is its announced move, not yet carried out.
	remote   [2]bool
	awaiting *board.Move
	// movedSincePress: each side has made a move since it last pressed its
	// clock (fide2023:6.2.2, 7.5.3).
	movedSincePress [2]bool
	count           *countState
	restored        *restoreState
	result          *report.Report
	checks          *checkState
	announce        [2]bool
	falseCheck      *falseCheckState
	annulled        int

	// intended is a draw claim on the move its claimant is about to make
	// (fide2023:9.2.1.1, 9.3.1), decided when he makes it.
	intended *intendedClaim

	// notes are the PGN notes of rulings made while no move stood;
	// startResume is the position play went on from then, when a ruling
	// changed it (a forgotten man set in its place before any move).
	notes       []string
	startResume *board.Position
	// termination is the result's standard PGN Termination value.
	termination string
	lastMove    board.Move
	hasLast     bool
	// OnIllegal, when set, is told of each completed illegal move under a
	// law-set with time penalties (the clock adds time to the opponent).
	OnIllegal func(t time.Duration, offender board.Color, count int)
	// OnIncorrectClaim, when set, is told of a draw claim refused under
	// fide2023:9.5.3 (the clock adds time to the opponent).
	OnIncorrectClaim func(t time.Duration, claimant board.Color)
}

type countState struct {
	law      report.Law
	startPly int
	by       board.Color
}

type restoreState struct {
	then    *board.Analysis
	imposed *obligation
}

// StartPosition is where a game set up from setup (a FEN; empty for the
// initial position) or given odds (see oddsPosition) begins.
func StartPosition(setup, odds string) (board.Position, error) {
	switch {
	case setup != "" && odds != "":
		return board.Position{}, fmt.Errorf("arbiter: a set-up position and odds together: give one")
	case setup != "":
		start, err := board.ParseFEN(setup)
		if err != nil {
			return board.Position{}, fmt.Errorf("arbiter: setup: %w", err)
		}
		return start, nil
	case odds != "":
		start, err := oddsPosition(odds)
		if err != nil {
			return board.Position{}, fmt.Errorf("arbiter: %w", err)
		}
		return start, nil
	}
	return board.Start(), nil
}

// NewGame starts a game.
func NewGame(opts Options) (*Game, error) {
	if opts.Laws == nil {
		return nil, fmt.Errorf("arbiter: no law-set")
	}
	if opts.WarnOnly && opts.Tournament {
		return nil, fmt.Errorf("arbiter: %w", ErrWarnOnlyTournament)
	}
	start, err := StartPosition(opts.Setup, opts.Odds)
	if err != nil {
		return nil, err
	}
	a, err := board.Analyse(start)
	if err != nil {
		return nil, fmt.Errorf("arbiter: setup: %w", err)
	}
	if err := checkAppendixD(opts.Laws, opts.VisuallyImpaired); err != nil {
		return nil, err
	}
	opts.keepSetup = opts.Setup != "" || opts.Odds != ""
	tags := make(map[string]string, len(opts.Tags))
	for k, v := range opts.Tags {
		tags[k] = v
	}
	opts.Tags = tags // the game's own: SetTag changes it, nobody else
	g := &Game{opts: opts, laws: opts.Laws, startAt: a, analyses: board.NewAnalysisCache(64)}
	g.begin(a)
	return g, nil
}

func (g *Game) begin(a *board.Analysis) {
	g.cur = a
	g.moves = nil
	g.seen.reset(a.Position.Key())
	g.pending, g.imposed, g.touched, g.count, g.restored, g.result = nil, nil, nil, nil, nil, nil
	g.checks, g.falseCheck, g.announce = nil, nil, [2]bool{}
	g.illegal = [2]int{}
	g.notes, g.startResume, g.termination = nil, nil, ""
	g.movedSincePress = [2]bool{}
	g.awaiting = nil
	g.intended = nil
	g.hasLast = false
	g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: a}
}

// Laws returns the law-set in force.
func (g *Game) Laws() *lawset.LawSet { return g.laws }

// Expectation returns what the board is expected to show.
func (g *Game) Expectation() gesture.Expectation { return g.exp }

// Position returns the current position (a false move left standing
// included).
func (g *Game) Position() board.Position { return g.cur.Position }

// Analysis returns the current position with its legal moves.
func (g *Game) Analysis() *board.Analysis { return g.cur }

// Result returns the result line, or nil while the game goes on.
func (g *Game) Result() *report.Report { return g.result }

// Drain returns the reports made since the last call and forgets them.
func (g *Game) Drain(dst []report.Report) []report.Report {
	dst = append(dst, g.out...)
	g.out = g.out[:0]
	return dst
}

func (g *Game) emit(r report.Report) { g.out = append(g.out, r) }

// MoveCount returns the number of moves recorded.
func (g *Game) MoveCount() int { return len(g.moves) }

// Judge takes a gesture and returns what to expect next.
func (g *Game) Judge(gs gesture.Gesture) gesture.Expectation {
	switch gs.Kind {
	case gesture.Touch:
		g.onTouch(gs)
	case gesture.Adjust:
		g.onAdjust(gs)
	case gesture.Move:
		g.onMove(gs)
	case gesture.Mismatch:
		g.emit(report.Report{Type: report.Mismatch, T: gs.T, Missing: gs.Missing.SquareNames(), Extra: gs.Extra.SquareNames()})
	case gesture.Synced:
		g.onSynced(gs.T)
	case gesture.Press:
		g.onPress(gs)
	case gesture.Promote:
		g.onPromote(gs)
	}
	return g.exp
}

func (g *Game) onTouch(gs gesture.Gesture) {
	g.emit(report.Report{Type: report.Touch, T: gs.T, Side: gs.Side.String(), Square: gs.Square.String(), Piece: gs.Man.Kind().String(), Law: g.blindLaw(gs.Side, true)})
	if g.result != nil {
		return
	}
	if p := g.pending; p != nil && !p.pre {
		switch {
		case p.lapseByOffender && p.lapseOnTouch && gs.Side == p.offender:
			g.lapse(gs.T)
		case !p.lapseByOffender && g.laws.LapseOnTouch && gs.Side == p.offender.Other() && gs.Side == g.exp.Analysis.Position.Turn:
			if !g.exactOnLapse(gs.T, p) {
				g.lapse(gs.T)
			}
		}
	}
	if gs.Side == g.cur.Position.Turn && !g.remote[gs.Side] {
		g.touched = append(g.touched, gesture.TouchMark{T: gs.T, Square: gs.Square, Man: gs.Man})
	}
}

// onAdjust takes a man touched and set back on its square: j'adoube
// announced by the offended player may end his right to a penalty
// (announcedTouchEndsRight); a man of the side to move that can neither be
// moved nor taken may owe a king move (unmovableTouched).
func (g *Game) onAdjust(gs gesture.Gesture) {
	g.emit(report.Report{Type: report.Adjust, T: gs.T, Side: gs.Side.String(), Square: gs.Square.String(), Announced: gs.Announced})
	if g.announcedTouchEndsRight(gs) {
		if !g.exactOnLapse(gs.T, g.pending) {
			g.lapse(gs.T)
		}
		return
	}
	if g.touchMayBind(gs) {
		g.unmovableTouched(gs)
	}
}

// announcedTouchEndsRight reports whether gs, a man touched with j'adoube
// announced by the offended player to move, ends his right to the penalty
// pending where the law-set says so (sarratt1808:21).
func (g *Game) announcedTouchEndsRight(gs gesture.Gesture) bool {
	p := g.pending
	return p != nil && !p.pre && !p.lapseByOffender && gs.Announced && g.laws.AnnouncedTouchLapses &&
		gs.Side == p.offender.Other() && gs.Side == g.exp.Analysis.Position.Turn && g.result == nil
}

// capturable reports whether some legal move in a takes the man on sq (en
// passant included).
func capturable(a *board.Analysis, sq board.Square) bool {
	for _, m := range a.Moves {
		if m.To == sq || (a.Position.IsEnPassant(m) && board.EnPassantVictim(m) == sq) {
			return true
		}
	}
	return false
}

// kingMoves returns where side's king can go in a, castling left out where
// the king penalty forbids it (nycc:XI, hastings1895:IV); none when it is
// not side's turn.
func (g *Game) kingMoves(a *board.Analysis, side board.Color) []board.Square {
	if side != a.Position.Turn {
		return nil
	}
	k := a.Position.KingSquare(side)
	var out []board.Square
	for _, m := range a.Moves {
		if m.From != k {
			continue
		}
		if g.laws.KingPenaltyNoCastling && a.Position.IsCastling(m) {
			continue
		}
		out = append(out, m.To)
	}
	return out
}

func squareNames(sqs []board.Square) []string {
	out := make([]string, len(sqs))
	for i, s := range sqs {
		out[i] = s.String()
	}
	return out
}

// filter drops the waiver where no player may waive a penalty.
func (g *Game) filter(options []report.OptionID) []report.OptionID {
	if !g.laws.NoWaiver && !g.opts.Tournament {
		return options
	}
	var out []report.OptionID
	for _, o := range options {
		if o != report.OptStand && o != report.OptKeepAll {
			out = append(out, o)
		}
	}
	return out
}

func (g *Game) chooserName(d *decision) report.Party {
	switch {
	case d.chooser == lawset.ByArbiter || (g.opts.Tournament || g.laws.NoWaiver) && len(d.options) == 1:
		return report.Arbiter
	case d.chooser == lawset.Offender:
		return party(d.offender)
	case g.remote[d.offender.Other()]:
		return report.Arbiter // nobody at the board chooses for a remote side
	}
	return party(d.offender.Other())
}

// remoteChooserReason says who chooses, and why, where the law gives the
// choice to the offended side and that side is played from off the board:
// nobody at the board may choose for it, so the arbiter exacts the first
// penalty the law gives (exactForRemote). It is empty otherwise.
func (g *Game) remoteChooserReason(d *decision) string {
	offended := d.offender.Other()
	if d.chooser != lawset.Offended || !g.remote[offended] || len(d.options) < 2 || g.chooserName(d) != report.Arbiter {
		return ""
	}
	return fmt.Sprintf("the choice is %s's, who plays from off the board with no hand here: the arbiter exacts the first penalty the law gives for %s", offended, offended)
}

// reason is the few words an irregularity's report gives besides its law:
// whose choice the arbiter exacts for a side off the board, and for a touch
// by a visually impaired player the law that made his lift a touch.
func (g *Game) reason(d *decision) string {
	why := g.remoteChooserReason(d)
	if d.kind == report.KindTouchMove && g.laws.AppendixD != nil && g.opts.VisuallyImpaired[d.offender] {
		touched := fmt.Sprintf("on a visually impaired player's board a man taken out of its square counts as touched (%s)", g.laws.AppendixD.TouchLaw)
		if why == "" {
			return touched
		}
		return touched + "; " + why
	}
	return why
}

// offending is the UCI of the move a decision is about, "" where none was
// made (a touched man let go, the clock pressed without a move).
func offending(d *decision) string {
	if d.pre || d.reading == nil || d.reading.Move.From == d.reading.Move.To {
		return ""
	}
	return d.reading.Move.UCI()
}

// blindLaw is the law a touch (touch true) or a move made by side cites:
// the law-set's Appendix D where side's player is visually impaired, none
// otherwise (Article 4 reads his hands, as it always does).
func (g *Game) blindLaw(side board.Color, touch bool) report.Law {
	ad := g.laws.AppendixD
	if ad == nil || (side != board.White && side != board.Black) || !g.opts.VisuallyImpaired[side] {
		return ""
	}
	if touch {
		return ad.TouchLaw
	}
	return ad.MoveLaw
}

// checkAppendixD refuses a visually impaired side under a law-set without
// rules for his board.
func checkAppendixD(ls *lawset.LawSet, vi [2]bool) error {
	if ls.AppendixD == nil && (vi[board.White] || vi[board.Black]) {
		return fmt.Errorf("a visually impaired player: %s has no rules for his board (Appendix D is FIDE's: use fide2023)", ls.ID)
	}
	return nil
}

// raise reports an irregularity and, where nobody may choose, rules at once.
func (g *Game) raise(t time.Duration, d *decision) {
	if g.opts.WarnOnly && g.warn(t, d) {
		return
	}
	g.pending = d
	g.emit(report.Report{Type: report.Irregularity, T: t, Kind: d.kind, Law: d.law, Offender: d.offender.String(), Chooser: g.chooserName(d), Options: d.options, Reason: g.reason(d), Offending: offending(d)})
	if len(d.options) == 1 && (d.chooser == lawset.ByArbiter || g.laws.NoWaiver || g.opts.Tournament) {
		g.apply(t, d.options[0].ID, report.Arbiter)
		return
	}
	if g.exactForRemote(t, d) {
		return
	}
	if !d.pre {
		g.exp = gesture.Expectation{Mode: gesture.Play, Analysis: d.provisional}
	}
}

// lapse records that the offended player let the right to a penalty pass.
// exactOnLapse handles the offended player moving on without choosing,
// where the law does not let the right simply lapse: no player may waive a
// penalty (the Hastings regulations, tournament mode), so the arbiter exacts
// the first; a king left in check or moves made twice over annul the game
// unless the players agree (nycc:XIII, nycc:XIV). It reports whether it
// ruled.
func (g *Game) exactOnLapse(t time.Duration, d *decision) bool {
	if d.pre || d.recorded || d.lapseByOffender || len(d.options) == 0 {
		return false
	}
	if g.laws.AnnulsWhenNotExacted(d.kind) {
		g.pending = nil
		g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptAnnul, By: report.Lapse, Law: d.law, Reason: "the penalty was not exacted at once: the game is annulled"})
		g.annulled++
		g.annul(g.startAt, fmt.Sprintf("%s, %s: not exacted at once, game annulled by lapse", d.kind, d.law))
		g.exp = gesture.Expectation{Mode: gesture.Restore, Analysis: g.startAt}
		return true
	}
	// The Hastings arrangements forbid waiving a penalty, but IV N.B. has
	// the adversary claim it before his own next move: a lone penalty was
	// exacted when it was raised, and an election he did not make before
	// moving lapses (his move stands). Tournament mode, boardd's own rule,
	// has the arbiter exact the first penalty and take the reply back.
	if g.opts.Tournament || d.provisional != nil && !bothKings(&d.provisional.Position) {
		first := d.options[0].ID
		if first == report.OptStand || first == report.OptKeepAll {
			return false
		}
		g.apply(t, first, report.Arbiter)
		return true
	}
	return false
}

func (g *Game) lapse(t time.Duration) {
	d := g.pending
	g.pending = nil
	law := g.laws.LapseLaw
	if d.lapseByOffender {
		law = d.law
	}
	reason := ""
	if g.laws.NoWaiver && !d.lapseByOffender {
		reason = "not claimed before the offended player's own move"
	}
	g.emit(report.Report{Type: report.Ruling, T: t, Option: report.OptStand, By: report.Lapse, Law: law, Reason: reason})
	if d.recorded || d.pre || d.reading == nil {
		g.comment(fmt.Sprintf("%s, %s: lapsed", d.kind, d.law))
		return
	}
	g.stand(t, d, report.Lapse)
}

// party names a side as a chooser or the party that ruled.
func party(c board.Color) report.Party {
	if c == board.White {
		return report.White
	}
	return report.Black
}

// analysed returns p with its legal moves: the current position's analysis
// when p is the current position, else a new one.
func (g *Game) analysed(p board.Position) *board.Analysis {
	if g.cur != nil && g.cur.Position == p {
		return g.cur
	}
	a, err := g.analyses.Analyse(p)
	if err != nil {
		return g.cur
	}
	return a
}
