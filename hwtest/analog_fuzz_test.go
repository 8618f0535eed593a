package hwtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hwtest/hallsim"
)

// fuzzBoards are the boards FuzzAnalogRecogniser plays on: 12 and 10 bits,
// wired in order and scrambled, each calibrated once.
var fuzzBoards = sync.OnceValues(func() ([4]*calibration.Calibration, error) {
	var cals [4]*calibration.Calibration
	for i := range cals {
		b, err := hallsim.NewBoard(fuzzModel(byte(i)), uint64(40+i))
		if err != nil {
			return cals, err
		}
		if cals[i], _, err = hallsim.Calibrate(context.Background(), b); err != nil {
			return cals, err
		}
	}
	return cals, nil
})

func fuzzModel(b byte) hallsim.Model {
	m := hallsim.DefaultModel()
	if b&1 == 1 {
		m.Bits = 10
	}
	m.Scrambled = b&2 != 0
	return m
}

// fuzzConditions is how many bytes of a fuzz input set the playing
// conditions of FuzzAnalogRecogniser: the board (its ADC and wiring), the
// ADC's noise (up to 16 LSB rms), how far off-centre men are set (up to
// 8 mm), and how long the board has been on (up to an hour and four
// minutes, its sensors drifting).
const fuzzConditions = 4

// FuzzAnalogRecogniser is FuzzRecogniser on an analogue board: the first
// bytes set the playing conditions, the rest the lifts, placements, presses
// and promotion names, which the board's physics renders as 100 scans a
// second and its calibration reads, as boardd replay --calibration does.
// Whatever the levels, the game must never panic, never report a move that
// is not legal where it is played, and, once the board is put right, not
// wait on a mismatch. Run it with
//
//	go test ./hwtest -run '^$' -fuzz FuzzAnalogRecogniser -fuzztime 5m
func FuzzAnalogRecogniser(f *testing.F) {
	f.Add([]byte{0, 5, 80, 0})
	f.Add([]byte{3, 255, 255, 255, 0, 12, 3 | 8<<3, 27})
	games, err := testCorpus()
	if err != nil {
		f.Fatal(err)
	}
	s, err := NewSynthesiser(SynthOptions{Seed: 7, Style: HardStyle()})
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; i < len(games); i += 197 {
		if games[i].Start.FEN() != board.StartFEN {
			continue
		}
		g := games[i]
		if len(g.Moves) > 16 {
			g.Moves = g.Moves[:16]
		}
		lines, err := s.Events(&g, uint64(i))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(append([]byte{byte(i), 5, 80, byte(i)}, fuzzEncode(lines)...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < fuzzConditions {
			return
		}
		if err := fuzzAnalog(data); err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzAnalog plays one fuzz input on its analogue board.
func fuzzAnalog(data []byte) error {
	cals, err := fuzzBoards()
	if err != nil {
		return err
	}
	which := data[0] & 3
	m := fuzzModel(which)
	m.ADCNoise = offIfZero(float64(data[1]) / 16)
	opts := AnalogOptions{Board: m, BoardSeed: uint64(40 + which), OffCentre: offIfZero(float64(data[2]) / 32),
		Started: time.Duration(data[3]) * 15 * time.Second}
	lines := fuzzLines(data[fuzzConditions:])
	start := board.Start()
	a, err := renderAnalog(start, lines, nil, game.DefaultDebounce, opts, rand.New(rand.NewPCG(uint64(len(data)), 1)))
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	tc, err := calibration.NewTraceClassifier(cals[which], calibration.ClassifierOptions{})
	if err != nil {
		return err
	}
	laws := fuzzLaws[len(data)%len(fuzzLaws)]
	return fuzzPlayWith(game.Options{Laws: laws, Analog: tc}, a.Lines())
}
