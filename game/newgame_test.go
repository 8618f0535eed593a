package game

import (
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// TestResultThenSetUpStraightAway: after a mate, the players follow the
// squares the board shows missing and extra straight back to the start
// position, without clearing the board: the next game begins (synced, not
// syncing, no move) instead of the board waiting in syncing for ever.
func TestResultThenSetUpStraightAway(t *testing.T) {
	var reps []report.Report
	p, err := New(Options{Laws: "fide2023"}, func(r report.Report) { reps = append(reps, r) })
	if err != nil {
		t.Fatal(err)
	}
	at := time.Duration(0)
	feed := func(kind trace.Kind, name string) {
		t.Helper()
		sq, err := board.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		at += 100 * time.Millisecond
		if err := p.Input(trace.Line{T: at, Kind: kind, Square: sq}); err != nil {
			t.Fatal(err)
		}
	}
	move := func(from, to string) {
		feed(trace.Lift, from)
		feed(trace.Place, to)
		at += time.Second // the move settles
		p.Advance(at)
	}
	move("f2", "f3")
	move("e7", "e5")
	move("g2", "g4")
	move("d8", "h4")
	s := p.Snapshot()
	if s.Result == nil || s.Mode != AwaitNewGame || !s.Syncing {
		t.Fatalf("after the mate: result %v, mode %v, syncing %v", s.Result, s.Mode, s.Syncing)
	}
	// Each man back to where the start position has it, as the missing
	// and extra squares show.
	for _, back := range [][2]string{{"h4", "d8"}, {"g4", "g2"}, {"e5", "e7"}, {"f3", "f2"}} {
		target := s.Expected.Occupancy()
		missing, extra := target&^p.Snapshot().Occupancy, p.Snapshot().Occupancy&^target
		from, _ := board.ParseSquare(back[0])
		to, _ := board.ParseSquare(back[1])
		if !extra.Has(from) || !missing.Has(to) {
			t.Fatalf("moving %s to %s: the board shows missing %v, extra %v", back[0], back[1], missing.Squares(), extra.Squares())
		}
		move(back[0], back[1])
	}
	p.Advance(at + 2*time.Second)
	s = p.Snapshot()
	if s.Syncing || s.Result != nil || s.Moves != 0 || s.Mode != Play {
		t.Fatalf("set up straight after the result: syncing %v, result %v, moves %d, mode %v", s.Syncing, s.Result, s.Moves, s.Mode)
	}
	if last := reps[len(reps)-1]; last.Type != report.Synced {
		t.Errorf("the last report is %s, want synced", last.Type)
	}
}
