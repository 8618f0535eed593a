package computer

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// searchCommands returns what start n of a fake received from its first
// line after the handshake's "isready" on, without the "isready" lines.
func searchCommands(t testing.TB, path string, n int) []string {
	t.Helper()
	got := received(t, path, n)
	for i, l := range got {
		if l == "isready" {
			got = got[i+1:]
			break
		}
	}
	var out []string
	for _, l := range got {
		if l != "isready" && l != "quit" {
			out = append(out, l)
		}
	}
	return out
}

// The level, the clocks and the game reach the engine as the UCI commands
// they stand for, and only what changes is sent again.
func TestCommandsSent(t *testing.T) {
	clocks := &Clocks{White: 60 * time.Second, Black: 55*time.Second + 500*time.Millisecond, WhiteInc: 2 * time.Second, BlackInc: 2 * time.Second, MovesToGo: 20}
	for _, tc := range []struct {
		name    string
		mode    string
		level   Level
		reqs    []Request
		want    []string
		wantLvl string
	}{
		{"default level with UCI_Elo", "good", Level{}, []Request{{}},
			[]string{"ucinewgame", "setoption name Skill Level value 20", "setoption name UCI_Elo value 1500", "setoption name UCI_LimitStrength value true", "position startpos", "go movetime 1000"},
			"Fake Engine 1.0, Elo 1500"},
		{"default level with Skill Level only", "noelo", Level{}, []Request{{}},
			[]string{"ucinewgame", "setoption name Skill Level value 5", "position startpos", "go movetime 1000"},
			"Fake Engine 1.0, Skill Level 5"},
		{"default level without either", "plain", Level{}, []Request{{}},
			[]string{"ucinewgame", "position startpos", "go movetime 1000"},
			"Fake Engine 1.0, 1s a move"},
		{"Elo clamped to the engine's range", "good", Level{Strength: StrengthElo, Elo: 1000, Limit: Limit{MoveTime: 2500 * time.Millisecond}}, []Request{{}},
			[]string{"ucinewgame", "setoption name Skill Level value 20", "setoption name UCI_Elo value 1350", "setoption name UCI_LimitStrength value true", "position startpos", "go movetime 2500"},
			"Fake Engine 1.0, Elo 1350, 2.5s a move"},
		{"Skill Level and depth", "good", Level{Strength: StrengthSkill, Skill: 7, Limit: Limit{Depth: 5}}, []Request{{}},
			[]string{"ucinewgame", "setoption name UCI_LimitStrength value false", "setoption name Skill Level value 7", "position startpos", "go depth 5"},
			"Fake Engine 1.0, Skill Level 7, depth 5"},
		{"full strength, nodes", "good", Level{Strength: StrengthFull, Limit: Limit{Nodes: 5000}}, []Request{{}},
			[]string{"ucinewgame", "setoption name UCI_LimitStrength value false", "setoption name Skill Level value 20", "position startpos", "go nodes 5000"},
			"Fake Engine 1.0, 5000 nodes a move"},
		{"clocks replace the move time; depth still caps", "good", Level{Strength: StrengthElo, Elo: 2000, Limit: Limit{MoveTime: time.Second, Depth: 9}},
			[]Request{{Moves: []string{"e2e4"}, Clocks: clocks}},
			[]string{"ucinewgame", "setoption name Skill Level value 20", "setoption name UCI_Elo value 2000", "setoption name UCI_LimitStrength value true",
				"position startpos moves e2e4", "go wtime 60000 btime 55500 winc 2000 binc 2000 movestogo 20 depth 9"},
			"Fake Engine 1.0, Elo 2000, 1s a move, depth 9"},
		{"a game continued, then a new one from a FEN", "plain", Level{Strength: StrengthFull, Limit: Limit{Depth: 3}},
			[]Request{{}, {Moves: []string{"a2a3", "a7a6"}}, {StartFEN: "4k3/8/8/8/8/8/8/4K2R w K - 0 1", Moves: []string{"e1g1"}}},
			[]string{"ucinewgame", "position startpos", "go depth 3",
				"position startpos moves a2a3 a7a6", "go depth 3",
				"ucinewgame", "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1", "go depth 3"},
			"Fake Engine 1.0, depth 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vt := newVirtualTime()
			path := fakeEngine(t, tc.mode)
			o := fakeOptions(t, path, vt)
			o.Level = tc.level
			p := startPlayer(t, o)
			for _, req := range tc.reqs {
				r := result(t, p.Think(context.Background(), req))
				if r.Err != nil {
					t.Fatal(r.Err)
				}
				if r.Reply.Level != tc.wantLvl {
					t.Errorf("reply's level %q, want %q", r.Reply.Level, tc.wantLvl)
				}
			}
			if got := searchCommands(t, path, 1); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("engine received\n%q\nwant\n%q", got, tc.want)
			}
			if p.Level() != tc.wantLvl {
				t.Errorf("Level() = %q, want %q", p.Level(), tc.wantLvl)
			}
		})
	}
}

// A hint is searched at full strength for its short limit; the next move is
// at the level again. Engine options from Options reach the engine at start.
func TestCommandsHintAndEngineOptions(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "good")
	o := fakeOptions(t, path, vt)
	o.Level = Level{Strength: StrengthElo, Elo: 1600}
	o.Hint = Limit{Depth: 12}
	o.EngineOptions = map[string]string{"threads": "2", "Hash": "64"}
	p := startPlayer(t, o)
	r := result(t, p.Think(context.Background(), Request{}))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	h := result(t, p.Hint(context.Background(), Request{Moves: []string{r.Reply.UCI}, DrawOffered: true}))
	if h.Err != nil || h.Reply.Level != "Fake Engine 1.0, depth 12" || h.Reply.AcceptsDraw {
		t.Fatalf("hint %+v", h)
	}
	if h.Reply.Info.Score != (Score{Centipawns: 17}) || h.Reply.Info.White != (Score{Centipawns: -17}) {
		t.Errorf("hint's score for Black %v, White's %v", h.Reply.Info.Score, h.Reply.Info.White)
	}
	r = result(t, p.Think(context.Background(), Request{Moves: []string{r.Reply.UCI, h.Reply.UCI}}))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	want := []string{"uci", "setoption name Hash value 64", "setoption name Threads value 2", "isready",
		"ucinewgame", "setoption name Skill Level value 20", "setoption name UCI_Elo value 1600", "setoption name UCI_LimitStrength value true", "isready",
		"position startpos", "go movetime 1000",
		"setoption name UCI_LimitStrength value false", "isready", "position startpos moves a2a3", "go depth 12",
		"setoption name UCI_LimitStrength value true", "isready", "position startpos moves a2a3 a7a5", "go movetime 1000"}
	if got := received(t, path, 1); !reflect.DeepEqual(got, want) {
		t.Errorf("engine received\n%q\nwant\n%q", got, want)
	}
}

// A level or an option the engine does not have is refused with a clear
// error.
func TestCommandsRefused(t *testing.T) {
	vt := newVirtualTime()
	o := fakeOptions(t, fakeEngine(t, "plain"), vt)
	o.Level = Level{Strength: StrengthElo, Elo: 1500}
	if _, err := Start(context.Background(), o); err == nil || !strings.Contains(err.Error(), "no UCI_LimitStrength and UCI_Elo") {
		t.Errorf("Start with Elo on an engine without: %v", err)
	}
	o.Level = Level{}
	o.EngineOptions = map[string]string{"Contempt": "10"}
	if _, err := Start(context.Background(), o); err == nil || !strings.Contains(err.Error(), `has no option "Contempt" (it has "Hash", "Move Overhead", "Threads")`) {
		t.Errorf("Start with an unknown option: %v", err)
	}
	o.EngineOptions = nil
	p := startPlayer(t, o)
	if err := p.SetLevel(Level{Strength: StrengthSkill, Skill: 3}); err == nil || !strings.Contains(err.Error(), "no Skill Level option") {
		t.Errorf("SetLevel: %v", err)
	}
	if p.Level() != "Fake Engine 1.0, 1s a move" {
		t.Errorf("a refused level changed the level to %q", p.Level())
	}
}

// A request that is not a game, or a game that is over, is answered with an
// error naming what is wrong, without bothering the engine.
func TestBadRequests(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "good")
	p := startPlayer(t, fakeOptions(t, path, vt))
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{StartFEN: "not a fen"}, "computer: request: start position: "},
		{Request{Moves: []string{"e2e4", "e7e6e"}}, `computer: request: move 2: board: move "e7e6e"`},
		{Request{Moves: []string{"e2e4", "e2e4"}}, "computer: request: move 2 (e2e4) is not legal in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{Request{Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}}, "computer: the game is over: no legal move (checkmate in "},
		{Request{StartFEN: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, "(stalemate in 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1)"},
	} {
		r := result(t, p.Think(context.Background(), tc.req))
		if r.Err == nil || !strings.Contains(r.Err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error with %q", tc.req, r.Err, tc.want)
		}
	}
	if r := result(t, p.Think(context.Background(), Request{Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}})); !errors.Is(r.Err, ErrGameOver) {
		t.Errorf("mate: %v is not ErrGameOver", r.Err)
	}
	for _, l := range received(t, path, 1) {
		if strings.HasPrefix(l, "go") {
			t.Errorf("the engine was asked: %q", l)
		}
	}
}

// FuzzPrepare: any request is encoded or refused with an error, never a
// panic, and an encoded one names only legal moves.
func FuzzPrepare(f *testing.F) {
	f.Add("", "e2e4 e7e5 g1f3")
	f.Add("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1")
	f.Add("8/P7/8/8/8/8/8/k1K5 w - - 0 1", "a7a8n")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e5")
	f.Fuzz(func(t *testing.T, fen, moves string) {
		g, err := prepare(Request{StartFEN: fen, Moves: strings.Fields(moves)}, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "computer: request: ") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if !strings.HasPrefix(g.command, "position ") || len(g.moves) != len(strings.Fields(moves)) {
			t.Fatalf("encoded %q from %q %q", g.command, fen, moves)
		}
	})
}
