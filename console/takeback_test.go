package console

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
)

// A take-back asked through the console's API while the player's move is
// still pending (shown as landing: his hand has just set the man down)
// takes back that move alone, made first: the board is lit to set that man
// back, and the moves before it stay, at the first move as later. Against
// the real Stockfish.
func TestTakeBackPendingThroughTheAPI(t *testing.T) {
	tests := []struct {
		name      string
		before    func(t *testing.T, r *rig) // the moves made before
		lift, put string
		wantMoves int
	}{
		{"the first move", func(*testing.T, *rig) {}, "e2", "e4", 0},
		{"after a pair", func(t *testing.T, r *rig) {
			r.input(t, `{"lift":"e2"}`)
			r.input(t, `{"place":"e4"}`)
			r.input(t, `{"press":"clock","side":"white"}`)
			aw := waitState(t, r, "the engine's reply", func(st State) bool { return st.Remote != nil && st.Remote.Awaiting != nil })
			r.input(t, `{"lift":"`+aw.Remote.Awaiting.From+`"}`)
			r.input(t, `{"place":"`+aw.Remote.Awaiting.To+`"}`)
			waitState(t, r, "the reply made", func(st State) bool { return len(st.Moves) == 2 })
		}, "g1", "f3", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The settle time is long: the move stays pending while the
			// test asks.
			r := newRig(t, rigOptions{opponentFor: withStockfish, timing: game.Timing{Settle: 3 * time.Second, QuickSettle: 30 * time.Millisecond}})
			waitState(t, r, "the engine playing Black", func(st State) bool { return st.Remote != nil && st.Remote.Black })
			tc.before(t, r)
			r.input(t, `{"lift":"`+tc.lift+`"}`)
			r.input(t, `{"place":"`+tc.put+`"}`)
			waitState(t, r, "the move pending", func(st State) bool { return st.Landing != nil && st.Landing.From == tc.lift })
			if status, out := r.post(t, "opponent", `{"command":"takeback"}`, nil); status != http.StatusOK {
				t.Fatalf("take-back: %d %v", status, out)
			}
			st, err := r.local.State(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Moves) != tc.wantMoves || st.Landing != nil || !st.Syncing || !slices.Equal(st.Missing, []string{tc.lift}) || !slices.Equal(st.Extra, []string{tc.put}) {
				t.Errorf("after the take-back: %d moves (want %d), landing %v, syncing %v, missing %v, extra %v; want %s set back from %s",
					len(st.Moves), tc.wantMoves, st.Landing, st.Syncing, st.Missing, st.Extra, tc.lift, tc.put)
			}
		})
	}
}

// waitState waits until the board's state satisfies cond, and returns it.
func waitState(t *testing.T, r *rig, what string, cond func(State) bool) State {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := r.local.State(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s: %+v", what, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The state never shows an evaluation or a hint of another position than
// the game's: an opponent's figure for the start is dropped once a move is
// made (whatever the opponent has not yet let go of).
func TestStaleEvaluationsDropped(t *testing.T) {
	tests := []struct {
		name     string
		moves    []string // inputs
		wantEval bool
	}{
		{"the start, the evaluation's position", nil, true},
		{"a move later", []string{`{"lift":"e2"}`, `{"place":"e4"}`, `{"press":"clock","side":"white"}`}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{opponent: &fakeOpponent{}})
			for _, in := range tc.moves {
				r.input(t, in)
			}
			st := waitState(t, r, "the moves", func(st State) bool { return len(st.Moves) == len(tc.moves)/3 })
			if got := st.Opponent.Eval != nil; got != tc.wantEval {
				t.Errorf("evaluation shown %v (%+v) with %d moves, want %v", got, st.Opponent.Eval, len(st.Moves), tc.wantEval)
			}
		})
	}
}
