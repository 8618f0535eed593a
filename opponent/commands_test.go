package opponent_test

import (
	"context"
	"errors"
	"github.com/boardd/boardd/opponent"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// fakePlayer answers every question with its first legal move in UCI order
// (or what answer says), and keeps the questions it was asked. With hold set
// it answers only when released, so that a test can act while it
// "thinks".
type fakePlayer struct {
	mu        sync.Mutex
	questions []opponent.Question
	hints     int
	cancelled int
	level     string
	hold      bool
	release   chan struct{}
	answer    func(q opponent.Question) opponent.Answer
}

func newFake() *fakePlayer { return &fakePlayer{level: "depth 1", release: make(chan struct{}, 16)} }

func (f *fakePlayer) Name() string { return "Fake 1.0" }

func (f *fakePlayer) Level() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.level
}

func (f *fakePlayer) SetLevel(text string) error {
	l, err := computer.ParseLevel(text)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.level = l.String()
	f.mu.Unlock()
	return nil
}

func (f *fakePlayer) asked() []opponent.Question {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]opponent.Question(nil), f.questions...)
}

// firstMove is the first legal move of q's position in UCI order.
func firstMove(q opponent.Question) opponent.Answer {
	p := q.Start
	for _, m := range q.Moves {
		p = p.Apply(m)
	}
	a, err := board.Analyse(p)
	if err != nil || len(a.Moves) == 0 {
		return opponent.Answer{Err: errors.New("fake: no move")}
	}
	best := a.Moves[0]
	for _, m := range a.Moves[1:] {
		if m.UCI() < best.UCI() {
			best = m
		}
	}
	if p.IsPromotion(best) && best.Promo == board.NoKind {
		best.Promo = board.Queen
	}
	return opponent.Answer{Move: best, SAN: a.SAN(best), Eval: &opponent.Eval{White: computer.Score{Centipawns: 17}, Depth: 1, PV: []string{a.SAN(best)}}}
}

func (f *fakePlayer) Move(ctx context.Context, q opponent.Question) <-chan opponent.Answer {
	f.mu.Lock()
	f.questions = append(f.questions, q)
	hold, answer := f.hold, f.answer
	f.mu.Unlock()
	out := make(chan opponent.Answer, 1)
	go func() {
		if hold {
			select {
			case <-f.release:
			case <-ctx.Done():
				f.mu.Lock()
				f.cancelled++
				f.mu.Unlock()
				out <- opponent.Answer{Err: ctx.Err()}
				return
			}
		}
		if answer != nil {
			out <- answer(q)
			return
		}
		out <- firstMove(q)
	}()
	return out
}

func (f *fakePlayer) Hint(ctx context.Context, q opponent.Question) <-chan opponent.Answer {
	f.mu.Lock()
	f.hints++
	f.mu.Unlock()
	out := make(chan opponent.Answer, 1)
	out <- firstMove(q)
	return out
}

// eventually waits until cond holds (or fails the test after 10 s).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func snap(t *testing.T, b *testBoard) *game.Snapshot {
	t.Helper()
	s, err := b.r.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play plays the hands until done.
func play(t *testing.T, h *opponenttest.Hands, done func(s *game.Snapshot) bool) *game.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := h.Play(ctx, done)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fixed plays the given moves for the player, in order.
func fixed(ucis ...string) func(a *board.Analysis) board.Move {
	i := 0
	return func(a *board.Analysis) board.Move {
		m, _ := board.ParseUCI(ucis[i%len(ucis)])
		i++
		return m
	}
}

// With a time control the opponent is told the clocks: the time left on
// both (its own less the allowance for carrying its move out, unless its
// clock stops when the move is shown), the increment and the moves to the
// next control. With its clock stopping when its move is shown, the match
// presses its clock then, and the player's time runs while he carries the
// move out.
func TestQuestionsCarryTheClocks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		control string
		shown   bool
		inc     time.Duration
		toGo    int
	}{
		{"increment, carried", "300+2", false, 2 * time.Second, 0},
		{"stages, shown", "40/5400+30:1800+30", true, 30 * time.Second, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			b := newBoard(t, game.Options{TimeControl: tc.control})
			startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black, TimeControl: tc.control, ClockShown: tc.shown})
			h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4")}
			play(t, h, func(s *game.Snapshot) bool { return s.HasAwaiting })
			qs := f.asked()
			if len(qs) != 1 {
				t.Fatalf("%d questions", len(qs))
			}
			c := qs[0].Clocks
			if c == nil {
				t.Fatal("no clocks in the question")
			}
			total := 300 * time.Second
			if tc.control != "300+2" {
				total = 5400 * time.Second
			}
			black := total + tc.inc // Black's move has begun: its increment is given
			if !tc.shown {
				black -= 2 * time.Second
			}
			if c.WhiteInc != tc.inc || c.BlackInc != tc.inc || c.MovesToGo != tc.toGo {
				t.Errorf("increments %v %v, moves to go %d; want %v, %d", c.WhiteInc, c.BlackInc, c.MovesToGo, tc.inc, tc.toGo)
			}
			if c.Black > black || c.Black < black-time.Second || c.White > total+tc.inc || c.White < total-time.Second {
				t.Errorf("clocks White %v Black %v; want about %v and %v", c.White, c.Black, total, black)
			}
			s := snap(t, b)
			running := s.Clocks.Running
			if tc.shown && running != board.White || !tc.shown && running != board.Black {
				t.Errorf("while the engine's move waits to be carried out, %s's clock runs", running)
			}
			pressed := false
			for _, l := range b.lines() {
				if l.Kind == trace.Press && l.Side == trace.SideBlack && l.Button == trace.ButtonClock {
					pressed = true
				}
			}
			if pressed != tc.shown {
				t.Errorf("the engine's clock pressed: %v", pressed)
			}
		})
	}
}

// The player takes back his last move and the engine's reply, or, while
// the engine thinks, his last move alone (the engine stops thinking about
// it); the LEDs guide the board back, and the engine answers again.
func TestTakeBack(t *testing.T) {
	f := newFake()
	b := newBoard(t, game.Options{})
	m := startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black})
	h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4", "d2d4")}
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 2 })
	ctx := context.Background()
	if err := m.TakeBack(ctx, 0); err != nil {
		t.Fatal(err)
	}
	s := snap(t, b)
	if s.Moves != 0 || !s.Syncing || s.Expected.FEN() != board.StartFEN {
		t.Fatalf("after taking back two plies: %d moves, syncing %v, expected %s", s.Moves, s.Syncing, s.Expected.FEN())
	}
	r := b.reportsOf(report.Ruling)
	if len(r) != 1 || r[0].Option != report.OptTakeBack || r[0].By != report.White {
		t.Errorf("rulings %+v", r)
	}
	// The hands put the board back, then play d4; the engine holds its
	// answer, and the player takes d4 back while it thinks.
	f.mu.Lock()
	f.hold = true
	f.mu.Unlock()
	h.Choose = fixed("d2d4")
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 1 && !s.Syncing })
	eventually(t, "the engine to think", func() bool { return m.State().Thinking })
	if err := m.TakeBack(ctx, 0); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the question to be withdrawn", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.cancelled == 1
	})
	if s := snap(t, b); s.Moves != 0 {
		t.Errorf("%d moves after taking back one ply", s.Moves)
	}
	if err := m.TakeBack(ctx, 0); err == nil || !errors.Is(err, opponent.ErrRefused) {
		t.Errorf("a take-back with no move: %v", err)
	}
	f.mu.Lock()
	f.hold = false
	f.mu.Unlock()
	h.Choose = fixed("g1f3")
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 2 })
	if fen, _ := b.live(); !strings.HasPrefix(fen, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R") && !strings.Contains(fen, "5N2") {
		t.Errorf("position %s", fen)
	}
	bfen, bpgn := b.live()
	if rfen, rpgn := b.replayed(); rfen != bfen || withoutPlayers(rpgn) != withoutPlayers(bpgn) {
		t.Errorf("the replay differs:\n%s\n%s", bpgn, rpgn)
	}
}

// A hint is the engine's best move for the player, lit on the board until
// he moves; none is given while the engine is to move.
func TestHint(t *testing.T) {
	f := newFake()
	b := newBoard(t, game.Options{})
	m := startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black})
	eventually(t, "Black to be played from off the board", func() bool { return snap(t, b).Remote[board.Black] })
	if err := m.Hint(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the hint", func() bool { return snap(t, b).HasHint })
	if s := snap(t, b); s.Hint.UCI() != "a2a3" {
		t.Errorf("hint %s, want a2a3 (the fake's first move)", s.Hint.UCI())
	}
	if st := m.State(); st.Hint != "a3" || st.HintEval == nil || st.HintEval.Ply != 0 || st.HintEval.White.Centipawns != 17 {
		t.Errorf("state's hint %q %+v, want a3 with the fake's +0.17 for the start (ply 0)", st.Hint, st.HintEval)
	}
	if st := m.State(); st.Eval == nil || st.Eval.Ply != 0 {
		t.Errorf("the hint's evaluation of the start is not shown as the position's: %+v", st.Eval)
	}
	f.mu.Lock()
	f.hold = true
	f.mu.Unlock()
	h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4")}
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 1 })
	if s := snap(t, b); s.HasHint {
		t.Error("the hint is still lit after the player moved")
	}
	eventually(t, "the hint of the position before the move to go from the state", func() bool {
		st := m.State()
		return st.Hint == "" && st.HintEval == nil && st.Eval == nil
	})
	if err := m.Hint(context.Background()); !errors.Is(err, opponent.ErrRefused) || !strings.Contains(err.Error(), "black's move") {
		t.Errorf("a hint on the engine's move: %v", err)
	}
}

// A draw offer goes with the engine's next question; the engine accepts
// (the game ends drawn by agreement) or declines (it plays on).
func TestDrawOffer(t *testing.T) {
	for _, accept := range []bool{true, false} {
		t.Run(map[bool]string{true: "accepted", false: "declined"}[accept], func(t *testing.T) {
			f := newFake()
			f.answer = func(q opponent.Question) opponent.Answer {
				a := firstMove(q)
				a.AcceptsDraw = q.DrawOffered && accept
				return a
			}
			b := newBoard(t, game.Options{})
			m := startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black})
			eventually(t, "Black to be played from off the board", func() bool { return snap(t, b).Remote[board.Black] })
			if err := m.OfferDraw(context.Background()); err != nil {
				t.Fatal(err)
			}
			if st := m.State(); st.Draw != opponent.DrawOffered {
				t.Errorf("draw %q", st.Draw)
			}
			h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4")}
			s := play(t, h, func(s *game.Snapshot) bool { return s.Result != nil || s.Moves == 2 })
			qs := f.asked()
			if len(qs) == 0 || !qs[0].DrawOffered {
				t.Fatalf("the offer did not reach the engine: %+v", qs)
			}
			if accept {
				if s.Result == nil || s.Result.Result != report.Draw || s.Result.Reason != "draw agreed" {
					t.Errorf("result %+v", s.Result)
				}
				eventually(t, "the state to say the draw was accepted", func() bool { return m.State().Draw == opponent.DrawAccepted })
				// A new game begun at the board, not by the match's command:
				// the word on the last game's offer and move goes with it.
				l := trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}
				if err := b.r.Submit(context.Background(), l); err != nil {
					t.Fatal(err)
				}
				eventually(t, "the last game's words cleared", func() bool {
					st := m.State()
					return st.Draw == "" && st.Move == "" && st.Eval == nil
				})
				return
			}
			if s.Result != nil || s.Moves != 2 {
				t.Errorf("declined, yet result %+v after %d moves", s.Result, s.Moves)
			}
			eventually(t, "the state to say the draw was declined", func() bool { return m.State().Draw == opponent.DrawDeclined })
			// The word stays while the reply is carried out and goes with
			// the player's next move.
			h.Choose = fixed("d2d4")
			play(t, h, func(s *game.Snapshot) bool { return s.Moves == 3 })
			eventually(t, "the declined offer forgotten after the next move", func() bool { return m.State().Draw == "" })
		})
	}
}

// The player resigns; a new game begins (with a side drawn at random drawn
// again); the engine changes sides and level when told.
func TestResignNewGameSideAndLevel(t *testing.T) {
	f := newFake()
	b := newBoard(t, game.Options{})
	m := startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black})
	ctx := context.Background()
	eventually(t, "Black to be played from off the board", func() bool { return snap(t, b).Remote[board.Black] })
	eventually(t, "the PGN to name the engine", func() bool {
		_, pgn := b.live()
		return strings.Contains(pgn, `[Black "Fake 1.0, depth 1"]`)
	})
	if err := m.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if s := snap(t, b); s.Result == nil || s.Result.Result != report.BlackWins || s.Result.Reason != "white resigns" {
		t.Fatalf("result %+v", s.Result)
	}
	if err := m.Resign(ctx); !errors.Is(err, opponent.ErrRefused) {
		t.Errorf("resigning twice: %v", err)
	}
	if err := m.SetLevel(ctx, "skill:3"); err != nil {
		t.Fatal(err)
	}
	if err := m.SetLevel(ctx, "elo:x"); !errors.Is(err, opponent.ErrRefused) {
		t.Errorf("a level that is none: %v", err)
	}
	if err := m.SetSide(ctx, opponent.White); err != nil {
		t.Fatal(err)
	}
	if err := m.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	// The engine, now White, moves first in the new game.
	h := &opponenttest.Hands{Door: b.r, Human: board.Black, Choose: fixed("e7e5")}
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 2 })
	s := snap(t, b)
	if !s.Remote[board.White] || s.Remote[board.Black] || s.Result != nil {
		t.Errorf("remote %v, result %+v", s.Remote, s.Result)
	}
	_, pgn := b.live()
	if !strings.Contains(pgn, `[White "Fake 1.0, Skill Level 3"]`) || !strings.Contains(pgn, `[Black "?"]`) {
		t.Errorf("tags after the change of sides and level:\n%s", pgn)
	}
	if h.Carried != 1 {
		t.Errorf("%d engine moves carried out", h.Carried)
	}
	for _, cmd := range []struct{ name, value string }{{"side", "purple"}, {"takeback", "3"}, {"hint", "x"}, {"castle", ""}} {
		if err := m.Do(ctx, cmd.name, cmd.value); !errors.Is(err, opponent.ErrRefused) {
			t.Errorf("%s %q: %v", cmd.name, cmd.value, err)
		}
	}
}

// A player that cannot answer: the fault is shown, the game waits, and the
// question is asked again; when an answer comes the fault goes.
func TestFaultShownAndAskedAgain(t *testing.T) {
	f := newFake()
	fails := 2
	f.answer = func(q opponent.Question) opponent.Answer {
		f.mu.Lock()
		defer f.mu.Unlock()
		if fails > 0 {
			fails--
			return opponent.Answer{Err: errors.New("computer: engine Fake (/fake) crashed while searching: its process ended")}
		}
		return firstMove(q)
	}
	b := newBoard(t, game.Options{})
	m := startMatch(t, b, opponent.Options{Player: f, Side: opponent.White, RetryAfter: 50 * time.Millisecond})
	eventually(t, "the fault to show", func() bool { return strings.Contains(m.State().Fault, "crashed") })
	if s := snap(t, b); s.HasAwaiting || s.Moves != 0 || s.Result != nil {
		t.Errorf("the game did not wait: awaiting %v, %d moves, result %v", s.HasAwaiting, s.Moves, s.Result)
	}
	eventually(t, "the move after the fault", func() bool { return snap(t, b).HasAwaiting })
	if st := m.State(); st.Fault != "" || len(f.asked()) != 3 {
		t.Errorf("fault %q after %d questions", st.Fault, len(f.asked()))
	}
}

// With evaluations on, each move of the engine carries its evaluation in
// the PGN once carried out, and the Annotator names the engine.
func TestEvaluationsNoted(t *testing.T) {
	f := newFake()
	b := newBoard(t, game.Options{})
	annotate := func(ctx context.Context, ply int, san, comment string) error {
		return b.r.Do(ctx, func(g *game.Game, _ time.Duration) {
			if err := opponent.Annotated(g, ply, san); err != nil {
				t.Error(err)
				return
			}
			if err := g.Annotate(ply, comment); err != nil {
				t.Error(err)
			}
		})
	}
	startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black, Annotate: annotate})
	h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4", "d2d4")}
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 4 })
	eventually(t, "the second evaluation", func() bool {
		_, pgn := b.live()
		return strings.Count(pgn, "[%eval 0.17,1] Fake 1.0:") == 2
	})
	if n := len(f.asked()); n != 2 {
		t.Errorf("the engine was asked %d times for its two moves", n)
	}
	if _, pgn := b.live(); !strings.Contains(pgn, `[Annotator "Fake 1.0"]`) || !strings.Contains(pgn, "a5 {[%eval 0.17,1]") {
		t.Errorf("PGN:\n%s", pgn)
	}
}

// The players' names come back to a side the engine leaves: with names
// given, the tag of the side it played takes the name of the player there
// again; without, "?".
func TestTagsAfterChangeOfSides(t *testing.T) {
	tests := []struct {
		name    string
		players [2]string
		want    string
	}{
		{"names given", [2]string{board.White: "Anna", board.Black: "Ben"}, `[Black "Ben"]`},
		{"no names", [2]string{}, `[Black "?"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			b := newBoard(t, game.Options{})
			m := startMatch(t, b, opponent.Options{Player: f, Side: opponent.Black, Players: tc.players})
			eventually(t, "the PGN to name the engine as Black", func() bool {
				_, pgn := b.live()
				return strings.Contains(pgn, `[Black "Fake 1.0, depth 1"]`)
			})
			if err := m.SetSide(context.Background(), opponent.White); err != nil {
				t.Fatal(err)
			}
			eventually(t, "the PGN to name the engine as White and "+tc.want, func() bool {
				_, pgn := b.live()
				return strings.Contains(pgn, `[White "Fake 1.0, depth 1"]`) && strings.Contains(pgn, tc.want)
			})
		})
	}
}
