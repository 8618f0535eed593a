package console

import (
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/pgn"
)

// sanMoves makes a move list of SANs, as pgnMoves reads it.
func sanMoves(sans ...string) []Move {
	out := make([]Move, len(sans))
	for i, s := range sans {
		out[i] = Move{Ply: i + 1, SAN: s}
	}
	return out
}

func TestPositionsFill(t *testing.T) {
	start := board.Start()
	endgame, err := board.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40")
	if err != nil {
		t.Fatal(err)
	}
	afterE4 := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
	afterE5 := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
	afterD4 := "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
	tests := []struct {
		name  string
		start board.Position
		games [][]Move // filled one after the other into one cache
		want  []string // the FENs of the last game's moves
	}{
		{"none", start, [][]Move{sanMoves()}, []string{}},
		{"two plies", start, [][]Move{sanMoves("e4", "e5")}, []string{afterE4, afterE5}},
		{"a ply added", start, [][]Move{sanMoves("e4"), sanMoves("e4", "e5")}, []string{afterE4, afterE5}},
		{"taken back", start, [][]Move{sanMoves("e4", "e5"), sanMoves("e4")}, []string{afterE4}},
		{"a new game", start, [][]Move{sanMoves("e4", "e5"), sanMoves("d4")}, []string{afterD4}},
		{"check and annotation signs", start, [][]Move{sanMoves("e4", "f5", "Qh5+!")}, []string{afterE4,
			"rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 2",
			"rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"}},
		{"from a set-up", endgame, [][]Move{sanMoves("e4")}, []string{"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 40"}},
		{"unreadable, then none after", start, [][]Move{sanMoves("e4", "Ke4", "d4")}, []string{afterE4, "", ""}},
		{"unreadable put right", start, [][]Move{sanMoves("e4", "Ke4"), sanMoves("e4", "e5")}, []string{afterE4, afterE5}},
		{"from another start", start, [][]Move{sanMoves("e4"), nil}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c positions
			var last []Move
			for i, g := range tt.games {
				from := tt.start
				if g == nil { // the same moves from the end game: the cache starts again
					from, g = endgame, sanMoves("Kd2")
					tt.want = []string{"4k3/8/8/8/8/8/3KP3/8 b - - 1 40"}
				}
				if got := c.fill(from, g); got != from.FEN() {
					t.Errorf("game %d: start %q, want %q", i, got, from.FEN())
				}
				last = g
			}
			if len(last) != len(tt.want) {
				t.Fatalf("%d moves, want %d", len(last), len(tt.want))
			}
			for i, m := range last {
				if m.FEN != tt.want[i] {
					t.Errorf("ply %d (%s): FEN %q, want %q", i+1, m.SAN, m.FEN, tt.want[i])
				}
			}
		})
	}
}

func TestMovetextStart(t *testing.T) {
	resume, err := board.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rec  pgn.Game
		want string
	}{
		{"the start", pgn.Game{Start: board.Start(), Moves: []pgn.Move{{SAN: "e4"}}}, board.StartFEN},
		{"after a false move let stand", pgn.Game{Start: board.Start(), Moves: []pgn.Move{{SAN: "e4"}, {SAN: "Ke8e6", Resume: &resume}, {SAN: "Kd1"}}}, resume.FEN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := movetextStart(&tt.rec)
			if fen := got.FEN(); fen != tt.want {
				t.Errorf("got %q, want %q", fen, tt.want)
			}
		})
	}
}

// game80 is an 80-ply game in SAN, the first legal move of each position
// but the king's where another man can move (a long game without a mate).
func game80(tb testing.TB) []string {
	tb.Helper()
	p := board.Start()
	var out []string
	for len(out) < 80 {
		a, err := board.Analyse(p)
		if err != nil || len(a.Moves) == 0 {
			tb.Fatalf("ply %d: %v, %d moves", len(out)+1, err, len(a.Moves))
		}
		m := a.Moves[(len(out)*7)%len(a.Moves)]
		out = append(out, a.SANAfter(m, nil))
		p = p.Apply(m)
	}
	return out
}

// BenchmarkPositionsFill is the cost a state pays for the positions: the
// same 80 plies again (every state but the one after a move), and a ply
// taken back and played again (one ply replayed).
func BenchmarkPositionsFill(b *testing.B) {
	sans := game80(b)
	for _, bc := range []struct {
		name string
		grow bool
	}{{"same moves", false}, {"one ply more", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var c positions
			shorter, moves := sanMoves(sans[:79]...), sanMoves(sans...)
			c.fill(board.Start(), moves)
			b.ReportAllocs()
			for b.Loop() {
				if bc.grow {
					c.fill(board.Start(), shorter) // a take-back, then the ply again
				}
				c.fill(board.Start(), moves)
				if moves[79].FEN == "" {
					b.Fatal("no FEN for the last ply")
				}
			}
		})
	}
}
