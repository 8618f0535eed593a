package computer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
	"github.com/corentings/chess/v2"
	"github.com/corentings/chess/v2/uci"
)

// Options configure a Player. Only Path is required.
type Options struct {
	// Path is the engine's executable, such as /usr/games/stockfish (a bare
	// name is looked up in $PATH).
	Path string
	// Level is how strongly the computer plays; the zero Level is the
	// default level (see StrengthDefault).
	Level Level
	// Hint limits the search behind a hint, played at full strength; zero
	// means DefaultHintTime.
	Hint Limit
	// Evaluate limits the search behind an evaluation of a position
	// (Evaluate), played at full strength; zero means Hint's limit.
	Evaluate Limit
	// Book is an opening book to play from (nil: none); BookPlies stops
	// using it once that many plies have been played (0: while the book has
	// the position).
	Book      *Book
	BookPlies int
	// Rand draws the book's moves; nil seeds one from the time.
	Rand *rand.Rand
	// Draw decides draw offers; nil means DefaultDrawPolicy().
	Draw *DrawPolicy
	// EngineOptions are more option values sent at every start of the
	// engine, such as {"Threads": "2", "Hash": "64"}; the engine must have
	// them.
	EngineOptions map[string]string

	// HandshakeTimeout bounds each step of starting an engine and each
	// "isready" (default 10s).
	HandshakeTimeout time.Duration
	// Grace is how long past its expected end a search may run before
	// "stop" is sent (default 3s); StopGrace how long after "stop" the
	// engine has to give its move before it counts as hung (default 2s).
	Grace, StopGrace time.Duration
	// MaxThink is the longest a search runs when neither a move time nor
	// the clocks bound it, or the clocks allow more (default 2m): "stop" is
	// sent then and the engine's best move so far is played.
	MaxThink time.Duration
	// Restarts is how many attempts are made to start the engine again
	// after a fault (default 3); the waits between them double from
	// MinBackoff (default 250ms) to MaxBackoff (default 4s).
	Restarts               int
	MinBackoff, MaxBackoff time.Duration

	// Clock is the player's time (a timing.Real if nil); every timeout and
	// backoff runs on it.
	Clock timing.Clock
	// Wait blocks until Clock reads until or ctx ends (then it returns
	// ctx's error); nil means a real timer, for a real clock.
	Wait func(ctx context.Context, until time.Duration) error
	// Logger receives starts, faults and restarts; nil discards them.
	Logger *slog.Logger
}

// Player is a chess engine playing through the UCI protocol: it answers
// requests for moves and hints on a goroutine of its own, so that whoever
// asks (the board's pipeline) never waits for the engine. It starts the
// engine again when it crashes, hangs or answers garbage. A Player is safe
// for concurrent use; requests are answered one at a time, in order.
type Player struct {
	o   Options
	log *slog.Logger
	rng *rand.Rand // the worker's only

	ctx    context.Context // the player's life
	cancel context.CancelFunc
	done   chan struct{} // closed when the worker has finished
	wake   chan struct{}

	mu       sync.Mutex
	queue    []*job
	closed   bool
	name     string
	options  engineOptions
	level    Level
	strength strength

	// The worker's own.
	sess *session
	prev *game // the last game prepared, to check the next request faster
	// unreported are faults recovered from (or met) while answering a
	// request that was cancelled: the next reply lists them.
	unreported []error
}

// job is one request waiting for the worker.
type job struct {
	ctx  context.Context
	kind jobKind
	req  Request
	out  chan Result
}

// jobKind says what a request asks: the computer's move, a hint, or an
// evaluation.
type jobKind uint8

const (
	jobMove jobKind = iota
	jobHint
	jobEvaluate
)

// Start starts the engine at o.Path, takes it through the UCI handshake and
// sets its level. An engine that cannot be started or does not finish the
// handshake is an error (a *FaultError). ctx bounds the player's life: when
// it ends, the player closes as by Close.
func Start(ctx context.Context, o Options) (*Player, error) {
	if o.Path == "" {
		return nil, errors.New("computer: no engine path")
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.HandshakeTimeout, 10*time.Second)
	def(&o.Grace, 3*time.Second)
	def(&o.StopGrace, 2*time.Second)
	def(&o.MaxThink, 2*time.Minute)
	def(&o.MinBackoff, 250*time.Millisecond)
	def(&o.MaxBackoff, 4*time.Second)
	if o.Restarts <= 0 {
		o.Restarts = 3
	}
	if o.Hint.IsZero() {
		o.Hint = Limit{MoveTime: DefaultHintTime}
	}
	if o.Evaluate.IsZero() {
		o.Evaluate = o.Hint
	}
	if o.Draw == nil {
		d := DefaultDrawPolicy()
		o.Draw = &d
	}
	if o.Clock == nil {
		o.Clock = timing.NewReal()
	}
	if o.Wait == nil {
		o.Wait = timing.Until(o.Clock)
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	rng := o.Rand
	if rng == nil {
		seed := uint64(time.Now().UnixNano())
		rng = rand.New(rand.NewPCG(seed, seed>>32|1))
	}
	p := &Player{o: o, log: lg.With("engine", o.Path), rng: rng, done: make(chan struct{}), wake: make(chan struct{}, 1)}
	s, err := p.startSession()
	if err != nil {
		return nil, err
	}
	st, err := resolve(o.Level, s.options, DefaultMoveTime)
	if err != nil {
		p.quit(s)
		return nil, err
	}
	p.sess, p.name, p.options, p.level, p.strength = s, s.name, s.options, o.Level, st
	p.log = lg.With("engine", s.name)
	p.log.Info("engine started", "path", o.Path, "level", st.text)
	p.ctx, p.cancel = context.WithCancel(ctx)
	go p.work()
	return p, nil
}

// Think asks for the computer's move in the request's position (the side to
// move is the computer's). It returns at once; the channel delivers one
// Result. Cancelling ctx (a take-back, a new game) stops the engine's search
// ("stop") and delivers an error wrapping ctx's.
func (p *Player) Think(ctx context.Context, req Request) <-chan Result {
	return p.submit(ctx, req, jobMove)
}

// Hint asks for the engine's best move for the side to move (the human), at
// full strength within Options.Hint, never from the book. Like Think it
// returns at once.
func (p *Player) Hint(ctx context.Context, req Request) <-chan Result {
	return p.submit(ctx, req, jobHint)
}

// Evaluate asks for the engine's evaluation of the request's position
// (whoever is to move), searched at full strength within
// Options.Evaluate, never from the book: the reply's Info carries the
// score (Info.White from White's point of view) and the best line; its
// move is the engine's best, played by nobody. Like Think it returns at
// once, and cancelling ctx stops the search.
func (p *Player) Evaluate(ctx context.Context, req Request) <-chan Result {
	return p.submit(ctx, req, jobEvaluate)
}

func (p *Player) submit(ctx context.Context, req Request, kind jobKind) <-chan Result {
	out := make(chan Result, 1)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		out <- Result{Err: ErrClosed}
		return out
	}
	p.queue = append(p.queue, &job{ctx: ctx, kind: kind, req: req, out: out})
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return out
}

// SetLevel changes the level from the next request on. A level the engine
// cannot play (an Elo for an engine without UCI_Elo) is an error and changes
// nothing.
func (p *Player) SetLevel(l Level) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, err := resolve(l, p.options, DefaultMoveTime)
	if err != nil {
		return err
	}
	p.level, p.strength = l, st
	p.log.Info("level set", "level", st.text)
	return nil
}

// Name returns the engine's name as it gives it ("id name"), for the PGN
// tags.
func (p *Player) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

// Level describes the engine and its level for people: "Stockfish 16, Elo
// 1500", "Stockfish 16, Skill Level 5", "Stockfish 16, depth 8".
func (p *Player) Level() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name + ", " + p.strength.text
}

// Close stops the engine (a search under way is stopped and its request
// answered with ErrClosed, as are the requests waiting) and waits until it
// has gone.
func (p *Player) Close() error {
	p.cancel()
	<-p.done
	return nil
}

// work is the worker: it answers the requests one by one until the player
// closes, then quits the engine.
func (p *Player) work() {
	defer close(p.done)
	for {
		j := p.next()
		if j == nil {
			break
		}
		j.out <- p.answer(j)
	}
	p.mu.Lock()
	p.closed = true
	queue := p.queue
	p.queue = nil
	p.mu.Unlock()
	for _, j := range queue {
		j.out <- Result{Err: ErrClosed}
	}
	if p.sess != nil {
		p.quit(p.sess)
		p.sess = nil
	}
	p.log.Info("engine closed")
}

// next waits for the next request; nil when the player closes.
func (p *Player) next() *job {
	for {
		p.mu.Lock()
		if p.ctx.Err() != nil {
			p.closed = true
			p.mu.Unlock()
			return nil
		}
		if len(p.queue) > 0 {
			j := p.queue[0]
			p.queue = p.queue[1:]
			p.mu.Unlock()
			return j
		}
		p.mu.Unlock()
		select {
		case <-p.wake:
		case <-p.ctx.Done():
		}
	}
}

// answer answers one request: from the book, or from the engine, restarting
// the engine and asking once more after a fault.
func (p *Player) answer(j *job) Result {
	ctx, cancel := context.WithCancel(j.ctx)
	defer cancel()
	stop := context.AfterFunc(p.ctx, cancel)
	defer stop()
	faults := p.unreported
	p.unreported = nil
	cancelled := func() Result {
		p.unreported = faults // nobody heard of them: the next reply tells
		if p.ctx.Err() != nil {
			return Result{Err: ErrClosed}
		}
		return Result{Err: fmt.Errorf("computer: request cancelled: %w", context.Cause(j.ctx))}
	}
	if ctx.Err() != nil {
		return cancelled()
	}
	g, err := prepare(j.req, p.prev)
	if err != nil {
		p.unreported = faults // a bad request is no answer: the next one tells
		return Result{Err: err}
	}
	p.prev = g
	if err := g.over(); err != nil {
		p.unreported = faults
		return Result{Err: err}
	}
	p.mu.Lock()
	st, name := p.strength, p.name
	p.mu.Unlock()
	switch j.kind {
	case jobHint:
		st = strength{kind: StrengthFull, limit: p.o.Hint, text: p.o.Hint.String()}
	case jobEvaluate:
		st = strength{kind: StrengthFull, limit: p.o.Evaluate, text: p.o.Evaluate.String()}
	}
	level := name + ", " + st.text

	if j.kind == jobMove && !j.req.DrawOffered && p.o.Book != nil && (p.o.BookPlies == 0 || len(g.moves) < p.o.BookPlies) {
		if m, ok := p.o.Book.pick(g.final, p.rng); ok {
			return Result{Reply: Reply{Move: m, UCI: m.UCI(), SAN: g.final.SAN(m), FromBook: true, Engine: name, Level: level, Faults: faults}}
		}
	}

	req := j.req
	if j.kind != jobMove {
		req.DrawOffered = false
	}
	if j.kind == jobEvaluate {
		req.Clocks = nil // the evaluation's own limit, not the mover's clock
	}
	var first error // the fault of the first attempt
	for attempt := 0; attempt < 2; attempt++ {
		if p.sess == nil {
			if err := p.restart(ctx, &faults); err != nil {
				if ctx.Err() != nil {
					return cancelled()
				}
				return Result{Err: errors.Join(append(faults, err)...)}
			}
			p.mu.Lock()
			st2, name2 := p.strength, p.name
			p.mu.Unlock()
			if j.kind == jobMove {
				st = st2
			}
			name, level = name2, name2+", "+st.text
		}
		reply, err := p.search(ctx, p.sess, g, st, req)
		if err == nil {
			reply.Engine, reply.Level, reply.Faults = name, level, faults
			return Result{Reply: reply}
		}
		var fe *FaultError
		if errors.As(err, &fe) {
			p.log.Warn("engine fault", "err", err)
			p.sess.kill()
			p.sess = nil
			if ctx.Err() != nil {
				faults = append(faults, err)
				return cancelled()
			}
			if first == nil {
				first = err
				faults = append(faults, err)
				continue
			}
			return Result{Err: fmt.Errorf("%w; restarted, given the position again, it failed again: %w", first, err)}
		}
		if ctx.Err() != nil {
			return cancelled()
		}
		return Result{Err: err}
	}
	return Result{Err: first} // not reached: the second attempt returns
}

// restart starts the engine again after a fault: up to Options.Restarts
// attempts, waiting a backoff before each (doubling from MinBackoff to
// MaxBackoff). The faults of failed attempts are added to faults.
func (p *Player) restart(ctx context.Context, faults *[]error) error {
	backoff := p.o.MinBackoff
	var last error
	for attempt := 1; attempt <= p.o.Restarts; attempt++ {
		if err := p.o.Wait(ctx, p.o.Clock.Now()+backoff); err != nil {
			return err
		}
		s, err := p.startSession()
		if err == nil {
			p.mu.Lock()
			p.name, p.options = s.name, s.options
			st, rerr := resolve(p.level, s.options, DefaultMoveTime)
			if rerr == nil {
				p.strength = st
			}
			p.mu.Unlock()
			if rerr != nil {
				p.quit(s)
				return rerr
			}
			p.sess = s
			p.log.Info("engine restarted", "attempt", attempt)
			return nil
		}
		p.log.Warn("engine restart failed", "attempt", attempt, "err", err)
		last = err
		var fe *FaultError
		if !errors.As(err, &fe) {
			return err // not the engine's doing: a configuration error
		}
		if attempt < p.o.Restarts {
			*faults = append(*faults, err)
		}
		backoff = min(2*backoff, p.o.MaxBackoff)
	}
	return fmt.Errorf("computer: gave up after %d attempts to restart the engine: %w", p.o.Restarts, last)
}

// search gives the engine the game and the strength, and waits for its move.
// Every fault of the engine comes back as a *FaultError.
func (p *Player) search(ctx context.Context, s *session, g *game, st strength, req Request) (Reply, error) {
	// Prepare: a new game if this one does not continue the last, and the
	// options of the strength where they differ from those sent.
	var cmds []uci.Cmd
	if !g.continues(s.game) {
		cmds = append(cmds, uci.CmdUCINewGame)
	}
	for _, set := range st.settings(s.options) {
		key := strings.ToLower(set.name)
		if v, ok := s.applied[key]; ok && v == set.value {
			continue
		}
		cmds = append(cmds, uci.CmdSetOption{Name: set.name, Value: set.value})
		s.applied[key] = set.value
	}
	if len(cmds) > 0 {
		cmds = append(cmds, uci.CmdIsReady)
		c := s.launch(cmds...)
		// The options are set whole, whatever becomes of the request:
		// the engine would otherwise be left at a strength nobody knows.
		switch p.await(context.WithoutCancel(ctx), s, c, p.o.Clock.Now()+p.o.HandshakeTimeout) {
		case outExited:
			return Reply{}, s.exitFault("getting ready to search")
		case outTimeout:
			return Reply{}, s.fault(FaultHung, "getting ready to search", fmt.Sprintf(`no "readyok" within %v of "isready"`, p.o.HandshakeTimeout), nil)
		}
	}
	s.game = g

	turn := g.final.Position.Turn
	goc, expected := goFor(st.limit, req.Clocks, turn, p.o.MaxThink)
	gc := goCmd{CmdGo: goc, written: make(chan struct{})}
	started := p.o.Clock.Now()
	c := s.launch(positionCmd(g.command), gc)
	switch p.await(ctx, s, c, started+expected+p.o.Grace) {
	case outExited:
		return Reply{}, s.exitFault("searching")
	case outTimeout:
		p.log.Info("search overran; stopping it", "expected", expected)
		switch p.stop(s, gc, c) {
		case outExited:
			return Reply{}, s.exitFault("searching")
		case outTimeout:
			return Reply{}, s.fault(FaultHung, "searching", fmt.Sprintf(`no "bestmove" %v after "stop" (sent %v into a search expected to last %v)`, p.o.StopGrace, expected+p.o.Grace, expected), nil)
		}
	case outCancelled:
		switch p.stop(s, gc, c) {
		case outExited:
			return Reply{}, s.exitFault("stopping a cancelled search")
		case outTimeout:
			return Reply{}, s.fault(FaultHung, "stopping a cancelled search", fmt.Sprintf(`no "bestmove" %v after "stop"`, p.o.StopGrace), nil)
		}
		return Reply{}, ctx.Err()
	}
	if c.err != nil {
		return Reply{}, s.fault(FaultGarbage, "searching", fmt.Sprintf("%q: %v", s.tap.lastBestmove(), c.err), c.err)
	}
	return p.reply(s, g, req)
}

// stop sends "stop" once the library has written the "go" (so that the stop
// cannot overtake it) and waits up to StopGrace for the search's end.
func (p *Player) stop(s *session, gc goCmd, c *pending) outcome {
	timer, release := p.deadline(p.o.Clock.Now() + p.o.StopGrace)
	defer release()
	select {
	case <-gc.written:
	case <-c.done:
		return outDone
	case <-s.exited:
		return outExited
	case <-timer:
		return outTimeout
	}
	// The library sends "stop" without taking its lock, for this purpose:
	// the search's Run holds it. Run on its own goroutine all the same, for
	// a write to an engine that has just died can block forever.
	go func() { _ = s.eng.Run(uci.CmdStop) }()
	return settle(context.Background(), s, c, timer)
}

// reply reads the finished search: the move, checked against the position,
// and the info lines behind it.
func (p *Player) reply(s *session, g *game, req Request) (Reply, error) {
	res := s.eng.SearchResults()
	if res.BestMove == nil {
		return Reply{}, s.fault(FaultGarbage, "searching", fmt.Sprintf("%q holds no move", s.tap.lastBestmove()), nil)
	}
	text := uciOf(res.BestMove)
	m, err := board.ParseUCI(text)
	if err != nil || !g.final.IsLegal(m) {
		return Reply{}, s.fault(FaultGarbage, "searching", fmt.Sprintf("%q: %s is not a legal move in %s", s.tap.lastBestmove(), text, g.final.Position.FEN()), err)
	}
	r := Reply{Move: m, UCI: m.UCI(), SAN: g.final.SAN(m)}
	r.Info = searchInfo(s.tap.scoredLines(), g.final, m)
	if req.DrawOffered {
		r.AcceptsDraw = r.Info.Scored && p.o.Draw.Accepts(r.Info.Score, g.final.Position.FullMove)
	}
	return r, nil
}

// searchInfo reads the search's last scored info lines (one per multipv
// index): the line whose principal variation starts with the move played,
// else the first line's score with the move alone.
func searchInfo(lines map[int]string, a *board.Analysis, played board.Move) SearchInfo {
	idx := make([]int, 0, len(lines))
	for i := range lines {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var chosen, first *uci.Info
	for _, i := range idx {
		info := &uci.Info{}
		if err := info.UnmarshalText([]byte(lines[i])); err != nil {
			continue
		}
		if first == nil {
			first = info
		}
		if len(info.PV) > 0 && uciOf(info.PV[0]) == played.UCI() {
			chosen = info
			break
		}
	}
	var out SearchInfo
	pv := []board.Move{played}
	if chosen == nil {
		chosen = first
	} else {
		pv = pv[:0]
		for _, lm := range chosen.PV {
			m, err := board.ParseUCI(uciOf(lm))
			if err != nil {
				break
			}
			pv = append(pv, m)
		}
	}
	if chosen != nil {
		out.Scored = true
		out.Score = Score{Centipawns: chosen.Score.CP, Mate: chosen.Score.Mate, Lower: chosen.Score.LowerBound, Upper: chosen.Score.UpperBound}
		out.Depth, out.SelDepth, out.Nodes, out.Time = chosen.Depth, chosen.Seldepth, chosen.Nodes, chosen.Time
		out.White = out.Score
		if a.Position.Turn == board.Black {
			out.White = out.Score.Negate()
		}
	}
	// The PV in SAN, as far as it is legal.
	cur := a
	for _, m := range pv {
		if !cur.IsLegal(m) {
			break
		}
		next, err := board.Analyse(cur.Position.Apply(m))
		if err != nil {
			break
		}
		out.PV = append(out.PV, m.UCI())
		out.PVSAN = append(out.PVSAN, cur.SANAfter(m, next))
		cur = next
	}
	return out
}

// uciOf writes a move of the rules library in UCI.
func uciOf(m *chess.Move) string {
	var n chess.UCINotation
	return n.Encode(nil, m)
}
