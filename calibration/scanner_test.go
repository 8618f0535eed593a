package calibration

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
)

func TestScannerAndLEDsApplyTheLearnedWiring(t *testing.T) {
	for _, digital := range []bool{false, true} {
		r := newRig(t, SimOptions{Seed: 31, Digital: digital})
		c, _ := r.calibrate(t, WizardOptions{})
		path := filepath.Join(t.TempDir(), FileName)
		if err := Save(path, c); err != nil {
			t.Fatal(err)
		}
		id, err := Identify(r.board, "")
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := Load(path, id)
		if err != nil {
			t.Fatalf("digital %v: Load with the board's own identity: %v", digital, err)
		}
		s, err := NewScanner(r.board, loaded, r.clock, ClassifierOptions{})
		if err != nil {
			t.Fatal(err)
		}
		men := board.Occupancy(0).With(mustSquare("a1")).With(mustSquare("g7")).With(mustSquare("h8"))
		for _, sq := range men.Squares() {
			r.board.Place(sq, board.Black)
		}
		var f sensor.Frame
		r.clock.Set(r.clock.Now() + time.Second)
		if err := s.Scan(&f); err != nil {
			t.Fatal(err)
		}
		if f.Occupancy != men || f.T != r.clock.Now() {
			t.Errorf("digital %v: frame at %v reads %v, want %v at %v", digital, f.T, f.Occupancy.SquareNames(), men.SquareNames(), r.clock.Now())
		}
		if !digital {
			if len(f.Analog) != 64 {
				t.Fatalf("Analog has %d readings", len(f.Analog))
			}
			if d := float64(f.Analog[mustSquare("g7")]) - c.Squares[mustSquare("g7")].Empty.Mean; d > -100 {
				t.Errorf("Analog[g7] is %d, %.0f from empty: not g7's sensor under a Black man", f.Analog[mustSquare("g7")], d)
			}
			if s.Classifier().Black() != men {
				t.Errorf("black men on %v, want %v", s.Classifier().Black().SquareNames(), men.SquareNames())
			}
		} else if f.Analog != nil {
			t.Errorf("digital board: Analog is set")
		}

		leds := MapLEDs(r.board, loaded)
		var frame led.Frame
		frame.Set(mustSquare("e4"), led.Guide, led.Steady)
		frame.Set(mustSquare("b8"), led.Guide, led.Steady)
		if err := leds.Show(&frame, 0); err != nil {
			t.Fatal(err)
		}
		if got := r.board.LitSquares(); got != board.Occupancy(0).With(mustSquare("e4")).With(mustSquare("b8")) {
			t.Errorf("lit %v, want e4 b8", got.SquareNames())
		}
	}
}
