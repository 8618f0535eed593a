package placement_test

import (
	"testing"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/placement"
)

// gameSnapshots returns the snapshots a runner hands its subscribers over
// a short game with a capture, castling, en passant and a promotion, lifts
// and placements one by one.
func gameSnapshots(b *testing.B) []*game.Snapshot {
	var snaps []*game.Snapshot
	f := newFollower(b, "fide2023", "")
	seen := f.g.Version()
	for _, in := range []string{
		`{"lift":"e2"}`, `{"place":"e4"}`, "wait 300", `{"lift":"a7"}`, `{"place":"a6"}`, "wait 300",
		`{"lift":"e4"}`, `{"place":"e5"}`, "wait 300", `{"lift":"d7"}`, `{"place":"d5"}`, "wait 300",
		`{"lift":"e5"}`, `{"place":"d6"}`, `{"lift":"d5"}`, "wait 300", `{"lift":"g8"}`, `{"place":"f6"}`, "wait 300",
		`{"lift":"d6"}`, `{"lift":"c7"}`, `{"place":"c7"}`, "wait 300", `{"lift":"b8"}`, `{"place":"c6"}`, "wait 300",
		`{"lift":"g1"}`, `{"place":"f3"}`, "wait 300", `{"lift":"e7"}`, `{"place":"e6"}`, "wait 300",
		`{"lift":"f1"}`, `{"place":"c4"}`, "wait 300", `{"lift":"b7"}`, `{"place":"b5"}`, "wait 300",
		`{"lift":"e1"}`, `{"place":"g1"}`, `{"lift":"h1"}`, `{"place":"f1"}`, "wait 300",
		`{"lift":"b5"}`, `{"lift":"c4"}`, `{"place":"c4"}`, "wait 300",
		`{"promote":"q","side":"white"}`, `{"lift":"c7"}`, `{"lift":"d8"}`, `{"place":"d8"}`, "wait 300",
	} {
		f.step(in)
		if v := f.g.Version(); v != seen {
			seen = v
			snaps = append(snaps, f.g.Snapshot())
		}
	}
	return snaps
}

// BenchmarkTrackerUpdate is the cost of naming the men once the game has
// changed: one snapshot handed to Update (the ChessLink emulation's work
// per change, before encoding).
func BenchmarkTrackerUpdate(b *testing.B) {
	snaps := gameSnapshots(b)
	var tr placement.Tracker
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tr.Update(snaps[i%len(snaps)])
	}
}
