package gesture

import (
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

// A move nothing can extend is confirmed after QuickSettle; one that may
// still be a man passing through (a slider with the way on open, a pawn's
// first step of two, a king toward its castling rook) waits Settle.
func TestQuickSettle(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name     string
		fen      string
		from, to string
		want     time.Duration // from the placement
	}{
		{"knight", "", "g1", "f3", 100 * ms},
		{"pawn double step", "", "e2", "e4", 100 * ms},
		{"pawn single step from home", "", "e2", "e3", 250 * ms},
		{"rook stopped by the edge", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1", "a8", 100 * ms},
		{"rook with the way on open", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1", "a4", 250 * ms},
		{"rook stopped by its own man", "4k3/8/8/P7/8/8/8/R3K3 w - - 0 1", "a1", "a4", 100 * ms},
		{"king toward its castling rook", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1", "f1", 250 * ms},
		{"king away from it", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1", "d1", 100 * ms},
	}
	for _, c := range cases {
		j := &timedJudge{playJudge: newPlayJudge(t, c.fen)}
		pos := j.exp.Analysis.Position
		r := New(Options{QuickSettle: 100 * ms}, j, j.exp, pos.Occupancy())
		r.Event(sensor.Event{T: 0, Square: sq(t, c.from), Kind: sensor.Lift})
		r.Event(sensor.Event{T: 300 * ms, Square: sq(t, c.to), Kind: sensor.Place})
		r.Advance(2 * time.Second)
		if len(j.moves) != 1 || j.moves[0]-300*ms != c.want {
			t.Errorf("%s: moves at %v, want one %v after the placement", c.name, j.moves, c.want)
		}
	}
}

// A hand centring the man just confirmed quickly is its own side's: no
// touch of the adversary's, no adjustment for the side to move.
func TestNudgeAfterQuickConfirmation(t *testing.T) {
	const ms = time.Millisecond
	j := &timedJudge{playJudge: newPlayJudge(t, "")}
	pos := j.exp.Analysis.Position
	r := New(Options{QuickSettle: 100 * ms}, j, j.exp, pos.Occupancy())
	r.Event(sensor.Event{T: 0, Square: sq(t, "g1"), Kind: sensor.Lift})
	r.Event(sensor.Event{T: 300 * ms, Square: sq(t, "f3"), Kind: sensor.Place})
	r.Advance(450 * ms) // confirmed at 400
	r.Event(sensor.Event{T: 450 * ms, Square: sq(t, "f3"), Kind: sensor.Lift})
	r.Event(sensor.Event{T: 600 * ms, Square: sq(t, "f3"), Kind: sensor.Place})
	r.Advance(2 * time.Second)
	got := only(j.log, "touch", "adjust", "move")
	want := []string{"touch white g1", "move white g1f3", "touch white f3", "adjust white f3 false"}
	if len(got) != len(want) {
		t.Fatalf("log %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("log %v, want %v", got, want)
		}
	}
}
