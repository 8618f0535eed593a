package gesture

import (
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Recogniser reads gestures from debounced events. It is driven by one
// goroutine: every call carries the time, and Deadline says when Advance must
// next be called. It is not safe for concurrent use.
type Recogniser struct {
	opts  Options
	judge Judge
	exp   Expectation

	occ   board.Occupancy // the board as it stands now
	start board.Occupancy // the board when the current episode began

	events      []sensor.Event // the episode: events since the last move or rest
	marks       []TouchMark    // touches of the episode, one per lift
	turnTouches []TouchMark    // touches of earlier episodes of this turn
	cur         reading
	curHyp      int // index in hyps of the hypothesis cur was read from
	lastEvent   time.Duration
	deadline    time.Duration
	hyps        []hypothesis

	promo        [2]board.Kind    // promotion piece named by each side
	promoAt      [2]time.Duration // when each side named it
	jadoubeSide  board.Color
	jadoubeUntil time.Duration // a press covers the next lift until then
	jadoubeArmed bool

	exchange struct {
		active bool
		sq     board.Square
		lifted bool // the promoted man is up: the exchange may be happening
	}

	// Restore, AwaitNewGame, or Play after a mismatch: waiting for the board
	// to match the expected position.
	syncing  bool
	mismatch bool // the wait began with a reported mismatch
	// cleared: AwaitNewGame: the board has changed since the game ended
	// (emptied, or a man lifted or set down on the way to the set-up):
	// from then on the initial position starts the next game.
	cleared   bool
	syncAt    time.Duration
	reported  [2]board.Occupancy // the last mismatch reported (missing, extra)
	segmented *segmentation

	// showAt is when the reading in hand, if it stays still, is shown as a
	// pending move (Pending); shown says it is. A pending move is only
	// shown: it is made when the hand can no longer carry the man on
	// (Settle, a clock press, the adversary's hand), and withdrawn without a
	// word if the man moves on.
	showAt time.Duration
	shown  bool
}

// segmentation is a reading of one episode as two moves: the mover's, then
// the adversary's made so fast that both fell in the same episode.
type segmentation struct {
	split int // index of the adversary's first event
	first reading
	// eager: the rest is itself several moves (three or more in all, a
	// run of fast replies): the first is certain enough to be made at
	// once, so that a run that never lets the board settle is read move by
	// move instead of growing past what one episode can hold.
	eager bool
}

// New returns a recogniser that tells judge of every gesture, expecting exp
// and the board reading occupancy `physical` at time zero.
func New(opts Options, judge Judge, exp Expectation, physical board.Occupancy) *Recogniser {
	r := &Recogniser{opts: opts.withDefaults(), judge: judge, occ: physical, deadline: timing.Never, showAt: timing.Never}
	r.expect(0, exp)
	return r
}

// Options returns the recogniser's options with defaults filled in.
func (r *Recogniser) Options() Options { return r.opts }

// SetOptions changes the recogniser's options (after a change of law-set).
func (r *Recogniser) SetOptions(o Options) { r.opts = o.withDefaults() }

// Occupancy returns the board as the recogniser last saw it.
func (r *Recogniser) Occupancy() board.Occupancy { return r.occ }

// Expectation returns what the recogniser currently expects.
func (r *Recogniser) Expectation() Expectation { return r.exp }

// Deadline returns when Advance must next be called, or timing.Never.
func (r *Recogniser) Deadline() time.Duration { return timing.Earliest(r.deadline, r.showAt) }

// Pending returns the move the hands appear to have made, once the board
// has been still for QuickSettle with the men standing as a legal move (or
// as the first part of one: the king two squares over before its rook, a
// pawn on the en passant square before the taken pawn is off, a promotion
// before its piece is named). It is for the LEDs and the console to answer
// sooner; nothing is ruled, journalled or sent from it. It is withdrawn
// silently when the man moves on, and replaced by the move itself once it
// is made.
func (r *Recogniser) Pending() (Pending, bool) {
	if !r.shown || r.syncing || r.segmented != nil {
		return Pending{}, false
	}
	p := Pending{Move: r.cur.move, Mover: r.cur.mover}
	switch {
	case r.cur.cls == classPromoUnnamed:
		p.Needs = NeedPiece
	case r.cur.cls == classOpen && r.cur.open == openKingFirst:
		p.Needs = NeedRook
	case r.cur.cls == classOpen && r.cur.open == openEnPassant:
		p.Needs = NeedVictim
	}
	return p, true
}

// showable reports whether the reading in hand is shown as a pending move
// once the board has been still for QuickSettle.
func (r *Recogniser) showable() bool {
	if r.syncing || r.segmented != nil || r.cur.mover != r.exp.Analysis.Position.Turn {
		return false
	}
	switch r.cur.cls {
	case classLegal, classPromoUnnamed:
		return true
	case classOpen:
		return r.cur.open != openNone
	}
	return false
}

// InHand returns the squares whose men are lifted and not yet back in the
// current turn, for the LEDs.
func (r *Recogniser) InHand() board.Occupancy {
	if r.syncing || r.exp.Analysis == nil {
		return 0
	}
	return r.exp.Analysis.Position.Occupancy() &^ r.occ
}

// Promotion returns the promotion piece side has named for its next
// promotion, or board.NoKind if none.
func (r *Recogniser) Promotion(side board.Color) board.Kind { return r.promo[side&1] }

// Syncing reports whether the recogniser is waiting for the board to match
// the expected position, and whether that wait began with a mismatch.
func (r *Recogniser) Syncing() (waiting, mismatch bool) { return r.syncing, r.mismatch }

// SetExpectation replaces what the board is expected to show (after a ruling,
// an arbiter action or a new game), dropping the episode in progress.
func (r *Recogniser) SetExpectation(t time.Duration, exp Expectation) {
	if exp.Mode == r.exp.Mode && exp.Analysis == r.exp.Analysis {
		return
	}
	r.expect(t, exp)
}

func (r *Recogniser) expect(t time.Duration, exp Expectation) {
	// A board changed since the last move when the game ends (the men set
	// up again before a remote result came) has been changed by hands
	// already: the start position it shows, or that they finish, starts
	// the next game. So has a board changed since an earlier result. The
	// final position left standing is no new game, even when it stands
	// as the initial position does: r.start is the board as the last
	// move left it (the episode begun after it), not the expectation's
	// position from before that move.
	handsAtWork := exp.Mode == AwaitNewGame && r.exp.Analysis != nil &&
		(r.exp.Mode == AwaitNewGame && r.cleared || r.exp.Mode != AwaitNewGame && r.occ != r.start)
	r.exp = exp
	r.resetEpisode()
	r.turnTouches = r.turnTouches[:0]
	r.segmented = nil
	r.syncing, r.mismatch, r.cleared = false, false, handsAtWork
	r.deadline = timing.Never
	r.showAt, r.shown = timing.Never, false
	switch exp.Mode {
	case Restore, AwaitNewGame:
		r.syncing = true
		r.checkSync(t)
	default:
		if r.occ != exp.Analysis.Position.Occupancy() {
			// The board does not show the position: the episode starts from
			// what it shows, and the readings make sense of the difference.
			r.start = r.occ
		}
	}
}

func (r *Recogniser) resetEpisode() {
	r.events = r.events[:0]
	r.marks = r.marks[:0]
	r.start = r.occ
	r.cur = reading{cls: classUnchanged}
	r.curHyp = -1
	r.segmented = nil
	r.hyps = r.hyps[:0]
	r.showAt, r.shown = timing.Never, false
}

// Event takes one debounced event. Events inconsistent with the board as the
// recogniser sees it (a lift from an empty square, a placement on an occupied
// one) are ignored: they can only be noise or a lost event, and guessing would
// invent a move.
func (r *Recogniser) Event(e sensor.Event) {
	r.Advance(e.T)
	switch e.Kind {
	case sensor.Lift:
		if !r.occ.Has(e.Square) {
			return
		}
		r.occ = r.occ.Without(e.Square)
	case sensor.Place:
		if r.occ.Has(e.Square) {
			return
		}
		r.occ = r.occ.With(e.Square)
	default:
		return
	}
	if r.syncing {
		if r.exp.Mode == AwaitNewGame {
			// The hands are at the board after the result: following
			// the missing and extra squares straight to the set-up
			// starts the next game; clearing it first is not needed.
			r.cleared = true
		}
		r.checkSync(e.T)
		return
	}
	r.playEvent(e)
}

func (r *Recogniser) playEvent(e sensor.Event) {
	if r.exchange.active && r.exchangeStep(e) {
		return
	}
	if e.Kind == sensor.Lift && !r.endBeforeLift(e) {
		return
	}
	pos := &r.exp.Analysis.Position
	if len(r.events) >= maxEpisode {
		r.reportMismatch(e.T)
		return
	}
	var man board.Man
	relift := false
	if e.Kind == sensor.Lift {
		man = r.manAt(e.Square)
		relift = r.placedThisEpisode(e.Square)
	}
	if e.Kind == sensor.Place {
		r.markBump(e)
	}
	r.events = append(r.events, e)
	r.lastEvent = e.T
	if e.Kind == sensor.Lift && relift {
		// The same man picked up again on its way: no new touch.
		r.marks = append(r.marks, TouchMark{T: e.T, Square: board.NoSquare, Man: man})
	} else if e.Kind == sensor.Lift {
		announced := r.jadoubeArmed && e.T <= r.jadoubeUntil
		side := pos.Turn
		if announced {
			side = r.jadoubeSide
			r.jadoubeArmed = false
		}
		mark := TouchMark{T: e.T, Square: e.Square, Man: man, Announced: announced}
		r.marks = append(r.marks, mark)
		if !announced {
			r.emit(Gesture{Kind: Touch, T: e.T, Side: side, Square: e.Square, Man: man})
		}
	}
	r.reparse()
	for r.segmented != nil && r.segmented.eager {
		r.completeSegmented(e.T)
		if r.syncing {
			r.checkSync(e.T)
			return
		}
	}
	if r.cur.cls == classUnchanged && len(r.events) > 0 {
		r.rest(e.T)
	}
	r.schedule()
}

// endBeforeLift ends, as the board stood just before the lift e, what
// that lift shows to be over:
//   - the mover's reading holds a man of his lifted after his last
//     placement, and the adversary's hand is arriving: that man was the
//     adversary's first touch (a reply taking the man just moved), so the
//     mover's move is made and the reply begins;
//   - the episode reads as a move and the adversary's reply, and a man of
//     the first mover's is lifted: his hand arriving again ends both;
//   - a rook let go on its castling square before the king was touched is
//     a rook move made (hastings1895:IX, fide2023:4.4.2 and 4.7), so the
//     king lifted now begins another move, however soon;
//   - the adversary's hand arrives on a move that can be completed.
//
// It reports whether the lift is still to be read: false when an ending
// left the recogniser waiting for the board.
func (r *Recogniser) endBeforeLift(e sensor.Event) bool {
	if r.cur.cls == classDisplaced && r.segmented == nil {
		if lifted := r.manAt(e.Square); lifted != board.NoMan && lifted.Color() != r.cur.mover {
			if k, first, _, ok := r.split(r.exp.Analysis, r.start, r.events, 0, true); ok {
				r.segmented = &segmentation{split: k, first: first}
				if !r.endBefore(e, r.completeSegmented, false) {
					return false
				}
			}
		}
	}
	if r.segmented != nil && !r.placedThisEpisode(e.Square) {
		if lifted := r.manAt(e.Square); lifted != board.NoMan && lifted.Color() == r.segmented.first.mover {
			if !r.endBefore(e, r.completeSegmented, false) {
				return false
			}
		}
	}
	if !r.opts.RookFirstCastling && r.cur.cls == classLegal && r.segmented == nil && rookMayCastle(r.exp.Analysis, r.cur.move) {
		if lifted := r.manAt(e.Square); lifted.Kind() == board.King && lifted.Color() == r.cur.mover {
			if !r.endBefore(e, func(t time.Duration) { r.complete(t, BySettle, r.cur.mover) }, true) {
				return false
			}
		}
	}
	if r.cur.cls.completable() && r.segmented == nil {
		if lifted := r.manAt(e.Square); lifted != board.NoMan && lifted.Color() != r.cur.mover && !r.captureInPassing(e.Square) {
			if !r.endBefore(e, func(t time.Duration) { r.complete(t, ByAdversary, r.cur.mover) }, true) {
				return false
			}
		}
	}
	return true
}

// endBefore runs end as the board stood before the lift e (its man still
// down), and reports whether the lift is still to be read: false when the
// ending left the recogniser waiting for the board. With restart, the next
// episode begins from the board before the lift.
func (r *Recogniser) endBefore(e sensor.Event, end func(time.Duration), restart bool) bool {
	r.occ = r.occ.With(e.Square)
	end(e.T)
	r.occ = r.occ.Without(e.Square)
	if r.syncing {
		r.checkSync(e.T)
		return false
	}
	if restart {
		r.start = r.occ.With(e.Square)
	}
	return true
}

// manAt names the man standing (or last standing) on sq in the current
// episode's best reading.
func (r *Recogniser) manAt(sq board.Square) board.Man {
	pos := &r.exp.Analysis.Position
	if len(r.events) == 0 {
		return pos.Men[sq]
	}
	// Find the identity under the best hypothesis of the episode so far.
	if r.curHyp < 0 || r.curHyp >= len(r.hyps) {
		return pos.Men[sq]
	}
	bestRank := r.cur
	o := r.hyps[r.curHyp].at[sq]
	switch {
	case o >= 0:
		man := pos.Men[o]
		if bestRank.cls <= classPromoUnnamed && board.Square(o) == bestRank.move.From && sq == bestRank.move.To {
			return bestRank.after[sq]
		}
		return man
	case o == foreignOrigin:
		// A man from off the board: on the last rank, the promoting side's.
		return bestRank.after[sq]
	}
	return pos.Men[sq]
}

// captureInPassing reports whether the man lifted on sq could be taken by the
// man the mover has just set down, from where it started: the mover's hand
// removing the man it is about to take at the end of a slide.
func (r *Recogniser) captureInPassing(sq board.Square) bool {
	if r.cur.cls == classFalse && r.cur.mover == r.exp.Analysis.Position.Turn &&
		falseEnPassant(&r.exp.Analysis.Position, r.cur.move, board.Occupancy(0).With(board.EnPassantVictim(r.cur.move))) &&
		sq == board.EnPassantVictim(r.cur.move) {
		return true // the man beside a pawn set diagonally forward, taken "en passant" where it may not be
	}
	if r.cur.cls != classLegal && r.cur.cls != classOpen {
		return false
	}
	if r.cur.open == openEnPassant && sq == board.EnPassantVictim(r.cur.move) {
		return true // the pawn taken en passant, lifted after the capturing pawn landed
	}
	// A slider set down on its way: the square lifted lies further along the
	// same line, and the slider could take it from where it started.
	pos := &r.exp.Analysis.Position
	from, to := r.cur.move.From, r.cur.move.To
	switch pos.Men[from].Kind() {
	case board.Bishop, board.Rook, board.Queen:
	default:
		return false
	}
	if !between(from, to, sq) {
		return false
	}
	for _, m := range r.exp.Analysis.Moves {
		if m.From == from && m.To == sq {
			return true
		}
	}
	return false
}

// between reports whether mid lies strictly between a and b on one line.
func between(a, mid, b board.Square) bool {
	df, dr := b.File()-a.File(), b.Rank()-a.Rank()
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return false
	}
	mf, mr := mid.File()-a.File(), mid.Rank()-a.Rank()
	// mid = a + k*(step), 0 < k < n
	n := max(abs(df), abs(dr))
	k := max(abs(mf), abs(mr))
	if k <= 0 || k >= n {
		return false
	}
	return mf*n == df*k && mr*n == dr*k
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// markBump marks the touch of a man set back on its square within the bump
// window of being lifted: jostled, not touched.
func (r *Recogniser) markBump(e sensor.Event) {
	lifts := 0
	for _, p := range r.events {
		if p.Kind == sensor.Lift {
			lifts++
		}
	}
	for i := len(r.events) - 1; i >= 0; i-- {
		p := r.events[i]
		if p.Kind == sensor.Lift {
			lifts--
		}
		if p.Square != e.Square {
			continue
		}
		if p.Kind == sensor.Lift && e.T-p.T < r.opts.Bump && lifts < len(r.marks) && !r.marks[lifts].Announced {
			r.marks[lifts].Bump = true
		}
		return
	}
}

// placedThisEpisode reports whether sq received a man during the episode: a
// lift there picks up a man already counted (a slide, a change of mind).
func (r *Recogniser) placedThisEpisode(sq board.Square) bool {
	for _, e := range r.events {
		if e.Kind == sensor.Place && e.Square == sq {
			return true
		}
	}
	return false
}

// exchangeStep absorbs the promoting side lifting its new man and setting the
// replacement on the same square before the reply. It reports whether the
// event was absorbed.
func (r *Recogniser) exchangeStep(e sensor.Event) bool {
	x := &r.exchange
	switch {
	case !x.lifted && e.Kind == sensor.Lift && e.Square == x.sq && len(r.events) == 0:
		x.lifted = true
		return true
	case x.lifted && e.Kind == sensor.Place && e.Square == x.sq:
		x.lifted = false
		return true
	case x.lifted:
		// Not an exchange after all: the adversary took the new man. Replay
		// the lift as the first event of the adversary's turn.
		x.active, x.lifted = false, false
		lift := sensor.Event{T: e.T, Square: x.sq, Kind: sensor.Lift}
		r.occ = r.occ.With(x.sq)
		if e.Kind == sensor.Lift {
			r.occ = r.occ.With(e.Square)
		} else {
			r.occ = r.occ.Without(e.Square)
		}
		r.occ = r.occ.Without(x.sq)
		r.playEvent(lift)
		if e.Kind == sensor.Lift {
			r.occ = r.occ.Without(e.Square)
		} else {
			r.occ = r.occ.With(e.Square)
		}
		r.playEvent(e)
		return true
	}
	x.active = false
	return false
}

// reparse reads the episode afresh and, when no single move explains it,
// tries reading it as the mover's move followed at once by the adversary's.
func (r *Recogniser) reparse() {
	r.cur, r.hyps, r.curHyp = readEpisode(r.exp.Analysis, r.start, r.events, &r.opts, &r.promo, r.hyps)
	r.segmented = nil
	if r.cur.cls >= classDisplaced && len(r.events) >= 3 && len(r.events) <= maxSegmented {
		r.segmented = r.segment()
		if r.segmented == nil && (r.cur.cls == classIrregular || r.cur.cls == classFalse && r.cur.adverseMan) {
			r.segmented = r.segmentInHand()
		}
	}
}

// segmentInHand reads an episode no move or run of moves explains (or that
// reads only as the side to move having moved an adverse man) as complete
// moves followed by the next side's move still in hand: a reply made fast,
// then a man lifted and held (a player hesitating over his move), or a
// reply that lifts the man it takes first and sets its own man down in
// passing. The moves made are completed when the board settles and the men
// in hand begin the next reading, instead of the episode being given up as
// a mismatch or ruled against the mover. A man of the next side must have
// been lifted after the split, so that a man of the mover's set down in
// passing and lifted again stays his.
func (r *Recogniser) segmentInHand() *segmentation {
	k, first, _, ok := r.split(r.exp.Analysis, r.start, r.events, 0, true)
	if !ok {
		return nil
	}
	var placed board.Occupancy
	for _, e := range r.events[k:] {
		if e.Kind == sensor.Place {
			placed = placed.With(e.Square)
			continue
		}
		if lifted := first.after[e.Square]; !placed.Has(e.Square) && lifted != board.NoMan && lifted.Color() != first.mover {
			return &segmentation{split: k, first: first}
		}
	}
	return nil
}

func (r *Recogniser) segment() *segmentation {
	k, first, several, ok := r.split(r.exp.Analysis, r.start, r.events, 0, false)
	if !ok {
		return nil
	}
	return &segmentation{split: k, first: first, eager: several}
}

// maxSplits is how many moves one episode may be read as.
const maxSplits = 4

// split looks for the point k at which events[:k] reads as a complete legal
// move of the side to move and the rest as the next side's legal move (or,
// recursively, as several moves). With tail, the rest need only be a move in
// progress: the adversary's hand has just arrived. The latest such point is
// taken: a man set down in passing and lifted again is still the mover's.
// It returns k, the first move, whether the rest was read as more than one
// move, and whether the split was found.
func (r *Recogniser) split(a *board.Analysis, start board.Occupancy, events []sensor.Event, depth int, tail bool) (int, reading, bool, bool) {
	for k := len(events) - 1; k >= 1; k-- {
		if events[k].Kind != sensor.Lift {
			continue
		}
		first, _, _ := readEpisode(a, start, events[:k], &r.opts, &r.promo, nil)
		legal := first.cls == classLegal || first.cls == classPromoUnnamed || first.cls == classOpen && first.open == openRookFirst
		if !legal || first.mover != a.Position.Turn {
			continue
		}
		played := first.move
		if first.cls == classPromoUnnamed {
			played.Promo = board.Queen // the law-set's default comes later; a queen stands there meanwhile
		}
		next := a.Position.Apply(played)
		na, err := board.Analyse(next)
		if err != nil {
			continue
		}
		var mid board.Occupancy
		for sq, m := range first.after {
			if m != board.NoMan {
				mid = mid.With(board.Square(sq))
			}
		}
		second, _, _ := readEpisode(na, mid, events[k:], &r.opts, &r.promo, nil)
		switch {
		case second.cls == classLegal && second.mover == next.Turn:
			return k, first, false, true
		case tail && (second.cls == classInProgress || second.cls == classUnchanged):
			return k, first, false, true
		case depth+1 < maxSplits:
			if _, _, _, ok := r.split(na, mid, events[k:], depth+1, tail); ok {
				return k, first, true, true
			}
		}
	}
	return 0, reading{}, false, false
}

// rest closes an episode in which every man went back to its square: each man
// lifted and set back is an adjustment.
func (r *Recogniser) rest(t time.Duration) {
	pos := &r.exp.Analysis.Position
	seen := board.Occupancy(0)
	for _, m := range r.marks {
		if !m.Square.Valid() || seen.Has(m.Square) || m.Bump {
			continue
		}
		seen = seen.With(m.Square)
		side := pos.Turn
		if m.Announced {
			side = r.jadoubeSide // the side whose press announced it
		}
		r.emit(Gesture{Kind: Adjust, T: t, Side: side, Square: m.Square, Man: m.Man, Announced: m.Announced})
		if r.syncing {
			return
		}
	}
	r.turnTouches = append(r.turnTouches, r.marks...)
	r.resetEpisode()
}

// schedule sets the deadline for the current reading, and when it is shown
// as pending.
//
// A set-down is final only when the hand can no longer be carrying the man
// on (fide2023:4.7, hastings1895:IX, nycc:X, sarratt1808:16,
// philidor1825:XI): after the full settle time, at a clock press, or when
// the adversary's hand arrives. A move that still needs a second part (the
// rook of a castling begun with the king, the pawn an en passant capture
// takes, the piece of a promotion) waits for it, however slow the hand,
// until the clock or the adversary's hand ends it: no code says a move must
// be finished within a time.
func (r *Recogniser) schedule() {
	r.deadline = timing.Never
	r.showAt, r.shown = timing.Never, false
	if r.syncing {
		return
	}
	if r.showable() {
		r.showAt = r.lastEvent + r.opts.QuickSettle
	}
	if r.segmented != nil {
		r.deadline = r.lastEvent + r.opts.Settle
		return
	}
	switch r.cur.cls {
	case classLegal:
		r.deadline = r.lastEvent + r.opts.Settle
	case classPromoUnnamed:
		if r.opts.MoveNeedsClock {
			// Where a clock completes only false moves, a legal promotion
			// is made when the hand leaves the new man on its square
			// (fide2023:4.7, 6.2.1): the open wait leaves the player time
			// to name the piece.
			r.deadline = r.lastEvent + r.opts.OpenWait
		}
	case classOpen:
		if r.cur.open == openRookFirst {
			r.deadline = r.lastEvent + r.opts.OpenWait
		}
	case classFalse, classIrregular:
		if !r.opts.MoveNeedsClock {
			r.deadline = r.lastEvent + r.opts.OpenWait
		}
	}
}

// Advance fires every deadline up to t in order.
func (r *Recogniser) Advance(t time.Duration) {
	for {
		if r.showAt <= t && r.showAt < r.deadline {
			r.showAt, r.shown = timing.Never, true
			continue
		}
		if r.deadline > t {
			return
		}
		at := r.deadline
		r.deadline = timing.Never
		r.fire(at)
	}
}

func (r *Recogniser) fire(t time.Duration) {
	if r.syncing {
		if r.syncAt <= t && r.matches() {
			r.synced(t)
		}
		return
	}
	if r.segmented != nil {
		r.completeSegmented(t)
		return
	}
	switch r.cur.cls {
	case classLegal, classPromoUnnamed:
		r.complete(t, BySettle, r.cur.mover)
	case classOpen, classFalse:
		r.complete(t, ByWait, r.cur.mover)
	case classIrregular:
		r.reportMismatch(t)
	}
}

// Press takes a button press. Any press by the side that is not the mover
// of the move in hand completes that move first, as the adversary's hand
// would (a check called after the hand left a move judges that move as it
// stands); a clock press by the mover completes his move, and so does his
// call of check (he calls it on the move his hand has left); a j'adoube
// press announces that side's next lift.
func (r *Recogniser) Press(t time.Duration, button string, side board.Color) {
	r.Advance(t)
	adversary := !r.syncing && r.segmented == nil && r.cur.cls.completable() && side != r.cur.mover && !r.successiveByPress(button)
	if adversary {
		r.complete(t, ByAdversary, r.cur.mover)
		if r.syncing {
			r.checkSync(t)
		}
	}
	if button == trace.ButtonCheck && !adversary && !r.syncing && r.segmented == nil && r.cur.cls.completable() && side == r.cur.mover {
		r.complete(t, ByCall, side)
		if r.syncing {
			r.checkSync(t)
		}
	}
	switch button {
	case trace.ButtonJadoube:
		r.jadoubeArmed, r.jadoubeSide, r.jadoubeUntil = true, side, t+r.opts.Jadoube
	case trace.ButtonClock:
		if !r.syncing && !adversary {
			switch {
			case r.segmented != nil:
				r.completeSegmented(t)
				if !r.syncing && r.segmented == nil && r.cur.cls.completable() && r.cur.mover == side {
					// The rest was the presser's own move: his press ends
					// it too.
					r.complete(t, ByClock, side)
				}
			case r.cur.cls.completable():
				r.complete(t, ByClock, side)
			case r.cur.cls == classIrregular:
				r.reportMismatch(t)
			}
		}
	}
	r.emit(Gesture{Kind: Press, T: t, Side: side, Button: button})
}

// EndHand ends side's hand at t, as his request to take back his move
// does (a game against an engine): a legal move of his that his hand has
// set down and may still be carrying on (pending, or not yet shown as
// pending) is made now, completed ByTakeBack, so that the take-back that
// follows takes back that move and not the ones before it. Anything else
// in hand (a man lifted, a move still open, a false move) is left as it
// is. It reports whether a move was made.
func (r *Recogniser) EndHand(t time.Duration, side board.Color) bool {
	r.Advance(t)
	if r.syncing || r.segmented != nil || len(r.events) == 0 || r.cur.cls != classLegal ||
		r.cur.mover != side || side != r.exp.Analysis.Position.Turn {
		return false
	}
	r.complete(r.endTime(t), ByTakeBack, side)
	return true
}

// successiveByPress reports whether a clock press by the side whose man the
// reading in hand moved shows that side moved again (a man of the side not
// on move, moved): the press is that side's, not the adversary's.
func (r *Recogniser) successiveByPress(button string) bool {
	return button == trace.ButtonClock && r.cur.cls == classFalse && r.cur.falseKind == report.KindMovedAdverse
}

// Promote takes the naming of a promotion piece by a side.
func (r *Recogniser) Promote(t time.Duration, piece board.Kind, side board.Color) {
	r.Advance(t)
	r.promo[side], r.promoAt[side] = piece, t
	if !r.syncing && len(r.events) > 0 {
		r.reparse()
		if r.cur.cls == classLegal {
			r.lastEvent = t
		}
		r.schedule()
	}
	r.emit(Gesture{Kind: Promote, T: t, Side: side, Piece: piece})
}

// Flush ends the input at time t: pending timers fire as if the hands had
// left the board and nothing more happened, and a move still waiting for its
// promotion piece or for displaced men completes.
func (r *Recogniser) Flush(t time.Duration) {
	r.Advance(timing.Never - 1)
	if r.syncing {
		return
	}
	if r.segmented != nil {
		r.completeSegmented(t)
	}
	if r.cur.cls.completable() {
		r.complete(r.endTime(t), ByEnd, r.cur.mover)
	}
}

func (r *Recogniser) endTime(t time.Duration) time.Duration {
	if r.lastEvent > t {
		return r.lastEvent
	}
	return t
}

// complete ends the episode as a move and asks the judge what comes next.
func (r *Recogniser) complete(t time.Duration, by Completion, pressSide board.Color) {
	cur := r.cur
	if by == ByClock && cur.cls == classFalse && cur.falseKind == report.KindMovedAdverse && pressSide != cur.mover {
		// The side whose man moved pressed its clock: it moved again.
		cur.falseKind, cur.adverseMan, cur.mover = report.KindSuccessive, false, pressSide
	}
	rd := r.makeReading(cur, r.events, by)
	r.commit(t, rd, cur)
}

func (r *Recogniser) makeReading(cur reading, events []sensor.Event, by Completion) *Reading {
	rd := &Reading{
		Move:             cur.move,
		Mover:            cur.mover,
		After:            cur.after,
		Displaced:        cur.displaced,
		CompletedBy:      by,
		AdverseMan:       cur.adverseMan,
		PromotionUnnamed: cur.unnamed,
	}
	if cur.cls == classFalse && cur.hasTaken {
		rd.Taken, rd.TookElsewhere = cur.taken, true
	}
	switch cur.cls {
	case classLegal, classPromoUnnamed, classDisplaced:
		rd.Legal = true
	case classOpen:
		if cur.open == openRookFirst {
			rd.Legal = true
		} else {
			rd.False = cur.falseKind
			if cur.open == openKingFirst {
				rd.After = r.physicalNow(cur)
			}
		}
	default:
		rd.False = cur.falseKind
	}
	rd.Touches = append(append([]TouchMark(nil), r.turnTouches...), r.marks[:countLifts(events)]...)
	rd.Events = append([]sensor.Event(nil), events...)
	return rd
}

func countLifts(events []sensor.Event) int {
	n := 0
	for _, e := range events {
		if e.Kind == sensor.Lift {
			n++
		}
	}
	return n
}

// physicalNow is the board as the men stand, for a king moved two squares
// whose rook stayed put.
func (r *Recogniser) physicalNow(cur reading) [64]board.Man {
	pos := &r.exp.Analysis.Position
	out := pos.Men
	out[cur.move.To] = out[cur.move.From]
	out[cur.move.From] = board.NoMan
	return out
}

func (r *Recogniser) commit(t time.Duration, rd *Reading, cur reading) {
	mover := rd.Mover
	promoted := r.exp.Analysis.Position.IsPromotion(rd.Move)
	if promoted || len(rd.Events) == 0 || r.promoAt[mover] <= rd.Events[len(rd.Events)-1].T {
		// The name was for this move. One given after its last event, by
		// a player whose move was still settling as the adversary's hand
		// came (a fast reply read with it), is for his next move.
		r.promo[mover] = board.NoKind
	}
	r.turnTouches = r.turnTouches[:0]
	r.resetEpisode()
	r.exchange.active = false
	r.emit(Gesture{Kind: Move, T: t, Side: mover, Reading: rd})
	if r.syncing {
		return
	}
	if promoted && rd.Legal {
		r.exchange.active, r.exchange.sq, r.exchange.lifted = true, rd.Move.To, false
	}
	if r.exp.Mode == Play && r.occ != r.exp.Analysis.Position.Occupancy() {
		r.reportMismatch(t)
	}
}

// completeSegmented completes the mover's move and reads the rest of the
// episode as the adversary's turn.
func (r *Recogniser) completeSegmented(t time.Duration) {
	seg := r.segmented
	rest := append([]sensor.Event(nil), r.events[seg.split:]...)
	restMarks := append([]TouchMark(nil), r.marks[countLifts(r.events[:seg.split]):]...)
	firstEvents := append([]sensor.Event(nil), r.events[:seg.split]...)
	final := r.occ
	r.marks = r.marks[:countLifts(firstEvents)]
	rd := r.makeReading(seg.first, firstEvents, ByAdversary)
	// Rewind the board to how it stood after the first move for the commit.
	var mid board.Occupancy
	for sq, m := range seg.first.after {
		if m != board.NoMan {
			mid = mid.With(board.Square(sq))
		}
	}
	r.occ = mid
	r.commit(t, rd, seg.first)
	r.occ = final
	if r.syncing {
		r.checkSync(t)
		return
	}
	r.start = mid
	r.events = append(r.events[:0], rest...)
	r.marks = append(r.marks[:0], restMarks...)
	r.reparse()
	r.schedule()
	if r.deadline <= t {
		r.deadline = t
	}
}

// reportMismatch tells the judge the board must be fixed and waits for it.
func (r *Recogniser) reportMismatch(t time.Duration) {
	target := r.exp.Analysis.Position.Occupancy()
	missing, extra := target&^r.occ, r.occ&^target
	r.resetEpisode()
	r.turnTouches = r.turnTouches[:0]
	r.syncing, r.mismatch = true, true
	r.reported = [2]board.Occupancy{missing, extra}
	r.deadline = timing.Never
	r.showAt, r.shown = timing.Never, false
	r.emit(Gesture{Kind: Mismatch, T: t, Missing: missing, Extra: extra})
	if r.syncing {
		r.checkSync(t)
	}
}

func (r *Recogniser) target() board.Occupancy {
	if r.exp.Mode == AwaitNewGame && !r.cleared {
		return 0
	}
	return r.exp.Analysis.Position.Occupancy()
}

func (r *Recogniser) matches() bool { return r.occ == r.target() }

// checkSync schedules the Synced gesture once the board has matched the
// target for the settle time.
func (r *Recogniser) checkSync(t time.Duration) {
	r.deadline = timing.Never
	if r.matches() {
		if r.exp.Mode == AwaitNewGame && !r.cleared {
			r.cleared = true
			return
		}
		r.syncAt = t + min(r.opts.Settle, SyncSettle)
		r.deadline = r.syncAt
	}
}

func (r *Recogniser) synced(t time.Duration) {
	r.syncing, r.mismatch = false, false
	r.resetEpisode()
	r.emit(Gesture{Kind: Synced, T: t})
	if !r.syncing {
		r.schedule()
	}
}

// emit hands a gesture to the judge and takes on what it expects next.
func (r *Recogniser) emit(g Gesture) {
	exp := r.judge.Judge(g)
	if exp.Analysis == nil {
		return
	}
	if exp.Mode != r.exp.Mode || exp.Analysis != r.exp.Analysis {
		r.expect(g.T, exp)
	}
}
