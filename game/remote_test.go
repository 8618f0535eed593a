package game

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

func mustUCI(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func movesOf(rs []report.Report) string {
	var out []string
	for _, r := range rs {
		if r.Type == report.Move {
			out = append(out, r.UCI)
		}
	}
	return strings.Join(out, " ")
}

// A side played from off the board: its announced move is carried out by
// the player at the board and recorded; a wrong execution is put right,
// never a move of its own, and never an irregularity.
func TestRemoteMoveCarriedOut(t *testing.T) {
	var out []report.Report
	g, err := New(Options{Laws: "fide2023"}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	g.SetRemote(0, board.Black, true)
	play(t, g, `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
`)
	g.Advance(time.Second)
	if err := g.Play(time.Second, mustUCI(t, "e2e3")); err == nil {
		t.Error("a move for White, who plays at the board, was announced")
	}
	if err := g.Play(time.Second, mustUCI(t, "d7d5")); err != nil {
		t.Fatal(err)
	}
	s := g.Snapshot()
	if !s.HasAwaiting || s.Awaiting.UCI() != "d7d5" {
		t.Fatalf("awaiting %v %v", s.HasAwaiting, s.Awaiting)
	}
	// The player moves the wrong pawn for the engine: put right.
	play(t, g, `{"t":2000,"lift":"d7"}
{"t":2200,"place":"d6"}
{"t":4000,"lift":"d6"}
{"t":4200,"place":"d7"}
{"t":5000,"lift":"d7"}
{"t":5200,"place":"d5"}
`)
	g.Advance(7 * time.Second)
	if got := movesOf(out); got != "e2e4 d7d5" {
		t.Fatalf("moves %q, want e2e4 d7d5", got)
	}
	for _, r := range out {
		if r.Type == report.Irregularity {
			t.Errorf("irregularity for the remote side's execution: %+v", r)
		}
	}
	if lastOf(out, report.Mismatch) == nil {
		t.Error("the wrong execution was not reported as a mismatch to put right")
	}
	if s := g.Snapshot(); s.HasAwaiting || s.Syncing {
		t.Errorf("after the move: awaiting %v, syncing %v", s.HasAwaiting, s.Syncing)
	}
}

// The player's false move wrongs the remote side, who cannot choose: the
// arbiter exacts the first penalty the law gives.
func TestRemoteSideOffendedIsRuledForIt(t *testing.T) {
	var out []report.Report
	g, err := New(Options{Laws: "sarratt1808"}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	g.SetRemote(0, board.Black, true)
	// White touches g1, sets it back, plays e4: sarratt1808:7.
	play(t, g, `{"t":0,"lift":"g1"}
{"t":300,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
`)
	g.Advance(3 * time.Second)
	irr, rul := lastOf(out, report.Irregularity), lastOf(out, report.Ruling)
	if irr == nil || irr.Chooser != report.Arbiter || rul == nil || rul.Option != report.OptMoveTouched || rul.By != report.Arbiter {
		t.Fatalf("irregularity %+v ruling %+v; want the arbiter exacting move-touched", irr, rul)
	}
}

// A take-back against the engine: the board is guided back, the moves go
// from the record, the engine's move in hand is forgotten.
func TestTakeBack(t *testing.T) {
	var out []report.Report
	g, err := New(Options{Laws: "fide2023"}, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	g.SetRemote(0, board.Black, true)
	play(t, g, `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
`)
	g.Advance(time.Second)
	if err := g.Play(time.Second, mustUCI(t, "e7e5")); err != nil {
		t.Fatal(err)
	}
	play(t, g, `{"t":2000,"lift":"e7"}
{"t":2200,"place":"e5"}
`)
	g.Advance(3 * time.Second)
	if err := g.TakeBack(3*time.Second, 3, board.White); err == nil {
		t.Error("three moves taken back of two")
	}
	if err := g.TakeBack(3*time.Second, 2, board.White); err != nil {
		t.Fatal(err)
	}
	s := g.Snapshot()
	if s.Moves != 0 || !s.Syncing || s.Expected.FEN() != board.StartFEN {
		t.Fatalf("after the take-back: %d moves, syncing %v, expected %s", s.Moves, s.Syncing, s.Expected.FEN())
	}
	if r := lastOf(out, report.Ruling); r == nil || r.Option != report.OptTakeBack || r.By != report.White {
		t.Errorf("ruling %+v", r)
	}
	play(t, g, `{"t":4000,"lift":"e5"}
{"t":4200,"place":"e7"}
{"t":4400,"lift":"e4"}
{"t":4600,"place":"e2"}
`)
	g.Advance(6 * time.Second)
	if s := g.Snapshot(); s.Syncing || s.Mode != Play {
		t.Errorf("the board put back, still syncing %v mode %v", s.Syncing, s.Mode)
	}
	if pgn := g.PGN(); strings.Contains(pgn, "e4") {
		t.Errorf("the PGN keeps a move taken back:\n%s", pgn)
	}
}
