package opponent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Options configure a Match. Runner and Player are required.
type Options struct {
	// Runner is the board's game, through its door.
	Runner *game.Runner
	// Player plays Side from off the board.
	Player Player
	Side   Side
	// TimeControl is the game's time control (clock.Parse), "" for none:
	// the opponent is then told what each move gets and the moves to go.
	TimeControl string
	// ClockShown stops the opponent's clock when its move is shown (the
	// player carries it out on his own time); otherwise it runs until the
	// move is carried out.
	ClockShown bool
	// Allowance is taken off the opponent's own time in each question
	// while its clock runs until its moves are carried out, so that it
	// leaves the player time to carry them out (default 2s; negative:
	// none).
	Allowance time.Duration
	// Players are the names of the players at the board, by colour
	// (board.White, board.Black): the tag of a side the opponent leaves
	// (it changes sides) takes the name again; "" leaves it "?".
	Players [2]string
	// SetTag sets a PGN tag of the game (journalled by the daemon); nil
	// sets it on the game alone.
	SetTag func(ctx context.Context, name, value string) error
	// Annotate notes the opponent's evaluation of each of its moves as a
	// comment at the move (ply, from 0) once it is carried out, and the
	// opponent is named as the PGN's Annotator; nil notes none. The
	// daemon journals it, having checked the move at ply is san (see
	// Annotated).
	Annotate func(ctx context.Context, ply int, san, comment string) error
	// RetryAfter is how long after a failed question it is asked again
	// (default 5s): the player has given up restarting, the fault is shown,
	// and the game waits.
	RetryAfter time.Duration
	// Evaluate asks the opponent (when it is an Evaluator) to evaluate
	// every position its own search does not score, such as the one after
	// the player's move at the board, so that State.Eval always follows
	// the game; the daemon sets it where evaluations are shown.
	Evaluate bool
	// Rand draws the side of a Random match; nil seeds one from the time.
	Rand *rand.Rand
	// Clock and Wait time the retries (real time if nil).
	Clock timing.Clock
	Wait  func(ctx context.Context, until time.Duration) error
	// Logger receives the match's doings; nil discards them.
	Logger *slog.Logger
}

// Draw offer states, as State.Draw says them.
const (
	DrawOffered  = "offered"
	DrawDeclined = "declined"
	DrawAccepted = "accepted"
)

// State is the match as a console shows it. It is a value.
type State struct {
	// Name and Level name the opponent and its strength ("Stockfish
	// 15.1", "Elo 1500"; Level "" for a player without levels).
	Name, Level string
	// Side is the side the opponent plays now; Random says it is drawn
	// again at each new game.
	Side   board.Color
	Random bool
	// Thinking: the opponent is working on its move; Hinting: on a hint.
	Thinking, Hinting bool
	// Move is the opponent's last move in SAN, and Book whether it came
	// from an opening book.
	Move string
	Book bool
	// Eval is the opponent's evaluation of the game's position as it
	// stands (Eval.Ply is the game's Snapshot.Moves), from White's point
	// of view: from its search for its own move while that move waits to
	// be carried out, else from a hint's search or an evaluation of its
	// own (Options.Evaluate). It is nil until the evaluation of the
	// position comes: never an earlier position's (after a move, a
	// take-back or a new game).
	Eval *Eval
	// Hint is the move the opponent suggests to the player at the board
	// in the position as it stands (SAN), and HintEval what it thinks of
	// that position (White's point of view; its PV starts with the hint);
	// both go once the position changes.
	Hint     string
	HintEval *Eval
	// Draw says what became of the player's draw offer: DrawOffered,
	// DrawDeclined, DrawAccepted, or "" when none was made.
	Draw string
	// Fault is the opponent's fault that stops it answering (it is asked
	// again every RetryAfter); "" when all is well. Recovered is the last
	// fault it recovered from by itself (an engine restarted).
	Fault, Recovered string
	// Hints and Levels say whether the opponent gives hints and takes
	// levels.
	Hints, Levels bool
}

// Match plays a Player against the player at the board. Build it with New,
// run it with Run; its commands (TakeBack, Hint, NewGame, Resign,
// OfferDraw, SetSide, SetLevel) may come from any goroutine.
type Match struct {
	o       Options
	log     *slog.Logger
	control *clock.Control
	wake    chan struct{}

	mu          sync.Mutex
	rng         *rand.Rand
	side        board.Color
	random      bool
	drawOffered bool
	wantHint    bool
	state       State
	watchers    map[int]func()
	nextWatch   int
	tags        map[string]string // the game's tags as last known
	labels      map[string]bool   // the names this match has written in them

	// The Run goroutine's own.
	q, h, e  *inflight
	evalKey  questionKey // the position State.Eval is for
	hintKey  questionKey // the position State.Hint is for
	evalSkip questionKey // a position the opponent would not evaluate
	note     *note
	retryAt  time.Duration
	wasOver  bool
	tagsRead bool
	// declinedAt is the moves made once the engine's reply that declined
	// a draw offer is made; 0 when no declined offer is shown.
	declinedAt int
}

// inflight is a question asked and not yet answered.
type inflight struct {
	key    questionKey
	ply    int // the moves recorded when it was asked
	q      Question
	cancel context.CancelFunc
	ch     <-chan Answer
}

// note is an evaluation to note at the opponent's move once it is carried
// out.
type note struct {
	ply     int
	san     string
	comment string
}

// questionKey is the game as a question was asked of it: an answer for
// another is stale.
type questionKey struct {
	pos   board.RepetitionKey
	moves int
	draw  bool
}

// New builds a match. The runner's changes reach it from now on; Run plays.
func New(o Options) (*Match, error) {
	if o.Runner == nil || o.Player == nil {
		return nil, errors.New("opponent: a match needs a runner and a player")
	}
	if o.Side != White && o.Side != Black && o.Side != Random {
		return nil, fmt.Errorf("opponent: side %v: want white, black or random", o.Side)
	}
	m := &Match{o: o, wake: make(chan struct{}, 1), watchers: map[int]func(){}, tags: map[string]string{}, labels: map[string]bool{}}
	if o.TimeControl != "" {
		c, err := clock.Parse(o.TimeControl)
		if err != nil {
			return nil, fmt.Errorf("opponent: time control: %w", err)
		}
		m.control = &c
	}
	if m.o.Allowance == 0 {
		m.o.Allowance = 2 * time.Second
	}
	if m.o.RetryAfter <= 0 {
		m.o.RetryAfter = 5 * time.Second
	}
	if m.o.Clock == nil {
		m.o.Clock = timing.NewReal()
	}
	if m.o.Wait == nil {
		m.o.Wait = timing.Until(m.o.Clock)
	}
	m.log = o.Logger
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	m.rng = o.Rand
	if m.rng == nil {
		seed := uint64(time.Now().UnixNano())
		m.rng = rand.New(rand.NewPCG(seed, seed>>17|1))
	}
	m.setSide(o.Side)
	_, m.state.Hints = o.Player.(Hinter)
	_, m.state.Levels = o.Player.(Leveller)
	m.state.Name, m.state.Level = m.names()
	o.Runner.OnChange(func(*game.Snapshot) { m.poke() })
	return m, nil
}

// setSide sets the side played from off the board (drawn for Random); the
// caller holds mu, or nobody else has m yet.
func (m *Match) setSide(s Side) {
	m.random = s == Random
	switch s {
	case White:
		m.side = board.White
	case Black:
		m.side = board.Black
	default:
		m.side = board.Color(m.rng.IntN(2))
	}
	m.state.Side, m.state.Random = m.side, m.random
}

// names returns the player's name and level.
func (m *Match) names() (string, string) {
	level := ""
	if l, ok := m.o.Player.(Leveller); ok {
		level = l.Level()
	}
	return m.o.Player.Name(), level
}

// label is what the PGN's tag for the opponent's side says.
func (m *Match) label() string {
	name, level := m.names()
	if level == "" {
		return name
	}
	return name + ", " + level
}

func (m *Match) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// State returns the match as it stands.
func (m *Match) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// Watch registers fn, told (on any goroutine) whenever the state changes.
// fn must not block. The returned func stops it.
func (m *Match) Watch(fn func()) (stop func()) {
	m.mu.Lock()
	id := m.nextWatch
	m.nextWatch++
	m.watchers[id] = fn
	m.mu.Unlock()
	return func() {
		m.mu.Lock()
		delete(m.watchers, id)
		m.mu.Unlock()
	}
}

// update changes the state under the lock and tells the watchers.
func (m *Match) update(fn func(s *State)) {
	m.mu.Lock()
	before := m.state
	fn(&m.state)
	changed := !sameState(before, m.state)
	var fns []func()
	if changed {
		for _, w := range m.watchers {
			fns = append(fns, w)
		}
	}
	m.mu.Unlock()
	for _, w := range fns {
		w()
	}
}

func sameState(a, b State) bool {
	return a.Name == b.Name && a.Level == b.Level && a.Side == b.Side && a.Random == b.Random && a.Thinking == b.Thinking &&
		a.Hinting == b.Hinting && a.Move == b.Move && a.Book == b.Book && a.Eval == b.Eval && a.Hint == b.Hint &&
		a.HintEval == b.HintEval && a.Draw == b.Draw && a.Fault == b.Fault && a.Recovered == b.Recovered
}

// snapshot returns the game as it stands, taken on the runner's goroutine:
// every input applied so far is in it (a snapshot handed to OnChange may be
// told after an input's Submit has returned).
func (m *Match) snapshot(ctx context.Context) (*game.Snapshot, error) {
	return m.o.Runner.Snapshot(ctx)
}

// Run plays until ctx ends: it says which side is played from off the
// board, asks for the opponent's move whenever that side is to move, and
// announces it. It returns nil when ctx ends.
func (m *Match) Run(ctx context.Context) error {
	defer func() {
		for _, f := range []*inflight{m.q, m.h, m.e} {
			if f != nil {
				f.cancel()
			}
		}
	}()
	snap, err := m.snapshot(ctx)
	if err != nil {
		return nil // the runner stopped first
	}
	// A game in progress (restored from its journal) keeps the side its
	// opponent played, which the console may have changed.
	if r := snap.Remote; r[board.White] != r[board.Black] {
		kept := board.White
		if r[board.Black] {
			kept = board.Black
		}
		m.mu.Lock()
		changed := kept != m.side
		m.side = kept
		m.mu.Unlock()
		if changed {
			m.log.Info("opponent: the game in progress keeps the side it played", "side", kept)
		}
		m.update(func(s *State) { s.Side = kept })
	}
	m.poke()
	for {
		var qch, hch, ech <-chan Answer
		if m.q != nil {
			qch = m.q.ch
		}
		if m.h != nil {
			hch = m.h.ch
		}
		if m.e != nil {
			ech = m.e.ch
		}
		select {
		case <-ctx.Done():
			return nil
		case <-m.wake:
			m.step(ctx)
		case a := <-qch:
			m.answered(ctx, a)
			m.step(ctx)
		case a := <-hch:
			m.hinted(ctx, a)
			m.step(ctx)
		case a := <-ech:
			m.evaluated(ctx, a)
			m.step(ctx)
		}
	}
}

// forgetDecline clears a declined draw offer from the state once the
// player has moved again after the engine's reply that declined it: the
// word belongs to the moves it answered, not to the rest of the game.
func (m *Match) forgetDecline(moves int) {
	if m.declinedAt == 0 {
		return
	}
	if m.State().Draw != DrawDeclined {
		m.declinedAt = 0
		return
	}
	if moves > m.declinedAt {
		m.declinedAt = 0
		m.update(func(s *State) {
			if s.Draw == DrawDeclined {
				s.Draw = ""
			}
		})
	}
}

// step brings the match up to date with the game: the sides, the tags,
// the question in flight and the hint.
func (m *Match) step(ctx context.Context) {
	snap, err := m.snapshot(ctx)
	if err != nil {
		return
	}
	m.mu.Lock()
	over := snap.Result != nil
	fresh := m.wasOver && !over && snap.Moves == 0
	if fresh {
		// A new game began on the board after the last one ended: what
		// was said of the last one goes with it.
		m.drawOffered = false
		if m.random {
			m.setSide(Random)
		}
	}
	m.wasOver = over
	side, wantHint := m.side, m.wantHint
	m.mu.Unlock()
	if fresh {
		m.update(func(s *State) {
			s.Move, s.Book, s.Eval, s.Hint, s.HintEval, s.Draw = "", false, nil, "", nil, ""
		})
	}
	m.forgetDecline(snap.Moves)

	var want [2]bool
	want[side] = true
	if snap.Remote != want {
		l := trace.Line{Kind: trace.Remote, Side: side.String()}
		if err := m.o.Runner.Submit(ctx, l); err != nil && ctx.Err() == nil {
			m.log.Warn("opponent: the side played from off the board not set", "side", side, "err", err)
		}
		return // the change brings the next step
	}
	m.keepTags(ctx, side)
	m.annotate(ctx, snap)

	key, ask := m.questionFor(snap, side)
	if m.q != nil && (!ask || m.q.key != key) {
		m.q.cancel()
		m.q = nil
		m.update(func(s *State) { s.Thinking = false })
	}
	if ask && m.q == nil && m.o.Clock.Now() >= m.retryAt {
		m.ask(ctx, snap, key)
	}

	hkey, hintable := m.hintFor(snap, side)
	if m.h != nil && (!hintable || m.h.key != hkey) {
		m.h.cancel()
		m.h = nil
		m.update(func(s *State) { s.Hinting = false })
	}
	if wantHint {
		m.mu.Lock()
		m.wantHint = false
		m.mu.Unlock()
		if hintable && m.h == nil {
			m.askHint(ctx, snap, hkey)
		}
	}
	m.followEval(ctx, snap, ask)
}

// positionKey is the game's position as it stands, for the evaluation and
// the hint shown of it.
func positionKey(snap *game.Snapshot) questionKey {
	return questionKey{pos: snap.Position.Key(), moves: snap.Moves}
}

// followEval keeps the evaluation and the hint shown for the position as
// it stands: those of another position go at once, and the opponent is
// asked to evaluate this one when nothing else will (its own move's search
// scores the position it moves in, a hint's the player's). moving says the
// opponent is to be asked for its move in snap.
func (m *Match) followEval(ctx context.Context, snap *game.Snapshot, moving bool) {
	cur := positionKey(snap)
	st := m.State()
	if (st.Eval != nil && m.evalKey != cur) || ((st.Hint != "" || st.HintEval != nil) && m.hintKey != cur) {
		m.update(func(s *State) {
			if s.Eval != nil && m.evalKey != cur {
				s.Eval = nil
			}
			if m.hintKey != cur {
				s.Hint, s.HintEval = "", nil
			}
		})
		st = m.State()
	}
	_, can := m.o.Player.(Evaluator)
	want := m.o.Evaluate && can && st.Eval == nil && !moving && m.q == nil && m.h == nil &&
		snap.Result == nil && snap.Mode != game.AwaitNewGame && snap.Pending == nil && m.evalSkip != cur
	if m.e != nil && (!want || m.e.key != cur) {
		m.e.cancel()
		m.e = nil
	}
	if want && m.e == nil {
		m.askEval(ctx, snap, cur)
	}
}

// askEval asks the opponent to evaluate the position as it stands.
func (m *Match) askEval(ctx context.Context, snap *game.Snapshot, key questionKey) {
	ev, ok := m.o.Player.(Evaluator)
	if !ok {
		return
	}
	q, err := m.question(ctx, snap, snap.Position.Turn, false)
	if err != nil {
		return
	}
	ectx, cancel := context.WithCancel(ctx)
	m.e = &inflight{key: key, ply: snap.Moves, q: q, cancel: cancel, ch: ev.Evaluate(ectx, q)}
	m.log.Debug("opponent: evaluating", "moves", snap.Moves)
}

// evaluated shows the opponent's evaluation, if the game still stands as
// it was asked.
func (m *Match) evaluated(ctx context.Context, a Answer) {
	f := m.e
	m.e = nil
	f.cancel()
	if a.Err != nil || a.Eval == nil {
		if a.Err != nil && (ctx.Err() != nil || errors.Is(a.Err, context.Canceled)) {
			return
		}
		// Not asked again for this position: the game goes on without it.
		m.evalSkip = f.key
		m.log.Warn("opponent: no evaluation", "moves", f.ply, "err", a.Err)
		return
	}
	m.recovered(a, false)
	snap, err := m.snapshot(ctx)
	if err != nil || !m.current(f, snap) {
		return
	}
	m.showEval(f.key, f.ply, a.Eval)
}

// showEval shows e as the evaluation of the position key, after ply moves.
func (m *Match) showEval(key questionKey, ply int, e *Eval) {
	ev := *e
	ev.Ply = ply
	m.evalKey = questionKey{pos: key.pos, moves: key.moves}
	m.update(func(s *State) { s.Eval = &ev })
}

// questionFor says whether the opponent is to be asked for a move in snap,
// and the question's key.
func (m *Match) questionFor(snap *game.Snapshot, side board.Color) (questionKey, bool) {
	if snap.Result != nil || snap.Mode == game.AwaitNewGame || snap.Pending != nil || snap.HasAwaiting ||
		snap.Position.Turn != side || !snap.Remote[side] {
		return questionKey{}, false
	}
	m.mu.Lock()
	draw := m.drawOffered
	m.mu.Unlock()
	return questionKey{pos: snap.Position.Key(), moves: snap.Moves, draw: draw}, true
}

// hintFor says whether a hint may be given in snap: the player at the
// board is to move.
func (m *Match) hintFor(snap *game.Snapshot, side board.Color) (questionKey, bool) {
	if snap.Result != nil || snap.Mode == game.AwaitNewGame || snap.Pending != nil || snap.Position.Turn == side {
		return questionKey{}, false
	}
	return questionKey{pos: snap.Position.Key(), moves: snap.Moves}, true
}

// question builds the question of the game as it stands.
func (m *Match) question(ctx context.Context, snap *game.Snapshot, side board.Color, draw bool) (Question, error) {
	type line struct {
		start board.Position
		moves []board.Move
	}
	ch := make(chan line, 1)
	if err := m.o.Runner.Do(ctx, func(g *game.Game, _ time.Duration) {
		start, moves := g.Line()
		ch <- line{start, moves}
	}); err != nil {
		return Question{}, err
	}
	l := <-ch
	q := Question{Start: l.start, Moves: l.moves, DrawOffered: draw}
	if c := snap.Clocks; c != nil && m.control != nil {
		// Each side has made about half the moves recorded: on the
		// opponent's turn exactly (the first mover's count is even).
		done := snap.Moves / 2
		toGo, _, bonus := m.control.Ahead(done)
		q.Clocks = &Clocks{White: c.WhiteLeft, Black: c.BlackLeft, WhiteInc: bonus, BlackInc: bonus, MovesToGo: toGo}
		if !m.o.ClockShown && m.o.Allowance > 0 {
			own := &q.Clocks.White
			if side == board.Black {
				own = &q.Clocks.Black
			}
			*own = max(*own-m.o.Allowance, *own/2)
		}
	}
	return q, nil
}

// ask asks the opponent for its move.
func (m *Match) ask(ctx context.Context, snap *game.Snapshot, key questionKey) {
	q, err := m.question(ctx, snap, snap.Position.Turn, key.draw)
	if err != nil {
		return
	}
	qctx, cancel := context.WithCancel(ctx)
	m.q = &inflight{key: key, ply: snap.Moves, q: q, cancel: cancel, ch: m.o.Player.Move(qctx, q)}
	m.update(func(s *State) { s.Thinking = true })
	m.log.Debug("opponent: thinking", "moves", snap.Moves, "draw_offered", key.draw)
}

// askHint asks the opponent for a hint.
func (m *Match) askHint(ctx context.Context, snap *game.Snapshot, key questionKey) {
	hinter, ok := m.o.Player.(Hinter)
	if !ok {
		return
	}
	q, err := m.question(ctx, snap, snap.Position.Turn.Other(), false)
	if err != nil {
		return
	}
	hctx, cancel := context.WithCancel(ctx)
	m.h = &inflight{key: key, ply: snap.Moves, q: q, cancel: cancel, ch: hinter.Hint(hctx, q)}
	m.update(func(s *State) { s.Hinting = true })
}

// current reports whether the game still stands as f was asked of it.
func (m *Match) current(f *inflight, snap *game.Snapshot) bool {
	return snap != nil && snap.Position.Key() == f.key.pos && snap.Moves == f.key.moves
}

// answered takes the opponent's answer: its move is announced (an
// `opponent` line), a draw it accepts ends the game, a fault is shown and
// the question asked again later.
func (m *Match) answered(ctx context.Context, a Answer) {
	f := m.q
	m.q = nil
	f.cancel()
	m.update(func(s *State) { s.Thinking = false })
	if a.Err != nil {
		if ctx.Err() != nil || errors.Is(a.Err, context.Canceled) {
			return
		}
		m.log.Error("opponent: no move", "err", a.Err)
		m.retryAt = m.o.Clock.Now() + m.o.RetryAfter
		at := m.retryAt
		go func() {
			if m.o.Wait(ctx, at) == nil {
				m.poke()
			}
		}()
		m.update(func(s *State) { s.Fault = a.Err.Error() })
		return
	}
	m.retryAt = 0
	m.recovered(a, true)
	side := f.q.turn()
	if f.key.draw {
		m.mu.Lock()
		m.drawOffered = false
		m.mu.Unlock()
		if a.AcceptsDraw {
			l := trace.Line{Kind: trace.Arbiter, Action: game.ActionAgreeDraw, Side: trace.SideArbiter}
			if err := m.o.Runner.SubmitIf(ctx, l, m.still(f)); err != nil {
				m.log.Info("opponent: draw accepted too late", "err", err)
				return
			}
			m.log.Info("opponent: draw offer accepted", "eval", a.Eval.String())
			m.update(func(s *State) { s.Draw = DrawAccepted })
			if a.Eval != nil {
				m.showEval(f.key, f.ply, a.Eval)
			}
			return
		}
		m.log.Info("opponent: draw offer declined", "eval", a.Eval.String())
		m.declinedAt = f.key.moves + 1
		m.update(func(s *State) { s.Draw = DrawDeclined })
	}
	l := trace.Line{Kind: trace.Opponent, Move: a.Move}
	if err := m.o.Runner.SubmitIf(ctx, l, m.still(f)); err != nil {
		m.log.Debug("opponent: answer for a position gone", "move", a.Move.UCI(), "err", err)
		return
	}
	m.log.Info("opponent: move", "move", a.SAN, "book", a.Book, "eval", a.Eval.String())
	if m.o.ClockShown {
		press := trace.Line{Kind: trace.Press, Button: trace.ButtonClock, Side: side.String()}
		if err := m.o.Runner.Submit(ctx, press); err != nil && ctx.Err() == nil {
			m.log.Warn("opponent: clock not handed over", "err", err)
		}
	}
	m.update(func(s *State) { s.Move, s.Book = a.SAN, a.Book })
	if a.Eval != nil {
		m.showEval(f.key, f.ply, a.Eval)
	}
	if m.o.Annotate != nil && a.Eval != nil {
		m.note = &note{ply: f.ply, san: a.SAN, comment: evalComment(m.o.Player.Name(), a.Eval)}
	}
}

// recovered logs and shows the faults a answered through (the engine
// restarted and given the position again: for its move, a hint or an
// evaluation alike); answering clears the fault shown when clear says so.
func (m *Match) recovered(a Answer, clear bool) {
	for _, err := range a.Recovered {
		m.log.Warn("opponent: recovered from a fault", "err", err)
	}
	if len(a.Recovered) == 0 && !clear {
		return
	}
	m.update(func(s *State) {
		if clear {
			s.Fault = ""
		}
		if len(a.Recovered) > 0 {
			s.Recovered = a.Recovered[len(a.Recovered)-1].Error()
		}
	})
}

// annotate notes the evaluation of the opponent's last move once it is
// carried out; it is dropped if the move is taken back first.
func (m *Match) annotate(ctx context.Context, snap *game.Snapshot) {
	n := m.note
	if n == nil {
		return
	}
	if snap.Moves <= n.ply {
		// Not carried out yet; or taken back with the move before it
		// (then forgotten). A move made later in its place fails the
		// hook's check.
		if snap.Moves < n.ply {
			m.note = nil
		}
		return
	}
	m.note = nil
	if err := m.o.Annotate(ctx, n.ply, n.san, n.comment); err != nil && ctx.Err() == nil {
		m.log.Warn("opponent: evaluation not noted", "err", err)
	}
}

// Annotated checks that the move at ply of g's record is the opponent's
// move san before its evaluation is noted there: an Annotate hook's first
// step.
func Annotated(g *game.Game, ply int, san string) error {
	rec := g.Record()
	if ply < 0 || ply >= len(rec.Moves) || rec.Moves[ply].SAN != san {
		return fmt.Errorf("opponent: move %d is not %s", ply+1, san)
	}
	return nil
}

// still returns a check that the game stands as f was asked of it, and the
// opponent's move is not yet announced.
func (m *Match) still(f *inflight) func(g *game.Game) error {
	return func(g *game.Game) error {
		s := g.Snapshot()
		if !m.current(f, s) {
			return errors.New("the game has moved on")
		}
		if s.HasAwaiting || s.Result != nil || s.Pending != nil {
			return errors.New("the game no longer waits for the opponent's move")
		}
		return nil
	}
}

// turn is the side to move in q.
func (q Question) turn() board.Color {
	if len(q.Moves)%2 == 0 {
		return q.Start.Turn
	}
	return q.Start.Turn.Other()
}

// hinted shows a hint on the board, if the game still stands as it was
// asked.
func (m *Match) hinted(ctx context.Context, a Answer) {
	f := m.h
	m.h = nil
	f.cancel()
	m.update(func(s *State) { s.Hinting = false })
	if a.Err != nil {
		if ctx.Err() == nil && !errors.Is(a.Err, context.Canceled) {
			m.log.Warn("opponent: no hint", "err", a.Err)
			m.update(func(s *State) { s.Fault = a.Err.Error() })
		}
		return
	}
	m.recovered(a, false)
	mv := a.Move
	applied := false
	err := m.o.Runner.Do(ctx, func(g *game.Game, now time.Duration) {
		if m.current(f, g.Snapshot()) {
			g.SetHint(now, &mv)
			applied = true
		}
	})
	if err != nil || !applied {
		return
	}
	m.log.Info("opponent: hint", "move", a.SAN, "eval", a.Eval.String())
	var he *Eval
	if a.Eval != nil {
		e := *a.Eval
		e.Ply = f.ply
		he = &e
	}
	m.hintKey = questionKey{pos: f.key.pos, moves: f.key.moves}
	m.update(func(s *State) { s.Hint, s.HintEval = a.SAN, he })
	if he != nil && m.State().Eval == nil {
		// The hint's search scored the position as it stands.
		m.showEval(f.key, f.ply, he)
	}
}

// keepTags keeps the PGN tags naming the players true: the opponent's side
// carries its name and level, the other side no longer carries it (after a
// change of sides), and the Annotator names it when evaluations are
// written.
func (m *Match) keepTags(ctx context.Context, side board.Color) {
	if !m.tagsRead {
		ch := make(chan map[string]string, 1)
		if err := m.o.Runner.Do(ctx, func(g *game.Game, _ time.Duration) { ch <- g.Record().Tags }); err != nil {
			return
		}
		tags := <-ch
		m.mu.Lock()
		m.tags = tags
		m.mu.Unlock()
		m.tagsRead = true
	}
	name, level := m.names()
	label := m.label()
	m.update(func(s *State) { s.Name, s.Level = name, level })
	tagOf := map[board.Color]string{board.White: "White", board.Black: "Black"}
	want := map[string]string{tagOf[side]: label}
	m.mu.Lock()
	if m.labels[m.tags[tagOf[side.Other()]]] {
		want[tagOf[side.Other()]] = "?"
		if name := m.o.Players[side.Other()]; name != "" {
			want[tagOf[side.Other()]] = name
		}
	}
	if m.o.Annotate != nil {
		want["Annotator"] = name
	}
	var set [][2]string
	for k, v := range want {
		if m.tags[k] != v {
			set = append(set, [2]string{k, v})
		}
	}
	m.labels[label] = true
	m.mu.Unlock()
	for _, kv := range set {
		var err error
		if m.o.SetTag != nil {
			err = m.o.SetTag(ctx, kv[0], kv[1])
		} else {
			err = m.o.Runner.Do(ctx, func(g *game.Game, _ time.Duration) { g.SetTag(kv[0], kv[1]) })
		}
		if err != nil {
			if ctx.Err() == nil {
				m.log.Warn("opponent: PGN tag not set", "tag", kv[0], "err", err)
			}
			continue
		}
		m.mu.Lock()
		m.tags[kv[0]] = kv[1]
		m.mu.Unlock()
	}
}

// evalComment is the PGN comment of an evaluation: the [%eval] command
// readers chart (White's score in pawns, or #N for a mate, and the depth),
// then which engine said so, in words: "[%eval 0.35,14] Stockfish 15.1:
// +0.35/14". A comment beginning with a command goes with its move when the
// move is taken back.
func evalComment(engine string, e *Eval) string {
	var score string
	if e.White.Mate != 0 {
		score = fmt.Sprintf("#%d", e.White.Mate)
	} else {
		score = fmt.Sprintf("%.2f", float64(e.White.Centipawns)/100)
	}
	return fmt.Sprintf("[%%eval %s,%d] %s: %s", score, e.Depth, engine, e.String())
}
