package opponent_test

import (
	"bufio"
	"bytes"
	"context"
	"github.com/boardd/boardd/opponent"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

const stockfishPath = "/usr/games/stockfish"

// stockfish returns the real engine's path, or skips the test when it is
// not installed (CI installs Debian's stockfish package).
func stockfish(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Skipf("Stockfish is not installed (apt-get install stockfish): %v", err)
	}
	return stockfishPath
}

// quick are the gesture timings of the tests' boards: hands that move fast
// and a board that takes their moves at once, so that a whole game plays in
// seconds.
var quick = game.Timing{Settle: 40 * time.Millisecond, QuickSettle: 15 * time.Millisecond, OpenWait: 150 * time.Millisecond}

// testBoard is a simulated board's game run in real time, with every input
// and report kept for the replay.
type testBoard struct {
	t       testing.TB
	opts    game.Options
	r       *game.Runner
	mu      sync.Mutex
	inputs  []trace.Line
	reports []report.Report
	stop    context.CancelFunc
	done    chan struct{}
}

func newBoard(t testing.TB, opts game.Options) *testBoard {
	t.Helper()
	if opts.Laws == "" {
		opts.Laws = "fide2023"
	}
	opts.Timing = quick
	g, err := game.New(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &testBoard{t: t, opts: opts, r: game.NewRunner(g, timing.NewReal()), done: make(chan struct{})}
	b.r.OnInput(func(l trace.Line) {
		b.mu.Lock()
		b.inputs = append(b.inputs, l)
		b.mu.Unlock()
	})
	b.r.OnReport(func(r report.Report) {
		b.mu.Lock()
		b.reports = append(b.reports, r)
		b.mu.Unlock()
	})
	ctx, cancel := context.WithCancel(context.Background())
	b.stop = cancel
	go func() {
		defer close(b.done)
		_ = b.r.Run(ctx)
	}()
	t.Cleanup(b.close)
	return b
}

func (b *testBoard) close() {
	b.stop()
	<-b.done
}

// lines returns the inputs so far.
func (b *testBoard) lines() []trace.Line {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]trace.Line(nil), b.inputs...)
}

// reportsOf returns the reports of type typ so far.
func (b *testBoard) reportsOf(typ report.Type) []report.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []report.Report
	for _, r := range b.reports {
		if r.Type == typ {
			out = append(out, r)
		}
	}
	return out
}

// replayed plays the board's inputs again through game.Replay, in virtual
// time, as `boardd replay` and a recovery from the journal do, and returns
// the final position and PGN.
func (b *testBoard) replayed() (fen, pgn string) {
	b.t.Helper()
	var in bytes.Buffer
	if b.opts.Setup != "" {
		in.WriteString(`{"t":0,"setup":"` + b.opts.Setup + `"}` + "\n")
	}
	for _, l := range b.lines() {
		in.Write(trace.Append(nil, l))
	}
	opts := b.opts
	opts.Setup = ""
	var out bytes.Buffer
	if err := game.Replay(context.Background(), &in, &out, opts); err != nil {
		b.t.Fatalf("replay: %v\n%s", err, in.String())
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	var end report.Report
	for sc.Scan() {
		r, err := report.Parse(sc.Bytes())
		if err != nil {
			b.t.Fatal(err)
		}
		if r.Type == report.End {
			end = r
		}
	}
	return end.FEN, end.PGN
}

// live returns the game's position and PGN as it stands.
func (b *testBoard) live() (fen, pgn string) {
	b.t.Helper()
	s, err := b.r.Snapshot(context.Background())
	if err != nil {
		b.t.Fatal(err)
	}
	p, err := b.r.PGN(context.Background())
	if err != nil {
		b.t.Fatal(err)
	}
	return s.Position.FEN(), p
}

// startEngine starts Stockfish at level and closes it when the test ends.
func startEngine(t testing.TB, level string) *opponent.Engine {
	t.Helper()
	l, err := computer.ParseLevel(level)
	if err != nil {
		t.Fatal(err)
	}
	p, err := computer.Start(context.Background(), computer.Options{Path: stockfish(t), Level: l})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return opponent.NewEngine(p)
}

// startMatch runs a match of player on b until the test ends.
func startMatch(t testing.TB, b *testBoard, o opponent.Options) *opponent.Match {
	t.Helper()
	o.Runner = b.r
	m, err := opponent.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = m.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return m
}

// engineMoves picks the player's moves with a weak engine of its own, so
// that games last long enough to show something.
func engineMoves(t testing.TB) func(a *board.Analysis) board.Move {
	p, err := computer.Start(context.Background(), computer.Options{Path: stockfish(t), Level: computer.Level{Strength: computer.StrengthSkill, Skill: 0, Limit: computer.Limit{Depth: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return func(a *board.Analysis) board.Move {
		r := <-p.Think(context.Background(), computer.Request{StartFEN: a.Position.FEN()})
		if r.Err != nil {
			t.Errorf("the player's engine: %v", r.Err)
			return a.Moves[0]
		}
		return r.Reply.Move
	}
}

// withoutPlayers drops the White and Black tags of a PGN: the match sets
// them on the game (the daemon journals them apart from the inputs).
func withoutPlayers(pgn string) string {
	var keep []string
	for _, l := range strings.Split(pgn, "\n") {
		if !strings.HasPrefix(l, "[White ") && !strings.HasPrefix(l, "[Black ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// Whole games against Stockfish on a simulated board: the engine plays
// either side; the player's hands carry out its moves and play moves of
// their own; every move of the engine is recorded as announced, nothing is
// an irregularity or a mismatch, the PGN names the engine, and the game's
// inputs replayed in virtual time (as the journal's recovery replays them)
// give the same game, move for move.
func TestWholeGamesAgainstStockfish(t *testing.T) {
	eng := startEngine(t, "skill:0,depth:2")
	choose := engineMoves(t)
	for _, tc := range []struct {
		side opponent.Side
	}{
		{opponent.White},
		{opponent.Black},
	} {
		t.Run(tc.side.String(), func(t *testing.T) {
			b := newBoard(t, game.Options{})
			startMatch(t, b, opponent.Options{Player: eng, Side: tc.side})
			human := board.White
			if tc.side == opponent.White {
				human = board.Black
			}
			h := &opponenttest.Hands{Door: b.r, Human: human, Choose: choose}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			s, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Result != nil || s.Moves >= 160 })
			if err != nil {
				t.Fatal(err)
			}
			if h.Carried < 10 || h.Played < 10 {
				t.Fatalf("%d engine moves carried out, %d played: too short a game to prove anything", h.Carried, h.Played)
			}
			t.Logf("%d plies, result %v, %d engine moves carried out", s.Moves, s.Result != nil, h.Carried)
			for _, typ := range []report.Type{report.Irregularity, report.Mismatch} {
				if rs := b.reportsOf(typ); len(rs) > 0 {
					t.Errorf("%d %s reports, the first %+v", len(rs), typ, rs[0])
				}
			}
			engineMoves := 0
			for _, r := range b.reportsOf(report.Move) {
				if r.Side == board.Color(tc.side).String() {
					engineMoves++
				}
			}
			if engineMoves != h.Carried {
				t.Errorf("%d engine moves recorded, %d carried out", engineMoves, h.Carried)
			}
			fen, pgn := b.live()
			tag := `[White "Stockfish`
			if tc.side == opponent.Black {
				tag = `[Black "Stockfish`
			}
			if !strings.Contains(pgn, tag) || !strings.Contains(pgn, "Skill Level 0, depth 2") {
				t.Errorf("the PGN does not name the engine and its level:\n%s", pgn)
			}
			rfen, rpgn := b.replayed()
			if rfen != fen || withoutPlayers(rpgn) != withoutPlayers(pgn) {
				t.Errorf("the replay differs:\nlive   %s\n%s\nreplay %s\n%s", fen, pgn, rfen, rpgn)
			}
		})
	}
}

// Every special move the engine can make, carried out on the board: in each
// set-up position the special move is the engine's only legal move or its
// only mate in one. The hands carry it out as hands do (the king then the
// rook, the pawn taken en passant lifted last, the promoted piece set down
// on the last rank, a knight where a queen would not mate), the game records
// it as announced with no irregularity and no mismatch, and a replay of the
// inputs gives the same game.
func TestEngineSpecialMovesOnTheBoard(t *testing.T) {
	eng := startEngine(t, "skill:0,depth:2")
	for _, tc := range []struct {
		name, fen, san string
	}{
		{"white castles long", "4R3/8/8/8/8/1P1k4/1P6/R3K3 w Q - 0 1", "O-O-O#"},
		{"black castles long", "r3k3/1p6/1p1K4/8/8/8/8/4r3 b q - 0 1", "O-O-O#"},
		{"white castles short", "4R3/8/8/8/8/5k1P/7P/4K2R w K - 0 1", "O-O#"},
		{"black castles short", "4k2r/7p/5K1p/8/8/8/8/4r3 b k - 0 1", "O-O#"},
		{"white takes en passant", "7k/8/2p5/Pp1n4/K7/7r/8/8 w - b6 0 2", "axb6"},
		{"black takes en passant", "8/8/7R/k7/pP1N4/2P5/8/7K b - b3 0 1", "axb3"},
		{"white promotes to a queen", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", "c8=Q#|c8=R#"},
		{"black promotes to a queen", "8/8/8/8/8/1k6/2p5/K7 b - - 0 1", "c1=Q#|c1=R#"},
		{"white promotes to a knight", "6bn/5Ppk/6pp/8/8/8/8/K7 w - - 0 1", "f8=N#"},
		{"black promotes to a knight", "k7/8/8/8/8/6PP/5pPK/6BN b - - 0 1", "f1=N#"},
		{"white takes and promotes", "1r5k/P5pp/8/8/8/8/8/K6R w - - 0 1", "axb8=Q#|axb8=R#"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := board.ParseSetup(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			side := opponent.White
			if pos.Turn == board.Black {
				side = opponent.Black
			}
			b := newBoard(t, game.Options{Setup: tc.fen})
			startMatch(t, b, opponent.Options{Player: eng, Side: side})
			h := &opponenttest.Hands{Door: b.r, Human: pos.Turn.Other()}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 1 }); err != nil {
				t.Fatal(err)
			}
			moves := b.reportsOf(report.Move)
			if len(moves) != 1 || !strings.Contains("|"+tc.san+"|", "|"+moves[0].SAN+"|") {
				t.Fatalf("moves %+v, want %s", moves, tc.san)
			}
			for _, typ := range []report.Type{report.Irregularity, report.Mismatch} {
				if rs := b.reportsOf(typ); len(rs) > 0 {
					t.Errorf("%s: %+v", typ, rs)
				}
			}
			fen, pgn := b.live()
			if rfen, rpgn := b.replayed(); rfen != fen || withoutPlayers(rpgn) != withoutPlayers(pgn) {
				t.Errorf("the replay differs:\nlive   %s\n%s\nreplay %s\n%s", fen, pgn, rfen, rpgn)
			}
		})
	}
}
