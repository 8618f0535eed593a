// Package online plays one side of a board's game from lichess: the
// opponent sits at lichess (a browser, the app, another board) and the
// player at the board. A Session follows one lichess game (lichess.Game:
// its stream, reconnections, the send log, the reconciliation of lichess's
// moves with the board's) and keeps the board's game (game.Runner) in step
// with it, reading the board's game once a change: the player's moves go
// to lichess from one place (the session's board loop); its Player, driven
// by an opponent.Match as an engine is, answers with the opponent's; moves
// lichess took back or refused are taken back on the board, the men guided
// back by the LEDs; lichess's result ends the board's game; lichess's
// clocks, offers and link are kept for the console; the player's commands
// (draw, takeback, resign, abort, claim victory) go to lichess.
// docs/architecture.md draws a move's path.
//
// Lichess is the authority: the board's game follows lichess's, never the
// other way round, and a move is sent once (the send log is saved before
// each POST and read again after a restart).
package online

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// Options configure a Session. Client, Runner, GameID and Side are
// required.
type Options struct {
	Client *lichess.Client
	// Runner is the board's game, through its door.
	Runner *game.Runner
	// GameID is lichess's id of the game; Side the side the board plays.
	GameID string
	Side   board.Color
	// SiteURL is lichess's address for the game's URL (the PGN's Site):
	// lichess.DefaultBaseURL if empty.
	SiteURL string
	// Local is the game's moves as the board has them (UCI), when the
	// board's journal holds this game; Sent the send log saved with it.
	Local []string
	Sent  []lichess.Sent
	// SendLog is the file the send log is saved in before each POST
	// (SendLogPath); "" keeps it in memory only (tests).
	SendLog string
	// SetTag sets a PGN tag of the board's game, journalled; nil sets it
	// on the game alone.
	SetTag func(ctx context.Context, name, value string) error
	// Logger receives the session's doings; nil discards them.
	Logger *slog.Logger
	// Clock tells when lichess's states come, so that the side to move's
	// clock counts down from there (Clocks.Since, State.ClocksAt); a
	// timing.Real if nil. The daemon gives the board's clock.
	Clock timing.Clock
}

// Clocks are lichess's clocks as its last state gave them.
type Clocks struct {
	White, Black time.Duration
	// At is when the state came (the side to move's clock runs from there);
	// Running says a clock runs (the game has started and is not over).
	At      time.Time
	Running bool
	// Since is Options.Clock's reading when the state came.
	Since time.Duration
}

// ClocksAt returns both sides' remaining times at now (a reading of
// Options.Clock): lichess's last figures, the side to move's counted down
// from the moment they came while its clock runs, never below zero. ok is
// false for a game without a clock (or before lichess has given one).
func (st State) ClocksAt(now time.Duration) (white, black time.Duration, ok bool) {
	c := st.Clocks
	if c == nil {
		return 0, 0, false
	}
	white, black = c.White, c.Black
	if c.Running && st.Result == "" {
		spent := max(now-c.Since, 0)
		if st.Turn == board.White {
			white = max(white-spent, 0)
		} else {
			black = max(black-spent, 0)
		}
	}
	return white, black, true
}

// State is the online game as the console shows it. It is a value.
type State struct {
	// GameID and URL name the game on lichess; Side is the board's side.
	GameID, URL string
	Side        board.Color
	// Opponent is the opponent's name, Title its title, Rating its rating
	// (0 when unknown).
	Opponent, Title string
	Rating          int
	// Rated and Speed describe the game ("rapid", "classical", ...).
	Rated bool
	Speed string
	// Clocks are lichess's (nil for a game without a clock).
	Clocks *Clocks
	// Turn is the side to move on lichess.
	Turn board.Color
	// Status is lichess's status name; Result the result once over ("" while
	// it runs).
	Status, Result string
	// Up says the game's stream is connected; Link says why not.
	Up   bool
	Link string
	// DrawOffered and TakebackProposed say the opponent offers a draw or
	// asks to take back.
	DrawOffered, TakebackProposed bool
	// OpponentGone says the opponent has left the game; ClaimIn is how long
	// until victory may be claimed.
	OpponentGone bool
	ClaimIn      time.Duration
	// Notice is the last thing the player must know: a move lichess refused
	// (and why), a command lichess refused.
	Notice string
	// Fault is what stopped the session ("" while it plays).
	Fault string
}

// Commands the player (or the arbiter) gives a session, as the console's
// API and the buttons name them.
const (
	CommandDraw         = "draw"          // offer a draw, or accept the opponent's offer
	CommandTakeBack     = "takeback"      // ask to take back, or accept the opponent's request
	CommandDecline      = "decline"       // decline the opponent's draw offer and takeback request
	CommandResign       = "resign"        // resign (lichess aborts a game that may still be aborted)
	CommandAbort        = "abort"         // abort the game (before both sides have moved)
	CommandClaimVictory = "claim-victory" // claim the game when the opponent has left
)

// Commands lists the commands Do takes.
func Commands() []string {
	return []string{CommandDraw, CommandTakeBack, CommandDecline, CommandResign, CommandAbort, CommandClaimVictory}
}

// ErrRefused wraps a command that cannot be given now (the player's doing,
// not a fault).
var ErrRefused = errors.New("online: refused")

// TokenError is a game stopped because lichess no longer takes the token
// (revoked, expired, or its board:play scope withdrawn): Err is lichess's
// answer, Advice what to do (lichess.TokenAdvice). errors.Is finds
// lichess.ErrTokenRejected or lichess.ErrMissingScope through it.
type TokenError struct {
	Err    error
	Advice string
}

func (e *TokenError) Error() string {
	what := lichess.ErrTokenRejected.Error()
	if errors.Is(e.Err, lichess.ErrMissingScope) {
		what = lichess.ErrMissingScope.Error()
	}
	return fmt.Sprintf("%s mid-game: %s (%v)", what, e.Advice, e.Err)
}

// Unwrap returns lichess's answer.
func (e *TokenError) Unwrap() error { return e.Err }

// Session plays one lichess game on the board. Build it with New, run it
// with Run; give its Player to an opponent.Match.
type Session struct {
	o     Options
	log   *slog.Logger
	game  *lichess.Game
	url   string
	clock func() time.Time

	wake chan struct{} // the board loop's

	mu        sync.Mutex
	st        State
	full      *lichess.GameFull
	changed   chan struct{} // closed and replaced at each change
	watchers  map[int]func()
	nextWatch int
	retractTo []string // lichess's game after a plan that took moves back
	final     *lichess.GameState
	// handed is the board's move (ply:uci) handed to lichess whose answer
	// has not come; refusedMove, one lichess refused, until the board no
	// longer has it. Neither is handed again meanwhile: a second hand-over
	// of a move still in flight, or refused and about to be taken back,
	// would play it on lichess while the board takes it back.
	handed, refusedMove string
}

// New builds a session for the game o names.
func New(o Options) (*Session, error) {
	if o.Client == nil || o.Runner == nil {
		return nil, errors.New("online: a session needs a lichess client and a runner")
	}
	s := &Session{o: o, wake: make(chan struct{}, 1), changed: make(chan struct{}), watchers: map[int]func(){}, clock: time.Now}
	s.log = o.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = s.log.With("lichess_game", o.GameID)
	site := o.SiteURL
	if site == "" {
		site = lichess.DefaultBaseURL
	}
	s.url = strings.TrimRight(site, "/") + "/" + o.GameID
	g, err := o.Client.Game(lichess.GameOptions{
		ID: o.GameID, Side: o.Side, Local: o.Local, Sent: o.Sent,
		Hooks: lichess.Hooks{
			Full: s.onFull, Board: s.onBoard, State: s.onState, Move: s.onMove,
			Persist: s.persist, OpponentGone: s.onGone, Link: s.onLink,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("online: %w", err)
	}
	s.game = g
	if o.Clock == nil {
		s.o.Clock = timing.NewReal()
	}
	o.Runner.OnChange(func(*game.Snapshot) { s.poke() })
	s.st = State{GameID: o.GameID, URL: s.url, Side: o.Side, Turn: board.White}
	return s, nil
}

// URL is the game's address on lichess (the PGN's Site).
func (s *Session) URL() string { return s.url }

// Player is the opponent at lichess, for an opponent.Match playing the side
// the board does not.
func (s *Session) Player() *Player { return &Player{s: s} }

// State returns the online game as it stands.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	if st.Clocks != nil {
		c := *st.Clocks
		st.Clocks = &c
	}
	return st
}

// Watch registers fn, told (on any goroutine) whenever the state changes.
// fn must not block. The returned func stops it.
func (s *Session) Watch(fn func()) (stop func()) {
	s.mu.Lock()
	id := s.nextWatch
	s.nextWatch++
	s.watchers[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.watchers, id)
		s.mu.Unlock()
	}
}

// update changes the state and wakes whoever waits for a change.
func (s *Session) update(fn func(st *State)) {
	s.mu.Lock()
	if fn != nil {
		fn(&s.st)
	}
	close(s.changed)
	s.changed = make(chan struct{})
	fns := make([]func(), 0, len(s.watchers))
	for _, w := range s.watchers {
		fns = append(fns, w)
	}
	s.mu.Unlock()
	for _, w := range fns {
		w()
	}
	s.poke()
}

// poke wakes the board loop.
func (s *Session) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// changes returns a channel closed at the next change.
func (s *Session) changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *Session) onFull(f *lichess.GameFull) {
	opp := f.Black
	if s.o.Side == board.Black {
		opp = f.White
	}
	s.mu.Lock()
	s.full = f
	s.mu.Unlock()
	s.update(func(st *State) {
		st.Opponent, st.Title, st.Rating = playerName(opp), opp.Title, opp.Rating
		st.Rated, st.Speed = f.Rated, f.Speed
	})
}

// playerName names a player of a game: lichess's AI by its level.
func playerName(p lichess.Player) string {
	switch {
	case p.Name != "":
		return p.Name
	case p.AILevel > 0:
		return fmt.Sprintf("lichess AI level %d", p.AILevel)
	}
	return "?"
}

func (s *Session) onBoard(p lichess.Plan) {
	notice := ""
	if c := p.Conflict; c != nil {
		switch c.Kind {
		case lichess.ConflictRefused:
			notice = fmt.Sprintf("lichess refused the move %s (%s): put the men back and move again", c.Move, c.Reason)
		case lichess.ConflictGameOver:
			notice = fmt.Sprintf("the move %s did not count: the game ended on lichess first", c.Move)
		default:
			notice = fmt.Sprintf("the move %s did not count: the game went another way on lichess", c.Move)
		}
		s.log.Warn("online: a move of the board's does not count", "move", c.Move, "kind", c.Kind.String(), "reason", c.Reason)
	}
	s.mu.Lock()
	if p.Retract > 0 {
		s.retractTo = append([]string(nil), p.Local...)
	}
	s.mu.Unlock()
	s.update(func(st *State) {
		if notice != "" {
			st.Notice = notice
		}
	})
}

func (s *Session) onState(gs *lichess.GameState) {
	turn := board.White
	s.mu.Lock()
	if s.full != nil {
		if pos, err := board.ParseFEN(s.full.InitialFEN); err == nil {
			turn = pos.Turn
		}
	}
	if len(gs.Moves)%2 == 1 {
		turn = turn.Other()
	}
	if gs.Status.Finished() {
		st := *gs
		s.final = &st
	}
	hasClock := s.full != nil && s.full.Clock != nil
	s.mu.Unlock()
	them := s.o.Side.Other()
	s.update(func(st *State) {
		st.Turn, st.Status = turn, string(gs.Status)
		if gs.Status.Finished() {
			st.Result = gs.Result()
		}
		st.DrawOffered, st.TakebackProposed = gs.OffersDraw(them), gs.ProposesTakeback(them)
		if hasClock {
			st.Clocks = &Clocks{White: gs.WhiteTime, Black: gs.BlackTime, At: s.clock(), Since: s.o.Clock.Now(), Running: gs.Status == lichess.StatusStarted && len(gs.Moves) >= 2}
		}
	})
}

func (s *Session) onMove(e lichess.Sent) {
	s.log.Info("online: the board's move", "ply", e.Ply, "move", e.Move, "status", e.Status.String())
	key := sentKey(e.Ply, e.Move)
	s.mu.Lock()
	if e.Status != lichess.SendPending && s.handed == key {
		s.handed = ""
	}
	if e.Status == lichess.SendRefused {
		s.refusedMove = key
	}
	s.mu.Unlock()
	s.update(nil)
}

// sentKey names the board's move uci at ply for the hand-over's records.
func sentKey(ply int, uci string) string { return fmt.Sprintf("%d:%s", ply, uci) }

func (s *Session) onGone(g *lichess.OpponentGone) {
	s.update(func(st *State) { st.OpponentGone, st.ClaimIn = g.Gone, g.ClaimWinIn })
}

func (s *Session) onLink(l lichess.Link) {
	s.update(func(st *State) {
		st.Up = l.Up
		st.Link = ""
		if !l.Up && l.Err != nil {
			st.Link = l.Err.Error()
		}
	})
}

func (s *Session) persist(log []lichess.Sent) error {
	if s.o.SendLog == "" {
		return nil
	}
	return SaveSendLog(s.o.SendLog, log)
}

// Run plays the game until it is over on lichess and the board has its
// result (nil), ctx ends, or lichess's game cannot go on (the token
// revoked, a move list that is not chess).
func (s *Session) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		s.boardLoop(ctx)
	}()
	err := s.game.Run(ctx)
	if advice := lichess.TokenAdvice(err); advice != "" && ctx.Err() == nil {
		// The token revoked (or its scope withdrawn) mid-game: say what to
		// do, as the check at start does.
		err = &TokenError{Err: err, Advice: advice}
	}
	if err != nil && ctx.Err() == nil {
		s.log.Error("online: the game cannot go on", "err", err)
		s.update(func(st *State) { st.Fault, st.Up = err.Error(), false })
	}
	if err == nil {
		// The game is over: let the board loop give the board the result.
		s.update(func(st *State) { st.Up = false })
		s.settle(ctx)
	}
	cancel()
	<-loopDone
	return err
}

// settle gives the board lichess's result, if the board loop has not.
func (s *Session) settle(ctx context.Context) {
	v, err := s.read(ctx)
	if err != nil {
		return
	}
	if s.syncBoard(ctx, v) {
		if v, err = s.read(ctx); err != nil {
			return
		}
	}
	s.giveResult(ctx, v)
}

// view is the two games as one turn of the board loop sees them: the
// board's, read once from its runner, and lichess's, as the Game has it.
type view struct {
	// moves is the board's game as lichess would list it (UCI, from the
	// game's start); snap the board's game.
	moves []string
	snap  *game.Snapshot
	// theirs is lichess's game as the Game has it (UCI).
	theirs []string
}

// boardLoop keeps the board's game in step with lichess's after each
// change, reading the board's game once a change: moves lichess no longer
// has are taken back, the board's move is sent (send, the one place that
// hands lichess a move), lichess's result ends the board's game, a move
// made on lichess for the board's side is shown on the board, the PGN's
// tags say where it is played.
func (s *Session) boardLoop(ctx context.Context) {
	tagged := false
	var refused string // the board's move lichess's Game would not take, not handed again
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		if !tagged {
			tagged = s.setTags(ctx)
		}
		v, err := s.read(ctx)
		if err != nil {
			continue
		}
		s.forgetRefused(v)
		if s.syncBoard(ctx, v) {
			// The board's game changed under v: the next turn reads it
			// again.
			s.poke()
			continue
		}
		refused = s.send(ctx, v, refused)
		s.giveResult(ctx, v)
		s.followElsewhere(ctx, v)
	}
}

// followElsewhere keeps the board in step with a move of the board's side
// that lichess has and the board has not made: the player moved on
// lichess itself (a browser, the app). The board takes back a move of its
// own side that lichess has another move for at that ply, and shows
// lichess's move on the LEDs (as a hint: the men to move) for the player
// to make, with a notice saying so; the move made, lichess and the board
// agree again and nothing is sent.
func (s *Session) followElsewhere(ctx context.Context, v view) {
	moves, snap, theirs := v.moves, v.snap, v.theirs
	if snap.Result != nil || snap.Mode != game.Play {
		return
	}
	common := 0
	for common < len(moves) && common < len(theirs) && moves[common] == theirs[common] {
		common++
	}
	start, err := s.startPosition()
	if err != nil {
		return
	}
	ours := func(ply int) bool { return (ply%2 == 0) == (start.Turn == s.o.Side) }
	switch {
	case common < len(moves) && common < len(theirs) && ours(common):
		// The board's move at this ply is not lichess's.
		plies := len(moves) - common
		s.setNotice(fmt.Sprintf("the move %s did not count: %s was played on lichess: put the men back and make it on the board", moves[common], theirs[common]))
		l := trace.Line{Kind: trace.TakeBack, Plies: plies, Side: s.o.Side.String()}
		if err := s.o.Runner.Submit(ctx, l); err != nil && ctx.Err() == nil {
			s.log.Warn("online: a move lichess has another for not taken back on the board", "move", moves[common], "lichess", theirs[common], "err", err)
			return
		}
		s.log.Info("online: the board takes back a move lichess has another for", "move", moves[common], "lichess", theirs[common])
	case common == len(moves) && len(theirs) > len(moves) && ours(len(moves)) && snap.Position.Turn == s.o.Side:
		m, err := board.ParseUCI(theirs[len(moves)])
		if err != nil {
			return
		}
		if snap.HasHint && snap.Hint == m {
			return
		}
		a, err := board.Analyse(snap.Position)
		if err != nil || !a.IsLegal(m) {
			return
		}
		san := a.SAN(m)
		set := false
		if err := s.o.Runner.Do(ctx, func(g *game.Game, now time.Duration) {
			if cur := g.Snapshot(); cur.Moves == snap.Moves && cur.Result == nil && cur.Position.Turn == s.o.Side {
				g.SetHint(now, &m)
				set = true
			}
		}); err != nil || !set {
			return
		}
		s.log.Info("online: a move of the board's side made on lichess; shown for the board", "move", m.UCI(), "san", san)
		s.setNotice(fmt.Sprintf("%s was played on lichess (not on the board): make it on the board as the LEDs show", san))
	}
}

// setNotice sets the notice, telling watchers only if it changed.
func (s *Session) setNotice(text string) {
	if s.State().Notice == text {
		return
	}
	s.update(func(st *State) { st.Notice = text })
}

// startPosition is the position lichess's game began from.
func (s *Session) startPosition() (board.Position, error) {
	s.mu.Lock()
	f := s.full
	s.mu.Unlock()
	if f == nil || f.InitialFEN == "" || f.InitialFEN == "startpos" {
		return board.Start(), nil
	}
	return board.ParseFEN(f.InitialFEN)
}

// send hands lichess the board's move, from this one place: the move the
// board's side made when lichess has every move before it, once the board
// has settled it (no irregularity waiting for a choice, the opponent to
// move) or it ended the board's game (a mate, a stalemate). The Game sends
// it once (its send log sees to that, across drops and restarts). A move
// the Game will not take is said in a notice and not handed again; refused
// names it (as ply:uci) and send returns what to remember.
func (s *Session) send(ctx context.Context, v view, refused string) string {
	uci, ok := toSend(v, s.o.Side)
	if !ok {
		return refused
	}
	n, snap := len(v.theirs), v.snap
	key := sentKey(n, uci)
	if key == refused {
		return refused
	}
	s.mu.Lock()
	busy := key == s.handed || key == s.refusedMove
	if !busy {
		s.handed = key
	}
	s.mu.Unlock()
	if busy {
		return refused
	}
	err := s.game.Move(ctx, uci)
	if err != nil {
		s.mu.Lock()
		if s.handed == key {
			s.handed = ""
		}
		s.mu.Unlock()
	}
	switch {
	case err == nil:
		return ""
	case ctx.Err() != nil, errors.Is(err, lichess.ErrGameOver):
		// The result comes from lichess's state.
		return refused
	case errors.Is(err, lichess.ErrNotYourTurn) && snap.Result != nil:
		return refused
	}
	s.log.Warn("online: the board's move not taken for lichess", "move", uci, "err", err)
	s.update(func(st *State) { st.Notice = fmt.Sprintf("the move %s cannot be sent: %v", uci, err) })
	return key
}

// toSend returns the board's move (UCI) that lichess is to be handed in v:
// the board has one move more than lichess and agrees with it on the rest,
// and the board has settled that move (side, the board's, no longer to
// move; no irregularity waiting for a choice) or it ended the game.
func toSend(v view, side board.Color) (string, bool) {
	moves, snap, have := v.moves, v.snap, v.theirs
	n := len(have)
	if len(moves) != n+1 || !slices.Equal(moves[:n], have) {
		return "", false
	}
	settled := snap.Mode != game.AwaitNewGame && snap.Pending == nil && !snap.HasAwaiting && snap.Position.Turn != side
	if snap.Result == nil && !settled {
		return "", false
	}
	return moves[n], true
}

// read reads the board's game once, as lichess would list it (the moves
// from the game's start) with its snapshot, and lichess's game beside it.
func (s *Session) read(ctx context.Context) (view, error) {
	ch := make(chan view, 1)
	err := s.o.Runner.Do(ctx, func(g *game.Game, _ time.Duration) {
		_, moves := g.Line()
		out := make([]string, len(moves))
		for i, m := range moves {
			out[i] = m.UCI()
		}
		ch <- view{moves: out, snap: g.Snapshot()}
	})
	if err != nil {
		return view{}, fmt.Errorf("online: reading the board's game: %w", err)
	}
	select {
	case v := <-ch:
		v.theirs = s.game.Snapshot().Moves
		return v, nil
	default:
		// Do returns nil when ctx ended as the call came up, without it.
		return view{}, context.Canceled
	}
}

// forgetRefused forgets the move lichess refused once the board no longer
// has it at its ply (taken back): played again, it is handed over again.
func (s *Session) forgetRefused(v view) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refusedMove == "" {
		return
	}
	for ply, uci := range v.moves {
		if sentKey(ply, uci) == s.refusedMove {
			return
		}
	}
	s.refusedMove = ""
}

// syncBoard takes back on the board the moves lichess took back or
// refused, and reports whether it did (v is then out of date).
func (s *Session) syncBoard(ctx context.Context, v view) bool {
	s.mu.Lock()
	target := s.retractTo
	s.retractTo = nil
	s.mu.Unlock()
	if target == nil {
		return false
	}
	moves := v.moves
	common := 0
	for common < len(moves) && common < len(target) && moves[common] == target[common] {
		common++
	}
	plies := len(moves) - common
	if plies <= 0 {
		return false
	}
	l := trace.Line{Kind: trace.TakeBack, Plies: plies, Side: s.o.Side.String()}
	if err := s.o.Runner.Submit(ctx, l); err != nil {
		if ctx.Err() == nil {
			s.log.Warn("online: moves lichess does not have not taken back on the board", "plies", plies, "err", err)
		}
		return false
	}
	s.log.Info("online: the board takes back what lichess does not have", "plies", plies)
	return true
}

// giveResult ends the board's game as lichess ended it: a resignation, an
// agreed draw, a flag or a claim (the arbiter's declaration of lichess's
// result). A mate or stalemate the board sees for itself once the last move
// is on it; an aborted game has no result.
func (s *Session) giveResult(ctx context.Context, v view) {
	s.mu.Lock()
	final := s.final
	s.mu.Unlock()
	if final == nil {
		return
	}
	if snap := v.snap; snap.Result != nil || snap.Mode == game.AwaitNewGame {
		return
	}
	var l trace.Line
	switch final.Status {
	case lichess.StatusMate, lichess.StatusStalemate, lichess.StatusAborted, lichess.StatusNoStart, lichess.StatusCreated, lichess.StatusStarted:
		return
	case lichess.StatusResign:
		loser := board.White
		if final.Winner == "white" {
			loser = board.Black
		}
		l = trace.Line{Kind: trace.Arbiter, Action: game.ActionResign, Value: loser.String(), Side: trace.SideArbiter}
	case lichess.StatusDraw:
		l = trace.Line{Kind: trace.Arbiter, Action: game.ActionAgreeDraw, Side: trace.SideArbiter}
	default:
		result := final.Result()
		if result == "*" {
			return
		}
		l = trace.Line{Kind: trace.Arbiter, Action: trace.ActionResult, Value: result, Side: trace.SideArbiter}
	}
	if err := s.o.Runner.Submit(ctx, l); err != nil {
		if ctx.Err() == nil {
			s.log.Warn("online: lichess's result not given to the board", "status", final.Status, "err", err)
		}
		return
	}
	s.log.Info("online: the game is over on lichess", "status", final.Status, "result", final.Result())
}

// setTags names the game in its PGN: Site is the game's URL, the board's
// side carries the account's name, both sides their ratings. It reports
// whether they were set (lichess's gameFull has come).
func (s *Session) setTags(ctx context.Context) bool {
	s.mu.Lock()
	f := s.full
	s.mu.Unlock()
	if f == nil {
		return false
	}
	me, them := f.White, f.Black
	tag, otherTag := "White", "Black"
	if s.o.Side == board.Black {
		me, them = f.Black, f.White
		tag, otherTag = "Black", "White"
	}
	tags := [][2]string{{"Site", s.url}, {tag, playerName(me)}}
	if me.Rating > 0 {
		tags = append(tags, [2]string{tag + "Elo", fmt.Sprint(me.Rating)})
	}
	if them.Rating > 0 {
		tags = append(tags, [2]string{otherTag + "Elo", fmt.Sprint(them.Rating)})
	}
	event := "Casual"
	if f.Rated {
		event = "Rated"
	}
	if f.Speed != "" {
		event += " " + f.Speed
	}
	tags = append(tags, [2]string{"Event", event + " game"})
	for _, kv := range tags {
		var err error
		if s.o.SetTag != nil {
			err = s.o.SetTag(ctx, kv[0], kv[1])
		} else {
			err = s.o.Runner.Do(ctx, func(g *game.Game, _ time.Duration) { g.SetTag(kv[0], kv[1]) })
		}
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("online: PGN tag not set", "tag", kv[0], "err", err)
			}
			return false
		}
	}
	return true
}

// Do carries out a command by name (Commands); the value must be empty.
// What lichess refuses is reported as a Notice too.
func (s *Session) Do(ctx context.Context, command, value string) error {
	if value != "" {
		return fmt.Errorf("%w: %s takes no value", ErrRefused, command)
	}
	st := s.State()
	if st.Result != "" {
		return fmt.Errorf("%w: the game is over on lichess (%s)", ErrRefused, st.Status)
	}
	var err error
	switch command {
	case CommandDraw:
		err = s.game.Draw(ctx, true)
	case CommandTakeBack:
		err = s.game.Takeback(ctx, true)
	case CommandDecline:
		if st.DrawOffered {
			err = s.game.Draw(ctx, false)
		}
		if err == nil && st.TakebackProposed {
			err = s.game.Takeback(ctx, false)
		}
	case CommandResign:
		err = s.game.Resign(ctx)
	case CommandAbort:
		err = s.game.Abort(ctx)
	case CommandClaimVictory:
		if !st.OpponentGone {
			return fmt.Errorf("%w: the opponent has not left the game", ErrRefused)
		}
		err = s.game.ClaimVictory(ctx)
	default:
		return fmt.Errorf("%w: unknown command %q: want %s", ErrRefused, command, strings.Join(Commands(), ", "))
	}
	if err != nil {
		var api *lichess.APIError
		if errors.As(err, &api) && api.Status == 400 {
			s.update(func(st *State) { st.Notice = fmt.Sprintf("lichess refused %s: %s", command, api.Message) })
			return fmt.Errorf("%w: lichess: %s", ErrRefused, api.Message)
		}
		return fmt.Errorf("online: %s: %w", command, err)
	}
	s.log.Info("online: command sent", "command", command)
	return nil
}
