// Package pair plays one game on two boards (FIDE's Laws, Appendix D: a
// sighted player's board and a visually disabled player's): each board plays
// its own player's side with his hands and the other side from off the
// board, as an opponent.Player whose moves are the other board's. Each
// board sends its game (the moves so far) over a Link whenever its player
// has moved, and takes the other's move from the game the other board
// sends; the board's own game then shows the move for its player to carry
// out (and its voice announces it), and judges the execution as it judges
// an engine's move.
//
// The two games must agree move for move: a game from the other board that
// does not extend this board's by exactly one move of the other side (the
// boards differ, D.2.7, or disagree about whose move it is) is refused with
// a *DifferenceError naming both, the match asks again, and play goes on
// once the boards agree. Meanwhile the Player holds this board's clocks
// (fide2023:D.2.7: the other board finds the same difference and holds its
// own), and its State names the difference for the arbiter; a link that is
// a Reacher says when the other board (or the broker) went away and came
// back. A resignation, a draw agreed or a result the arbiter declared on
// one board goes with its game and ends the other's too.
//
// The package knows games, not transports: a Link carries them (Pipe joins
// two boards in one process; a broker's topics or a direct connection are
// others).
package pair

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Game is a board's game as it sends it: the position play began from and
// the moves since, in UCI.
type Game struct {
	Start string   // FEN
	Moves []string // UCI
	// Side is the side played at the board that sent the game ("white",
	// "black"; "" when unsaid): two boards playing the same side disagree
	// about whose move it is.
	Side string
	// End is how the game ended on the board that sent it, where it ends
	// the game on the other board too: EndWhiteResigns, EndBlackResigns,
	// EndDrawAgreed, or a result the arbiter declared (EndDeclared and the
	// result: "declared:1/2-1/2"); "" while it goes on (or ended on the
	// board itself, as a mate does on both).
	End string
	// Offer is what the player at the board that sent the game offers
	// with his last move in Moves: OfferDraw, or "" for nothing. It
	// stands until the other board's player accepts it or makes his next
	// move (fide2023:9.1.2.1).
	Offer string
}

// What a game sent may offer the other board (Game.Offer): a draw
// offered with the last move; a take-back asked, taking the game back to
// its first N moves ("takeback:N"), or agreed ("takeback-agreed:N").
const (
	OfferDraw           = "draw"
	OfferTakeBack       = "takeback:"
	OfferTakeBackAgreed = "takeback-agreed:"
)

// offerTo reads a take-back offer of the kind prefix names: the number of
// moves the game goes back to.
func offerTo(offer, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(offer, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

// What became of a take-back this board's player asked for (State.TakeBack).
const (
	TakeBackAsked   = "asked"   // it waits for the other board's player
	TakeBackRefused = "refused" // he played on instead
)

// How a game ended on one board that ends it on the other (Game.End).
const (
	EndWhiteResigns = "white-resigns"
	EndBlackResigns = "black-resigns"
	EndDrawAgreed   = "draw-agreed"
	EndDeclared     = "declared:"
)

// Link carries games between two boards. Send must not block for long;
// Receive delivers the other board's games in the order sent.
type Link interface {
	Send(ctx context.Context, g Game) error
	Receive() <-chan Game
}

// DifferenceError is the other board's game not agreeing with this one's:
// the boards differ (Appendix D.2.7), or disagree about whose move it is.
type DifferenceError struct {
	Ours, Theirs Game
	Why          string
}

// Error says how the boards differ.
func (e *DifferenceError) Error() string {
	return fmt.Sprintf(differPrefix+"%s): this board has %d moves [%s], the other %d [%s]",
		e.Why, len(e.Ours.Moves), strings.Join(e.Ours.Moves, " "), len(e.Theirs.Moves), strings.Join(e.Theirs.Moves, " "))
}

// differPrefix begins every DifferenceError's message.
const differPrefix = "pair: the boards differ ("

// Differs reads a fault as the match shows it (opponent.State.Fault): the
// boards' difference in words ("move 1 is e2e4 here, d2d4 there"), and
// whether the fault is one.
func Differs(fault string) (string, bool) {
	rest, ok := strings.CutPrefix(fault, differPrefix)
	if !ok {
		return "", false
	}
	why, _, ok := strings.Cut(rest, "): ")
	return why, ok
}

// Player is the other board as an opponent.Player.
type Player struct {
	link Link
	name string
	here board.Color // the side played at this board
	r    *game.Runner
	poke chan struct{} // this board's game has a new move to send

	log *slog.Logger // nil: silent (SetLogger)

	mu       sync.Mutex
	end      string        // how this board's game ended (Game.End)
	ending   string        // the end an arbiter line applied now would make
	offerAt  int           // this board's player offers a draw with the game at these many moves; -1 for none
	offerBy  int           // the question (Move) that made the offer standing, to withdraw it with that question alone
	asked    int           // questions asked so far
	drawLaw  string        // the law a draw offer rests on under the law-set in force, as this board's game was last read
	askTo    int           // this board's player asks to take the game back to these many moves; -1 for none
	askLen   int           // the moves this board's game had when he asked
	agreedTo int           // this board's player agreed to take the game back to these many moves; -1 for none
	latest   *Game         // the other board's last game received
	fresh    chan struct{} // closed and replaced when a game arrives
	state    State
	watchers map[int]func()
	nextID   int
}

// State is the pairing as it stands, for the console and the voice.
type State struct {
	// Other names the other board.
	Other string
	// Gone says what is out of reach while the other board cannot be
	// heard (GoneBoard, GoneBroker); "" while it can, or before the link
	// was ever up.
	Gone string
	// DrawOffered says the other board's player offers this board's
	// player a draw, and it stands (fide2023:9.1.2.1): made with his last
	// move, until this board's player accepts it (the match's draw
	// command) or makes his next move. Law is the law it rests on under
	// the law-set in force ("fide2023:9.1.2.1"; "" under the older codes,
	// which say nothing of draw offers).
	DrawOffered bool
	Law         string
	// TakeBackAsked says the other board's player asks this board's
	// player to take back TakeBackPlies moves of the game as he has it
	// (to its first TakeBackTo moves); it stands until this board's
	// player agrees (the match's take-back command) or moves. A
	// take-back between paired boards is only ever agreed, never in a
	// tournament.
	TakeBackAsked             bool
	TakeBackPlies, TakeBackTo int
	// TakeBack says what became of this board's player's own request to
	// take back: TakeBackAsked, TakeBackRefused, or "" (none, or agreed
	// and done).
	TakeBack string
	// Difference is how the boards' games differ (D.2.7), nil while they
	// agree; Since is when it was found, on the game's clock. While they
	// differ this board's clocks stand.
	Difference *DifferenceError
	Since      time.Duration
}

// Reach is whether the other board can be heard over a link.
type Reach struct {
	Up bool
	// Gone says, while down, what is out of reach: GoneBoard or GoneBroker.
	Gone string
}

// What a link may find out of reach (State.Gone, Reach.Gone).
const (
	GoneBoard  = "board"  // the other board has gone away
	GoneBroker = "broker" // the hall's broker is out of reach
)

// Reacher is a Link that tells when the other board can be heard and when
// not; the last word counts (a reader may miss one in between).
type Reacher interface {
	Reach() <-chan Reach
}

// NewPlayer returns the other board, reached over link, named name (for
// the PGN and the console: "board-02"), for the game r runs on this board,
// where side here is played. Run must run for the boards to hear each
// other.
func NewPlayer(link Link, name string, r *game.Runner, here board.Color) *Player {
	p := &Player{link: link, name: name, here: here, r: r, poke: make(chan struct{}, 1), fresh: make(chan struct{}), offerAt: -1,
		askTo: -1, agreedTo: -1, state: State{Other: name}, watchers: map[int]func(){}}
	r.OnInput(p.input)
	r.OnReport(func(rep report.Report) {
		switch rep.Type {
		case report.Result:
			// A resignation or a draw agreed goes to the other board.
			p.mu.Lock()
			end := p.ending
			p.end, p.ending = end, ""
			p.mu.Unlock()
			if end == "" {
				return
			}
		case report.Move:
		default:
			return
		}
		select {
		case p.poke <- struct{}{}:
		default:
		}
	})
	return p
}

// input notes, on the runner's goroutine before the game applies it, an
// arbiter line that may end the game (a resignation, a draw agreed: the
// result report that follows says it did) or begin a new one.
func (p *Player) input(l trace.Line) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ending = ""
	if l.Kind != trace.Arbiter {
		return
	}
	switch l.Action {
	case game.ActionResign:
		if l.Value == trace.SideWhite {
			p.ending = EndWhiteResigns
		} else if l.Value == trace.SideBlack {
			p.ending = EndBlackResigns
		}
	case game.ActionAgreeDraw:
		p.ending = EndDrawAgreed
	case trace.ActionResult:
		p.ending = EndDeclared + l.Value
	case trace.ActionNewGame, trace.ActionAnnul:
		p.end, p.offerAt, p.askTo, p.agreedTo = "", -1, -1, -1
	}
}

// finish ends this board's game as the other board's ended (end: a
// resignation or a draw agreed there), unless it is over already.
func (p *Player) finish(ctx context.Context, end string) error {
	l := trace.Line{Kind: trace.Arbiter, Side: trace.SideArbiter}
	switch end {
	case EndWhiteResigns:
		l.Action, l.Value = game.ActionResign, trace.SideWhite
	case EndBlackResigns:
		l.Action, l.Value = game.ActionResign, trace.SideBlack
	case EndDrawAgreed:
		l.Action = game.ActionAgreeDraw
	default:
		result, ok := strings.CutPrefix(end, EndDeclared)
		if !ok {
			return nil // an end this board does not know: the arbiter's to rule
		}
		l.Action, l.Value = trace.ActionResult, result
	}
	err := p.r.SubmitIf(ctx, l, func(g *game.Game) error {
		if g.Snapshot().Result != nil {
			return errOver
		}
		return nil
	})
	if err != nil && !errors.Is(err, errOver) {
		return fmt.Errorf("pair: ending the game as the other board did (%s): %w", end, err)
	}
	return nil
}

// errOver refuses to end a game that is over already.
var errOver = errors.New("the game is over already")

// SetLogger has the player log what it cannot do (the other board's
// resignation refused here) to log; call it before Run.
func (p *Player) SetLogger(log *slog.Logger) { p.log = log }

// logger returns the player's logger, a silent one if none was set.
func (p *Player) logger() *slog.Logger {
	if p.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.log
}

// Name names the other board.
func (p *Player) Name() string { return p.name }

// State returns the pairing as it stands.
func (p *Player) State() State {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state
}

// Watch registers fn, told (on any goroutine) whenever the state changes;
// stop unregisters it.
func (p *Player) Watch(fn func()) (stop func()) {
	p.mu.Lock()
	id := p.nextID
	p.nextID++
	p.watchers[id] = fn
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.watchers, id)
		p.mu.Unlock()
	}
}

// update changes the state under the lock and tells the watchers if it
// changed.
func (p *Player) update(fn func(s *State)) {
	p.mu.Lock()
	before := p.state
	fn(&p.state)
	changed := before.Gone != p.state.Gone || before.Since != p.state.Since ||
		before.DrawOffered != p.state.DrawOffered || before.Law != p.state.Law ||
		before.TakeBackAsked != p.state.TakeBackAsked || before.TakeBackPlies != p.state.TakeBackPlies ||
		before.TakeBackTo != p.state.TakeBackTo || before.TakeBack != p.state.TakeBack ||
		(before.Difference == nil) != (p.state.Difference == nil) ||
		before.Difference != nil && before.Difference.Error() != p.state.Difference.Error()
	var fns []func()
	if changed {
		for _, w := range p.watchers {
			fns = append(fns, w)
		}
	}
	p.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// Run sends this board's game to the other board after each move made
// here, and takes the other board's games, until ctx ends. Whenever either
// changes it compares the two: while they differ this board's clocks
// stand (fide2023:D.2.7), and they run again, for the side to move, once
// the boards agree.
func (p *Player) Run(ctx context.Context) error {
	var sent *Game
	var reach <-chan Reach
	if rr, ok := p.link.(Reacher); ok {
		reach = rr.Reach()
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.poke:
			g, err := p.game(ctx)
			if err != nil {
				return err
			}
			if sent == nil || !sameGame(*sent, g) {
				if err := p.link.Send(ctx, g); err != nil {
					return fmt.Errorf("pair: sending the game to %s: %w", p.name, err)
				}
				sent = &g
			}
			if err := p.compare(ctx, g); err != nil {
				return err
			}
		case g, ok := <-p.link.Receive():
			if !ok {
				return errors.New("pair: the link to the other board closed")
			}
			p.mu.Lock()
			p.latest = &g
			close(p.fresh)
			p.fresh = make(chan struct{})
			p.mu.Unlock()
			ours, err := p.game(ctx)
			if err != nil {
				return err
			}
			if err := p.compare(ctx, ours); err != nil {
				return err
			}
			if err := p.followTakeBack(ctx, ours, g); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				p.logger().Warn("pair: the take-back agreed not taken here", "err", err)
			}
			p.mu.Lock()
			asking := g.End == EndDrawAgreed && p.offerAt == len(ours.Moves)
			p.mu.Unlock()
			// A draw agreed there on this board's offer is the match's to
			// end (the offer's answer); any other end is this one's.
			if g.End != "" && ours.End == "" && !asking && compare(ours, g) == nil {
				if err := p.finish(ctx, g.End); err != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					p.logger().Warn("pair: the other board's game ended; this one goes on", "end", g.End, "err", err)
				}
			}
		case r := <-reach:
			p.update(func(s *State) {
				s.Gone = ""
				if !r.Up {
					s.Gone = r.Gone
				}
			})
		}
	}
}

// compare compares this board's game, ours, with the other board's last:
// a difference found holds this board's clocks, and one gone starts them
// again.
func (p *Player) compare(ctx context.Context, ours Game) error {
	p.mu.Lock()
	theirs := p.latest
	was := p.state.Difference
	p.mu.Unlock()
	var de *DifferenceError
	if theirs != nil {
		de = compare(ours, *theirs)
	}
	p.offered(ours, theirs, de == nil)
	if de == nil && was == nil || de != nil && was != nil && de.Error() == was.Error() {
		return nil
	}
	ch := make(chan time.Duration, 1)
	err := p.r.Do(ctx, func(gm *game.Game, now time.Duration) {
		gm.HoldClocks(now, de != nil)
		ch <- now
	})
	if err != nil {
		return fmt.Errorf("pair: holding the clocks: %w", err)
	}
	var now time.Duration
	select {
	case now = <-ch:
	default:
		return context.Canceled // Do returned nil without running the call
	}
	p.update(func(s *State) {
		switch {
		case de == nil:
			s.Difference, s.Since = nil, 0
		case s.Difference == nil:
			s.Difference, s.Since = de, now
		default:
			s.Difference = de // another difference, found while they still differ
		}
	})
	return nil
}

// offered notes whether the other board's draw offer stands against this
// board's game, ours: theirs offers it with its last move, neither game is
// over, the boards agree, and this board's player has not moved since
// (fide2023:9.1.2.1; the older codes say nothing of draw offers, and the
// same holds under them, no law cited).
func (p *Player) offered(ours Game, theirs *Game, agree bool) {
	stands := agree && theirs != nil && theirs.Offer == OfferDraw && theirs.End == "" && ours.End == "" &&
		len(ours.Moves) <= len(theirs.Moves) && len(theirs.Moves) > 0
	law := ""
	p.mu.Lock()
	if stands {
		law = p.drawLaw
	}
	p.mu.Unlock()
	asked, to := false, 0
	if agree && theirs != nil && theirs.End == "" && ours.End == "" && len(ours.Moves) <= len(theirs.Moves) {
		to, asked = offerTo(theirs.Offer, OfferTakeBack)
		asked = asked && to <= len(ours.Moves) && to < len(theirs.Moves)
	}
	p.mu.Lock()
	if asked && p.agreedTo == to {
		asked = false // agreed here: the other board takes back in turn
	}
	if p.askTo >= 0 && len(ours.Moves) != p.askLen {
		p.askTo = -1 // this board's player played on: his request goes
	}
	told := p.state.TakeBack
	p.mu.Unlock()
	if told == TakeBackAsked && !asking(p) || told == TakeBackRefused && len(ours.Moves) > p.lastAskLen()+1 {
		p.update(func(s *State) { s.TakeBack = "" }) // the words belong to the moves they answered
	}
	p.update(func(s *State) {
		if stands && !s.DrawOffered {
			p.logger().Info("pair: the other board's player offers a draw", "moves", len(theirs.Moves), "law", law)
		}
		if asked && !s.TakeBackAsked {
			p.logger().Info("pair: the other board's player asks to take back", "to", to, "moves", len(theirs.Moves))
		}
		s.DrawOffered, s.Law = stands, law
		s.TakeBackAsked, s.TakeBackTo, s.TakeBackPlies = asked, 0, 0
		if asked {
			s.TakeBackTo, s.TakeBackPlies = to, len(theirs.Moves)-to
		}
	})
}

// asking says whether this board's player's request to take back stands.
func asking(p *Player) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.askTo >= 0
}

// lastAskLen is the moves this board's game had at its player's last
// request to take back.
func (p *Player) lastAskLen() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.askLen
}

// TakeBack asks the other board's player to take back plies moves (his
// agreement takes them back on both boards), or, while he asks for one
// himself (State.TakeBackAsked), agrees: this board takes the game back to
// where he asked, and the other board follows once it hears so. A
// take-back between paired boards is only ever agreed, never in a
// tournament, never over a game that is over, and never while a move
// pending here is still being made (opponent.TakeBacker).
func (p *Player) TakeBack(ctx context.Context, plies int) error {
	type seen struct {
		tournament, over, landing bool
		moves                     int
	}
	ch := make(chan seen, 1)
	if err := p.r.Do(ctx, func(g *game.Game, _ time.Duration) {
		s := g.Snapshot()
		_, moves := g.Line()
		ch <- seen{s.Tournament, s.Result != nil || s.Mode == game.AwaitNewGame, s.HasLanding, len(moves)}
	}); err != nil {
		return fmt.Errorf("pair: reading the game to take back: %w", err)
	}
	var now seen
	select {
	case now = <-ch:
	default:
		return context.Canceled
	}
	switch {
	case now.tournament:
		return errors.New("no take-backs between paired boards in a tournament")
	case now.over:
		return errors.New("the game is over")
	case now.landing:
		return errors.New("a move is still being made here: let it be made first")
	}
	p.mu.Lock()
	st := p.state
	p.mu.Unlock()
	if st.TakeBackAsked {
		return p.agree(ctx, st.TakeBackTo, now.moves)
	}
	if plies < 1 || plies > now.moves {
		return fmt.Errorf("nothing to take back: %d of %d moves asked", plies, now.moves)
	}
	p.mu.Lock()
	p.askTo, p.askLen = now.moves-plies, now.moves
	p.mu.Unlock()
	p.update(func(s *State) { s.TakeBack = TakeBackAsked })
	p.logger().Info("pair: asking the other board's player to take back", "plies", plies, "moves", now.moves)
	p.send()
	return nil
}

// agree takes this board's game, of moves moves, back to its first to
// moves, as the other board's player asked, and tells the other board.
func (p *Player) agree(ctx context.Context, to, moves int) error {
	// Agreed before taken back: the other board's moves past it are
	// never this board's to carry out, even for an instant.
	p.mu.Lock()
	p.agreedTo = to
	p.mu.Unlock()
	if err := p.takeBackTo(ctx, to, moves); err != nil {
		p.mu.Lock()
		p.agreedTo = -1
		p.mu.Unlock()
		return err
	}
	p.update(func(s *State) { s.TakeBackAsked, s.TakeBackTo, s.TakeBackPlies = false, 0, 0 })
	p.logger().Info("pair: take-back agreed", "to", to)
	p.send()
	return nil
}

// takeBackTo takes this board's game back from moves moves to its first
// to, the men guided back by the LEDs, unless it has changed meanwhile.
func (p *Player) takeBackTo(ctx context.Context, to, moves int) error {
	if moves <= to {
		return nil // this board had not made the moves yet
	}
	l := trace.Line{Kind: trace.TakeBack, Plies: moves - to, Side: p.here.String()}
	err := p.r.SubmitIf(ctx, l, func(g *game.Game) error {
		if _, mv := g.Line(); len(mv) != moves {
			return errors.New("the game has moved on")
		}
		if g.Snapshot().Result != nil {
			return errOver
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pair: taking back to move %d: %w", to, err)
	}
	return nil
}

// send has Run send this board's game again.
func (p *Player) send() {
	select {
	case p.poke <- struct{}{}:
	default:
	}
}

// followTakeBack takes this board's game, ours, back as its player asked
// once the other board's, theirs, says his request was agreed there; or
// notes it refused, the other board's player having moved on instead.
func (p *Player) followTakeBack(ctx context.Context, ours, theirs Game) error {
	p.mu.Lock()
	to, asked := p.askTo, p.askTo >= 0 && p.askLen == len(ours.Moves)
	p.mu.Unlock()
	if !asked {
		return nil
	}
	if n, ok := offerTo(theirs.Offer, OfferTakeBackAgreed); ok && n == to && len(theirs.Moves) == to {
		if err := p.takeBackTo(ctx, to, len(ours.Moves)); err != nil {
			return err
		}
		p.mu.Lock()
		p.askTo = -1
		p.mu.Unlock()
		p.update(func(s *State) { s.TakeBack = "" })
		p.logger().Info("pair: take-back agreed by the other board's player", "to", to)
		p.send()
		return nil
	}
	if len(theirs.Moves) > len(ours.Moves) {
		p.mu.Lock()
		p.askTo = -1
		p.mu.Unlock()
		p.update(func(s *State) { s.TakeBack = TakeBackRefused })
		p.logger().Info("pair: take-back refused: the other board's player played on", "to", to)
	}
	return nil
}

// DrawOffer says whether the other board's player's draw offer stands
// (State.DrawOffered), and returns the check, run as its acceptance is
// applied, that it still does: this board's game is not over, has the
// move the offer follows carried out, and its player has not moved since
// the offer nor is moving (opponent.DrawOfferer).
func (p *Player) DrawOffer() (stands func(*game.Game) error, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.state.DrawOffered || p.latest == nil {
		return nil, false
	}
	n := len(p.latest.Moves)
	return func(g *game.Game) error {
		s := g.Snapshot()
		if s.Result != nil {
			return errOver
		}
		_, moves := g.Line()
		switch {
		case len(moves) > n:
			return errors.New("the draw offer lapsed: this board's player has moved since")
		case s.HasLanding:
			// His hand may be completing a move, which declines the
			// offer: nothing is ruled until it is done.
			return errors.New("a move of this board's player is being made")
		case s.InHand != 0 || s.Obligation != nil && s.Obligation.Side == s.Position.Turn:
			// A man lifted, or touched and set back with no j'adoube
			// (bound by touch-move), is a man touched to move him: under
			// fide2023:9.1.2.1 that declines the offer. An adjustment
			// announced binds nobody and declines nothing.
			return errors.New("the draw offer lapsed: this board's player has touched a man to move it")
		case len(moves) < n:
			// Both boards' games end alike, with the move the offer
			// follows.
			return errors.New("carry out the other board's move first, then accept")
		}
		return nil
	}, true
}

// game returns this board's game as it is sent.
func (p *Player) game(ctx context.Context) (Game, error) {
	// The runner may still run the call after Do has returned for a
	// cancelled ctx: the game comes back through a channel, never a
	// variable both goroutines touch.
	ch := make(chan Game, 1)
	err := p.r.Do(ctx, func(gm *game.Game, _ time.Duration) {
		start, moves := gm.Line()
		g := gameOf(start, moves)
		g.Side = p.here.String()
		p.mu.Lock()
		p.drawLaw = string(gm.Laws().DrawOfferLaw)
		g.End = p.end
		switch {
		case p.end != "":
		case p.offerAt == len(moves):
			g.Offer = OfferDraw
		case p.askTo >= 0 && p.askLen == len(moves):
			g.Offer = OfferTakeBack + strconv.Itoa(p.askTo)
		case p.agreedTo >= 0 && p.agreedTo == len(moves):
			g.Offer = OfferTakeBackAgreed + strconv.Itoa(p.agreedTo)
		}
		p.mu.Unlock()
		ch <- g
	})
	if err != nil {
		return Game{}, err
	}
	select {
	case g := <-ch:
		return g, nil
	default:
		return Game{}, context.Canceled // Do returned nil without running the call
	}
}

// gameOf writes a line of play as a Game.
func gameOf(start board.Position, moves []board.Move) Game {
	g := Game{Start: start.FEN(), Moves: make([]string, len(moves))}
	for i, m := range moves {
		g.Moves[i] = m.UCI()
	}
	return g
}

// sameGame reports whether a and b are one game.
func sameGame(a, b Game) bool {
	return a.Start == b.Start && a.Side == b.Side && a.End == b.End && a.Offer == b.Offer && strings.Join(a.Moves, " ") == strings.Join(b.Moves, " ")
}

// Move answers with the other board's next move, once it has been made
// there (this board's game went to the other board when its last move was
// made).
func (p *Player) Move(ctx context.Context, q opponent.Question) <-chan Answer {
	out := make(chan opponent.Answer, 1)
	ours := gameOf(q.Start, q.Moves)
	ours.Side = p.here.String()
	p.mu.Lock()
	p.asked++
	id := p.asked
	if !q.DrawOffered {
		p.offerAt = -1 // a question without an offer: none stands
	}
	p.mu.Unlock()
	if q.DrawOffered {
		// The player here offers a draw with his last move: it goes to
		// the other board with the game, and stands until that board's
		// player accepts it or moves.
		p.mu.Lock()
		p.offerAt, p.offerBy = len(q.Moves), id
		p.mu.Unlock()
		select {
		case p.poke <- struct{}{}:
		default:
		}
	}
	go func() {
		for {
			p.mu.Lock()
			theirs, wait := p.latest, p.fresh
			ours.Offer = ""
			if p.agreedTo >= 0 && p.agreedTo == len(q.Moves) {
				// A take-back agreed here: the other board's moves past
				// it are to go, not to be played.
				ours.Offer = OfferTakeBackAgreed + strconv.Itoa(p.agreedTo)
			}
			p.mu.Unlock()
			if theirs != nil && q.DrawOffered && theirs.End == EndDrawAgreed && compare(ours, *theirs) == nil {
				// The other board's player accepted the draw offered
				// here: the match ends the game drawn.
				out <- opponent.Answer{AcceptsDraw: true}
				return
			}
			if theirs != nil {
				a, done := answer(q, ours, *theirs)
				if done {
					out <- a
					return
				}
			}
			select {
			case <-ctx.Done():
				// The question withdrawn (a take-back, a new game) takes
				// its offer with it; one answered leaves the game moved
				// on (or drawn), past the offer.
				p.mu.Lock()
				if q.DrawOffered && p.offerBy == id {
					p.offerAt = -1
				}
				p.mu.Unlock()
				out <- opponent.Answer{Err: ctx.Err()}
				return
			case <-wait:
			}
		}
	}()
	return out
}

// Answer is the answer Move delivers (opponent.Answer).
type Answer = opponent.Answer

// answer reads the other board's game against ours: its next move (done),
// a difference (done, with the error), or nothing yet (the other board has
// not moved, or sent an older game).
func answer(q opponent.Question, ours, theirs Game) (opponent.Answer, bool) {
	theirs = following(ours, theirs)
	if de := compare(ours, theirs); de != nil {
		return opponent.Answer{Err: de}, true
	}
	n := len(ours.Moves)
	if len(theirs.Moves) <= n {
		return opponent.Answer{}, false // not moved there yet
	}
	m, err := board.ParseUCI(theirs.Moves[n])
	if err != nil {
		return opponent.Answer{Err: &DifferenceError{ours, theirs, err.Error()}}, true
	}
	pos := q.Start
	for _, mv := range q.Moves {
		pos = pos.Apply(mv)
	}
	a, err := board.Analyse(pos)
	if err != nil || !a.IsLegal(m) {
		return opponent.Answer{Err: &DifferenceError{ours, theirs, fmt.Sprintf("%s is no legal move here", m)}}, true
	}
	return opponent.Answer{Move: m, SAN: a.SAN(m)}, true
}

// following returns the other board's game, theirs, as it will stand once
// it has followed a take-back it asked for and this board, ours, agreed
// to: without the moves taken back here (it takes them back on hearing
// so).
func following(ours, theirs Game) Game {
	if n, ok := offerTo(theirs.Offer, OfferTakeBack); ok && n <= len(theirs.Moves) {
		if m, ok := offerTo(ours.Offer, OfferTakeBackAgreed); ok && m == n {
			theirs.Moves = theirs.Moves[:n]
		}
	}
	return theirs
}

// compare compares the other board's game with ours: nil while they agree
// (the other board is at most a move ahead or behind on the same line),
// else how they differ: they play the same side, began from different
// positions, a move differs, the other board is more than a move ahead, or
// its next move is none here.
func compare(ours, theirs Game) *DifferenceError {
	theirs = following(ours, theirs)
	if theirs.Side != "" && theirs.Side == ours.Side {
		return &DifferenceError{ours, theirs, "both boards play " + ours.Side + ": whose move it is is in doubt"}
	}
	if theirs.Start != ours.Start {
		return &DifferenceError{ours, theirs, "they began from different positions"}
	}
	n := len(ours.Moves)
	for i := 0; i < n && i < len(theirs.Moves); i++ {
		if theirs.Moves[i] != ours.Moves[i] {
			return &DifferenceError{ours, theirs, fmt.Sprintf("move %d is %s here, %s there", i+1, ours.Moves[i], theirs.Moves[i])}
		}
	}
	switch {
	case len(theirs.Moves) <= n:
		return nil
	case len(theirs.Moves) > n+1:
		return &DifferenceError{ours, theirs, "the other board is more than a move ahead: whose move it is is in doubt"}
	}
	pos, err := board.ParseFEN(ours.Start)
	if err != nil {
		return &DifferenceError{ours, theirs, "this board's start " + err.Error()}
	}
	for _, u := range ours.Moves {
		m, err := board.ParseUCI(u)
		if err != nil {
			return &DifferenceError{ours, theirs, err.Error()}
		}
		pos = pos.Apply(m)
	}
	m, err := board.ParseUCI(theirs.Moves[n])
	if err != nil {
		return &DifferenceError{ours, theirs, err.Error()}
	}
	if a, err := board.Analyse(pos); err != nil || !a.IsLegal(m) {
		return &DifferenceError{ours, theirs, fmt.Sprintf("%s is no legal move here", m)}
	}
	return nil
}

// Move returns the move number (1 for the first) at which the games
// differ, 0 when the difference is not a move's.
func (e *DifferenceError) Move() int {
	for i := 0; i < len(e.Ours.Moves) && i < len(e.Theirs.Moves); i++ {
		if e.Ours.Moves[i] != e.Theirs.Moves[i] {
			return i + 1
		}
	}
	return 0
}

// Pipe returns two Links joined to each other in this process: what one
// sends, the other receives.
func Pipe() (Link, Link) {
	a, b := make(chan Game, 16), make(chan Game, 16)
	return &pipe{out: a, in: b}, &pipe{out: b, in: a}
}

// pipe is one end of Pipe.
type pipe struct {
	out chan<- Game
	in  <-chan Game
}

// Send hands g to the other end.
func (p *pipe) Send(ctx context.Context, g Game) error {
	select {
	case p.out <- g:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Receive delivers what the other end sends.
func (p *pipe) Receive() <-chan Game { return p.in }

// reachBox hands a link's last Reach to its reader: a word not yet read is
// replaced by a newer one, so the sender never waits and the reader always
// ends on the last.
type reachBox struct {
	mu sync.Mutex
	ch chan Reach
}

func newReachBox() *reachBox { return &reachBox{ch: make(chan Reach, 1)} }

// tell hands r to the reader, in place of a word it has not read.
func (b *reachBox) tell(r Reach) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-b.ch:
	default:
	}
	b.ch <- r
}
