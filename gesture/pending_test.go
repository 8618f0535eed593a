package gesture

import (
	"slices"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/sensor"
)

// timedJudge records when each move gesture was made.
type timedJudge struct {
	*playJudge
	moves []time.Duration
}

func (j *timedJudge) Judge(g Gesture) Expectation {
	if g.Kind == Move {
		j.moves = append(j.moves, g.T)
	}
	return j.playJudge.Judge(g)
}

func sq(t *testing.T, s string) board.Square {
	t.Helper()
	v, err := board.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A legal move is shown as pending once the board has been still for
// QuickSettle, and made only after Settle: a set-down the hand may still
// carry on is never a move.
func TestPendingThenMade(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name     string
		fen      string
		from, to string
	}{
		{"knight", "", "g1", "f3"},
		{"pawn double step", "", "e2", "e4"},
		{"pawn single step from home", "", "e2", "e3"},
		{"rook stopped by the edge", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1", "a8"},
		{"rook with the way on open", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1", "a4"},
		{"king away from its rook", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1", "d1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := &timedJudge{playJudge: newPlayJudge(t, c.fen)}
			r := New(Options{Settle: 400 * ms, QuickSettle: 100 * ms}, j, j.exp, j.exp.Analysis.Position.Occupancy())
			r.Event(sensor.Event{T: 0, Square: sq(t, c.from), Kind: sensor.Lift})
			r.Event(sensor.Event{T: 300 * ms, Square: sq(t, c.to), Kind: sensor.Place})
			if _, ok := r.Pending(); ok {
				t.Fatal("pending at the placement, want it only after QuickSettle")
			}
			if got := r.Deadline(); got != 400*ms {
				t.Fatalf("deadline %v, want 400ms (shown as pending)", got)
			}
			r.Advance(399 * ms)
			if _, ok := r.Pending(); ok {
				t.Fatal("pending before QuickSettle has run")
			}
			r.Advance(400 * ms)
			p, ok := r.Pending()
			if !ok || p.Move.UCI() != c.from+c.to || p.Mover != board.White || p.Needs != NeedNothing {
				t.Fatalf("pending %+v %v, want %s%s by white needing nothing", p, ok, c.from, c.to)
			}
			if len(j.moves) != 0 {
				t.Fatalf("moves made at %v while pending", j.moves)
			}
			r.Advance(2 * time.Second)
			if len(j.moves) != 1 || j.moves[0] != 700*ms {
				t.Fatalf("moves at %v, want one at 700ms (Settle after the placement)", j.moves)
			}
			if _, ok := r.Pending(); ok {
				t.Fatal("still pending after the move was made")
			}
		})
	}
}

// A man set down in passing (on a square that is itself a lawful
// destination or not, nudged there or not) and carried on is one move from
// where he was lifted to where he is let go: the pending move shown on the
// way is withdrawn without a touch, a mismatch or an irregularity.
func TestSetDownInPassing(t *testing.T) {
	cases := []struct {
		name   string
		fen    string
		script string
		want   []string
	}{
		{"pawn a2-a4-a3", "", "L a2; P a4; W 200; L a4; P a3; W 1000",
			[]string{"touch white a2", "move white a2a3"}},
		{"king e1-e2-d2", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "L e1; P e2; W 240; L e2; P d2; W 1000",
			[]string{"touch white e1", "move white e1d2"}},
		{"knight g1-e2-f3", "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "L g1; P e2; W 150; L e2; P f3; W 1000",
			[]string{"touch white g1", "move white g1f3"}},
		{"knight beside its target g1-g3-f3", "", "L g1; P g3; W 150; L g3; P f3; W 1000",
			[]string{"touch white g1", "move white g1f3"}},
		{"bishop c1-d2-e3", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "L c1; P d2; W 200; L d2; P e3; W 1000",
			[]string{"touch white c1", "move white c1e3"}},
		{"queen d1-d3-d2", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "L d1; P d3; W 230; L d3; P d2; W 1000",
			[]string{"touch white d1", "move white d1d2"}},
		{"nudged in passing", "", "L a2; P a4; W 60; L a4; P a4; W 60; L a4; P a3; W 1000",
			[]string{"touch white a2", "move white a2a3"}},
		{"black too", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "L h7; P h5; W 200; L h5; P h6; W 1000",
			[]string{"touch black h7", "move black h7h6"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Settle longer than any dwell of the script; the pending move
			// shows at 100 ms, within every dwell.
			got := only(play(t, c.fen, c.script, Options{Settle: 400 * time.Millisecond, QuickSettle: 100 * time.Millisecond}), "touch", "adjust", "move", "false", "mismatch")
			if !slices.Equal(got, c.want) {
				t.Fatalf("log %v, want %v", got, c.want)
			}
		})
	}
}

// Castling begun with the king waits for its rook however slow the hand,
// until the adversary's hand or the clock ends it: only then is a king
// left two squares over a false castling.
func TestCastlingWaitsForTheRook(t *testing.T) {
	const fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	cases := []struct {
		name   string
		script string
		want   []string
	}{
		{"rook after 1.6 s", "L e1; P g1; W 1600; L h1; P f1; W 1000",
			[]string{"touch white e1", "touch white h1", "move white e1g1"}},
		{"rook after 5 s, queen side", "L e1; P c1; W 5000; L a1; P d1; W 1000",
			[]string{"touch white e1", "touch white a1", "move white e1c1"}},
		{"the adversary's hand ends it", "L e1; P g1; W 3000; L e8",
			[]string{"touch white e1", "false white e1g1 false-castling", "touch black e8"}},
		{"the clock ends it", "L e1; P g1; W 3000; C white",
			[]string{"touch white e1", "false white e1g1 false-castling"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := only(play(t, fen, c.script, Options{}), "touch", "move", "false", "mismatch")
			if !slices.Equal(got, c.want) {
				t.Fatalf("log %v, want %v", got, c.want)
			}
		})
	}
}

// While castling begun with the king waits, the pending move says the rook
// is still to go; an en passant capture says its victim; a promotion its
// piece.
func TestPendingNeeds(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name     string
		fen      string
		from, to string
		want     Need
	}{
		{"castling begun with the king", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1", "g1", NeedRook},
		{"en passant, the pawn still there", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5", "d6", NeedVictim},
		{"promotion unnamed", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7", "a8", NeedPiece},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := &timedJudge{playJudge: newPlayJudge(t, c.fen)}
			r := New(Options{QuickSettle: 100 * ms}, j, j.exp, j.exp.Analysis.Position.Occupancy())
			r.Event(sensor.Event{T: 0, Square: sq(t, c.from), Kind: sensor.Lift})
			r.Event(sensor.Event{T: 300 * ms, Square: sq(t, c.to), Kind: sensor.Place})
			r.Advance(10 * time.Second)
			p, ok := r.Pending()
			if !ok || p.Needs != c.want || p.Move.From != sq(t, c.from) || p.Move.To != sq(t, c.to) {
				t.Fatalf("pending %+v %v, want %s%s needing %v", p, ok, c.from, c.to, c.want)
			}
			if len(j.moves) != 0 {
				t.Fatalf("moves made at %v: a move still needing its second part waits for it", j.moves)
			}
		})
	}
}

// The edges of a set-down in passing: a man that rests exactly the settle
// time has been let go (the move is made, and what follows is read after
// it); one lifted a millisecond sooner was still in hand; a placement
// flickering on the square in passing is one stay; a man "set down" on an
// occupied square is no placement the board can see: nothing is read from
// it, and a man of that square lifted with it is off the board, a mismatch
// to fix after the move.
func TestSetDownInPassingEdges(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   []string
	}{
		{"rests exactly the settle time", "L a2; P a4; W 350; L a4; P a3; W 2000",
			[]string{"touch white a2", "move white a2a4", "touch black a4"}},
		{"lifted a millisecond sooner", "L a2; P a4; W 349; L a4; P a3; W 2000",
			[]string{"touch white a2", "move white a2a3"}},
		{"flicker on the square in passing", "L a2; P a4; W 5; L a4; W 5; P a4; W 5; L a4; W 5; P a4; W 100; L a4; P a3; W 2000",
			[]string{"touch white a2", "move white a2a3"}},
		{"set down on an occupied square", "L a2; P b2; P a3; W 2000",
			[]string{"touch white a2", "move white a2a3"}},
		{"set down on an occupied square, its man lifted", "L a2; P b2; L b2; P a3; W 2000",
			[]string{"touch white a2", "touch white b2", "move white a2a3", "mismatch missing=[b2] extra=[]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := only(play(t, "", c.script, Options{}), "touch", "move", "false", "mismatch")
			if len(got) < len(c.want) || !slices.Equal(got[:len(c.want)], c.want) {
				t.Fatalf("log %v, want it to begin %v", got, c.want)
			}
			if c.name != "rests exactly the settle time" && !slices.Equal(got, c.want) {
				t.Fatalf("log %v, want %v", got, c.want)
			}
		})
	}
}
