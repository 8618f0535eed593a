package gesture

import (
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/sensor"
)

func TestTakeBackMakesNoGhostMoves(t *testing.T) {
	j := newPlayJudge(t, "")
	start := j.exp
	pos := start.Analysis.Position
	r := New(Options{}, j, j.exp, pos.Occupancy())
	at := func(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
	ev := func(ms int, kind sensor.EventKind, sq string) {
		s, _ := board.ParseSquare(sq)
		r.Event(sensor.Event{T: at(ms), Square: s, Kind: kind})
	}
	ev(0, sensor.Lift, "e2")
	ev(200, sensor.Place, "e4")
	ev(1000, sensor.Lift, "d7")
	ev(1200, sensor.Place, "d5")
	ev(2000, sensor.Lift, "e4")
	ev(2100, sensor.Lift, "d5")
	ev(2200, sensor.Place, "d5")
	r.Advance(at(3000))
	if got := only(j.log, "move"); len(got) != 3 {
		t.Fatalf("setup moves: %v", got)
	}
	// A ruling takes the game back to the start: the men go home in any
	// order, through intermediate positions that look like moves.
	j.exp = start
	r.SetExpectation(at(3000), Expectation{Mode: Restore, Analysis: start.Analysis})
	before := len(j.log)
	ev(3100, sensor.Lift, "d5")
	ev(3200, sensor.Place, "e4") // looks like a move for a moment
	ev(3300, sensor.Lift, "e4")
	ev(3400, sensor.Place, "e2")
	ev(3500, sensor.Place, "d5") // the black pawn comes back from off the board
	ev(3600, sensor.Lift, "d5")
	ev(3700, sensor.Place, "d7")
	r.Advance(at(6000))
	got := only(j.log[before:], "move", "false", "mismatch", "synced")
	if len(got) != 1 || got[0] != "synced" {
		t.Fatalf("take-back reported %v, want only synced", got)
	}
	ev(6100, sensor.Lift, "g1")
	ev(6300, sensor.Place, "f3")
	r.Flush(at(7000))
	if got := only(j.log[before:], "move"); len(got) != 1 || got[0] != "move white g1f3" {
		t.Fatalf("play after the take-back: %v", got)
	}
}

func TestNewGameStartsOnInitialSetUp(t *testing.T) {
	j := newPlayJudge(t, "")
	start := j.exp
	wait := Expectation{Mode: AwaitNewGame, Analysis: start.Analysis}
	pos := start.Analysis.Position
	r := New(Options{}, j, wait, pos.Occupancy())
	at := time.Duration(0)
	step := func(kind sensor.EventKind, sq board.Square) {
		at += 50 * time.Millisecond
		r.Event(sensor.Event{T: at, Square: sq, Kind: kind})
	}
	// Setting up straight away is not a new game: the board must be cleared.
	r.Advance(time.Second)
	if len(only(j.log, "synced")) != 0 {
		t.Fatal("synced before the board was cleared")
	}
	for _, sq := range pos.Occupancy().Squares() {
		step(sensor.Lift, sq)
	}
	for _, sq := range pos.Occupancy().Squares() {
		step(sensor.Place, sq)
	}
	r.Advance(at + time.Second)
	if got := only(j.log, "synced", "move", "false", "mismatch"); len(got) != 1 || got[0] != "synced" {
		t.Fatalf("new game set-up reported %v, want synced", got)
	}
}

// FuzzRecogniser feeds random lifts, placements and presses (each consistent
// with the occupancy) to the recogniser. It must never panic, never call a
// move legal that is not legal in the position, and once the board is put
// back to the expected position it must be at rest (not waiting on a fix).
func FuzzRecogniser(f *testing.F) {
	f.Add([]byte{12, 28, 200, 52, 36})
	f.Add([]byte{11, 2, 11, 130, 9, 9, 9})
	f.Add([]byte{4, 6, 7, 5, 255, 0, 1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		j := &checkingJudge{playJudge: newPlayJudge(t, "")}
		pos := j.exp.Analysis.Position
		occ := pos.Occupancy()
		r := New(Options{}, j, j.exp, occ)
		now := time.Duration(0)
		for _, b := range data {
			now += time.Duration(b%7) * 60 * time.Millisecond
			sq := board.Square(b % 64)
			switch {
			case b >= 250:
				r.Press(now, "clock", board.Color(b&1))
			case b >= 246:
				r.Press(now, "jadoube", board.Color(b&1))
			case r.Occupancy().Has(sq):
				r.Event(sensor.Event{T: now, Square: sq, Kind: sensor.Lift})
			default:
				r.Event(sensor.Event{T: now, Square: sq, Kind: sensor.Place})
			}
		}
		r.Flush(now)
		// Put the board right.
		for i := 0; i < 3; i++ {
			target := j.exp.Analysis.Position.Occupancy()
			now += time.Second
			for _, sq := range (r.Occupancy() &^ target).Squares() {
				now += 10 * time.Millisecond
				r.Event(sensor.Event{T: now, Square: sq, Kind: sensor.Lift})
			}
			for _, sq := range (target &^ r.Occupancy()).Squares() {
				now += 10 * time.Millisecond
				r.Event(sensor.Event{T: now, Square: sq, Kind: sensor.Place})
			}
			r.Advance(now + 5*time.Second)
			r.Flush(now + 5*time.Second)
			now += 6 * time.Second
		}
		if waiting, _ := r.Syncing(); waiting {
			t.Fatalf("still waiting for a fix with the board put right")
		}
		if r.Occupancy() != j.exp.Analysis.Position.Occupancy() {
			t.Fatalf("board and game differ after the fix")
		}
	})
}

type checkingJudge struct{ *playJudge }

func (c *checkingJudge) Judge(g Gesture) Expectation {
	if g.Kind == Move && g.Reading.Legal {
		m := g.Reading.Move
		if c.exp.Mode == Play && m.Promo == board.NoKind && c.exp.Analysis.Position.IsPromotion(m) {
			m.Promo = board.Queen
			g.Reading.Move = m
		}
		if !c.exp.Analysis.IsLegal(m) {
			c.t.Fatalf("move %s called legal in %s", m, c.exp.Analysis.Position.FEN())
		}
	}
	return c.playJudge.Judge(g)
}

// TestNewGameStartsFromTheFinalPosition: after a result the board need not
// be cleared: the men moved straight from the final position to the set-up
// (as the missing and extra squares show) start the next game; the final
// position left standing, or the set-up not reached, does not.
func TestNewGameStartsFromTheFinalPosition(t *testing.T) {
	cases := []struct {
		name   string
		events []string // "-e4" a lift, "+e2" a placement
		synced bool
	}{
		{"the men moved back to the set-up", []string{"-e4", "+e2", "-e5", "+e7"}, true},
		{"the men moved back the other way round", []string{"-e5", "+e7", "-e4", "+e2"}, true},
		{"cleared first, then set up", nil, true}, // filled in below
		{"one man moved back, one left", []string{"-e4", "+e2"}, false},
		{"nothing done", nil, false},
		{"a man lifted and put back", []string{"-e4", "+e4"}, false},
	}
	j := newPlayJudge(t, "")
	start := j.exp.Analysis.Position
	final := start
	for _, u := range []string{"e2e4", "e7e5"} {
		m, err := board.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		final = final.Apply(m)
	}
	for i := range cases {
		if cases[i].name != "cleared first, then set up" {
			continue
		}
		for _, sq := range final.Occupancy().Squares() {
			cases[i].events = append(cases[i].events, "-"+sq.String())
		}
		for _, sq := range start.Occupancy().Squares() {
			cases[i].events = append(cases[i].events, "+"+sq.String())
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := newPlayJudge(t, "")
			wait := Expectation{Mode: AwaitNewGame, Analysis: j.exp.Analysis}
			r := New(Options{}, j, wait, final.Occupancy())
			at := time.Second
			for _, e := range c.events {
				at += 50 * time.Millisecond
				kind := sensor.Lift
				if e[0] == '+' {
					kind = sensor.Place
				}
				r.Event(sensor.Event{T: at, Square: sq(t, e[1:]), Kind: kind})
			}
			r.Advance(at + 2*time.Second)
			got := only(j.log, "synced", "move", "false", "mismatch")
			if synced := len(got) == 1 && got[0] == "synced"; synced != c.synced || len(got) > 1 {
				t.Fatalf("reported %v, want synced %v", got, c.synced)
			}
			if waiting, _ := r.Syncing(); waiting == c.synced {
				t.Errorf("still syncing: %v, want %v", waiting, !c.synced)
			}
		})
	}
}
