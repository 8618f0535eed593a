package online

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
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
