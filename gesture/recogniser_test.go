package gesture

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/sensor"
)

// playJudge is a minimal judge: legal moves are played, false moves are
// left standing as the men physically stand, and everything is logged.
type playJudge struct {
	t   testing.TB
	exp Expectation
	log []string
}

func newPlayJudge(t testing.TB, fen string) *playJudge {
	p := board.Start()
	if fen != "" {
		var err error
		if p, err = board.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	a, err := board.Analyse(p)
	if err != nil {
		t.Fatal(err)
	}
	return &playJudge{t: t, exp: Expectation{Mode: Play, Analysis: a}}
}

func (j *playJudge) Judge(g Gesture) Expectation {
	switch g.Kind {
	case Touch:
		j.log = append(j.log, fmt.Sprintf("touch %s %s", g.Side, g.Square))
	case Adjust:
		j.log = append(j.log, fmt.Sprintf("adjust %s %s %v", g.Side, g.Square, g.Announced))
	case Move:
		rd := g.Reading
		pos := j.exp.Analysis.Position
		var next board.Position
		if rd.Legal {
			j.log = append(j.log, fmt.Sprintf("move %s %s", rd.Mover, rd.Move.UCI()))
			next = pos.Apply(rd.Move)
		} else {
			j.log = append(j.log, fmt.Sprintf("false %s %s %s", rd.Mover, rd.Move.UCI(), rd.False))
			next = pos
			next.Men = rd.After
			next.Turn = rd.Mover.Other()
			next.EnPassant = board.NoSquare
		}
		a, err := board.Analyse(next)
		if err != nil {
			j.t.Fatal(err)
		}
		j.exp = Expectation{Mode: Play, Analysis: a}
	case Mismatch:
		j.log = append(j.log, fmt.Sprintf("mismatch missing=%v extra=%v", g.Missing.SquareNames(), g.Extra.SquareNames()))
	case Synced:
		j.log = append(j.log, "synced")
	case Press:
		j.log = append(j.log, fmt.Sprintf("press %s %s", g.Side, g.Button))
	case Promote:
		j.log = append(j.log, fmt.Sprintf("promote %s %c", g.Side, g.Piece.Letter()))
	}
	return j.exp
}

// script is a compact test trace: "L e2" lift, "P e4" place, "W 300" wait
// (ms), "C white" clock, "J white" j'adoube, "N q white" promotion name.
// Each step advances the time by 100 ms unless it is a wait.
func play(t *testing.T, fen, script string, opts Options) []string {
	t.Helper()
	j := newPlayJudge(t, fen)
	pos := j.exp.Analysis.Position
	r := New(opts, j, j.exp, pos.Occupancy())
	now := time.Duration(0)
	for _, step := range strings.Split(script, ";") {
		f := strings.Fields(step)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "L", "P":
			sq, err := board.ParseSquare(f[1])
			if err != nil {
				t.Fatal(err)
			}
			kind := sensor.Lift
			if f[0] == "P" {
				kind = sensor.Place
			}
			r.Event(sensor.Event{T: now, Square: sq, Kind: kind})
		case "W":
			var ms int
			fmt.Sscan(f[1], &ms)
			now += time.Duration(ms) * time.Millisecond
			r.Advance(now)
			continue
		case "C", "J":
			side, _ := board.ParseColor(f[1])
			button := "clock"
			if f[0] == "J" {
				button = "jadoube"
			}
			r.Press(now, button, side)
		case "N":
			k, _ := board.ParsePromotion(f[1])
			side, _ := board.ParseColor(f[2])
			r.Promote(now, k, side)
		default:
			t.Fatalf("bad step %q", step)
		}
		now += 100 * time.Millisecond
	}
	r.Flush(now)
	return j.log
}

func only(log []string, prefixes ...string) []string {
	var out []string
	for _, l := range log {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

func TestMovesInEveryPhysicalOrder(t *testing.T) {
	const castle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
	const ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
	const promo = "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1"
	tests := []struct {
		name, fen, script string
		rookFirst         bool
		want              string
	}{
		{"quiet move", "", "L e2; P e4", false, "move white e2e4"},
		{"move then reply", "", "L e2; P e4; W 500; L e7; P e5", false, "move white e2e4|move black e7e5"},
		{"fast reply", "", "L e2; P e4; L e7; P e5", false, "move white e2e4|move black e7e5"},
		{"capture, victim first", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "L d5; L e4; P d5", false, "move white e4d5"},
		{"capture, victim second", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "L e4; L d5; P d5", false, "move white e4d5"},
		{"capture, victim lifted while the man is set aside", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "L e4; P e4; L d5; L e4; P d5", false, "move white e4d5"},
		{"castling king first", castle, "L e1; P g1; L h1; P f1", false, "move white e1g1"},
		{"castling king first, slowly", castle, "L e1; P g1; W 600; L h1; P f1", false, "move white e1g1"},
		{"castling both in hand", castle, "L e1; L h1; P g1; P f1", false, "move white e1g1"},
		{"castling rook first in hand", castle, "L h1; L e1; P f1; P g1", false, "move white e1g1"},
		{"queenside", castle, "L e1; P c1; L a1; P d1", false, "move white e1c1"},
		{"rook first, law allows", castle, "L h1; P f1; W 400; L e1; P g1", true, "move white e1g1"},
		{"rook first, law forbids", castle, "L h1; P f1; W 400; L e1; P g1; W 1500", false, "move white h1f1|false white e1g1 successive-moves"},
		{"rook first, law allows, no king follows", castle, "L h1; P f1; W 1500", true, "move white h1f1"},
		{"en passant, victim first", ep, "L d5; L e5; P d6", false, "move white e5d6"},
		{"en passant, victim after", ep, "L e5; P d6; L d5", false, "move white e5d6"},
		{"en passant, victim after a pause", ep, "L e5; P d6; W 600; L d5", false, "move white e5d6"},
		{"promotion named before", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "N n white; L b7; P b8", false, "move white b7b8n"},
		{"promotion exchanged then named", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "L b7; P b8; W 400; L b8; P b8; N r white", false, "move white b7b8r"},
		{"promotion placed directly", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "L b7; P b8; N q white", false, "move white b7b8q"},
		{"promotion with capture", promo, "L d8; L c7; P d8; N b white", false, "move white c7d8b"},
		{"promotion unnamed waits for the adversary", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "L b7; P b8; W 3000; L e8; P d7", false, "move white b7b8|move black e8d7"},
		{"promotion unnamed, the new man taken at once", "3k4/4P3/8/8/8/8/8/4K3 w - - 0 1", "L e7; P e8; W 1300; L e8; L d8; P e8", false, "move white e7e8|move black d8e8"},
		{"exchange after the move is not a touch", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "N q white; L b7; P b8; W 600; L b8; P b8; W 300; L e8; P d7", false, "move white b7b8q|move black e8d7"},
		{"slide through empty squares", "", "L e2; P e4; W 500; L e7; P e5; W 500; L f1; P e2; L e2; P d3; L d3; P c4", false, "move white e2e4|move black e7e5|move white f1c4"},
		{"clock press completes at once", "", "L e2; P e4; C white", false, "move white e2e4"},
		{"own capture, most direct reading", "", "L d2; L c1; P d2", false, "false white c1d2 own-capture"},
		{"false move", "", "L e2; P e5", false, "false white e2e5 false-move"},
		{"moved into check", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "L e1; P e2", false, "false white e1e2 moved-into-check"},
		{"successive move by the side not on move", "", "L e7; P e5", false, "false black e7e5 successive-moves"},
		{"adverse man moved unlike itself", "", "L b8; P b6", false, "false white b8b6 moved-adverse-man"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := play(t, tt.fen, tt.script, Options{RookFirstCastling: tt.rookFirst})
			got := strings.Join(only(log, "move", "false", "mismatch"), "|")
			// An unnamed promotion reads as the bare move: compare prefixes.
			if got != tt.want {
				t.Errorf("got  %s\nwant %s\nlog %v", got, tt.want, log)
			}
		})
	}
}

func TestMoveNeedsClock(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"a false move put right before the clock is no false move", "L e2; P e5; W 3000; L e5; P e4; C white", "move white e2e4"},
		{"a false move completed by the clock", "L e2; P e5; W 3000; C white", "false white e2e5 false-move"},
		{"a legal move still completes on its own", "L e2; P e4; W 500", "move white e2e4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := play(t, "", tt.script, Options{MoveNeedsClock: true})
			if got := strings.Join(only(log, "move", "false", "mismatch"), "|"); got != tt.want {
				t.Errorf("got %s want %s", got, tt.want)
			}
		})
	}
}

func TestTouchesAndAdjustments(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"unannounced adjustment", "L g1; W 200; P g1", "touch white g1|adjust white g1 false"},
		{"announced adjustment", "J white; L g1; P g1", "adjust white g1 true"},
		{"announcement lapses after its window", "J white; W 1500; L g1; W 200; P g1", "touch white g1|adjust white g1 false"},
		{"black adjusts with j'adoube on white's turn", "J black; L g8; P g8", "adjust black g8 true"},
		{"adverse man touched", "L e7; W 200; P e7", "touch white e7|adjust white e7 false"},
		{"a man jostled and back at once is no adjustment", "L g1; W 10; P g1", "touch white g1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := play(t, "", tt.script, Options{})
			got := strings.Join(only(log, "touch", "adjust"), "|")
			if got != tt.want {
				t.Errorf("got %s want %s", got, tt.want)
			}
		})
	}
}

// With a quick confirmation the man knocked off after e4 was confirmed lies
// off the board in Black's turn: Black's move, completed when White's hand
// returns, leaves the board short, and the mismatch names the square.
func TestManKnockedOffAfterAQuickConfirmation(t *testing.T) {
	log := play(t, "", "L e2; P e4; L g1; W 1000; L e7; P e5; W 1000; L d2", Options{QuickSettle: 100 * time.Millisecond})
	got := strings.Join(only(log, "move", "false", "mismatch"), "|")
	if want := "move white e2e4|move black e7e5|mismatch missing=[g1] extra=[]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestIrregularHandlingIsReportedNotGuessed(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		// A man knocked off 100 ms after e4 is set down, within the full
		// settle time (QuickSettle off for this table: e4 would otherwise be
		// confirmed first; see the case below).
		{"man knocked off the board during a move", "L e2; P e4; L g1; W 2000; C white", "move white e2e4|mismatch missing=[g1] extra=[]"},
		{"man added from off the board", "P e4; W 1500", "mismatch missing=[] extra=[e4]"},
		{"several men displaced", "L a2; L b2; P a3; P b3; W 1500", "mismatch missing=[a2 b2] extra=[a3 b3]"},
		{"mismatch then put right", "L a2; L b2; P a3; P b3; W 1500; L a3; L b3; P a2; P b2; W 500", "mismatch missing=[a2 b2] extra=[a3 b3]|synced"},
		{"play resumes after the fix", "P e4; W 1500; L e4; W 500; L d2; P d4", "mismatch missing=[] extra=[e4]|synced|move white d2d4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := play(t, "", tt.script, Options{QuickSettle: -1})
			got := strings.Join(only(log, "move", "false", "mismatch", "synced"), "|")
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
