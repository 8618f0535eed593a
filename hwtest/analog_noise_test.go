package hwtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/hwtest/hallsim"
)

// noiseSource is one way an analogue board's readings stray, as
// docs/calibration.md names it, turned up by one number.
type noiseSource struct {
	name   string
	unit   string
	corpus float64 // its level in the corpus: the datasheets'
	// margin is a level the docs' table finds safe on both resolutions
	// (well short of the first lost move): TestNoiseSourceMargins keeps it.
	margin float64
	sweep  []float64 // from mild to severe
	// played says the source is the hands' or the hour's, not the board's:
	// the board is calibrated without it.
	played bool
	apply  func(m *hallsim.Model, o *AnalogOptions, level float64)
}

// noiseSources are the sources the sweep turns up one at a time, the others
// staying at their corpus levels.
var noiseSources = []noiseSource{
	{name: "offset spread", unit: "% of Vcc/2", corpus: 10, margin: 40, sweep: []float64{10, 20, 30, 40, 50, 60, 65, 70, 80, 90},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { m.OffsetSpread = offIfZero(x / 100) }},
	{name: "gain spread", unit: "%", corpus: 18, margin: 60, sweep: []float64{18, 30, 45, 60, 75, 85, 90, 95},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { m.GainSpread = offIfZero(x / 100) }},
	{name: "drift", unit: "mV after the hour, each sensor its own way", corpus: 3.9, margin: 300, sweep: []float64{3.9, 20, 50, 100, 150, 200, 250, 300, 400, 800}, played: true,
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) {
			// The board warms 6 °C; the sensors' null drift is scaled to
			// give x mV on average, either way, an hour after power-on.
			o.Started = time.Hour
			m.NullDrift = x / (m.Supply / 5 * m.Temperature(o.Started))
		}},
	{name: "own drift up", unit: "mV after the hour, the weak sensor under d2's pawn", corpus: 3.9, margin: 250, sweep: []float64{35, 70, 150, 250, 400, 600, 800, 1000},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { ownDrift(m, o, x) }},
	{name: "own drift down", unit: "mV after the hour, the weak sensor under d2's pawn", corpus: 3.9, margin: 250, sweep: []float64{35, 70, 150, 250, 400, 600, 800, 1000},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { ownDrift(m, o, -x) }},
	{name: "slow hands", unit: "times an ordinary hand's lowering and raising time", corpus: 3, margin: 4, sweep: []float64{1, 2, 3, 4, 6, 8, 12, 20}, played: true,
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { o.Slow, o.Hover = x, 0.2 }},
	{name: "hover height", unit: "mm, the lowest a man is held still above a square", corpus: 4, margin: 4, sweep: []float64{8, 6, 5, 4, 3.5, 3, 2.5, 2, 1.5, 1}, played: true,
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { o.Hover, o.HoverHeight = 1, x }},
	{name: "crosstalk", unit: "G at a man's own sensor", corpus: 400, margin: 1600, sweep: []float64{400, 800, 1600, 2000, 2400, 2800, 3200, 4800, 6400, 9600, 12800, 25600},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { m.Field = x }},
	{name: "off-centre", unit: "mm", corpus: 2.5, margin: 3.5, sweep: []float64{2.5, 3, 3.5, 4, 4.25, 4.5, 4.75, 5, 6, 7}, played: true,
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { o.OffCentre = offIfZero(x) }},
	{name: "noise", unit: "LSB rms (ADC)", corpus: 0.3, margin: 2, sweep: []float64{0.3, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 28, 32, 64},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { m.ADCNoise = offIfZero(x) }},
	{name: "nonlinearity", unit: "LSB INL", corpus: 1, margin: 16, sweep: []float64{1, 4, 16, 64, 256},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { m.INL = offIfZero(x) }},
	{name: "weak sensor", unit: "% of its gain", corpus: 40, margin: 20, sweep: []float64{40, 30, 20, 17, 15, 12, 10, 7, 5, 4.5, 4, 3, 2},
		apply: func(m *hallsim.Model, o *AnalogOptions, x float64) { m.Weak, m.WeakGain = board.Square(28), x/100 }},
}

// ownDrift gives the weak sensor, moved under d2's pawn (a man standing on
// it since power-on), a drift of its own of x mV an hour after power-on.
func ownDrift(m *hallsim.Model, o *AnalogOptions, x float64) {
	o.Started = time.Hour
	m.Weak = board.Square(11)
	m.WeakDrift = x / (m.Supply / 5 * m.Temperature(o.Started))
}

func offIfZero(x float64) float64 {
	if x == 0 {
		return hallsim.Off
	}
	return x
}

// noiseTrial is what one level of one source does on one board.
type noiseTrial struct {
	games, lost int    // games played, games with a move lost or misread
	first       error  // the first loss
	unfit       bool   // the calibration or the self-test says unfit for play
	refused     bool   // boardd run refuses the calibration (a square with no working sensor)
	findings    string // what the calibration and the self-test report, faults first
}

// tryNoise calibrates a board with source src at level (unless the source is
// played, not built), runs the self-test as it stands when play begins,
// and plays games on it.
func tryNoise(t testing.TB, src noiseSource, level float64, bits int, games []Game) noiseTrial {
	t.Helper()
	m := hallsim.DefaultModel()
	m.Bits = bits
	m.Weak = board.Square(28)
	var o AnalogOptions
	built := m
	src.apply(&m, &o, level)
	if !src.played {
		built = m
	}
	seed := uint64(100 + bits)
	cb, err := hallsim.NewBoard(built, seed)
	if err != nil {
		t.Fatal(err)
	}
	cal, calRep, err := hallsim.Calibrate(context.Background(), cb)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := hallsim.NewBoard(m, seed)
	if err != nil {
		t.Fatal(err)
	}
	pb.SetStarted(o.Started)
	st, err := hallsim.SelfTest(context.Background(), pb, cal)
	if err != nil {
		t.Fatal(err)
	}
	tr := noiseTrial{games: len(games), unfit: !calRep.Fit() || !st.Fit(), refused: cal.Unfit() != nil, findings: summarise(calRep, st)}
	o.Board, o.BoardSeed = m, seed
	errs := make([]error, len(games))
	forEachGame(len(games), func(i int, synths map[string]*Synthesiser) {
		s, err := synthFor(synths, "fide2023")
		if err == nil {
			_, err = replayAnalog(s, &games[i], uint64(i)*7919+1, o, cal)
		}
		errs[i] = err
	})
	for _, err := range errs {
		if err != nil {
			tr.lost++
			if tr.first == nil {
				tr.first = err
			}
		}
	}
	return tr
}

// sweepGames are the games each level of the sweep plays: ten of the
// corpus, from all its files.
func sweepGames(t testing.TB, n int) []Game {
	games := loadTestCorpus(t)
	step := max(1, len(games)/n)
	var out []Game
	for i := 0; i < len(games) && len(out) < n; i += step {
		out = append(out, games[i])
	}
	return out
}

// TestNoiseSourceMargins keeps each noise source, turned up alone to the
// margin docs/calibration.md gives it, from losing a move of a few games on
// a 12-bit and a 10-bit board. The sweep that found the margins is
// TestNoiseSweep.
func TestNoiseSourceMargins(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("the margins run without -short and -race (the corpus sample covers the datasheet levels)")
	}
	games := sweepGames(t, 3)
	for _, src := range noiseSources {
		for _, bits := range []int{12, 10} {
			t.Run(fmt.Sprintf("%s/%d-bit", src.name, bits), func(t *testing.T) {
				tr := tryNoise(t, src, src.margin, bits, games)
				if tr.lost > 0 {
					t.Errorf("%s at %v %s: %d of %d games lost a move; first: %v", src.name, src.margin, src.unit, tr.lost, tr.games, tr.first)
				}
			})
		}
	}
}

// TestNoiseSweep turns each noise source up alone, level by level, on a
// 12-bit and a 10-bit board, and reports what the calibration and the
// self-test say first and where the first move of ten games is lost: the
// table of docs/calibration.md. It takes minutes: run it with
//
//	BOARDD_SWEEP=1 go test ./hwtest -run TestNoiseSweep -v -timeout 60m
func TestNoiseSweep(t *testing.T) {
	if os.Getenv("BOARDD_SWEEP") == "" {
		t.Skip("set BOARDD_SWEEP=1 to sweep the noise sources (minutes)")
	}
	games := sweepGames(t, 10)
	moves := 0
	for _, g := range games {
		moves += len(g.Moves)
	}
	t.Logf("%d games, %d moves a level", len(games), moves)
	var table []string
	for _, src := range noiseSources {
		row := fmt.Sprintf("| %s (%s) | %v |", src.name, src.unit, src.corpus)
		for _, bits := range []int{12, 10} {
			said, lost := "nothing", "none up to "+fmt.Sprint(src.sweep[len(src.sweep)-1])
			for _, level := range src.sweep {
				tr := tryNoise(t, src, level, bits, games)
				t.Logf("%s %v %s, %d bits: %d of %d games lost; %s", src.name, level, src.unit, bits, tr.lost, tr.games, tr.findings)
				if said == "nothing" && tr.findings != "" {
					said = fmt.Sprintf("%v: %s", level, tr.findings)
				}
				if tr.lost > 0 {
					lost = fmt.Sprintf("%v (%d of %d games)", level, tr.lost, tr.games)
					if tr.refused {
						lost += ", calibration refused by boardd run"
					}
					t.Logf("first loss: %v", tr.first)
					break
				}
			}
			row += fmt.Sprintf(" %s | %s |", said, lost)
		}
		table = append(table, row)
	}
	t.Log("\n| source (unit) | corpus | 12-bit: calibration and self-test first say | 12-bit: first move lost | 10-bit: first say | 10-bit: first move lost |\n|---|---|---|---|---|---|\n" + strings.Join(table, "\n"))
}

// summarise lists the kinds of what the calibration and the self-test
// found, faults first, each once: "FAULT crosstalk, warn weak".
func summarise(reps ...*calibration.Report) string {
	seen := map[string]bool{}
	var faults, warns []string
	for _, r := range reps {
		for _, f := range r.Findings {
			if f.Kind == calibration.Wiring {
				continue // how the wiring was learned, not a fault
			}
			key := fmt.Sprint(f.Severity, f.Kind)
			if seen[key] {
				continue
			}
			seen[key] = true
			if f.Severity == calibration.Fault {
				faults = append(faults, "FAULT "+string(f.Kind))
			} else {
				warns = append(warns, "warn "+string(f.Kind))
			}
		}
	}
	return strings.Join(append(faults, warns...), ", ")
}
