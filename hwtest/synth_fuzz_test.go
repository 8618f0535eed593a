package hwtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/trace"
)

// Fuzz input format: two bytes an input. The first byte's low three bits
// say what happens (0-2 a lift, 3-5 a placement, 6 a press, 7 a promotion
// name) and its high five bits how long after the input before it (in steps
// of 25 ms); the second byte picks which occupied square is lifted, which
// empty square receives a man, which button or piece, and the side.
const fuzzStep = 25 * time.Millisecond

var fuzzButtons = [...]string{trace.ButtonJadoube, trace.ButtonClock, trace.ButtonCheck, trace.ButtonClaim}

// fuzzLines decodes fuzz input into trace lines, each lift and placement
// consistent with the occupancy the board reads (it starts in the initial
// position).
func fuzzLines(data []byte) []trace.Line {
	start := board.Start()
	occ := start.Occupancy()
	now := 500 * time.Millisecond
	var out []trace.Line
	for i := 0; i+1 < len(data); i += 2 {
		op, arg := data[i], data[i+1]
		now += time.Duration(op>>3)*fuzzStep + time.Millisecond
		side := board.Color(arg & 1).String()
		switch op & 7 {
		case 0, 1, 2:
			sqs := occ.Squares()
			if len(sqs) == 0 {
				continue
			}
			sq := sqs[int(arg)%len(sqs)]
			occ = occ.Without(sq)
			out = append(out, trace.Line{T: now, Kind: trace.Lift, Square: sq})
		case 3, 4, 5:
			sqs := (^occ).Squares()
			if len(sqs) == 0 {
				continue
			}
			sq := sqs[int(arg)%len(sqs)]
			occ = occ.With(sq)
			out = append(out, trace.Line{T: now, Kind: trace.Place, Square: sq})
		case 6:
			out = append(out, trace.Line{T: now, Kind: trace.Press, Button: fuzzButtons[(arg>>1)%4], Side: side})
		case 7:
			out = append(out, trace.Line{T: now, Kind: trace.Promote, Piece: board.Knight + board.Kind((arg>>1)%4), Side: side})
		}
	}
	return out
}

// fuzzEncode turns the lifts, placements, presses and promotion names of a
// trace from the initial position into fuzz input, for seeds.
func fuzzEncode(lines []trace.Line) []byte {
	start := board.Start()
	occ := start.Occupancy()
	var out []byte
	last := 500 * time.Millisecond
	indexOf := func(set board.Occupancy, sq board.Square) byte {
		for i, s := range set.Squares() {
			if s == sq {
				return byte(i)
			}
		}
		return 0
	}
	for _, l := range lines {
		gap := (l.T - last) / fuzzStep
		if gap > 31 {
			gap = 31
		}
		if gap < 0 {
			gap = 0
		}
		last = l.T
		op := byte(gap) << 3
		switch l.Kind {
		case trace.Lift:
			out = append(out, op, indexOf(occ, l.Square))
			occ = occ.Without(l.Square)
		case trace.Place:
			out = append(out, op|3, indexOf(^occ, l.Square))
			occ = occ.With(l.Square)
		case trace.Press:
			b := byte(0)
			for i, name := range fuzzButtons {
				if name == l.Button {
					b = byte(i)
				}
			}
			side := byte(0)
			if l.Side == "black" {
				side = 1
			}
			out = append(out, op|6, b<<1|side)
		case trace.Promote:
			side := byte(0)
			if l.Side == "black" {
				side = 1
			}
			out = append(out, op|7, byte(l.Piece-board.Knight)<<1|side)
		}
	}
	return out
}

// fuzzLaws are the law-sets the fuzz target plays under, chosen by the
// input's length.
var fuzzLaws = []string{"fide2023", "hastings1895", "nycc", "philidor1825", "sarratt1808"}

// FuzzRecogniser feeds random lifts, placements (each consistent with the
// occupancy), presses and promotion names through debounce, gesture and
// arbiter. The game must never panic, never report a move that is not
// legal in the position it is played in (unless a ruling has just let a false
// move stand), and once the board is put back to the position the game
// expects it must not be left waiting on a mismatch.
func FuzzRecogniser(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 12, 3 | 8<<3, 27})
	games, err := testCorpus()
	if err != nil {
		f.Fatal(err)
	}
	s, err := NewSynthesiser(SynthOptions{Seed: 7, Style: HardStyle()})
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; i < len(games); i += 97 {
		if games[i].Start.FEN() != board.StartFEN {
			continue
		}
		g := games[i]
		if len(g.Moves) > 24 {
			g.Moves = g.Moves[:24]
		}
		lines, err := s.Events(&g, uint64(i))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(fuzzEncode(lines))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := fuzzPlay(fuzzLaws[len(data)%len(fuzzLaws)], fuzzLines(data)); err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzPlay runs the lines, checks every move, then puts the board right and
// checks the game is not left waiting on a mismatch.
func fuzzPlay(laws string, lines []trace.Line) error {
	return fuzzPlayWith(game.Options{Laws: laws}, lines)
}

// fuzzPlayWith is fuzzPlay with the game's options (an analogue classifier).
func fuzzPlayWith(opts game.Options, lines []trace.Line) error {
	laws := opts.Laws
	var batch []report.Report
	if len(lines) > 0 && lines[0].Kind == trace.Setup {
		opts.Setup = lines[0].FEN
		lines = lines[1:]
	}
	p, err := game.New(opts, func(r report.Report) { batch = append(batch, r) })
	if err != nil {
		return err
	}
	check := func(before board.Position, what string) error {
		cur, exempt := before, false
		for _, r := range batch {
			switch r.Type {
			case report.Ruling:
				exempt = r.Option == report.OptStand || r.Option == report.OptKeepAll
			case report.Move:
				if !exempt {
					m, err := board.ParseUCI(r.UCI)
					if err != nil {
						return fmt.Errorf("%s: move %q: %v", what, r.UCI, err)
					}
					a, err := board.Analyse(cur)
					if err != nil {
						return fmt.Errorf("%s: %v", what, err)
					}
					if !a.IsLegal(m) && !ignoresCheck(laws, &cur, a, m) {
						return fmt.Errorf("%s: move %s reported at %v is not legal in %s (laws %s)", what, r.UCI, r.T, cur.FEN(), laws)
					}
				}
				exempt = false
				next, err := board.ParseFEN(r.FEN)
				if err != nil {
					return fmt.Errorf("%s: move %s: %v", what, r.UCI, err)
				}
				cur = next
			}
		}
		batch = batch[:0]
		return nil
	}
	now := time.Duration(0)
	for i, l := range lines {
		before := p.Snapshot().Position
		if err := p.Input(l); err != nil {
			return fmt.Errorf("line %d: %v", i+1, err)
		}
		if err := check(before, fmt.Sprintf("line %d", i+1)); err != nil {
			return err
		}
		now = l.T
	}
	// Put the board right, as often as the game's expectation moves on.
	for round := 0; round < 4; round++ {
		before := p.Snapshot().Position
		now += 2 * time.Second
		p.Advance(now)
		snap := p.Snapshot()
		target := snap.Expected.Occupancy()
		occ := snap.Occupancy
		for _, sq := range (occ &^ target).Squares() {
			now += 40 * time.Millisecond
			p.Event(sensorLift(now, sq))
		}
		for _, sq := range (target &^ occ).Squares() {
			now += 40 * time.Millisecond
			p.Event(sensorPlace(now, sq))
		}
		now += 3 * time.Second
		p.Advance(now)
		if err := check(before, fmt.Sprintf("restore round %d", round+1)); err != nil {
			return err
		}
		if snap := p.Snapshot(); snap.Occupancy == snap.Expected.Occupancy() {
			break
		}
	}
	if snap := p.Snapshot(); snap.Syncing && snap.Mismatch {
		return fmt.Errorf("laws %s: the board reads the expected position %s, yet a mismatch is still pending", laws, snap.Expected.FEN())
	}
	return nil
}

// ignoresCheck reports whether m is illegal only because it leaves the
// mover's king in a check it already stood in, under a law-set where a check
// nobody announced may be ignored until it is called (philidor1825:XIII,
// sarratt1808:18, nycc:IV, hastings1895:VI).
func ignoresCheck(laws string, p *board.Position, a *board.Analysis, m board.Move) bool {
	ls, err := lawset.Lookup(laws)
	if err != nil || !ls.UncalledCheckMayBeIgnored {
		return false
	}
	return p.InCheck(p.Turn) && p.MoveFault(m, a) == board.FaultIntoCheck
}

func sensorLift(t time.Duration, sq board.Square) sensor.Event {
	return sensor.Event{T: t, Square: sq, Kind: sensor.Lift}
}

func sensorPlace(t time.Duration, sq board.Square) sensor.Event {
	return sensor.Event{T: t, Square: sq, Kind: sensor.Place}
}
