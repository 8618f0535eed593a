package hwtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/trace"
)

// Game is a game to turn into a trace: where it starts and the legal moves
// played from there.
type Game struct {
	Name  string // where the game comes from, for messages ("london1851.pgn#12")
	Start board.Position
	Moves []board.Move
	Tags  map[string]string // PGN tags, if the game came from PGN
}

// Final returns the position after every move of the game.
func (g *Game) Final() board.Position {
	p := g.Start
	for _, m := range g.Moves {
		p = p.Apply(m)
	}
	return p
}

// UCI returns the game's moves in UCI notation.
func (g *Game) UCI() []string {
	out := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		out[i] = m.UCI()
	}
	return out
}

// Style says how often the synthesised hands do each human thing. Every
// field is a probability from 0 to 1; DefaultStyle gives the rates the corpus
// tests use, HardStyle adds the replies the recogniser finds hardest.
type Style struct {
	// FastReply: the next side's first lift comes 50 to 200 ms after the last
	// placement of the move before (else it thinks for 0.3 to 5 s). The first
	// man it lifts is its own, unless FastVictimFirst says otherwise.
	FastReply float64
	// FastVictimFirst: a fast reply that captures lifts the man it takes
	// first, a man of the side that has just moved, before that move has
	// settled.
	FastVictimFirst float64
	// FastRecapture: when a move takes the man that has just moved, it is
	// played as a fast reply with the taken man lifted first.
	FastRecapture float64
	// FastChain: after a fast reply, the next reply may be fast too (three
	// moves, each begun within the settle time of the one before).
	FastChain float64
	// QuickAfterOpen: after a move that stays open for a longer one (a rook
	// set on its castling square where the law-set lets the rook go first),
	// the reply may come within the open wait (about 1 s); otherwise it waits
	// longer.
	QuickAfterOpen float64
	// Slide: a sliding man (not a knight) is set down for 30 to 120 ms on
	// empty squares of its path on the way.
	Slide float64
	// Adjust: the side to move begins its turn by pressing j'adoube and
	// adjusting one of its men.
	Adjust float64
	// ClockPress: the mover presses the clock after its move.
	ClockPress float64
	// Hesitate: the hand pauses 0.5 to 2 s while holding a man.
	Hesitate float64
	// Passing: in a quiet move or a capture (once the taken man is off), the
	// moving man of any kind is set down in passing before his own square,
	// on an empty square next to it or on his way to it, and lifted again:
	// a square he could lawfully have gone to (a pawn's second step, a
	// king's other neighbour, a knight's other landing, a slider's square
	// short of or beyond his own) or one he could not (beside the target,
	// a pawn overshooting). Each stop lasts MinPassingDwell to
	// MaxPassingDwell; sometimes there are two stops in one move.
	Passing float64
	// PassingNudge: a man set down in passing is lifted and set back on
	// the same square 20 to 80 ms later (no sooner than the debounce lets
	// the lift through), and carried on, all within the stop's one dwell.
	PassingNudge float64
	// SlowRook: castling begun with the king, the king let go on his
	// square, has its rook lifted 0.5 s to MaxSlowRookDelay after the
	// king was set down (else within a hand's time).
	SlowRook float64
	// HesitateTwo: the moving man is set down for a passing dwell on
	// another empty square he could lawfully go to, lifted, held 0.3 to
	// 1.5 s in the air, then set on his own square.
	HesitateTwo float64
}

// Bounds of the set-downs in passing (Style.Passing, Style.HesitateTwo).
// A stop lasts from MinPassingDwell to usualPassingDwell, evenly on a log
// scale; one stop in longPassingShare lasts from usualPassingDwell to
// MaxPassingDwell. The recogniser must wait longer than MaxPassingDwell
// before it confirms a move that such a stop could still change.
const (
	// MinPassingDwell is the shortest a man set down in passing stays. A
	// stop is never shorter than two changes of a square may be apart in a
	// frame trace (the debounce window, the bounce and a margin: 33 ms by
	// default, 60 ms on an analogue board), so the shortest stops are that.
	MinPassingDwell = 30 * time.Millisecond
	// MaxPassingDwell is the longest a man set down in passing stays
	// before he is lifted again.
	MaxPassingDwell = 400 * time.Millisecond
	// MaxSlowRookDelay is the longest a slow castling rook (Style.SlowRook)
	// waits after the king was set down.
	MaxSlowRookDelay = 5 * time.Second

	usualPassingDwell = 250 * time.Millisecond
	longPassingShare  = 0.1  // of passing stops, the share that dwells long
	twoStopsShare     = 0.25 // of moves with a stop in passing, the share with two
	minSlowRookDelay  = 500 * time.Millisecond
)

// DefaultStyle is the mix the corpus tests replay: every habit of careful
// hands, fast replies, fast recaptures, set-downs in passing, slow castling
// rooks and hesitation over two squares included, but none of the replies
// that HardStyle adds.
func DefaultStyle() Style {
	return Style{FastReply: 0.15, FastRecapture: 0.3, Slide: 0.25, Adjust: 0.05, ClockPress: 0.3, Hesitate: 0.05,
		FastVictimFirst: 0.1, FastChain: 0.1, QuickAfterOpen: 0.3,
		Passing: 0.2, PassingNudge: 0.3, SlowRook: 0.3, HesitateTwo: 0.05}
}

// HardStyle is DefaultStyle with the hardest replies much more often: fast
// replies that take a man of the side that has just moved by lifting it
// first, chains of fast replies, and replies within the wait of a move still
// open.
func HardStyle() Style {
	st := DefaultStyle()
	st.FastVictimFirst, st.FastChain, st.QuickAfterOpen = 0.5, 0.5, 1
	return st
}

// SynthOptions configure a Synthesiser.
type SynthOptions struct {
	// Seed makes the synthesis reproducible: the same seed, options and game
	// give the same trace.
	Seed uint64
	// Laws is the law-set the trace is meant to be clean play under; it
	// decides which castling orders are lawful (rook first is castling under
	// nycc with the rook set down, under hastings1895 with the king touched
	// before the rook is let go, never under fide2023). Default fide2023.
	Laws string
	// Style is the mix of hand habits. The zero Style is the plainest play:
	// every move made at leisure, captured man second, no slides.
	Style Style
	// Debounce is the debounce window of the game the frames are meant
	// for (game.DefaultDebounce if zero): frame traces are timed so that
	// the debounced events fall exactly where the event trace puts them.
	Debounce time.Duration
	// MaxBounce is the longest burst of contact bounce around a change in a
	// frame trace (default 8 ms; it must be shorter than Debounce).
	MaxBounce time.Duration
}

// castling orders the law-set lets clean play use.
type castlingOrders struct {
	rookFirstInHand bool // rook lifted, king lifted, both set down
	rookFirstSet    bool // rook set down on its square, then the king moved
}

// Synthesiser turns games into human-like traces. It is not safe for
// concurrent use; make one per goroutine.
type Synthesiser struct {
	opts    SynthOptions
	castles castlingOrders
	// rookFirstOpen: a rook set on its castling square stays open for the
	// king under this law-set.
	rookFirstOpen bool
}

// NewSynthesiser checks the options and returns a synthesiser.
func NewSynthesiser(opts SynthOptions) (*Synthesiser, error) {
	if opts.Laws == "" {
		opts.Laws = "fide2023"
	}
	laws, err := lawset.Lookup(opts.Laws)
	if err != nil {
		return nil, fmt.Errorf("hwtest: synthesiser: %w", err)
	}
	if opts.Debounce <= 0 {
		opts.Debounce = game.DefaultDebounce
	}
	if opts.MaxBounce <= 0 {
		opts.MaxBounce = 8 * time.Millisecond
	}
	if opts.MaxBounce >= opts.Debounce {
		return nil, fmt.Errorf("hwtest: synthesiser: bounce of %v does not fit in the debounce window of %v", opts.MaxBounce, opts.Debounce)
	}
	st := &opts.Style
	for name, p := range map[string]float64{"FastReply": st.FastReply, "FastVictimFirst": st.FastVictimFirst, "FastRecapture": st.FastRecapture,
		"FastChain": st.FastChain, "QuickAfterOpen": st.QuickAfterOpen, "Slide": st.Slide, "Adjust": st.Adjust, "ClockPress": st.ClockPress, "Hesitate": st.Hesitate,
		"Passing": st.Passing, "PassingNudge": st.PassingNudge, "SlowRook": st.SlowRook, "HesitateTwo": st.HesitateTwo} {
		if p < 0 || p > 1 || math.IsNaN(p) {
			return nil, fmt.Errorf("hwtest: synthesiser: style %s = %v: want a probability from 0 to 1", name, p)
		}
	}
	s := &Synthesiser{opts: opts}
	s.castles.rookFirstInHand = !laws.FirstTouchedBinds
	s.castles.rookFirstSet = laws.RookFirstCastling
	s.rookFirstOpen = laws.RookFirstCastling
	return s, nil
}

// Options returns the options with defaults filled in.
func (s *Synthesiser) Options() SynthOptions { return s.opts }

// Events synthesises the game as a trace of debounced events (lift, place),
// with presses and promotion names beside them. The first line is a setup
// line when the game does not start from the initial position. gameSeed is
// mixed with the options' seed, so one synthesiser gives every game of a
// corpus its own hands.
func (s *Synthesiser) Events(g *Game, gameSeed uint64) ([]trace.Line, error) {
	b, err := s.build(g, gameSeed)
	if err != nil {
		return nil, err
	}
	return b.lines, nil
}

func (s *Synthesiser) build(g *Game, gameSeed uint64) (*builder, error) {
	return s.buildWith(g, gameSeed, 0)
}

// buildWith synthesises with at least sqGap between two changes of one
// square (0: what the frames' bounce needs).
func (s *Synthesiser) buildWith(g *Game, gameSeed uint64, sqGap time.Duration) (*builder, error) {
	b := newBuilder(s, g, gameSeed)
	b.sqGap = max(b.sqGap, sqGap)
	if err := b.run(); err != nil {
		return nil, fmt.Errorf("hwtest: synthesise %s: %w", g.Name, err)
	}
	return b, nil
}

// Frames turns an event trace (as Events makes it) into a frame trace: a
// sparse raw frame line whenever the occupancy changes, each change preceded
// by a burst of contact bounce at 1 ms resolution (a 1 kHz scan), timed so
// that a debouncer of the configured window reports each event at the time
// the event trace gives it. Lines other than lift and place are kept.
func (s *Synthesiser) Frames(events []trace.Line, gameSeed uint64) ([]trace.Line, error) {
	return framesOf(events, s.opts.Debounce, s.opts.MaxBounce, rand.New(rand.NewPCG(s.opts.Seed^0x6672616d6573, gameSeed)))
}

// Gap rules, so that every event survives debouncing in a frame trace.
const (
	minLineGap = time.Millisecond // lines never share a millisecond
)

// builder holds the state of one synthesis.
type builder struct {
	s      *Synthesiser
	g      *Game
	rng    *rand.Rand
	lines  []trace.Line
	pos    board.Position
	occ    board.Occupancy
	t      time.Duration
	lastAt [64]time.Duration // when each square last changed
	sqGap  time.Duration     // the least time between two changes of a square
	// prev is the move just played, for fast recaptures; prevOpen says it
	// may still stay open for a longer move; prevFast says it was a fast
	// reply.
	prev     board.Move
	prevOpen bool
	prevFast bool
	// starts[i] is the index of the first line of move i's turn (its
	// adjustment, promotion name or first lift).
	starts []int
	// tally counts the habits used, for tests of the synthesiser;
	// habitsAt[i] lists those of move i (how fast it was begun included),
	// and moveIndex is the move being played.
	tally     map[string]int
	habitsAt  [][]string
	moveIndex int
	// placed is the colour of the man each place line sets down, in order:
	// always the mover's (an analogue board reads the colour).
	placed []board.Color
	// analysis is the legal moves of pos, for the squares a man could
	// lawfully be set down on in passing.
	analysis *board.Analysis
	// stops records each set-down in passing, for tests of the synthesiser.
	stops []passingStop
}

func newBuilder(s *Synthesiser, g *Game, gameSeed uint64) *builder {
	b := &builder{s: s, g: g, rng: rand.New(rand.NewPCG(s.opts.Seed, gameSeed)), pos: g.Start, tally: map[string]int{}}
	b.occ = g.Start.Occupancy()
	b.sqGap = s.opts.Debounce + s.opts.MaxBounce + 5*time.Millisecond
	for i := range b.lastAt {
		b.lastAt[i] = -time.Hour
	}
	b.prev = board.Move{From: board.NoSquare, To: board.NoSquare}
	return b
}

// between returns a random duration in [lo, hi], whole milliseconds.
func (b *builder) between(lo, hi time.Duration) time.Duration {
	l, h := int64(lo/time.Millisecond), int64(hi/time.Millisecond)
	if h <= l {
		return lo
	}
	return time.Duration(l+b.rng.Int64N(h-l+1)) * time.Millisecond
}

// logBetween returns a duration spread evenly on a log scale.
func (b *builder) logBetween(lo, hi time.Duration) time.Duration {
	x := math.Log(float64(lo)) + b.rng.Float64()*(math.Log(float64(hi))-math.Log(float64(lo)))
	return time.Duration(math.Exp(x)).Round(time.Millisecond)
}

// note counts a habit used in the move being played.
func (b *builder) note(habit string) {
	b.tally[habit]++
	for len(b.habitsAt) <= b.moveIndex {
		b.habitsAt = append(b.habitsAt, nil)
	}
	b.habitsAt[b.moveIndex] = append(b.habitsAt[b.moveIndex], habit)
}

func (b *builder) chance(p float64) bool { return p > 0 && b.rng.Float64() < p }

func (b *builder) wait(d time.Duration) { b.t += d }

// emit appends a line at the current time, at least a millisecond after the
// line before.
func (b *builder) emit(l trace.Line) {
	if n := len(b.lines); n > 0 && b.t < b.lines[n-1].T+minLineGap {
		b.t = b.lines[n-1].T + minLineGap
	}
	l.T = b.t
	b.lines = append(b.lines, l)
}

func (b *builder) touchSquare(sq board.Square) {
	if at := b.lastAt[sq] + b.sqGap; b.t < at {
		b.t = at
	}
}

func (b *builder) lift(sq board.Square) error {
	if !b.occ.Has(sq) {
		return fmt.Errorf("ply %d: lift from empty %s", b.ply(), sq)
	}
	b.touchSquare(sq)
	b.emit(trace.Line{Kind: trace.Lift, Square: sq})
	b.occ = b.occ.Without(sq)
	b.lastAt[sq] = b.t
	return nil
}

func (b *builder) place(sq board.Square) error {
	if b.occ.Has(sq) {
		return fmt.Errorf("ply %d: place on occupied %s", b.ply(), sq)
	}
	b.touchSquare(sq)
	b.emit(trace.Line{Kind: trace.Place, Square: sq})
	b.placed = append(b.placed, b.pos.Turn)
	b.occ = b.occ.With(sq)
	b.lastAt[sq] = b.t
	return nil
}

func (b *builder) press(button string, side board.Color) {
	b.emit(trace.Line{Kind: trace.Press, Button: button, Side: side.String()})
}

func (b *builder) promote(k board.Kind, side board.Color) {
	b.emit(trace.Line{Kind: trace.Promote, Piece: k, Side: side.String()})
}

func (b *builder) ply() int { return len(b.lines) }

// hand is the time a hand takes between two actions within a move.
func (b *builder) hand() { b.wait(b.between(80*time.Millisecond, 350*time.Millisecond)) }

// holding is the time between actions while a man is in hand: sometimes a
// long hesitation.
func (b *builder) holding() {
	b.hand()
	if b.chance(b.s.opts.Style.Hesitate) {
		b.note("hesitation")
		b.wait(b.between(500*time.Millisecond, 2*time.Second))
	}
}

func (b *builder) run() error {
	if b.g.Start.FEN() != board.StartFEN {
		b.lines = append(b.lines, trace.Line{T: 0, Kind: trace.Setup, FEN: b.g.Start.FEN()})
	}
	// The board stands still a moment before the first hand arrives, so that
	// a frame trace has room for its first bounce.
	b.t = 500 * time.Millisecond
	for i, m := range b.g.Moves {
		b.moveIndex = i
		a, err := board.Analyse(b.pos)
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		if !a.IsLegal(m) {
			return fmt.Errorf("move %d %s is not legal in %s", i+1, m.UCI(), b.pos.FEN())
		}
		hands := handsAtLeisure
		if i > 0 {
			hands = b.between2Moves(m)
		}
		b.starts = append(b.starts, len(b.lines))
		b.prevOpen = b.s.rookFirstOpen && rookMayCastle(a, m)
		b.analysis = a
		if err := b.move(m, hands); err != nil {
			return fmt.Errorf("move %d %s: %w", i+1, m.UCI(), err)
		}
		next := b.pos.Apply(m)
		if b.occ != next.Occupancy() {
			return fmt.Errorf("move %d %s: the board reads %s, the position %s", i+1, m.UCI(), b.occ.Hex(), next.Occupancy().Hex())
		}
		b.pos = next
		b.prev = m
		b.prevFast = hands != handsAtLeisure
	}
	return nil
}

// hands is how the next move begins.
type hands uint8

const (
	handsAtLeisure       hands = iota // after thinking: the capture order at random
	handsFast                         // a fast reply, its own man lifted first
	handsFastVictimFirst              // a fast reply that lifts its victim first
)

// between2Moves lets time pass from the end of one move to the start of the
// next: thinking, or a fast reply. It says how the next move begins.
func (b *builder) between2Moves(next board.Move) hands {
	st := &b.s.opts.Style
	taken := b.pos.Men[next.To] != board.NoMan || b.pos.IsEnPassant(next)
	recapture := next.To == b.prev.To && b.pos.Men[next.To] != board.NoMan
	mayBeFast := !b.prevFast || b.chance(st.FastChain)
	switch {
	case mayBeFast && recapture && b.chance(st.FastRecapture):
		b.wait(b.between(50*time.Millisecond, 200*time.Millisecond))
		b.note("fast recapture")
		return handsFastVictimFirst
	case mayBeFast && b.chance(st.FastReply):
		b.wait(b.between(50*time.Millisecond, 200*time.Millisecond))
		if taken && b.chance(st.FastVictimFirst) {
			b.note("fast reply, victim first")
			return handsFastVictimFirst
		}
		b.note("fast reply")
		return handsFast
	}
	think := b.logBetween(300*time.Millisecond, 5*time.Second)
	if b.prevOpen && !b.chance(st.QuickAfterOpen) && think < 1200*time.Millisecond {
		think = b.between(1200*time.Millisecond, 2*time.Second)
	}
	b.wait(think)
	return handsAtLeisure
}

// rookMayCastle reports whether m sets a rook on its castling square while
// its king could still castle with it: a move some law-sets keep open.
func rookMayCastle(a *board.Analysis, m board.Move) bool {
	pos := &a.Position
	man := pos.Men[m.From]
	if man.Kind() != board.Rook {
		return false
	}
	king := pos.KingSquare(man.Color())
	for _, lm := range a.Moves {
		if lm.From == king && pos.IsCastling(lm) {
			if rf, rt := board.CastlingRook(lm.From, lm.To); rf == m.From && rt == m.To {
				return true
			}
		}
	}
	return false
}

// move plays one legal move m with human hands.
func (b *builder) move(m board.Move, h hands) error {
	pos := &b.pos
	side := pos.Turn
	st := &b.s.opts.Style
	if h != handsFastVictimFirst && b.chance(st.Adjust) {
		if err := b.adjust(side); err != nil {
			return err
		}
	}
	promo := pos.IsPromotion(m)
	nameBefore := promo && b.rng.IntN(2) == 0
	if nameBefore {
		b.promote(m.Promo, side)
		b.hand()
	}
	var err error
	switch {
	case pos.IsCastling(m):
		err = b.castle(m)
	case pos.IsEnPassant(m):
		err = b.enPassant(m, h)
	case promo:
		err = b.promotion(m, nameBefore, h)
	case pos.Men[m.To] != board.NoMan:
		err = b.capture(m, h)
	default:
		err = b.quiet(m)
	}
	if err != nil {
		return err
	}
	if b.chance(st.ClockPress) {
		b.wait(b.between(80*time.Millisecond, 500*time.Millisecond))
		b.press(trace.ButtonClock, side)
		b.note("clock press")
	}
	return nil
}

// adjust presses j'adoube and sets one of the side's men right on its
// square.
func (b *builder) adjust(side board.Color) error {
	own := b.pos.OccupancyOf(side).Squares()
	sq := own[b.rng.IntN(len(own))]
	b.note("adjustment")
	b.press(trace.ButtonJadoube, side)
	b.wait(b.between(100*time.Millisecond, 700*time.Millisecond))
	if err := b.lift(sq); err != nil {
		return err
	}
	b.wait(b.between(80*time.Millisecond, 400*time.Millisecond))
	if err := b.place(sq); err != nil {
		return err
	}
	b.wait(b.between(200*time.Millisecond, 1500*time.Millisecond))
	return nil
}

// pathBetween lists the squares strictly between from and to on a line, or nil when
// they are not on one line (a knight) or adjacent.
func pathBetween(from, to board.Square) []board.Square {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	sf, sr := sgn(df), sgn(dr)
	if df != 0 && dr != 0 && iabs(df) != iabs(dr) {
		return nil
	}
	var out []board.Square
	f, r := from.File()+sf, from.Rank()+sr
	for f != to.File() || r != to.Rank() {
		out = append(out, board.NewSquare(f, r))
		f, r = f+sf, r+sr
	}
	return out
}

func sgn(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

func iabs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// slide sets the man in hand down for a moment on some empty squares of its
// path from `from` to `to`, in order, and lifts it again each time.
func (b *builder) slide(from, to board.Square) error {
	if b.pos.Men[from].Kind() == board.Knight || !b.chance(b.s.opts.Style.Slide) {
		return nil
	}
	var stops []board.Square
	for _, sq := range pathBetween(from, to) {
		if b.occ.Has(sq) {
			break // the path is blocked from here: a capture's victim still stands
		}
		if b.rng.IntN(2) == 0 {
			stops = append(stops, sq)
		}
	}
	if len(stops) > 0 {
		b.note("slide")
	}
	for _, sq := range stops {
		b.wait(b.between(20*time.Millisecond, 120*time.Millisecond))
		if err := b.place(sq); err != nil {
			return err
		}
		hold := b.between(30*time.Millisecond, 120*time.Millisecond)
		if hold < b.sqGap {
			hold = b.sqGap
		}
		b.wait(hold)
		if err := b.lift(sq); err != nil {
			return err
		}
	}
	return nil
}

// quiet plays a move onto an empty square.
func (b *builder) quiet(m board.Move) error {
	if err := b.lift(m.From); err != nil {
		return err
	}
	if err := b.slide(m.From, m.To); err != nil {
		return err
	}
	return b.land(m)
}

// takeOrder is the order of hands in a capture.
type takeOrder uint8

const (
	victimFirst  takeOrder = iota // the taken man is lifted, then the capturing man
	victimSecond                  // the capturing man is lifted, then the taken man
	bothInHand                    // both lifted within a few milliseconds
	ownFirst                      // both within a few milliseconds, the capturing man first
)

func (b *builder) pickOrder(h hands) takeOrder {
	switch h {
	case handsFastVictimFirst:
		return victimFirst
	case handsFast:
		return ownFirst
	}
	return takeOrder(b.rng.IntN(3))
}

// takeAndLift lifts the capturing man from `from` and the victim on `victim`
// in the given order (with a slide of the capturing man when it goes first).
func (b *builder) takeAndLift(from, to, victim board.Square, order takeOrder) error {
	b.note([...]string{"capture, victim first", "capture, victim second", "capture, both in hand", "capture, own man first"}[order])
	switch order {
	case victimFirst:
		if err := b.lift(victim); err != nil {
			return err
		}
		b.holding()
		if err := b.lift(from); err != nil {
			return err
		}
		return b.slide(from, to)
	case victimSecond:
		if err := b.lift(from); err != nil {
			return err
		}
		if err := b.slide(from, to); err != nil {
			return err
		}
		b.holding()
		return b.lift(victim)
	default:
		first, second := from, victim
		if order == bothInHand && b.rng.IntN(2) == 0 {
			first, second = second, first
		}
		if err := b.lift(first); err != nil {
			return err
		}
		b.wait(b.between(2*time.Millisecond, 40*time.Millisecond))
		return b.lift(second)
	}
}

// capture plays a move that takes the man on its destination.
func (b *builder) capture(m board.Move, h hands) error {
	if err := b.takeAndLift(m.From, m.To, m.To, b.pickOrder(h)); err != nil {
		return err
	}
	return b.land(m)
}

// enPassant plays a pawn taking en passant: the taken pawn removed before,
// with, or after the capturing pawn lands.
func (b *builder) enPassant(m board.Move, h hands) error {
	victim := board.EnPassantVictim(m)
	b.note("en passant")
	if h != handsFastVictimFirst && b.rng.IntN(3) == 0 {
		// The pawn lands first; the taken pawn is removed after.
		b.note("en passant, taken pawn removed after")
		if err := b.lift(m.From); err != nil {
			return err
		}
		b.hand()
		if err := b.place(m.To); err != nil {
			return err
		}
		b.hand()
		return b.lift(victim)
	}
	if err := b.takeAndLift(m.From, m.To, victim, b.pickOrder(h)); err != nil {
		return err
	}
	b.holding()
	return b.place(m.To)
}

// castle plays castling in one of the orders the law-set allows.
func (b *builder) castle(m board.Move) error {
	rf, rt := board.CastlingRook(m.From, m.To)
	// bothInHand lifts one man and then the other (the king's and the
	// rook's squares, in either order) and sets them down in a random order.
	bothInHand := func(lift1, lift2 board.Square) func() error {
		return func() error {
			if err := b.lift(lift1); err != nil {
				return err
			}
			b.hand()
			if err := b.lift(lift2); err != nil {
				return err
			}
			b.hand()
			first, second := m.To, rt
			if b.rng.IntN(2) == 0 {
				first, second = second, first
			}
			if err := b.place(first); err != nil {
				return err
			}
			b.hand()
			return b.place(second)
		}
	}
	orders := []func() error{
		func() error { // king, then rook
			if err := b.lift(m.From); err != nil {
				return err
			}
			if err := b.slide(m.From, m.To); err != nil {
				return err
			}
			b.hand()
			if err := b.place(m.To); err != nil {
				return err
			}
			if b.chance(b.s.opts.Style.SlowRook) {
				b.note("slow castling rook")
				b.wait(b.logBetween(minSlowRookDelay, MaxSlowRookDelay))
			} else {
				b.hand()
			}
			if err := b.lift(rf); err != nil {
				return err
			}
			b.hand()
			return b.place(rt)
		},
		bothInHand(m.From, rf), // king first, both in hand
	}
	if b.s.castles.rookFirstInHand {
		orders = append(orders, bothInHand(rf, m.From)) // rook first, both in hand
	}
	if b.s.castles.rookFirstSet {
		orders = append(orders, func() error { // rook set down, then the king
			if err := b.lift(rf); err != nil {
				return err
			}
			b.hand()
			if err := b.place(rt); err != nil {
				return err
			}
			b.hand()
			if err := b.lift(m.From); err != nil {
				return err
			}
			b.hand()
			return b.place(m.To)
		})
	}
	pick := b.rng.IntN(len(orders))
	b.note([...]string{"castling, king then rook", "castling, king first in hand", "castling, rook first in hand", "castling, rook set first"}[pick])
	return orders[pick]()
}

// promotion plays a pawn reaching its last rank: set down and exchanged, or
// taken off and the new man set straight down; the piece is named before
// (nameBefore) or at some point after the pawn lands.
func (b *builder) promotion(m board.Move, nameBefore bool, h hands) error {
	side := b.pos.Turn
	capture := b.pos.Men[m.To] != board.NoMan
	if capture {
		if err := b.takeAndLift(m.From, m.To, m.To, b.pickOrder(h)); err != nil {
			return err
		}
	} else {
		if err := b.lift(m.From); err != nil {
			return err
		}
		if err := b.slide(m.From, m.To); err != nil {
			return err
		}
	}
	b.holding()
	named := nameBefore
	if nameBefore {
		b.note("promotion, named before")
	} else {
		b.note("promotion, named after")
	}
	if m.Promo != board.Queen {
		b.note("underpromotion")
	}
	nameNow := func() {
		if !named && b.rng.IntN(2) == 0 {
			b.hand()
			b.promote(m.Promo, side)
			named = true
		}
	}
	if b.rng.IntN(2) == 0 {
		// Set the pawn down, then exchange it for the new man.
		b.note("promotion, pawn exchanged")
		if err := b.place(m.To); err != nil {
			return err
		}
		nameNow()
		b.wait(b.between(150*time.Millisecond, 600*time.Millisecond))
		if err := b.lift(m.To); err != nil {
			return err
		}
		b.wait(b.between(200*time.Millisecond, 800*time.Millisecond))
		if err := b.place(m.To); err != nil {
			return err
		}
	} else {
		// The pawn was taken off and the new man set straight down.
		b.note("promotion, new man set straight down")
		if err := b.place(m.To); err != nil {
			return err
		}
	}
	if !named {
		b.hand()
		b.promote(m.Promo, side)
	}
	return nil
}
