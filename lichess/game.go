package lichess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardd/boardd/board"
)

// GameOptions describe the game a Game follows and what boardd knows of it.
type GameOptions struct {
	// ID is lichess's game id.
	ID string
	// Side is the side the board plays (from GameStart, Playing, or the
	// journal).
	Side board.Color
	// InitialFEN is the position the game started from ("" for the usual
	// one, or to take lichess's when Local is empty).
	InitialFEN string
	// Local is the game's moves as the board has them (UCI), restored from
	// boardd's journal after a restart; empty for a new game.
	Local []string
	// Sent is the send log restored from the journal.
	Sent []Sent
	// Hooks receive what happens. They run one at a time, on Run's
	// goroutine, and must not block for long.
	Hooks Hooks
}

// Hooks are a Game's callbacks; any may be nil.
type Hooks struct {
	// Full gets each connection's gameFull: the game's fixed facts, before
	// its state is applied.
	Full func(*GameFull)
	// Board gets each plan that changes the board's game: take back
	// Plan.Retract moves, then show Plan.Show (the opponent's moves, or
	// moves made elsewhere), and guide the men back for Plan.Conflict.
	Board func(Plan)
	// State gets every state from lichess (clocks, offers, status),
	// after Board.
	State func(*GameState)
	// Move gets each change of what is known of a board move sent:
	// pending, accepted, seen, refused.
	Move func(Sent)
	// Persist must journal the send log durably before Persist returns;
	// a move is POSTed only after the log listing it is persisted. An
	// error stops the Game.
	Persist func([]Sent) error
	// Chat gets the chat lines.
	Chat func(*ChatLine)
	// OpponentGone gets lichess's notices that the opponent left or came
	// back.
	OpponentGone func(*OpponentGone)
	// Link gets each change of the game stream's connection.
	Link func(Link)
}

// Game follows one lichess game for the board: it keeps the game's stream
// connected, reconciles lichess's moves with the board's after every state
// and every move of the board's side, sends the board's moves, and tells the
// hooks what the board must show. Make it with Client.Game, run it with Run,
// and hand it the board's moves with Move.
type Game struct {
	c    *Client
	o    GameOptions
	id   string
	log  *slog.Logger
	side board.Color

	moveReqs    chan moveReq
	sendResults chan sendResult
	done        chan struct{}
	running     atomic.Bool

	// seq counts the POSTs that have ended; a connection notes it when it
	// opens, to tell which sends a state can reflect.
	seq      atomic.Uint64
	finished atomic.Bool

	connMu     sync.Mutex
	connCancel context.CancelCauseFunc

	snapMu sync.Mutex
	snap   GameSnapshot

	// Owned by Run's goroutine.
	first       board.Color
	initial     board.Position
	local       []string
	positions   []board.Position // positions[i] is the position before local[i]
	sent        []Sent
	server      []string   // lichess's moves in the last state, canonical
	state       *GameState // the last state
	stateSeq    uint64     // openSeq of the connection that sent it
	connOpenSeq uint64
	kicked      bool
	inflight    int // ply of the move being POSTed, -1 for none
	endedSeq    map[int]uint64
	streamUp    bool
}

type moveReq struct {
	uci   string
	reply chan error
}

type sendResult struct {
	ply     int
	uci     string
	outcome MoveOutcome
	err     error
}

// errResync closes a game stream on purpose, to read a fresh state.
var errResync = errors.New("reconnecting for a fresh state")

// Game returns a Game for the game o describes; call Run to play it.
func (c *Client) Game(o GameOptions) (*Game, error) {
	if o.ID == "" {
		return nil, errors.New("lichess: game: no id")
	}
	if o.Side != board.White && o.Side != board.Black {
		return nil, fmt.Errorf("lichess: game %s: side %d: want white or black", o.ID, o.Side)
	}
	g := &Game{
		c: c, o: o, id: o.ID, side: o.Side, log: c.log.With("game", o.ID),
		moveReqs: make(chan moveReq), sendResults: make(chan sendResult), done: make(chan struct{}),
		inflight: -1, endedSeq: map[int]uint64{},
	}
	fen := o.InitialFEN
	if fen == "" {
		fen = board.StartFEN
	}
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("lichess: game %s: initial position: %w", o.ID, err)
	}
	if err := g.restart(pos, o.Local); err != nil {
		return nil, err
	}
	for _, s := range o.Sent {
		if s.Status < SendPending || s.Status > SendSeen {
			return nil, fmt.Errorf("lichess: game %s: send log entry for ply %d (%s) has no valid status", o.ID, s.Ply, s.Move)
		}
	}
	g.sent = slices.Clone(o.Sent)
	return g, nil
}

// restart sets the initial position and replays the board's moves from it,
// checking each.
func (g *Game) restart(pos board.Position, local []string) error {
	g.initial, g.first = pos, pos.Turn
	g.local = g.local[:0]
	g.positions = append(g.positions[:0], pos)
	for i, m := range local {
		uci, err := g.legal(len(g.local), m)
		if err != nil {
			return fmt.Errorf("lichess: game %s: the board's move %d: %w", g.id, i+1, err)
		}
		g.push(uci)
	}
	return nil
}

// legal checks uci at ply (the board's game being that long) and returns
// it in canonical form.
func (g *Game) legal(ply int, uci string) (string, error) {
	pos := &g.positions[ply]
	uci = canonicalMove(pos, uci)
	m, err := board.ParseUCI(uci)
	if err != nil {
		return "", fmt.Errorf("%q: %w: %v", clip(uci), ErrIllegalMove, err)
	}
	a, err := board.Analyse(*pos)
	if err != nil {
		return "", fmt.Errorf("%s: %w", uci, err)
	}
	if !a.IsLegal(m) {
		return "", fmt.Errorf("%s: %w in %s", uci, ErrIllegalMove, pos.FEN())
	}
	return uci, nil
}

// push appends a checked move to the board's game.
func (g *Game) push(uci string) {
	m, _ := board.ParseUCI(uci)
	g.positions = append(g.positions, g.positions[len(g.local)].Apply(m))
	g.local = append(g.local, uci)
}

// canonicalMove rewrites a king taking its own rook (castling in the
// king-to-rook notation lichess uses for Chess960) as the king's two-square
// step that boardd and standard UCI use.
func canonicalMove(pos *board.Position, uci string) string {
	if len(uci) != 4 {
		return uci
	}
	m, err := board.ParseUCI(uci)
	if err != nil {
		return uci
	}
	man := pos.Men[m.From]
	if man.Kind() != board.King || pos.Men[m.To] != board.NewMan(man.Color(), board.Rook) || m.From.Rank() != m.To.Rank() {
		return uci
	}
	file := 6
	if m.To.File() < m.From.File() {
		file = 2
	}
	return board.Move{From: m.From, To: board.NewSquare(file, m.From.Rank())}.UCI()
}

// canonicalMoves returns lichess's moves with castling in canonical form.
func canonicalMoves(initial board.Position, moves []string) []string {
	out := make([]string, len(moves))
	pos := initial
	for i, uci := range moves {
		uci = canonicalMove(&pos, uci)
		out[i] = uci
		if m, err := board.ParseUCI(uci); err == nil {
			pos = pos.Apply(m)
		}
	}
	return out
}

// GameSnapshot is a Game's view at one moment.
type GameSnapshot struct {
	// Moves is the board's game as the Game has it (UCI).
	Moves []string
	// State is lichess's last state (nil before the first).
	State *GameState
	// Sent is the send log.
	Sent []Sent
	// Up says the game stream is connected.
	Up bool
}

// Snapshot returns the Game's view now; safe from any goroutine.
func (g *Game) Snapshot() GameSnapshot {
	g.snapMu.Lock()
	defer g.snapMu.Unlock()
	s := g.snap
	s.Moves, s.Sent = slices.Clone(s.Moves), slices.Clone(s.Sent)
	if s.State != nil {
		st := *s.State
		st.Moves = slices.Clone(st.Moves)
		s.State = &st
	}
	return s
}

// publish updates the snapshot (on Run's goroutine).
func (g *Game) publish() {
	g.snapMu.Lock()
	defer g.snapMu.Unlock()
	g.snap = GameSnapshot{Moves: slices.Clone(g.local), Sent: slices.Clone(g.sent), Up: g.streamUp}
	if g.state != nil {
		st := *g.state
		st.Moves = slices.Clone(st.Moves)
		g.snap.State = &st
	}
}

// ID returns lichess's id of the game.
func (g *Game) ID() string { return g.id }

// Move hands the Game a move the board's side made on the board (UCI;
// castling as the king's move, e1g1). It returns once the move is in the
// Game's record: ErrNotYourTurn, ErrIllegalMove or ErrGameOver if it cannot
// be. The move is sent at once if lichess is reachable, else as soon as it
// is; hooks report what becomes of it. Move may be called before Run has
// read a state (while offline), given GameOptions.Side.
func (g *Game) Move(ctx context.Context, uci string) error {
	req := moveReq{uci: uci, reply: make(chan error, 1)}
	select {
	case g.moveReqs <- req:
	case <-g.done:
		return fmt.Errorf("lichess: game %s: not running", g.id)
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-req.reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Draw offers or accepts a draw (accept), or declines one.
func (g *Game) Draw(ctx context.Context, accept bool) error { return g.c.Draw(ctx, g.id, accept) }

// Takeback proposes or accepts a takeback (accept), or declines one.
func (g *Game) Takeback(ctx context.Context, accept bool) error {
	return g.c.Takeback(ctx, g.id, accept)
}

// Resign resigns the game (lichess aborts it while it may still be).
func (g *Game) Resign(ctx context.Context) error { return g.c.Resign(ctx, g.id) }

// Abort aborts the game.
func (g *Game) Abort(ctx context.Context) error { return g.c.Abort(ctx, g.id) }

// ClaimVictory claims the game after the opponent has left it.
func (g *Game) ClaimVictory(ctx context.Context) error { return g.c.ClaimVictory(ctx, g.id) }

// ClaimDraw claims a draw after the opponent has left the game.
func (g *Game) ClaimDraw(ctx context.Context) error { return g.c.ClaimDraw(ctx, g.id) }

// gameMsg is what the stream goroutine tells Run.
type gameMsg struct {
	opened  bool
	openSeq uint64
	event   GameEvent
	closed  bool
	err     error
	link    *Link
	fatal   error
}

// Run follows the game until it ends (nil, once lichess has sent the final
// state and closed the stream), ctx ends, or an error retrying cannot mend
// (the token rejected, the game not found or not standard chess, lichess's
// moves not legal, a Persist failure). Run may be called once.
func (g *Game) Run(ctx context.Context) error {
	if !g.running.CompareAndSwap(false, true) {
		return fmt.Errorf("lichess: game %s: Run called twice", g.id)
	}
	defer close(g.done)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	msgs := make(chan gameMsg)
	wg.Add(1)
	go func() { defer wg.Done(); g.follow(ctx, msgs) }()
	g.publish()
	defer g.publish()
	for {
		g.publish()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case req := <-g.moveReqs:
			err := g.handleMove(req.uci)
			req.reply <- err
			if err == nil {
				if err := g.reconcile(ctx, &wg); err != nil {
					return err
				}
			}
		case r := <-g.sendResults:
			if err := g.handleSent(ctx, &wg, r); err != nil {
				return err
			}
		case m := <-msgs:
			done, err := g.handleStream(ctx, &wg, m)
			if err != nil || done {
				return err
			}
		}
	}
}

func (g *Game) handleMove(uci string) error {
	if g.finished.Load() {
		return fmt.Errorf("lichess: game %s: move %s: %w", g.id, clip(uci), ErrGameOver)
	}
	ply := len(g.local)
	if g.turn(ply) != g.side {
		return fmt.Errorf("lichess: game %s: move %s at ply %d: %w", g.id, clip(uci), ply, ErrNotYourTurn)
	}
	canon, err := g.legal(ply, uci)
	if err != nil {
		return fmt.Errorf("lichess: game %s: move at ply %d: %w", g.id, ply, err)
	}
	g.push(canon)
	g.log.Info("lichess: the board's move", "ply", ply, "move", canon)
	return nil
}

// turn returns the side to move at ply.
func (g *Game) turn(ply int) board.Color {
	if ply%2 == 0 {
		return g.first
	}
	return g.first.Other()
}

// fresh reports whether the last state can reflect every POST of the
// pending and accepted entries.
func (g *Game) fresh() bool {
	if g.inflight >= 0 {
		return false
	}
	for _, s := range g.sent {
		if (s.Status == SendPending || s.Status == SendAccepted) && g.endedSeq[s.Ply] > g.stateSeq {
			return false
		}
	}
	return true
}

// reconcile brings the board's game and lichess's together and acts on the
// plan: the board hook, the journal, the send.
func (g *Game) reconcile(ctx context.Context, wg *sync.WaitGroup) error {
	if g.state == nil {
		return nil // nothing heard from lichess yet: moves wait for the first state
	}
	plan := Reconcile(ReconcileInput{
		Server: g.server, ServerFinished: g.state.Status.Finished(), Fresh: g.fresh(),
		Local: g.local, Sent: g.sent, Side: g.side, FirstToMove: g.first,
	})
	// Apply the board's side of the plan, checking lichess's moves.
	keep := len(g.local) - plan.Retract
	g.local, g.positions = g.local[:keep], g.positions[:keep+1]
	for _, m := range plan.Show {
		uci, err := g.legal(len(g.local), m)
		if err != nil {
			return fmt.Errorf("lichess: game %s: lichess's move %d: %w", g.id, len(g.local)+1, err)
		}
		g.push(uci)
	}
	if err := g.setSent(plan.Sent); err != nil {
		return err
	}
	if plan.Changes() {
		g.log.Info("lichess: the board follows lichess", "retract", plan.Retract, "show", plan.Show, "conflict", conflictText(plan.Conflict))
		if g.o.Hooks.Board != nil {
			g.publish()
			g.o.Hooks.Board(plan)
		}
	}
	switch {
	case plan.Send != "" && g.inflight < 0:
		g.inflight = plan.SendPly
		g.log.Info("lichess: sending the board's move", "ply", plan.SendPly, "move", plan.Send)
		wg.Add(1)
		go func(ply int, uci string) {
			defer wg.Done()
			outcome, err := g.c.PostMove(ctx, g.id, uci, false)
			select {
			case g.sendResults <- sendResult{ply: ply, uci: uci, outcome: outcome, err: err}:
			case <-ctx.Done():
			}
		}(plan.SendPly, plan.Send)
	case plan.Wait && g.inflight < 0 && !g.kicked && g.pendingAt(len(g.server)):
		// A send ended without an answer and this connection's states may
		// predate it: only a fresh state tells whether it landed. (An
		// accepted move needs no such thing: the stream brings its state.)
		g.log.Info("lichess: a sent move's fate is unknown; reconnecting for a fresh state")
		g.kick()
	}
	return nil
}

// pendingAt reports whether the send log has a pending entry at ply.
func (g *Game) pendingAt(ply int) bool {
	e, ok := findSent(g.sent, ply)
	return ok && e.Status == SendPending
}

func conflictText(c *Conflict) string {
	if c == nil {
		return ""
	}
	s := fmt.Sprintf("%s %s at ply %d", c.Kind, c.Move, c.Ply)
	if c.Reason != "" {
		s += ": " + c.Reason
	}
	return s
}

// setSent replaces the send log, persisting it and telling the Move hook
// of each entry whose status changed.
func (g *Game) setSent(log []Sent) error {
	if slices.Equal(log, g.sent) {
		return nil
	}
	if g.o.Hooks.Persist != nil {
		if err := g.o.Hooks.Persist(slices.Clone(log)); err != nil {
			return fmt.Errorf("lichess: game %s: persisting the send log: %w", g.id, err)
		}
	}
	old := g.sent
	g.sent = slices.Clone(log)
	g.publish() // a hook reading the snapshot sees what it is told of
	if g.o.Hooks.Move != nil {
		for _, s := range g.sent {
			if o, ok := findSent(old, s.Ply); !ok || o != s {
				g.o.Hooks.Move(s)
			}
		}
	}
	return nil
}

func (g *Game) handleSent(ctx context.Context, wg *sync.WaitGroup, r sendResult) error {
	g.inflight = -1
	g.endedSeq[r.ply] = g.seq.Add(1)
	log := slices.Clone(g.sent)
	i := slices.IndexFunc(log, func(s Sent) bool { return s.Ply == r.ply && s.Move == r.uci })
	switch {
	case r.outcome == MoveRefused && fatal(r.err):
		return fmt.Errorf("lichess: game %s: move %s: %w", g.id, r.uci, r.err)
	case i < 0:
		g.log.Info("lichess: an answer for a move no longer on the board", "ply", r.ply, "move", r.uci, "outcome", r.outcome, "err", r.err)
	case r.outcome == MoveAccepted:
		g.log.Info("lichess: move accepted", "ply", r.ply, "move", r.uci)
		if log[i].Status != SendSeen {
			log[i].Status = SendAccepted
		}
	case r.outcome == MoveRefused:
		var api *APIError
		reason := r.err.Error()
		if errors.As(r.err, &api) {
			reason = api.Message
		}
		g.log.Warn("lichess: move refused", "ply", r.ply, "move", r.uci, "reason", reason)
		if log[i].Status != SendSeen {
			log[i].Status, log[i].Reason = SendRefused, reason
		}
	default:
		if ctx.Err() != nil {
			return ctx.Err()
		}
		g.log.Warn("lichess: no answer to the move; reading a fresh state to learn whether it was played", "ply", r.ply, "move", r.uci, "err", r.err)
		g.kick()
	}
	if err := g.setSent(log); err != nil {
		return err
	}
	return g.reconcile(ctx, wg)
}

// kick closes the game stream's connection, so that a new one brings a
// fresh state.
func (g *Game) kick() {
	g.kicked = true
	g.connMu.Lock()
	defer g.connMu.Unlock()
	if g.connCancel != nil {
		g.connCancel(errResync)
	}
}

func (g *Game) handleStream(ctx context.Context, wg *sync.WaitGroup, m gameMsg) (bool, error) {
	switch {
	case m.fatal != nil:
		return true, m.fatal
	case m.link != nil:
		if g.o.Hooks.Link != nil {
			g.o.Hooks.Link(*m.link)
		}
	case m.opened:
		g.connOpenSeq, g.kicked, g.streamUp = m.openSeq, false, true
		g.log.Info("lichess: game stream connected")
		if g.o.Hooks.Link != nil {
			g.o.Hooks.Link(Link{Up: true})
		}
	case m.closed:
		g.streamUp = false
		if g.finished.Load() {
			g.log.Info("lichess: game over", "status", g.state.Status, "result", g.state.Result())
			return true, nil
		}
	case m.event != nil:
		return false, g.handleEvent(ctx, wg, m.event)
	}
	return false, nil
}

func (g *Game) handleEvent(ctx context.Context, wg *sync.WaitGroup, ev GameEvent) error {
	switch e := ev.(type) {
	case *GameFull:
		if err := g.adopt(e); err != nil {
			return err
		}
		if g.o.Hooks.Full != nil {
			g.o.Hooks.Full(e)
		}
		return g.handleState(ctx, wg, &e.State)
	case *GameState:
		return g.handleState(ctx, wg, e)
	case *ChatLine:
		if g.o.Hooks.Chat != nil {
			g.o.Hooks.Chat(e)
		}
	case *OpponentGone:
		g.log.Info("lichess: opponent gone", "gone", e.Gone, "claim_in", e.ClaimWinIn)
		if g.o.Hooks.OpponentGone != nil {
			g.o.Hooks.OpponentGone(e)
		}
	default:
		g.log.Debug("lichess: game stream line of unknown type", "type", ev.GameEventType())
	}
	return nil
}

// adopt checks a gameFull against what the Game was told: the game, the
// variant, the side and the initial position.
func (g *Game) adopt(f *GameFull) error {
	if f.ID != g.id {
		return fmt.Errorf("lichess: game %s: the stream describes game %s", g.id, f.ID)
	}
	switch f.Variant {
	case "", "standard", "fromPosition":
	default:
		return fmt.Errorf("lichess: game %s: variant %s: the board plays standard chess only", g.id, f.Variant)
	}
	pos, err := board.ParseFEN(f.InitialFEN)
	if err != nil {
		return fmt.Errorf("lichess: game %s: initial position: %w", g.id, err)
	}
	if !samePosition(pos, g.initial) {
		if len(g.local) > 0 || g.o.InitialFEN != "" {
			return fmt.Errorf("lichess: game %s starts from %s on lichess, the board's record from %s", g.id, f.InitialFEN, g.initial.FEN())
		}
		if err := g.restart(pos, nil); err != nil {
			return err
		}
	}
	return nil
}

func samePosition(a, b board.Position) bool {
	return a.Men == b.Men && a.Turn == b.Turn && a.Castling == b.Castling
}

func (g *Game) handleState(ctx context.Context, wg *sync.WaitGroup, s *GameState) error {
	g.server = canonicalMoves(g.initial, s.Moves)
	st := *s
	g.state, g.stateSeq = &st, g.connOpenSeq
	if s.Status.Finished() {
		g.finished.Store(true)
	}
	if err := g.reconcile(ctx, wg); err != nil {
		return err
	}
	if g.o.Hooks.State != nil {
		g.publish()
		g.o.Hooks.State(s)
	}
	return nil
}

// follow keeps the game's stream connected, passing what it reads to Run,
// until ctx ends, the game is over, or an error retrying cannot mend.
func (g *Game) follow(ctx context.Context, msgs chan<- gameMsg) {
	tell := func(m gameMsg) bool {
		select {
		case msgs <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	f := &follower{c: g.c, what: "game " + g.id + " stream", link: func(l Link) { tell(gameMsg{link: &l}) }}
	r := request{method: "GET", path: "/api/board/game/stream/" + url.PathEscape(g.id), auth: true}
	for ctx.Err() == nil {
		connCtx, cancel := context.WithCancelCause(ctx)
		g.connMu.Lock()
		g.connCancel = cancel
		g.connMu.Unlock()
		openSeq := g.seq.Load()
		delivered := false
		err := g.c.stream(connCtx, r, func() { tell(gameMsg{opened: true, openSeq: openSeq}) }, func(line []byte) error {
			delivered = true
			ev, err := DecodeGameEvent(line)
			if err != nil {
				return err
			}
			if !tell(gameMsg{event: ev}) {
				return ctx.Err()
			}
			return nil
		})
		resync := context.Cause(connCtx) == errResync
		cancel(nil)
		if ctx.Err() != nil || !tell(gameMsg{closed: true, err: err}) {
			return
		}
		if g.finished.Load() {
			return
		}
		if resync {
			continue
		}
		wait, ferr := f.next(attempt{err: err, delivered: delivered})
		if ferr != nil {
			tell(gameMsg{fatal: fmt.Errorf("lichess: game %s: %w", g.id, ferr)})
			return
		}
		if g.c.wait(ctx, wait) != nil {
			return
		}
	}
}
