package computer

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// stockfishPath is where Debian installs Stockfish (CI installs Debian's
// stockfish package).
const stockfishPath = "/usr/games/stockfish"

// stockfish returns the real engine's path, or skips the test when it is not
// installed.
func stockfish(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Skipf("Stockfish is not installed (apt-get install stockfish): %v", err)
	}
	return stockfishPath
}

// startPlayer starts a player and closes it when the test ends.
func startPlayer(t testing.TB, o Options) *Player {
	t.Helper()
	p, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// The special moves come back as the moves they are: in each position the
// special move is the only legal move or the only mate in one, which
// Stockfish finds at depth 2 even at its weakest Skill Level.
func TestStockfishSpecialMoves(t *testing.T) {
	p := startPlayer(t, Options{Path: stockfish(t), Level: Level{Strength: StrengthSkill, Skill: 0, Limit: Limit{Depth: 2}}})
	for _, tc := range []struct {
		name, fen string
		want      map[string]string // UCI → SAN
	}{
		{"white castles long", "4R3/8/8/8/8/1P1k4/1P6/R3K3 w Q - 0 1", map[string]string{"e1c1": "O-O-O#"}},
		{"black castles long", "r3k3/1p6/1p1K4/8/8/8/8/4r3 b q - 0 1", map[string]string{"e8c8": "O-O-O#"}},
		{"white castles short", "4R3/8/8/8/8/5k1P/7P/4K2R w K - 0 1", map[string]string{"e1g1": "O-O#"}},
		{"black castles short", "4k2r/7p/5K1p/8/8/8/8/4r3 b k - 0 1", map[string]string{"e8g8": "O-O#"}},
		{"white takes en passant", "7k/8/2p5/Pp1n4/K7/7r/8/8 w - b6 0 2", map[string]string{"a5b6": "axb6"}},
		{"black takes en passant", "8/8/7R/k7/pP1N4/2P5/8/7K b - b3 0 1", map[string]string{"a4b3": "axb3"}},
		{"white promotes", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", map[string]string{"c7c8q": "c8=Q#", "c7c8r": "c8=R#"}},
		{"black promotes", "8/8/8/8/8/1k6/2p5/K7 b - - 0 1", map[string]string{"c2c1q": "c1=Q#", "c2c1r": "c1=R#"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result(t, p.Think(context.Background(), Request{StartFEN: tc.fen}))
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			san, ok := tc.want[r.Reply.UCI]
			if !ok {
				t.Fatalf("got %s (%s), want one of %v", r.Reply.UCI, r.Reply.SAN, tc.want)
			}
			if r.Reply.SAN != san || r.Reply.Move.UCI() != r.Reply.UCI {
				t.Errorf("got %s = %s (move %v), want SAN %s", r.Reply.UCI, r.Reply.SAN, r.Reply.Move, san)
			}
			pos, _ := board.ParseFEN(tc.fen)
			if strings.HasSuffix(san, "#") && (r.Reply.Info.Score.Mate != 1 || r.Reply.Info.PV[0] != r.Reply.UCI) {
				t.Errorf("info %+v: want mate in 1 starting with the move", r.Reply.Info)
			}
			if pos.Turn == board.Black && r.Reply.Info.White.Mate != -r.Reply.Info.Score.Mate {
				t.Errorf("black's score %v is White's %v: want it negated", r.Reply.Info.Score, r.Reply.Info.White)
			}
		})
	}
}

// Two players play whole games against each other through the API: every
// move must be legal, and the games must end by the rules (or at the move
// cap).
func TestStockfishGames(t *testing.T) {
	path := stockfish(t)
	for _, tc := range []struct {
		name         string
		white, black Level
		clocks       bool
	}{
		{"weakest against depth 1", Level{Strength: StrengthSkill, Skill: 0, Limit: Limit{Depth: 1}}, Level{Strength: StrengthFull, Limit: Limit{Depth: 1}}, false},
		{"Elo on the clock", Level{Strength: StrengthElo, Elo: 1400, Limit: Limit{Depth: 2}}, Level{Strength: StrengthSkill, Skill: 3, Limit: Limit{Nodes: 300}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			white := startPlayer(t, Options{Path: path, Level: tc.white})
			black := startPlayer(t, Options{Path: path, Level: tc.black})
			var moves []string
			pos := board.Start()
			seen := map[board.RepetitionKey]int{}
			clocks := &Clocks{White: time.Minute, Black: time.Minute, WhiteInc: time.Second, BlackInc: time.Second}
			special := map[string]int{}
			for ply := 0; ply < 300; ply++ {
				a, err := board.Analyse(pos)
				if err != nil {
					t.Fatal(err)
				}
				if len(a.Moves) == 0 || pos.HalfMoves >= 100 || pos.Dead() || seen[pos.Key()] >= 2 {
					break
				}
				seen[pos.Key()]++
				mover := white
				if pos.Turn == board.Black {
					mover = black
				}
				req := Request{Moves: moves}
				if tc.clocks {
					req.Clocks = clocks
				}
				r := result(t, mover.Think(context.Background(), req))
				if r.Err != nil {
					t.Fatalf("ply %d: %v", ply+1, r.Err)
				}
				if !a.IsLegal(r.Reply.Move) || r.Reply.SAN != a.SAN(r.Reply.Move) || len(r.Reply.Faults) > 0 {
					t.Fatalf("ply %d in %s: reply %+v", ply+1, pos.FEN(), r.Reply)
				}
				switch {
				case pos.IsCastling(r.Reply.Move):
					special["castling"]++
				case pos.IsEnPassant(r.Reply.Move):
					special["en passant"]++
				case pos.IsPromotion(r.Reply.Move):
					special["promotion"]++
				}
				moves = append(moves, r.Reply.UCI)
				pos = pos.Apply(r.Reply.Move)
			}
			if len(moves) < 10 {
				t.Errorf("the game lasted %d plies", len(moves))
			}
			t.Logf("%d plies, special moves %v, ends in %s", len(moves), special, pos.FEN())
		})
	}
}

// The level reaches the engine and its name comes back for the PGN.
func TestStockfishNameAndLevel(t *testing.T) {
	p := startPlayer(t, Options{Path: stockfish(t), Level: Level{Strength: StrengthElo, Elo: 100}})
	if !strings.HasPrefix(p.Name(), "Stockfish") {
		t.Errorf("name %q", p.Name())
	}
	// Stockfish's UCI_Elo starts above 1300: 100 is clamped up to it.
	if lvl := p.Level(); !strings.HasPrefix(lvl, p.Name()+", Elo 13") {
		t.Errorf("level %q", lvl)
	}
	if err := p.SetLevel(Level{Strength: StrengthFull, Limit: Limit{Depth: 3}}); err != nil {
		t.Fatal(err)
	}
	r := result(t, p.Think(context.Background(), Request{Moves: []string{"e2e4"}}))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if r.Reply.Level != p.Name()+", depth 3" || r.Reply.Engine != p.Name() || r.Reply.Info.Depth != 3 || !r.Reply.Info.Scored {
		t.Errorf("reply %+v", r.Reply)
	}
	h := result(t, p.Hint(context.Background(), Request{Moves: []string{"e2e4", r.Reply.UCI}}))
	if h.Err != nil {
		t.Fatal(h.Err)
	}
	if h.Reply.Level != p.Name()+", 500ms a move" || h.Reply.Info.Depth < 3 || len(h.Reply.Info.PVSAN) == 0 || h.Reply.Info.PVSAN[0] != h.Reply.SAN {
		t.Errorf("hint %+v", h.Reply)
	}
}

// A real engine killed in the middle of a search is found dead at once,
// started again and given the position again; the reply says what happened.
func TestStockfishKilledMidSearch(t *testing.T) {
	p := startPlayer(t, Options{Path: stockfish(t), Level: Level{Strength: StrengthFull, Limit: Limit{MoveTime: 3 * time.Second}}, MinBackoff: time.Millisecond})
	// The player's goroutine owns the session; this test reads its pid and
	// transcript before asking, while the worker is idle.
	pid, tap := p.sess.proc.Pid, p.sess.tap
	ch := p.Think(context.Background(), Request{Moves: []string{"d2d4"}})
	for !slices.ContainsFunc(tap.lastLines(), func(l string) bool { return strings.HasPrefix(l, "info depth") }) {
		time.Sleep(5 * time.Millisecond) // until the search is under way
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := result(t, ch)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	var fe *FaultError
	if len(r.Reply.Faults) != 1 || !errors.As(r.Reply.Faults[0], &fe) || fe.Fault != FaultCrashed || fe.During != "searching" {
		t.Fatalf("faults %v", r.Reply.Faults)
	}
	if !strings.Contains(fe.Error(), "Stockfish") || !strings.Contains(fe.Error(), "crashed while searching") {
		t.Errorf("error %q does not name the engine and what it did", fe)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %v to recover", took)
	}
	t.Logf("recovered in %v from: %v", time.Since(start), fe)
}

// A draw offer is answered from the engine's own evaluation: a lost position
// accepts, a won one declines.
func TestStockfishDrawOffers(t *testing.T) {
	p := startPlayer(t, Options{Path: stockfish(t), Level: Level{Strength: StrengthFull, Limit: Limit{Depth: 8}}})
	for _, tc := range []struct {
		name, fen string
		accept    bool
	}{
		{"a queen down", "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 30", true},
		{"a queen up", "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 30", false},
		{"the opening", board.StartFEN, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result(t, p.Think(context.Background(), Request{StartFEN: tc.fen, DrawOffered: true}))
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if r.Reply.AcceptsDraw != tc.accept {
				t.Errorf("accepts %v at %v, want %v", r.Reply.AcceptsDraw, r.Reply.Info.Score, tc.accept)
			}
		})
	}
}

// An evaluation is the position's score from White's point of view,
// whoever is to move, at full strength whatever the level: a weakened
// engine still sees a queen up as a queen up.
func TestStockfishEvaluate(t *testing.T) {
	p := startPlayer(t, Options{Path: stockfish(t), Level: Level{Strength: StrengthSkill, Skill: 0, Limit: Limit{Depth: 1}}, Evaluate: Limit{Depth: 6}})
	for _, tc := range []struct {
		name, fen string
		white     int // the sign of White's score: 1 or -1
	}{
		{"White a queen up, White to move", "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 30", 1},
		{"White a queen up, Black to move", "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 30", 1},
		{"Black a queen up, White to move", "4k3/3q4/8/8/8/8/8/4K3 w - - 0 30", -1},
		{"Black a queen up, Black to move", "4k3/3q4/8/8/8/8/8/4K3 b - - 0 30", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result(t, p.Evaluate(context.Background(), Request{StartFEN: tc.fen, Moves: []string{}}))
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			info := r.Reply.Info
			if !info.Scored || info.Depth < 6 {
				t.Fatalf("info %+v: want a score at depth 6", info)
			}
			w := info.White
			sign := 0
			switch {
			case w.Mate > 0 || (w.Mate == 0 && w.Centipawns > 300):
				sign = 1
			case w.Mate < 0 || (w.Mate == 0 && w.Centipawns < -300):
				sign = -1
			}
			if sign != tc.white {
				t.Errorf("White's score %v (the mover's %v), want the sign %+d, a queen's worth", w, info.Score, tc.white)
			}
		})
	}
}
