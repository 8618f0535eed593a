package pair

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/voice"
)

func TestAnswerReadsTheOtherBoard(t *testing.T) {
	start := board.Start()
	e4, _ := board.ParseUCI("e2e4")
	q := opponent.Question{Start: start, Moves: []board.Move{e4}}
	ours := Game{Start: board.StartFEN, Moves: []string{"e2e4"}, Side: "white"}
	for _, c := range []struct {
		name   string
		theirs Game
		done   bool
		move   string
		differ string
	}{
		{"not moved there yet", Game{Start: board.StartFEN, Moves: []string{"e2e4"}}, false, "", ""},
		{"an older game", Game{Start: board.StartFEN}, false, "", ""},
		{"the next move", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5"}}, true, "e7e5", ""},
		{"a move differs", Game{Start: board.StartFEN, Moves: []string{"d2d4", "e7e5"}}, true, "", "move 1 is e2e4 here, d2d4 there"},
		{"two moves ahead", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5", "g1f3"}}, true, "", "whose move it is is in doubt"},
		{"another start", Game{Start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, true, "", "different positions"},
		{"an illegal move", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e4"}}, true, "", "e7e4 is no legal move"},
		{"both boards play White", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5"}, Side: "white"}, true, "", "both boards play white"},
		{"the other plays Black", Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5"}, Side: "black"}, true, "e7e5", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, done := answer(q, ours, c.theirs)
			if done != c.done {
				t.Fatalf("done %v, want %v", done, c.done)
			}
			if c.differ != "" {
				var de *DifferenceError
				if !errors.As(a.Err, &de) || !strings.Contains(a.Err.Error(), c.differ) {
					t.Errorf("answer %+v, want a difference saying %q", a, c.differ)
				}
				return
			}
			if a.Err != nil || c.move != "" && a.Move.UCI() != c.move {
				t.Errorf("answer %+v, want %s", a, c.move)
			}
		})
	}
}

// pairedBoard is one of the two boards: its game in real time, its match
// against the other board, its player's hands, and what its voice says.
type pairedBoard struct {
	r     *game.Runner
	p     *Player
	m     *opponent.Match
	hands *opponenttest.Hands
	mu    sync.Mutex
	said  []string
}

func (b *pairedBoard) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.said...)
}

func newPairedBoard(t *testing.T, ctx context.Context, human board.Color, link Link, moves []string, w voice.Words) *pairedBoard {
	t.Helper()
	return newPairedBoardUnder(t, ctx, game.Options{Laws: "fide2023"}, human, link, moves, w)
}

// newPairedBoardUnder is newPairedBoard with the game's options o (its
// law-set, a tournament; the timing is the test's).
func newPairedBoardUnder(t *testing.T, ctx context.Context, o game.Options, human board.Color, link Link, moves []string, w voice.Words) *pairedBoard {
	t.Helper()
	o.Timing = game.Timing{Settle: 40 * time.Millisecond, QuickSettle: 15 * time.Millisecond, OpenWait: 150 * time.Millisecond}
	g, err := game.New(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &pairedBoard{r: game.NewRunner(g, timing.NewReal())}
	ann := voice.NewAnnouncer(w, func(s string) { b.mu.Lock(); b.said = append(b.said, s); b.mu.Unlock() })
	b.r.OnReport(ann.Report)
	b.r.OnChange(ann.Snapshot)
	p := NewPlayer(link, "the other board", b.r, human)
	side := opponent.Black
	if human == board.Black {
		side = opponent.White
	}
	m, err := opponent.New(opponent.Options{Runner: b.r, Player: p, Side: side})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, run := range []func(context.Context) error{b.r.Run, p.Run, m.Run} {
		wg.Add(1)
		go func() { defer wg.Done(); _ = run(ctx) }()
	}
	t.Cleanup(wg.Wait)
	i := 0
	b.p, b.m = p, m
	b.hands = &opponenttest.Hands{Door: b.r, Human: human, Choose: func(a *board.Analysis) board.Move {
		mv, _ := board.ParseUCI(moves[i%len(moves)])
		i++
		return mv
	}}
	return b
}

// A whole game on two paired boards: the sighted player's (White, plain
// English) and the visually disabled player's (Black, Appendix D). Each
// board's hands play their own moves and carry out the other's as their
// board announces them; both games end alike, and the blind player's board
// has said every move, his opponent's to carry out first.
func TestPairedBoardsPlayOneGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	la, lb := Pipe()
	sighted := newPairedBoard(t, ctx, board.White, la, []string{"e2e4", "f1c4", "d1h5", "h5f7"}, voice.Words{})
	blind := newPairedBoard(t, ctx, board.Black, lb, []string{"e7e5", "b8c6", "g8f6"}, voice.Words{Lang: voice.English, Convention: voice.AppendixD})
	var wg sync.WaitGroup
	results := make([]*game.Snapshot, 2)
	errs := make([]error, 2)
	for i, b := range []*pairedBoard{sighted, blind} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = b.hands.Play(ctx, nil)
		}()
	}
	wg.Wait()
	defer cancel()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("board %d: %v", i, err)
		}
	}
	for i, s := range results {
		if s.Result == nil || s.Result.Result != "1-0" || s.Moves != 7 {
			t.Errorf("board %d: %d moves, result %+v; want mate in 7 plies, 1-0", i, s.Moves, s.Result)
		}
	}
	if results[0].Position != results[1].Position {
		t.Errorf("the boards differ at the end:\n%s\n%s", results[0].Position.FEN(), results[1].Position.FEN())
	}
	want := []string{
		"White plays Bauer Eva zwei Eva vier. Make the move on the board.",
		"Bauer Eva zwei Eva vier",
		"Bauer Eva sieben Eva fuenf",
		"White plays Laeufer Felix eins Cesar vier. Make the move on the board.",
		"Laeufer Felix eins Cesar vier",
		"Springer Bella acht Cesar sechs",
		"White plays Dame David eins Hector fuenf. Make the move on the board.",
		"Dame David eins Hector fuenf",
		"Springer Gustav acht Felix sechs",
		"White plays Dame Hector fuenf takes Felix sieben, checkmate. Make the move on the board.",
		"Dame Hector fuenf takes Felix sieben, checkmate",
		"White wins: checkmate.",
	}
	if got := blind.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the blind player's board said:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := sighted.lines(); len(got) < 7 || got[0] != "pawn from e2 to e4" || got[1] != "Black plays pawn from e7 to e5. Make the move on the board." {
		t.Errorf("the sighted player's board said %q", got)
	}
}

// A difference put right (D.2.7): the other board sends a game whose first
// move is not this board's; the match shows the difference as its fault and
// nothing is announced; once the other board sends the game put right, its
// move is shown for the player to carry out, and the fault clears.
func TestDifferencePutRight(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ours, theirs := Pipe()
	g, err := game.New(game.Options{Laws: "fide2023", Timing: game.Timing{Settle: 40 * time.Millisecond, QuickSettle: 15 * time.Millisecond, OpenWait: 150 * time.Millisecond}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRunner(g, timing.NewReal())
	p := NewPlayer(ours, "board-02", r, board.White)
	m, err := opponent.New(opponent.Options{Runner: r, Player: p, Side: opponent.Black, RetryAfter: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for _, run := range []func(context.Context) error{r.Run, p.Run, m.Run} {
		wg.Add(1)
		go func() { defer wg.Done(); _ = run(ctx) }()
	}
	hands := &opponenttest.Hands{Door: r, Human: board.White, Choose: func(*board.Analysis) board.Move { mv, _ := board.ParseUCI("e2e4"); return mv }}
	if _, err := hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == 1 }); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-theirs.Receive():
		if !sameGame(got, Game{Start: board.StartFEN, Moves: []string{"e2e4"}, Side: "white"}) {
			t.Fatalf("this board sent %+v, want its e2e4", got)
		}
	case <-ctx.Done():
		t.Fatal("this board sent nothing after its move")
	}
	if err := theirs.Send(ctx, Game{Start: board.StartFEN, Moves: []string{"d2d4", "d7d5"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the difference shown", func() bool {
		why, ok := Differs(m.State().Fault)
		return ok && why == "move 1 is e2e4 here, d2d4 there"
	})
	if s, _ := r.Snapshot(ctx); s.HasAwaiting {
		t.Errorf("a move from a differing board is shown: %s", s.Awaiting)
	}
	if err := theirs.Send(ctx, Game{Start: board.StartFEN, Moves: []string{"e2e4", "d7d5"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "d7d5 to carry out", func() bool {
		s, err := r.Snapshot(ctx)
		return err == nil && s.HasAwaiting && s.Awaiting.UCI() == "d7d5" && m.State().Fault == ""
	})
}

// waitFor polls cond until it holds, or fails the test when ctx ends.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}
