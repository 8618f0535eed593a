package wiring

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// TestRunCalibrationHelpers: what boardd run must do with the calibration
// (LoadCalibration, CalibratedScanner), on the simulated board standing
// in for an MCP3208 board.
func TestRunCalibrationHelpers(t *testing.T) {
	analogue := config.Default()
	analogue.Sensor.Wiring = config.WiringMCP3208
	digital := config.Default()
	digital.Sensor.Wiring = config.WiringHC165
	dir := t.TempDir()

	if cal, err := LoadCalibration(digital, dir); cal != nil || err != nil {
		t.Errorf("digital board without a calibration: %v, %v; want neither", cal, err)
	}
	if _, err := LoadCalibration(analogue, dir); !errors.Is(err, calibration.ErrMissing) || !strings.Contains(err.Error(), "run 'boardd calibrate'") {
		t.Errorf("analogue board without a calibration: %v", err)
	}

	calibrate := func(faults string) (*calibration.SimBoard, *timing.Virtual) {
		clock := &timing.Virtual{}
		f, _ := calibration.ParseFaults(faults)
		sim := calibration.NewSimBoard(clock, calibration.SimOptions{Seed: 41, Faults: f})
		answers := make(chan string, 64)
		person := &calibration.SimPerson{Board: sim, Clock: clock, Answers: answers}
		s := &calibration.Session{Scanner: sim, LEDs: sim, Name: BoardName(sim, analogue), Clock: clock,
			Wait: calibration.VirtualWait(clock, 0), In: answers, Observe: person.Observe}
		cal, _, err := calibration.Calibrate(context.Background(), s, calibration.WizardOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := calibration.Save(calibration.Path(dir), cal); err != nil {
			t.Fatal(err)
		}
		return sim, clock
	}

	sim, clock := calibrate("")
	cal, err := LoadCalibration(analogue, dir)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := CalibratedScanner(sim, analogue, cal, clock)
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := board.ParseSquare("e2")
	sim.Place(e2, board.White)
	var f sensor.Frame
	clock.Set(clock.Now() + time.Second)
	if err := sc.Scan(&f); err != nil || f.Occupancy != board.Occupancy(0).With(e2) {
		t.Errorf("calibrated scan: %v, %v; want e2", f.Occupancy.SquareNames(), err)
	}

	turned := config.Default()
	turned.Sensor.Wiring = config.WiringMCP3208
	turned.Sensor.Layout.Serpentine = true
	if _, err := CalibratedScanner(sim, turned, cal, clock); !errors.Is(err, calibration.ErrMismatch) {
		t.Errorf("calibration made under another layout: %v, want a mismatch", err)
	}

	calibrate("dead=e4")
	if _, err := LoadCalibration(analogue, dir); err == nil || !strings.Contains(err.Error(), "no working sensor on [e4]") {
		t.Errorf("calibration with a dead square: %v", err)
	}
}
