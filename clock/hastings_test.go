package clock

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/hastings-forfeit.trace from the game and the thinking times")

const hastingsTrace = "testdata/hastings-forfeit.trace"

// The first thirty moves of each side of Pillsbury v Tarrasch, Hastings 1895
// (round 2, 6 August 1895).
const pillsburyTarrasch = `1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. Nf3 Nbd7 6. Rc1 O-O 7. e3 b6
8. cxd5 exd5 9. Bd3 Bb7 10. O-O c5 11. Re1 c4 12. Bb1 a6 13. Ne5 b5 14. f4 Re8
15. Qf3 Nf8 16. Ne2 Ne4 17. Bxe7 Rxe7 18. Bxe4 dxe4 19. Qg3 f6 20. Ng4 Kh8
21. f5 Qd7 22. Rf1 Rd8 23. Rf4 Qd6 24. Qh4 Rde8 25. Nc3 Bd5 26. Nf2 Qc6
27. Rf1 b4 28. Ne2 Qa4 29. Ng4 Nd7 30. R4f2 Kg8`

// Thinking times in seconds, from the opponent's clock press to the
// player's own. They are invented: White uses 5070 s for his thirty moves,
// Black 6900 s for his first twenty-nine, and then thinks 500 s over his
// thirtieth with 300 s left before two hours are up.
var (
	whiteThinks = []int{15, 25, 40, 55, 70, 90, 120, 150, 180, 200, 240, 260, 280, 300, 320, 240, 200, 180, 220, 260, 200, 180, 160, 150, 140, 130, 150, 170, 160, 185}
	blackThinks = []int{10, 30, 45, 80, 110, 140, 170, 200, 230, 260, 300, 330, 310, 360, 420, 280, 300, 340, 290, 260, 250, 300, 270, 230, 190, 250, 260, 240, 445, 500}
)

// makeHastingsTrace writes the trace: Black's press at t=0 starts White's
// clock; each move is the lifts and the placement of a hand (the mover's
// man first, then the man he takes; castling king first), and the mover's
// clock press 200 ms after his hand quits the board, inside the 250 ms
// settle time, so the press completes the move.
func makeHastingsTrace() ([]byte, error) {
	var sans []string
	for _, tok := range strings.Fields(pillsburyTarrasch) {
		if !strings.HasSuffix(tok, ".") {
			sans = append(sans, tok)
		}
	}
	if len(sans) != 60 {
		return nil, fmt.Errorf("%d plies, want 60", len(sans))
	}
	var out []byte
	out = append(out, "# Hastings 1895 regulations (Time Limit): thirty moves in the first two hours.\n"...)
	out = append(out, "# The moves are Pillsbury v Tarrasch, Hastings 1895, moves 1-30; the times are invented.\n"...)
	out = append(out, "# Black's two hours run out at t=12270000 (3:24:30), 300 s into his thirtieth move,\n"...)
	out = append(out, "# which he completes at t=12470000: he forfeits (hastings1895:time-limit), 1-0.\n"...)
	out = append(out, "# Made by: go test ./clock -run TestHastingsForfeitTrace -update\n"...)
	at := time.Duration(0)
	line := func(l trace.Line) { out = trace.Append(out, l) }
	line(trace.Line{T: 0, Kind: trace.Press, Button: trace.ButtonClock, Side: trace.SideBlack})
	pos := board.Start()
	for i, san := range sans {
		a, err := board.Analyse(pos)
		if err != nil {
			return nil, err
		}
		var mv board.Move
		found := false
		for _, m := range a.Moves {
			if strings.TrimRight(a.SAN(m), "+#") == strings.TrimRight(san, "+#") {
				mv, found = m, true
			}
		}
		if !found {
			return nil, fmt.Errorf("ply %d: %s is not legal in %s", i+1, san, pos.FEN())
		}
		side := pos.Turn
		think := whiteThinks[i/2]
		if side == board.Black {
			think = blackThinks[i/2]
		}
		at += time.Duration(think) * time.Second
		press := at
		lift := func(dt time.Duration, sq board.Square) {
			line(trace.Line{T: press - dt, Kind: trace.Lift, Square: sq})
		}
		place := func(dt time.Duration, sq board.Square) {
			line(trace.Line{T: press - dt, Kind: trace.Place, Square: sq})
		}
		switch {
		case pos.IsCastling(mv):
			rf, rt := board.CastlingRook(mv.From, mv.To)
			lift(1600*time.Millisecond, mv.From)
			place(1200*time.Millisecond, mv.To)
			lift(800*time.Millisecond, rf)
			place(200*time.Millisecond, rt)
		case pos.IsEnPassant(mv):
			lift(1200*time.Millisecond, mv.From)
			place(700*time.Millisecond, mv.To)
			lift(200*time.Millisecond, board.EnPassantVictim(mv))
		case pos.Men[mv.To] != board.NoMan:
			lift(1200*time.Millisecond, mv.From)
			lift(900*time.Millisecond, mv.To)
			place(200*time.Millisecond, mv.To)
		default:
			lift(1000*time.Millisecond, mv.From)
			place(200*time.Millisecond, mv.To)
		}
		line(trace.Line{T: press, Kind: trace.Press, Button: trace.ButtonClock, Side: side.String()})
		pos = pos.Apply(mv)
	}
	return out, nil
}

// The trace in testdata is the one the game and the thinking times make.
func TestHastingsForfeitTrace(t *testing.T) {
	want, err := makeHastingsTrace()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(hastingsTrace, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(hastingsTrace)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./clock -run TestHastingsForfeitTrace -update", hastingsTrace)
	}
}

// The clock on the trace's press times, in virtual time, as boardd replay
// --time-control hastings1895 runs it: the clocks start at the first line,
// each press completes the presser's move, and the driver wakes at every
// deadline before the next input. Black's flag falls 300 s into his
// thirtieth move; the Hastings regulations forfeit him.
func TestHastingsForfeitClock(t *testing.T) {
	f, err := os.Open(hastingsTrace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	ctl, _ := Preset("hastings1895")
	k, err := New(ctl, board.White)
	if err != nil {
		t.Fatal(err)
	}
	k.Start(lines[0].T)
	var fall Fall
	fell := false
	var late []time.Duration
	for _, l := range lines {
		if d := k.Deadline(); !fell && l.T >= d {
			fall, fell = k.Flag(d)
		}
		if l.Kind != trace.Press || l.Button != trace.ButtonClock {
			continue
		}
		side, _ := board.ParseColor(l.Side)
		if o := k.Press(l.T, side); o == Late {
			late = append(late, l.T)
		}
	}
	k.Stop(lines[len(lines)-1].T)

	// White: 5070 s for 30 moves, then the second stage's hour.
	// Black: 6900 s for 29 moves; 300 s left at White's 30th press.
	const whitePress30 = (5070 + 6900) * time.Second // 11970 s
	if !fell || fall.Side != board.Black || fall.T != whitePress30+300*time.Second {
		t.Fatalf("fall %+v (fell %v), want Black's at %v", fall, fell, whitePress30+300*time.Second)
	}
	if Format(fall.T) != "3:24:30" {
		t.Errorf("fall at %s, want 3:24:30", Format(fall.T))
	}
	if len(late) != 1 || late[0] != whitePress30+500*time.Second {
		t.Errorf("late presses %v, want Black's thirtieth at 12470s", late)
	}
	if k.Moves(board.White) != 30 || k.Moves(board.Black) != 29 {
		t.Errorf("moves %d/%d, want 30/29", k.Moves(board.White), k.Moves(board.Black))
	}
	w, b := k.Times(fall.T)
	if w != (7200-5070+3600)*time.Second || b != 0 {
		t.Errorf("at the fall: white %v black %v, want 1h35m30s and 0", w, b)
	}
	if Format(w) != "1:35:30" {
		t.Errorf("white %s", Format(w))
	}
	if fall.Side != board.Black {
		t.Errorf("%v's flag fell, want Black's", fall.Side)
	}
}
