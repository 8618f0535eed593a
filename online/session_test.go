package online

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/lichess/lichesstest"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
)

// quick are the gesture timings of the tests' boards: hands that move fast
// and a board that takes their moves at once.
var quick = game.Timing{Settle: 40 * time.Millisecond, QuickSettle: 15 * time.Millisecond, OpenWait: 150 * time.Millisecond}

// logBuffer collects log output from many goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// rig is a simulated board playing a game on a local lichess: the board's
// runner, the server, the session and the match that drives its player.
type rig struct {
	t       *testing.T
	ctx     context.Context
	srv     *lichesstest.Server
	runner  *game.Runner
	session *Session
	match   *opponent.Match
	id      string
	side    board.Color
	logs    *logBuffer
	runErr  chan error
}

func newRig(t *testing.T, spec lichesstest.GameSpec) *rig {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	logs := &logBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := lichesstest.New(lichesstest.Options{GameKeepAlive: 100 * time.Millisecond, EventKeepAlive: 100 * time.Millisecond, Logger: log})
	t.Cleanup(srv.Close)
	id, err := srv.CreateGame(spec)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := lichess.NewToken(srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	client, err := lichess.New(lichess.Options{
		BaseURL: srv.URL(), Token: tok, Logger: log,
		StallTimeout: 600 * time.Millisecond, RequestTimeout: 2 * time.Second,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, RateLimitPause: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Options{Laws: "fide2023", Timing: quick}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := game.NewRunner(g, timing.NewReal())
	rctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = runner.Run(rctx) }()
	s, err := New(Options{Client: client, Runner: runner, GameID: id, Side: spec.Side, SiteURL: "https://lichess.org", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	oppSide := opponent.Black
	if spec.Side == board.Black {
		oppSide = opponent.White
	}
	m, err := opponent.New(opponent.Options{Runner: runner, Player: s.Player(), Side: oppSide, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, ctx: ctx, srv: srv, runner: runner, session: s, match: m, id: id, side: spec.Side, logs: logs, runErr: make(chan error, 1)}
	wg.Add(2)
	go func() { defer wg.Done(); _ = m.Run(rctx) }()
	go func() { defer wg.Done(); r.runErr <- s.Run(rctx) }()
	t.Cleanup(func() {
		stop()
		wg.Wait()
		if t.Failed() {
			t.Logf("log:\n%s", logs.String())
		}
		if strings.Contains(logs.String(), srv.Token()) {
			t.Error("the token appears in the log")
		}
	})
	return r
}

// hands are the player at the board, playing script's moves in turn (the
// n-th of the board's side's moves from the position's move number) and
// carrying out lichess's.
func (r *rig) hands(script []string) *opponenttest.Hands {
	return &opponenttest.Hands{
		Door: r.runner, Human: r.side, Timeout: 8 * time.Second,
		Choose: func(a *board.Analysis) board.Move {
			i := a.Position.FullMove - 1
			if i >= len(script) {
				r.t.Fatalf("the script has no move %d", i+1)
			}
			m, err := board.ParseUCI(script[i])
			if err != nil {
				r.t.Fatal(err)
			}
			return m
		},
	}
}

// play plays until done holds (or the game is over, done nil).
func (r *rig) play(h *opponenttest.Hands, done func(s *game.Snapshot) bool) *game.Snapshot {
	r.t.Helper()
	s, err := h.Play(r.ctx, done)
	if err != nil {
		r.t.Fatalf("%v (lichess: %+v)", err, r.view())
	}
	return s
}

func (r *rig) view() lichesstest.GameView {
	v, _ := r.srv.Game(r.id)
	return v
}

// checkOnce checks that lichess played every move POSTed at most once per
// ply, and that every ply of the board's side lichess has was POSTed.
func (r *rig) checkOnce() {
	r.t.Helper()
	played := map[int]int{}
	for _, p := range r.srv.MovePosts() {
		if p.Played {
			played[p.Ply]++
		}
	}
	for ply, n := range played {
		if n != 1 {
			r.t.Errorf("ply %d played %d times", ply, n)
		}
	}
}

func (r *rig) pgn() string {
	p, err := r.runner.PGN(r.ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	return p
}

func (r *rig) eventually(what string, cond func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			r.t.Fatalf("timed out waiting for %s (lichess %+v, session %+v)", what, r.view(), r.session.State())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// scholar is a short game White wins by mate: the board's moves and the
// opponent's.
var (
	scholarWhite = []string{"e2e4", "f1c4", "d1h5", "h5f7"}
	scholarBlack = []string{"e7e5", "b8c6", "g8f6"}
)

func TestGameThroughFaults(t *testing.T) {
	tests := []struct {
		name  string
		fault func(r *rig, ply int) // before the board's move at ply (0, 2, 4, 6)
	}{
		{"clean", func(*rig, int) {}},
		{"dropped streams", func(r *rig, ply int) { r.srv.DropStreams() }},
		{"429 before a move", func(r *rig, ply int) {
			if ply == 2 {
				r.srv.RateLimitNext(1, "/api/board/game/"+r.id+"/move", 0)
			}
		}},
		{"stalled stream", func(r *rig, ply int) {
			if ply == 4 {
				r.srv.StallStreams()
			}
		}},
		{"answer lost", func(r *rig, ply int) {
			if ply == 2 {
				r.srv.FaultNextMove(lichesstest.MoveFault{Kind: lichesstest.SwallowAnswer})
			}
		}},
		{"move lost", func(r *rig, ply int) {
			if ply == 4 {
				r.srv.FaultNextMove(lichesstest.MoveFault{Kind: lichesstest.LoseMove})
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, lichesstest.GameSpec{Side: board.White, Rated: true, Clock: &lichesstest.GameClock{Initial: 10 * time.Minute, Increment: 5 * time.Second},
				Opponent: lichesstest.Opponent{Name: "Rival", Rating: 1720, Moves: scholarBlack}})
			h := r.hands(scholarWhite)
			for ply := 0; ply < 8; ply += 2 {
				r.play(h, func(s *game.Snapshot) bool { return s.Moves == ply && s.Position.Turn == board.White && !s.HasAwaiting })
				tc.fault(r, ply)
				r.play(h, func(s *game.Snapshot) bool { return s.Moves > ply || s.Result != nil })
			}
			end := r.play(h, nil)
			if end.Result == nil || end.Result.Result != report.WhiteWins {
				t.Fatalf("the board's result: %+v", end.Result)
			}
			r.eventually("lichess's mate", func() bool { return r.view().Status == "mate" })
			r.checkOnce()
			if got := r.view().Moves; strings.Join(got, " ") != "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7" {
				t.Errorf("lichess's moves: %v", got)
			}
			pgn := r.pgn()
			for _, want := range []string{`[Site "https://lichess.org/` + r.id + `"]`, `[Black "Rival"]`, `[BlackElo "1720"]`, `[White "Boarddplayer"]`, "4. Qxf7#"} {
				if !strings.Contains(pgn, want) {
					t.Errorf("PGN lacks %s:\n%s", want, pgn)
				}
			}
			r.eventually("the session's result", func() bool { return r.session.State().Result != "" })
			st := r.session.State()
			if st.Opponent != "Rival" || st.Rating != 1720 || st.Clocks == nil || st.Result != "1-0" {
				t.Errorf("session state: %+v", st)
			}
		})
	}
}

func TestRefusedMoveIsTakenBack(t *testing.T) {
	r := newRig(t, lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: scholarBlack}})
	h := r.hands(scholarWhite)
	r.play(h, func(s *game.Snapshot) bool { return s.Moves == 2 && !s.HasAwaiting })
	r.srv.FaultNextMove(lichesstest.MoveFault{Kind: lichesstest.RefuseMove, Reason: "Not your turn, or game already over"})
	// The board's move is refused: the board takes it back, the hands put
	// the bishop back and play it again, and lichess takes it this time.
	r.play(h, func(s *game.Snapshot) bool { return s.Moves == 4 && !s.HasAwaiting })
	if n := r.runner; n == nil {
		t.Fatal("no runner")
	}
	if st := r.session.State(); !strings.Contains(st.Notice, "refused the move f1c4") {
		t.Errorf("notice: %q", st.Notice)
	}
	posts := r.srv.MovePosts()
	var f1c4 []int
	for _, p := range posts {
		if p.Move == "f1c4" {
			f1c4 = append(f1c4, p.Status)
		}
	}
	if len(f1c4) != 2 || f1c4[0] != 400 || f1c4[1] != 200 {
		t.Errorf("f1c4 POSTs answered %v, want [400 200]", f1c4)
	}
	if h.Played != 3 {
		t.Errorf("the hands played %d moves, want 3 (f1c4 twice)", h.Played)
	}
	r.checkOnce()
}

func TestLichessEndsTheGame(t *testing.T) {
	tests := []struct {
		name   string
		side   board.Color
		act    func(r *rig) error
		result report.Outcome
		status string
	}{
		{"opponent resigns", board.White, func(r *rig) error { return r.srv.OpponentResigns(r.id) }, report.WhiteWins, "resign"},
		{"board resigns", board.Black, func(r *rig) error { return r.session.Do(r.ctx, CommandResign, "") }, report.WhiteWins, "resign"},
		{"draw agreed", board.White, func(r *rig) error { return r.session.Do(r.ctx, CommandDraw, "") }, report.Draw, "draw"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script, theirs := []string{"e2e4", "g1f3", "f1c4"}, []string{"e7e5", "b8c6", "f8c5"}
			if tc.side == board.Black {
				script, theirs = theirs, script
			}
			r := newRig(t, lichesstest.GameSpec{Side: tc.side, Opponent: lichesstest.Opponent{Moves: theirs, AcceptDraw: true}})
			h := r.hands(script)
			r.play(h, func(s *game.Snapshot) bool { return s.Moves >= 4 && s.Position.Turn == tc.side && !s.HasAwaiting })
			if err := tc.act(r); err != nil {
				t.Fatal(err)
			}
			end := r.play(h, nil)
			if end.Result.Result != tc.result {
				t.Errorf("the board's result %s, want %s", end.Result.Result, tc.result)
			}
			if v := r.view(); v.Status != tc.status {
				t.Errorf("lichess's status %s, want %s", v.Status, tc.status)
			}
			if err := r.session.Do(r.ctx, CommandDraw, ""); err == nil {
				t.Error("a draw offer after the end was not refused")
			}
			select {
			case err := <-r.runErr:
				if err != nil {
					t.Errorf("the session ended with %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Error("the session did not end with the game")
			}
		})
	}
}

func TestTakebackAgreedOnLichess(t *testing.T) {
	r := newRig(t, lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5"}, AcceptTakeback: true}})
	h := r.hands([]string{"e2e4", "g1f3"})
	r.play(h, func(s *game.Snapshot) bool { return s.Moves == 3 })
	// White has played Nf3 on the board and lichess: a takeback asked by
	// the side not to move takes back one ply there, and so on the board.
	r.eventually("Nf3 on lichess", func() bool { return len(r.view().Moves) == 3 })
	if err := r.session.Do(r.ctx, CommandTakeBack, ""); err != nil {
		t.Fatal(err)
	}
	r.eventually("the takeback on lichess", func() bool { return len(r.view().Moves) == 2 })
	h.Choose = nil
	s := r.play(h, func(s *game.Snapshot) bool { return s.Moves == 2 && !s.Syncing })
	if s.Position.Turn != board.White {
		t.Errorf("after the takeback %s is to move", s.Position.Turn)
	}
	if err := r.session.Do(r.ctx, "castle", ""); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Errorf("an unknown command: %v", err)
	}
}

func TestSendLogRoundTrip(t *testing.T) {
	path := SendLogPath(t.TempDir(), "abcd1234")
	if got, err := LoadSendLog(path); err != nil || got != nil {
		t.Fatalf("a missing log: %v, %v", got, err)
	}
	want := []lichess.Sent{{Ply: 0, Move: "e2e4", Status: lichess.SendSeen}, {Ply: 2, Move: "g1f3", Status: lichess.SendPending}}
	if err := SaveSendLog(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSendLog(path)
	if err != nil || len(got) != 2 || got[1] != want[1] {
		t.Fatalf("read back %v, %v", got, err)
	}
}

// The console's API takes every command a session does.
func TestConsoleTakesTheCommands(t *testing.T) {
	for _, c := range Commands() {
		if !slices.Contains(console.OpponentCommands(), c) {
			t.Errorf("the console refuses %q", c)
		}
	}
}

// A move of the board's side made on lichess itself (the player moved in a
// browser) is shown on the board for the player to make, with a notice;
// a different move made on the board meanwhile is taken back first. The
// board and lichess end in step, and boardd sends nothing for that ply.
func TestMoveMadeElsewhereIsGuidedOntoTheBoard(t *testing.T) {
	tests := []struct {
		name     string
		firstTry string // the board's move at that ply before the player follows the LEDs ("" for none)
	}{
		{name: "the board follows"},
		{name: "another move on the board first", firstTry: "d2d4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Moves: []string{"e7e5", "b8c6"}}})
			tries := 0
			h := &opponenttest.Hands{
				Door: r.runner, Human: board.White, Timeout: 8 * time.Second,
				Choose: func(a *board.Analysis) board.Move {
					uci := "e2e4"
					if a.Position.FullMove == 2 {
						// The player follows the LEDs, unless trying another
						// move first.
						uci = "g1f3"
						if tries++; tries == 1 && tc.firstTry != "" {
							uci = tc.firstTry
						}
					}
					m, _ := board.ParseUCI(uci)
					return m
				},
			}
			r.play(h, func(s *game.Snapshot) bool { return s.Moves == 2 && s.Position.Turn == board.White && !s.HasAwaiting })
			// What the board showed and the player was told, in order.
			var mu sync.Mutex
			var shown, notices []string
			r.runner.OnChange(func(s *game.Snapshot) {
				mu.Lock()
				defer mu.Unlock()
				step := fmt.Sprint(s.Moves)
				if s.HasLastMove {
					step += " " + s.LastMove.UCI()
				}
				if s.HasHint {
					step += " hint " + s.Hint.UCI()
				}
				if len(shown) == 0 || shown[len(shown)-1] != step {
					shown = append(shown, step)
				}
			})
			r.session.Watch(func() {
				n := r.session.State().Notice
				mu.Lock()
				defer mu.Unlock()
				if n != "" && (len(notices) == 0 || notices[len(notices)-1] != n) {
					notices = append(notices, n)
				}
			})
			// Nf3 in a browser; the opponent answers at once.
			if _, err := r.session.o.Client.PostMove(r.ctx, r.id, "g1f3", false); err != nil {
				t.Fatal(err)
			}
			r.eventually("lichess's moves in the session", func() bool { return len(r.session.game.Snapshot().Moves) == 4 })
			r.eventually("Nf3 shown on the board", func() bool {
				s, err := r.runner.Snapshot(r.ctx)
				return err == nil && s.HasHint && s.Hint.UCI() == "g1f3" && s.Moves == 2
			})
			end := r.play(h, func(s *game.Snapshot) bool { return s.Moves == 4 && !s.HasAwaiting })
			if end.Position.Turn != board.White {
				t.Errorf("after Nf3 Nc6 %s is to move", end.Position.Turn)
			}
			if !strings.Contains(r.pgn(), "2. Nf3 Nc6") {
				t.Errorf("the board's game:\n%s", r.pgn())
			}
			if got := strings.Join(r.view().Moves, " "); got != "e2e4 e7e5 g1f3 b8c6" {
				t.Errorf("lichess's moves %s", got)
			}
			if tries != 1+len(tc.firstTry)/4 {
				t.Errorf("the player was asked %d times for move 2", tries)
			}
			for _, p := range r.srv.MovePosts() {
				if p.Ply == 2 && p.Move != "g1f3" {
					t.Errorf("boardd sent %s at ply 2", p.Move)
				}
			}
			r.checkOnce()
		})
	}
}
