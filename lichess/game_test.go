package lichess

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/lichess/lichesstest"
)

// recorder keeps what a Game's hooks receive.
type recorder struct {
	mu       sync.Mutex
	plans    []Plan
	states   []GameState
	fulls    int
	moves    []Sent
	persists [][]Sent
	links    []Link
	chats    []ChatLine
	gone     []OpponentGone
}

func (r *recorder) hooks() Hooks {
	return Hooks{
		Full: func(*GameFull) { r.mu.Lock(); r.fulls++; r.mu.Unlock() },
		Board: func(p Plan) {
			r.mu.Lock()
			r.plans = append(r.plans, p)
			r.mu.Unlock()
		},
		State: func(s *GameState) { r.mu.Lock(); r.states = append(r.states, *s); r.mu.Unlock() },
		Move:  func(s Sent) { r.mu.Lock(); r.moves = append(r.moves, s); r.mu.Unlock() },
		Persist: func(l []Sent) error {
			r.mu.Lock()
			r.persists = append(r.persists, slices.Clone(l))
			r.mu.Unlock()
			return nil
		},
		Link:         func(l Link) { r.mu.Lock(); r.links = append(r.links, l); r.mu.Unlock() },
		Chat:         func(c *ChatLine) { r.mu.Lock(); r.chats = append(r.chats, *c); r.mu.Unlock() },
		OpponentGone: func(g *OpponentGone) { r.mu.Lock(); r.gone = append(r.gone, *g); r.mu.Unlock() },
	}
}

func (r *recorder) lastPersisted() []Sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.persists) == 0 {
		return nil
	}
	return slices.Clone(r.persists[len(r.persists)-1])
}

func (r *recorder) boardPlans() []Plan {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.plans)
}

func (r *recorder) lastState() *GameState {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.states) == 0 {
		return nil
	}
	s := r.states[len(r.states)-1]
	return &s
}

// shown returns every move the board was told to show, in order.
func (r *recorder) shown() []string {
	var out []string
	for _, p := range r.boardPlans() {
		out = append(out, p.Show...)
	}
	return out
}

// running is a Game running in the background.
type running struct {
	g    *Game
	rec  *recorder
	done chan error
	stop context.CancelFunc
}

func (h *harness) startGame(c *Client, o GameOptions) *running {
	h.t.Helper()
	rec := &recorder{}
	o.Hooks = rec.hooks()
	g, err := c.Game(o)
	if err != nil {
		h.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(h.ctx)
	r := &running{g: g, rec: rec, done: make(chan error, 1), stop: cancel}
	go func() { r.done <- g.Run(ctx) }()
	h.t.Cleanup(func() { cancel(); <-r.done })
	return r
}

// waitPly waits until the Game's record has n moves.
func (h *harness) waitPly(r *running, n int) {
	h.t.Helper()
	h.eventually(fmt.Sprintf("the board's record to reach %d moves", n), func() bool { return len(r.g.Snapshot().Moves) == n })
}

// waitServerPly waits until the server's game has n moves.
func (h *harness) waitServerPly(id string, n int) {
	h.t.Helper()
	h.eventually(fmt.Sprintf("lichess's game to reach %d moves", n), func() bool {
		v, _ := h.srv.Game(id)
		return len(v.Moves) == n
	})
}

// move hands the Game the board's move.
func (h *harness) move(r *running, uci string) {
	h.t.Helper()
	if err := r.g.Move(h.ctx, uci); err != nil {
		h.t.Fatalf("move %s: %v", uci, err)
	}
}

// playedPosts returns the move POSTs the server played, per ply.
func playedPosts(posts []lichesstest.MovePost) map[int][]string {
	out := map[int][]string{}
	for _, p := range posts {
		if p.Played {
			out[p.Ply] = append(out[p.Ply], p.Move)
		}
	}
	return out
}

// checkOnce fails if the server played the same move twice at one ply, or
// if any POST was refused as not the board's turn (a send repeated after it
// landed).
func (h *harness) checkOnce(game string) {
	h.t.Helper()
	for ply, ms := range playedPosts(h.srv.MovePosts()) {
		seen := map[string]bool{}
		for _, m := range ms {
			if seen[m] {
				h.t.Errorf("ply %d: %s played twice (%v)", ply, m, ms)
			}
			seen[m] = true
		}
	}
	for _, p := range h.srv.MovePosts() {
		if p.Game == game && strings.HasPrefix(p.Error, "Not your turn") {
			h.t.Errorf("a move sent again after it landed: %+v", p)
		}
	}
}

// playMoves plays the board's moves in turn, each once the record reaches
// its ply: the first at ply first, then every other ply.
func (h *harness) playMoves(r *running, moves []string, first int) {
	h.t.Helper()
	for i, m := range moves {
		h.waitPly(r, first+2*i)
		h.move(r, m)
	}
}

// A short game with captures, castling on both sides and a promotion that
// takes a rook: White is the board.
var (
	whiteMoves = []string{"e2e4", "e4d5", "d5c6", "g1f3", "f1c4", "e1g1", "c6b7", "b7a8q"}
	blackMoves = []string{"d7d5", "c7c6", "g8f6", "e7e6", "f8d6", "e8g8", "b8c6"}
)

func interleave(w, b []string) []string {
	var out []string
	for i := range w {
		out = append(out, w[i])
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

func TestWholeGame(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, err := h.srv.CreateGame(lichesstest.GameSpec{
		Side: board.White, Clock: &lichesstest.GameClock{Initial: 15 * time.Minute, Increment: 10 * time.Second},
		Opponent: lichesstest.Opponent{Moves: blackMoves},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.playMoves(r, whiteMoves, 0)
	all := interleave(whiteMoves, blackMoves)
	h.waitServerPly(id, len(all))
	h.waitPly(r, len(all))
	h.eventually("every answer", func() bool { return h.client.Stats().MovesSent == int64(len(whiteMoves)) })
	if err := h.srv.OpponentResigns(id); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-r.done:
		r.done <- err
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(realDeadline):
		t.Fatal("Run did not end with the game")
	}

	v, _ := h.srv.Game(id)
	if !slices.Equal(v.Moves, all) {
		t.Errorf("lichess has %v\nwant %v", v.Moves, all)
	}
	if got := r.g.Snapshot().Moves; !slices.Equal(got, all) {
		t.Errorf("the board has %v", got)
	}
	if got := r.rec.shown(); !slices.Equal(got, blackMoves) {
		t.Errorf("shown %v, want the opponent's moves %v", got, blackMoves)
	}
	for _, p := range r.rec.boardPlans() {
		if p.Retract != 0 || p.Conflict != nil {
			t.Errorf("plan %+v in a game without faults", p)
		}
	}
	last := r.rec.lastState()
	if last == nil || last.Status != StatusResign || last.Result() != "1-0" {
		t.Errorf("final state %+v", last)
	}
	posts := h.srv.MovePosts()
	if len(posts) != len(whiteMoves) {
		t.Errorf("%d move POSTs, want %d: %+v", len(posts), len(whiteMoves), posts)
	}
	h.checkOnce(id)
	// Each move was journaled as pending before lichess played it.
	persisted := map[string]bool{}
	for _, l := range r.rec.persists {
		for _, s := range l {
			if s.Status == SendPending {
				persisted[s.Move] = true
			}
		}
	}
	for _, m := range whiteMoves {
		if !persisted[m] {
			t.Errorf("%s was not journaled as pending", m)
		}
	}
	if st := h.client.Stats(); st.MovesSent != int64(len(whiteMoves)) || st.MovesRefused != 0 || st.Stalls != 0 {
		t.Errorf("stats %+v", st)
	}
	// Clocks: lichess's increments reached the client.
	if last.WhiteIncrement != 10*time.Second || last.WhiteTime <= 0 {
		t.Errorf("clocks %v +%v", last.WhiteTime, last.WhiteIncrement)
	}
}

func TestMateAsBlack(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, err := h.srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Opponent: lichesstest.Opponent{Moves: []string{"f2f3", "g2g4"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.Black})
	h.playMoves(r, []string{"e7e5", "d8h4"}, 1)
	if err := <-r.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	r.done <- nil
	last := r.rec.lastState()
	if last.Status != StatusMate || last.Winner != "black" || last.Result() != "0-1" {
		t.Errorf("final state %+v", last)
	}
	if err := r.g.Move(h.ctx, "a7a6"); err == nil {
		t.Error("a move after the game accepted")
	}
}

func TestMoveChecks(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5"}}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	cases := []struct {
		move string
		want error
	}{
		{"e2e5", ErrIllegalMove}, {"e7e5", ErrIllegalMove}, {"z9", ErrIllegalMove}, {"e1g1", ErrIllegalMove},
	}
	for _, c := range cases {
		if err := r.g.Move(h.ctx, c.move); !errors.Is(err, c.want) {
			t.Errorf("Move(%s): %v, want %v", c.move, err, c.want)
		}
	}
	h.move(r, "e2e4")
	if err := r.g.Move(h.ctx, "d2d4"); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("a second move in a row: %v", err)
	}
	h.waitPly(r, 2)
	if len(h.srv.MovePosts()) != 1 {
		t.Errorf("posts %+v", h.srv.MovePosts())
	}
}

// TestDroppedStream drops the stream mid-game; the opponent moves while the
// board is disconnected. The client reconnects after its backoff, shows the
// move once, and the game goes on.
func TestDroppedStream(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.move(r, "e2e4")
	h.waitServerPly(id, 1)
	h.eventually("lichess's state listing e2e4", func() bool { s := r.g.Snapshot().State; return s != nil && len(s.Moves) == 1 })

	h.srv.DropStreams()
	h.eventually("the client to notice", func() bool { return !r.g.Snapshot().Up })
	if err := h.srv.PlayOpponent(id, "e7e5"); err != nil {
		t.Fatal(err)
	}
	h.pass(testMinBackoff)
	h.waitPly(r, 2)
	h.move(r, "g1f3")
	h.waitServerPly(id, 3)
	if got := r.rec.shown(); !slices.Equal(got, []string{"e7e5"}) {
		t.Errorf("shown %v", got)
	}
	h.checkOnce(id)
	if h.client.Stats().StreamsOpened != 2 {
		t.Errorf("streams opened %d, want 2", h.client.Stats().StreamsOpened)
	}
}

// TestOfflineMove: lichess is unreachable when the board's move is made.
// The move is sent once lichess is back, exactly once.
func TestOfflineMove(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5"}}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the stream", func() bool { return r.g.Snapshot().Up })

	h.srv.GoDown()
	h.eventually("the client to notice", func() bool { return !r.g.Snapshot().Up })
	h.move(r, "e2e4")
	// The POST fails (nothing answers), so the move stays pending.
	h.eventually("the send to fail", func() bool {
		s := r.g.Snapshot().Sent
		return len(s) == 1 && s[0].Status == SendPending && strings.Contains(h.logs.String(), "no answer to the move")
	})
	// Reconnection attempts fail while lichess is down: the backoff doubles.
	h.pass(testMinBackoff)
	h.pass(2 * testMinBackoff)
	awaitWait(h, 4*testMinBackoff) // the third attempt failed too
	h.srv.ComeUp()
	h.pass(4 * testMinBackoff)
	h.waitServerPly(id, 2)
	h.waitPly(r, 2)
	h.checkOnce(id)
	if got := playedPosts(h.srv.MovePosts())[0]; !slices.Equal(got, []string{"e2e4"}) {
		t.Errorf("ply 0 played %v", got)
	}
	if s := r.g.Snapshot().Sent; len(s) != 1 || s[0].Status != SendSeen {
		t.Errorf("send log %+v", s)
	}
}

// TestLostAnswer: lichess plays the move but the answer is lost. The client
// reads a fresh state, sees the move, and does not send it again.
func TestLostAnswer(t *testing.T) {
	for _, kind := range []lichesstest.MoveFaultKind{lichesstest.SwallowAnswer, lichesstest.LoseMove} {
		t.Run(map[lichesstest.MoveFaultKind]string{lichesstest.SwallowAnswer: "played, answer lost", lichesstest.LoseMove: "lost before playing"}[kind], func(t *testing.T) {
			h := newHarness(t, lichesstest.Options{})
			id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
			r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
			h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
			h.srv.FaultNextMove(lichesstest.MoveFault{Kind: kind})
			h.move(r, "e2e4")
			h.waitServerPly(id, 1)
			h.eventually("the move seen", func() bool {
				s := r.g.Snapshot().Sent
				return len(s) == 1 && s[0].Status == SendSeen
			})
			h.checkOnce(id)
			wantPosts := map[lichesstest.MoveFaultKind]int{lichesstest.SwallowAnswer: 1, lichesstest.LoseMove: 2}[kind]
			if n := len(h.srv.MovePosts()); n != wantPosts {
				t.Errorf("%d POSTs, want %d: %+v", n, wantPosts, h.srv.MovePosts())
			}
		})
	}
}

// TestRateLimitedStream: lichess answers 429 to the reconnection; the
// client waits the full minute before trying again (or longer, as a
// Retry-After header asks).
func TestRateLimitedStream(t *testing.T) {
	for _, c := range []struct {
		name       string
		retryAfter int
		wait       time.Duration
	}{{"no Retry-After", 0, testPause}, {"Retry-After 90", 90, 90 * time.Second}} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, lichesstest.Options{})
			id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
			r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
			h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
			h.srv.RateLimitNext(1, "/api/board/game/stream/", c.retryAfter)
			h.srv.DropStreams()
			h.pass(testMinBackoff)
			h.eventually("the 429", func() bool { return h.client.Stats().RateLimited == 1 })
			before := len(h.srv.Requests())
			// Nothing is requested during the pause: the stream and a move
			// made meanwhile both wait it out.
			h.move(r, "e2e4")
			h.eventually("both to wait", func() bool {
				n := 0
				for _, d := range h.clock.Waiting() {
					if d == c.wait {
						n++
					}
				}
				return n == 2
			})
			if reqs := h.srv.Requests()[before:]; len(reqs) != 0 {
				t.Fatalf("requests during the pause: %v", reqs)
			}
			h.clock.Advance(c.wait)
			h.waitServerPly(id, 1)
			h.eventually("the stream back", func() bool { return r.g.Snapshot().Up })
			h.checkOnce(id)
			if h.client.Stats().RateLimited != 1 {
				t.Errorf("stats %+v", h.client.Stats())
			}
		})
	}
}

// TestRateLimitedMove: lichess answers 429 to the move; the client waits a
// minute and sends it again, and it is played once.
func TestRateLimitedMove(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
	h.srv.RateLimitNext(1, "/api/board/game/"+id+"/move/", 0)
	h.move(r, "e2e4")
	h.eventually("the 429", func() bool { return h.client.Stats().RateLimited == 1 })
	if v, _ := h.srv.Game(id); len(v.Moves) != 0 {
		t.Fatal("the move was played despite the 429")
	}
	h.pass(testPause)
	h.waitServerPly(id, 1)
	h.checkOnce(id)
}

// TestStalledStream: the stream stops sending, keep-alives included, with
// the connection open. The client drops it after the stall timeout and
// reconnects.
func TestStalledStream(t *testing.T) {
	h := newHarness(t, lichesstest.Options{GameKeepAlive: time.Hour, EventKeepAlive: time.Hour})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
	h.srv.StallStreams()
	if err := h.srv.PlayOpponent(id, "e7e5"); err == nil {
		t.Fatal("the opponent moved out of turn")
	}
	h.move(r, "e2e4")
	h.waitServerPly(id, 1)
	if err := h.srv.PlayOpponent(id, "e7e5"); err != nil {
		t.Fatal(err)
	}
	// The stalled stream shows nothing of it.
	time.Sleep(20 * time.Millisecond)
	if n := len(r.g.Snapshot().Moves); n != 1 {
		t.Fatalf("moves through a stalled stream: %d", n)
	}
	h.pass(testStall)
	h.eventually("the stall", func() bool { return h.client.Stats().Stalls == 1 })
	h.pass(testMinBackoff)
	h.waitPly(r, 2)
	h.checkOnce(id)
}

// TestSlowStream: keep-alives come further apart than lichess's usual 6 s
// but within the stall timeout: the stream is kept.
func TestSlowStream(t *testing.T) {
	const keepAlive = 15 * time.Second
	h := newHarness(t, lichesstest.Options{GameKeepAlive: keepAlive, EventKeepAlive: time.Hour})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
	for i := 1; i <= 4; i++ {
		h.pass(keepAlive)
		h.eventually("a keep-alive", func() bool { return h.client.Stats().KeepAlives == int64(i) })
	}
	if st := h.client.Stats(); st.Stalls != 0 || st.StreamsOpened != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestRefusedMove: lichess refuses the board's move (here as it would when
// a takeback raced the move); the board is told to take it back, with
// lichess's reason, and the next move goes through.
func TestRefusedMove(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5"}}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
	const reason = "Not your turn, or game already over"
	h.srv.FaultNextMove(lichesstest.MoveFault{Kind: lichesstest.RefuseMove, Reason: reason})
	h.move(r, "d2d4")
	h.eventually("the refusal", func() bool {
		for _, p := range r.rec.boardPlans() {
			if p.Conflict != nil {
				return true
			}
		}
		return false
	})
	p := r.rec.boardPlans()[0]
	if p.Retract != 1 || p.Conflict == nil || *p.Conflict != (Conflict{Kind: ConflictRefused, Ply: 0, Move: "d2d4", Reason: reason}) {
		t.Fatalf("plan %+v conflict %+v", p, p.Conflict)
	}
	if n := len(r.g.Snapshot().Moves); n != 0 {
		t.Fatalf("the refused move is still in the record (%d moves)", n)
	}
	h.move(r, "e2e4")
	h.waitServerPly(id, 2)
	h.waitPly(r, 2)
	if h.client.Stats().MovesRefused != 1 {
		t.Errorf("stats %+v", h.client.Stats())
	}
}

// TestIllegalMoveRefusedByLichess: a move lichess finds illegal (here sent
// around the Game's own check) is answered 400 with lichess's reason.
func TestIllegalMoveRefusedByLichess(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	cases := []struct{ move, reason string }{
		{"e2e5", "Piece on e2 cannot move to e5"},
		{"e3e4", "No piece of yours on e3"},
		{"e7e5", "No piece of yours on e7"},
	}
	for _, c := range cases {
		out, err := h.client.PostMove(h.ctx, id, c.move, false)
		var api *APIError
		if out != MoveRefused || !errors.As(err, &api) || api.Status != 400 || api.Message != c.reason {
			t.Errorf("%s: %v %v, want 400 %q", c.move, out, err, c.reason)
		}
	}
	if out, err := h.client.PostMove(h.ctx, "nosuchgame", "e2e4", false); out != MoveRefused || !errors.Is(err, ErrNotFound) {
		t.Errorf("no such game: %v %v", out, err)
	}
}

// TestRestartMidGame: boardd stops in the middle of sending a move and
// starts again from its journal (the board's moves and the send log) with a
// new client, finding the game through /api/account/playing. Whether or not
// lichess played the move, it ends up played once.
func TestRestartMidGame(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault lichesstest.MoveFaultKind
		posts int
	}{
		{"lichess played it, the answer never came", lichesstest.HoldAfter, 1},
		{"lichess never played it", lichesstest.HoldBefore, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, lichesstest.Options{})
			id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5", "b8c6"}}})
			first := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
			h.move(first, "e2e4")
			h.waitPly(first, 2)
			// The stream shows nothing more: boardd stops knowing only
			// that it sent the move.
			h.srv.StallStreams()
			h.srv.FaultNextMove(lichesstest.MoveFault{Kind: c.fault})
			h.move(first, "g1f3")
			h.eventually("the POST to reach lichess", func() bool { return len(h.srv.MovePosts()) == 2 })
			// boardd stops: what its journal holds is the board's record
			// and the last send log persisted.
			journal, sent := first.g.Snapshot().Moves, first.rec.lastPersisted()
			first.stop()
			<-first.done
			first.done <- nil
			if !slices.Contains(sent, Sent{Ply: 2, Move: "g1f3", Status: SendPending}) {
				t.Fatalf("journaled send log %+v", sent)
			}

			client := h.newClient(h.srv.Token())
			playing, err := client.Playing(h.ctx)
			if err != nil || len(playing) != 1 || playing[0].GameID != id {
				t.Fatalf("playing %+v %v", playing, err)
			}
			side, _ := playing[0].Side()
			second := h.startGame(client, GameOptions{ID: id, Side: side, Local: journal, Sent: sent})
			h.waitServerPly(id, 4)
			h.waitPly(second, 4)
			h.checkOnce(id)
			if n := len(h.srv.MovePosts()); n != c.posts+1 {
				t.Errorf("%d POSTs, want %d: %+v", n, c.posts+1, h.srv.MovePosts())
			}
			v, _ := h.srv.Game(id)
			if want := []string{"e2e4", "e7e5", "g1f3", "b8c6"}; !slices.Equal(v.Moves, want) {
				t.Errorf("lichess has %v", v.Moves)
			}
		})
	}
}

// TestRestartWithOfflineMove: the board's move was made while lichess was
// unreachable and boardd restarted before it could be sent: the new run
// sends it once.
func TestRestartWithOfflineMove(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Moves: []string{"d2d4"}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.Black, Local: []string{"d2d4", "g8f6"}})
	h.waitServerPly(id, 2)
	h.waitPly(r, 2)
	h.checkOnce(id)
}

// TestServerRestart: lichess restarts mid-game; the client reconnects and
// the game goes on.
func TestServerRestart(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5", "b8c6"}}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.move(r, "e2e4")
	h.waitPly(r, 2)
	// The restart is to find the stream healthy and the move answered: a
	// restart that cut the move's answer makes the client read a fresh
	// state at once, with no backoff to wait (TestLostAnswer's case).
	h.eventually("lichess's answer to e2e4", func() bool { return strings.Contains(h.logs.String(), "lichess: move accepted") })
	h.srv.Restart()
	h.pass(testMinBackoff)
	h.eventually("the stream back", func() bool { return r.g.Snapshot().Up })
	h.move(r, "g1f3")
	h.waitPly(r, 4)
	h.checkOnce(id)
}

// TestTakebacks: the board's side asks to take back its move and the
// opponent agrees; then the opponent asks and the board agrees.
func TestTakebacks(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{AcceptTakeback: true}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.move(r, "e2e4")
	h.waitServerPly(id, 1)
	h.eventually("e2e4 seen", func() bool { s := r.g.Snapshot().Sent; return len(s) == 1 && s[0].Status == SendSeen })
	if err := r.g.Takeback(h.ctx, true); err != nil {
		t.Fatal(err)
	}
	h.waitPly(r, 0)
	// The plan's hook may be told just after the snapshot changes.
	var plan Plan
	h.eventually("the takeback's plan", func() bool {
		plans := r.rec.boardPlans()
		if len(plans) == 0 {
			return false
		}
		plan = plans[len(plans)-1]
		return plan.Retract > 0
	})
	if plan.Retract != 1 || plan.Conflict != nil {
		t.Errorf("takeback plan %+v", plan)
	}
	h.move(r, "d2d4")
	h.waitServerPly(id, 1)
	if err := h.srv.PlayOpponent(id, "d7d5"); err != nil {
		t.Fatal(err)
	}
	h.waitPly(r, 2)
	if err := h.srv.OpponentProposesTakeback(id); err != nil {
		t.Fatal(err)
	}
	h.eventually("the proposal", func() bool { s := r.rec.lastState(); return s != nil && s.BlackProposesTakeback })
	if err := r.g.Takeback(h.ctx, true); err != nil {
		t.Fatal(err)
	}
	h.waitPly(r, 1)
	if v, _ := h.srv.Game(id); !slices.Equal(v.Moves, []string{"d2d4"}) {
		t.Errorf("lichess has %v", v.Moves)
	}
	h.checkOnce(id)
	var posts []string
	for _, p := range h.srv.MovePosts() {
		posts = append(posts, p.Move)
	}
	if !slices.Equal(posts, []string{"e2e4", "d2d4"}) {
		t.Errorf("POSTs %v", posts)
	}
}

// TestDrawOffer: the opponent offers a draw, the board's side accepts.
func TestDrawOffer(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Moves: []string{"e2e4", "e7e5"}})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White, Local: []string{"e2e4"}})
	h.waitPly(r, 2)
	if err := h.srv.OpponentOffersDraw(id); err != nil {
		t.Fatal(err)
	}
	h.eventually("the offer", func() bool { s := r.rec.lastState(); return s != nil && s.OffersDraw(board.Black) })
	if err := r.g.Draw(h.ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	r.done <- nil
	if s := r.rec.lastState(); s.Status != StatusDraw || s.Result() != "1/2-1/2" {
		t.Errorf("final %+v", s)
	}
}

// TestAbortResignClaim covers the game commands and lichess's answers.
func TestAbortResignClaim(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Moves: []string{"e2e4", "e7e5"}})
	if err := h.client.Abort(h.ctx, id); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "can no longer be aborted") {
		t.Errorf("abort after both moved: %v", err)
	}
	if err := h.client.ClaimVictory(h.ctx, id); err != nil {
		t.Errorf("an early claim: %v (lichess answers ok and does nothing)", err)
	}
	if v, _ := h.srv.Game(id); v.Status != "started" {
		t.Errorf("an early claim ended the game: %s", v.Status)
	}
	if err := h.srv.OpponentGone(id, true, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(30 * time.Second)
	if err := h.client.ClaimVictory(h.ctx, id); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.srv.Game(id); v.Status != "timeout" || v.Winner != "white" {
		t.Errorf("after the claim: %+v", v)
	}

	id2, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	if err := h.client.Abort(h.ctx, id2); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.srv.Game(id2); v.Status != "aborted" {
		t.Errorf("abort: %s", v.Status)
	}
	id3, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Moves: []string{"e2e4", "e7e5", "g1f3"}})
	if err := h.client.Resign(h.ctx, id3); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.srv.Game(id3); v.Status != "resign" || v.Winner != "white" {
		t.Errorf("resign: %+v", v)
	}
	if err := h.client.Chat(h.ctx, id3, "lobby", "hi"); err == nil {
		t.Error("chat in an unknown room accepted")
	}
}

// TestChatAndOpponentGone: chat lines and the opponent's absence reach the
// hooks.
func TestChatAndOpponentGone(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the stream", func() bool { return r.g.Snapshot().Up })
	if err := h.srv.Say(id, "player", "good luck"); err != nil {
		t.Fatal(err)
	}
	if err := h.srv.OpponentGone(id, true, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := h.client.Chat(h.ctx, id, "player", "thanks"); err != nil {
		t.Fatal(err)
	}
	h.eventually("chat and absence", func() bool {
		r.rec.mu.Lock()
		defer r.rec.mu.Unlock()
		return len(r.rec.chats) == 2 && len(r.rec.gone) == 1
	})
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	if r.rec.chats[0] != (ChatLine{Room: "player", Username: "Opponent", Text: "good luck"}) || r.rec.chats[1].Text != "thanks" {
		t.Errorf("chats %+v", r.rec.chats)
	}
	if r.rec.gone[0] != (OpponentGone{Gone: true, ClaimWinIn: 10 * time.Second, HasClaimTime: true}) {
		t.Errorf("gone %+v", r.rec.gone)
	}
}

// TestGameChecksLichess: a game the board cannot play, or whose record does
// not match lichess's start, stops the Game with a clear error.
func TestGameChecksLichess(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	fen := "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, InitialFEN: fen})
	// Taking lichess's initial position when the board has none.
	r := h.startGame(h.client, GameOptions{ID: id, Side: board.White})
	h.eventually("the first state", func() bool { return r.g.Snapshot().State != nil })
	h.move(r, "e2e4")
	h.waitServerPly(id, 1)
	r.stop()
	<-r.done
	r.done <- nil
	// A record from another start.
	r2 := h.startGame(h.client, GameOptions{ID: id, Side: board.White, Local: []string{"e2e4"}, InitialFEN: board.StartFEN})
	err := <-r2.done
	r2.done <- err
	if err == nil || !strings.Contains(err.Error(), "starts from") {
		t.Errorf("a record from another start: %v", err)
	}
	// No such game.
	r3 := h.startGame(h.client, GameOptions{ID: "nosuchgame", Side: board.White})
	err = <-r3.done
	r3.done <- err
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("no such game: %v", err)
	}
}
