package game

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
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
	g, out := afterE4E5(t)
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
	if r := lastOf(*out, report.Ruling); r == nil || r.Option != report.OptTakeBack || r.By != report.White {
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

// The engine's clock runs until its move is carried out, or, when the
// engine's side presses its clock as the move is shown, until then: the
// player's time pays for carrying it out, and the engine's move still counts
// (with its increment) when it is made.
func TestRemoteClockHandover(t *testing.T) {
	for _, tc := range []struct {
		name         string
		handover     bool
		white, black string // the clocks after Black's move is carried out
	}{
		{"carried", false, "0:04:59", "0:04:55"}, // Black: 1.3 s to 6.1 s
		{"shown", true, "0:04:57", "0:04:57"},    // Black: 1.3 s to 4 s; White from 4 s
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out []report.Report
			g, err := New(Options{Laws: "fide2023", TimeControl: "300", Remote: [2]bool{false, true}}, func(r report.Report) { out = append(out, r) })
			if err != nil {
				t.Fatal(err)
			}
			if s := g.Snapshot(); !s.Remote[board.Black] || s.Remote[board.White] {
				t.Fatalf("remote %v from the options", s.Remote)
			}
			// Black presses his clock: White's runs.
			play(t, g, `{"t":0,"press":"clock","side":"black"}
{"t":1000,"lift":"e2"}
{"t":1200,"place":"e4"}
`)
			g.Advance(2 * time.Second)
			// The engine thinks two seconds and its move is shown.
			if err := g.Play(4*time.Second, mustUCI(t, "e7e5")); err != nil {
				t.Fatal(err)
			}
			if tc.handover {
				g.Press(4*time.Second, "clock", board.Black)
			}
			// The player takes two seconds to carry it out.
			play(t, g, `{"t":5800,"lift":"e7"}
{"t":6000,"place":"e5"}
`)
			g.Advance(7 * time.Second)
			mv := lastOf(out, report.Move)
			if mv == nil || mv.UCI != "e7e5" {
				t.Fatalf("last move %+v", mv)
			}
			if mv.WhiteClock != tc.white || mv.BlackClock != tc.black {
				t.Errorf("clocks after the engine's move: White %s Black %s, want %s %s", mv.WhiteClock, mv.BlackClock, tc.white, tc.black)
			}
			for _, r := range out {
				if r.Type == report.Irregularity {
					t.Errorf("the engine's clock press raised %+v", r)
				}
			}
		})
	}
}

// Line gives the game as an engine is given it: the start and the moves,
// or, after a false move let stand, the position play went on from.
func TestLine(t *testing.T) {
	g, err := New(Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1200,"place":"e5"}
`)
	g.Advance(2 * time.Second)
	start, moves := g.Line()
	if start.FEN() != board.StartFEN || len(moves) != 2 || moves[0].UCI() != "e2e4" || moves[1].UCI() != "e7e5" {
		t.Errorf("line %s %v", start.FEN(), moves)
	}
	// Sarratt lets a false move stand when the offended player says so.
	g2, err := New(Options{Laws: "sarratt1808"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	play(t, g2, `{"t":0,"lift":"e2"}
{"t":200,"place":"e5"}
`)
	g2.Advance(2 * time.Second)
	s := g2.Snapshot()
	if s.Pending == nil {
		t.Fatal("no ruling pending on the false move e2-e5")
	}
	if err := g2.Choose(3*time.Second, report.OptStand, report.Black); err != nil {
		t.Fatal(err)
	}
	start, moves = g2.Line()
	if pos := g2.Snapshot().Position; start.FEN() != pos.FEN() || len(moves) != 0 {
		t.Errorf("after a false move let stand: line %s %v, want the position %s and no move", start.FEN(), moves, pos.FEN())
	}
}

// A player resigns, or the engine accepts a draw: the game ends normally
// (not by the arbiter's declaration), with the reason in words.
func TestResignAndAgreeDraw(t *testing.T) {
	for _, tc := range []struct {
		action, value string
		result        report.Outcome
		reason        string
	}{
		{ActionResign, "white", report.BlackWins, "white resigns"},
		{ActionResign, "black", report.WhiteWins, "black resigns"},
		{ActionAgreeDraw, "", report.Draw, "draw agreed"},
	} {
		t.Run(tc.action+tc.value, func(t *testing.T) {
			g, err := New(Options{Laws: "fide2023"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Action(time.Second, tc.action, tc.value); err != nil {
				t.Fatal(err)
			}
			r := g.Snapshot().Result
			if r == nil || r.Result != tc.result || r.Reason != tc.reason {
				t.Fatalf("result %+v", r)
			}
			if pgn := g.PGN(); !strings.Contains(pgn, `[Termination "normal"]`) {
				t.Errorf("PGN:\n%s", pgn)
			}
			if err := g.Action(2*time.Second, tc.action, tc.value); err == nil {
				t.Error("a finished game ended twice")
			}
		})
	}
	g, _ := New(Options{Laws: "fide2023"}, nil)
	if err := g.Action(time.Second, ActionResign, "nobody"); err == nil || !strings.Contains(err.Error(), "white or black") {
		t.Errorf("resign by nobody: %v", err)
	}
}

// SubmitIf applies an input only while its check passes, on the loop
// goroutine: refused, it is neither applied nor told to the input hooks (it
// is not journalled).
func TestSubmitIf(t *testing.T) {
	g, err := New(Options{Laws: "fide2023", Remote: [2]bool{false, true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(g, &timing.Virtual{})
	var heard []trace.Line
	r.OnInput(func(l trace.Line) { heard = append(heard, l) })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = r.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	move := trace.Line{Kind: trace.Opponent, Move: mustUCI(t, "e7e5")}
	stale := errors.New("the game has moved on")
	if err := r.SubmitIf(ctx, move, func(*Game) error { return stale }); err != stale {
		t.Errorf("refused input: %v", err)
	}
	if err := r.SubmitIf(ctx, trace.Line{Kind: trace.Lift, Square: 12}, func(g *Game) error {
		if g.Snapshot().Moves != 0 {
			return stale
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s, _ := r.Snapshot(ctx)
	if len(heard) != 1 || heard[0].Kind != trace.Lift || s.InHand.Count() != 1 {
		t.Errorf("inputs heard %v, in hand %v", heard, s.InHand.SquareNames())
	}
}

// A take-back asked while the player's own move is still pending (his
// hand has just set the man down) takes back that move alone: the request
// ends his hand, the move is made, and it is taken back, never the pair
// before it, and never thrown away unrecorded. With no move in hand, the
// moves asked for go.
func TestTakeBackPendingMove(t *testing.T) {
	const afterE5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
	tests := []struct {
		name string
		// at is when the take-back comes, after the knight is set down on
		// f3 at 5200 ms (the quick settle shows it pending at 5300, the
		// settle makes it at 5650).
		at          time.Duration
		plies       int
		wantMoves   int
		wantFEN     string
		wantTaken   string // the ruling's reason
		wantSetBack []string
	}{
		{"pending, shown", 5400 * time.Millisecond, 2, 2, afterE5, "1 move taken back", []string{"g1"}},
		{"just set down, not yet shown", 5250 * time.Millisecond, 2, 2, afterE5, "1 move taken back", []string{"g1"}},
		{"pending, one ply asked", 5400 * time.Millisecond, 1, 2, afterE5, "1 move taken back", []string{"g1"}},
		{"made: the pair goes", 6 * time.Second, 2, 1, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "2 moves taken back", []string{"g1", "e7"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, out := afterE4E5(t)
			play(t, g, `{"t":5000,"lift":"g1"}
{"t":5200,"place":"f3"}
`)
			g.Advance(tc.at)
			if err := g.TakeBack(tc.at, tc.plies, board.White); err != nil {
				t.Fatal(err)
			}
			s := g.Snapshot()
			if s.Moves != tc.wantMoves || s.Expected.FEN() != tc.wantFEN || s.HasLanding {
				t.Errorf("after the take-back: %d moves, expected %s, landing %v; want %d moves, %s", s.Moves, s.Expected.FEN(), s.HasLanding, tc.wantMoves, tc.wantFEN)
			}
			if got := movesOf(*out); got != "e2e4 e7e5 g1f3" && tc.wantMoves == 2 {
				t.Errorf("moves made %q, want the knight's move made before it was taken back", got)
			}
			if r := lastOf(*out, report.Ruling); r == nil || r.Option != report.OptTakeBack || r.Reason != tc.wantTaken {
				t.Errorf("ruling %+v, want %q", r, tc.wantTaken)
			}
			// The board is lit to set the men back where they stood.
			var missing []string
			for sq := board.Square(0); sq < 64; sq++ {
				if s.Expected.Men[sq] != board.NoMan && !s.Occupancy.Has(sq) {
					missing = append(missing, sq.String())
				}
			}
			if !s.Syncing || strings.Join(missing, " ") != strings.Join(tc.wantSetBack, " ") {
				t.Errorf("syncing %v, squares to fill %v, want %v", s.Syncing, missing, tc.wantSetBack)
			}
		})
	}
}

// afterE4E5 is a fide2023 game against an engine playing Black: White's
// e2-e4 by hand, the engine's e7-e5 carried out on the board by 2.2 s. The
// reports go to the slice returned.
func afterE4E5(t *testing.T) (*Game, *[]report.Report) {
	t.Helper()
	out := new([]report.Report)
	g, err := New(Options{Laws: "fide2023"}, func(r report.Report) { *out = append(*out, r) })
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
	return g, out
}
