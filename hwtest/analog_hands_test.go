package hwtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/hwtest/hallsim"
)

// TestAnalogSlowHands plays corpus games by hands twice and three times as
// slow as ordinary ones that hold a man above a square before every
// placement the events leave time for, on 12- and 10-bit boards an hour
// after power-on whose sensors drift each its own way (5 mV/°C, about 20 mV
// each), and requires every move back with nothing irregular and no
// placement read before the man is down. The same traces through a
// classifier that reads the thresholds alone must read men in the air, or
// the hands test nothing.
func TestAnalogSlowHands(t *testing.T) {
	n := 6
	if testing.Short() || raceEnabled {
		n = 2
	}
	games := sweepGames(t, n)
	for _, slow := range []float64{2, 3} {
		for _, bits := range []int{12, 10} {
			t.Run(fmt.Sprintf("x%v/%d-bit", slow, bits), func(t *testing.T) {
				m := hallsim.DefaultModel()
				m.Bits, m.NullDrift, m.Weak = bits, 5, board.Square(11) // the weak sensor under d2's pawn
				seed := uint64(200 + bits)
				cb, err := hallsim.NewBoard(m, seed)
				if err != nil {
					t.Fatal(err)
				}
				cal, _, err := hallsim.Calibrate(context.Background(), cb)
				if err != nil {
					t.Fatal(err)
				}
				o := AnalogOptions{Board: m, BoardSeed: seed, Started: time.Hour, Slow: slow, Hover: 1}
				var lost, thresholds [2]int // games lost, placements read in the air
				var hovers [2]int
				var firstLoss string
				forEachGame(len(games), func(i int, synths map[string]*Synthesiser) {
					s, err := synthFor(synths, "fide2023")
					if err != nil {
						t.Error(err)
						return
					}
					st, err := replayAnalogWith(s, &games[i], uint64(i)*131+7, o, cal, calibration.ClassifierOptions{})
					if err != nil {
						t.Errorf("%s: %v", games[i].Name, err)
						lost[0]++
					}
					lost[1] += st.air
					hovers[0] += st.hovers[0]
					hovers[1] += st.hovers[1]
					st, err = replayAnalogWith(s, &games[i], uint64(i)*131+7, o, cal, calibration.ClassifierOptions{NoSettle: true})
					if err != nil {
						thresholds[0]++
						if firstLoss == "" {
							firstLoss = err.Error()
						}
					}
					thresholds[1] += st.air
				})
				t.Logf("%d games: %d lost, %d placements read in the air; %d hovers over the square set down on, %d beside it; read by the thresholds alone: %d lost, %d placements read in the air (first: %.200s)",
					len(games), lost[0], lost[1], hovers[0], hovers[1], thresholds[0], thresholds[1], firstLoss)
				if thresholds[1] == 0 {
					t.Errorf("the thresholds alone read no man in the air: the hands test nothing")
				}
				if hovers[0]+hovers[1] < len(games) {
					t.Errorf("%d hovers in %d games: the hands hardly hover", hovers[0]+hovers[1], len(games))
				}
			})
		}
	}
}

// TestAnalogWeakSensorDrift: a weak sensor (40 % of its gain) under a man
// who has stood on it since the board was switched on drifts on its own, by
// 70 mV and more, either way, while the board warms for an hour; then the
// man is moved. His lift must be seen, and every move read back. The same
// frames through a classifier that does not track drift (as one that tracks
// only the drift common to the board, which is next to none when each
// sensor drifts its own way) must lose a move at some of these levels, or
// the drift tests nothing.
func TestAnalogWeakSensorDrift(t *testing.T) {
	s, err := NewSynthesiser(SynthOptions{Seed: corpusSeed, Laws: "fide2023", Style: DefaultStyle()})
	if err != nil {
		t.Fatal(err)
	}
	var moves []board.Move
	for _, u := range strings.Fields("d2d4 d7d5 c2c4 e7e6 b1c3 g8f6") {
		mv, err := board.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, mv)
	}
	g := Game{Name: "queen's gambit", Start: board.Start(), Moves: moves}
	for _, bits := range []int{12, 10} {
		for _, weak := range []string{"d2", "d7"} { // a White man on it, a Black one
			untracked := map[bool]bool{} // drift sign -> a move was lost
			for _, mV := range []float64{70, -70, 150, -150, 250, -250} {
				name := fmt.Sprintf("%d-bit/%s/%+.0f mV", bits, weak, mV)
				t.Run(name, func(t *testing.T) {
					sq, _ := board.ParseSquare(weak)
					m := hallsim.DefaultModel()
					m.Bits, m.Weak, m.WeakGain = bits, sq, 0.4
					m.WeakDrift = mV / (m.Supply / 5 * m.Temperature(time.Hour))
					seed := uint64(300 + bits)
					b, err := hallsim.NewBoard(m, seed)
					if err != nil {
						t.Fatal(err)
					}
					if d := b.NullDrift(sq, time.Hour); d < mV-1 || d > mV+1 {
						t.Fatalf("the weak sensor drifted %.1f mV in the hour, want %v", d, mV)
					}
					cal, _, err := hallsim.Calibrate(context.Background(), b)
					if err != nil {
						t.Fatal(err)
					}
					o := AnalogOptions{Board: m, BoardSeed: seed, Started: time.Hour}
					if _, err := replayAnalogWith(s, &g, 1, o, cal, calibration.ClassifierOptions{}); err != nil {
						t.Errorf("tracked: %v", err)
					}
					if _, err := replayAnalogWith(s, &g, 1, o, cal, calibration.ClassifierOptions{NoTracking: true}); err != nil {
						untracked[mV > 0] = true
					}
				})
			}
			if !untracked[true] || !untracked[false] {
				t.Errorf("%d-bit, weak sensor on %s: without tracking a move was lost with drift upwards %v, downwards %v: want both, or the drift tests nothing", bits, weak, untracked[true], untracked[false])
			}
		}
	}
}
