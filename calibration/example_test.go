package calibration_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

// The wizard learns a simulated board with a simulated person at it; the
// calibration is saved, loaded back for the same hardware, and reads the
// board through a calibrated scanner.
func Example() {
	clock := &timing.Virtual{}
	sim := calibration.NewSimBoard(clock, calibration.SimOptions{Seed: 1})
	answers := make(chan string, 16)
	person := &calibration.SimPerson{Board: sim, Clock: clock, Answers: answers}
	s := &calibration.Session{
		Scanner: sim, LEDs: sim, Clock: clock,
		Wait: calibration.VirtualWait(clock, 0), // virtual time, as fast as it goes
		In:   answers, Observe: person.Observe,
	}
	cal, summary, err := calibration.Calibrate(context.Background(), s, calibration.WizardOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cal.Notes()[1])
	fmt.Println("fit:", summary.Fit())

	dir, _ := os.MkdirTemp("", "calibration")
	defer os.RemoveAll(dir)
	path := calibration.Path(dir)
	if err := calibration.Save(path, cal); err != nil {
		fmt.Println(err)
		return
	}
	id, _ := calibration.Identify(sim, "")
	loaded, err := calibration.Load(path, id)
	if err != nil {
		fmt.Println(err)
		return
	}
	scanner, _ := calibration.NewScanner(sim, loaded, clock, calibration.ClassifierOptions{})
	e4, _ := board.ParseSquare("e4")
	sim.Place(e4, board.Black)
	clock.Set(clock.Now() + time.Second)
	var f sensor.Frame
	scanner.Scan(&f)
	fmt.Println("occupied:", f.Occupancy.SquareNames(), "black:", scanner.Classifier().Black().SquareNames())

	_, err = calibration.Load(path, calibration.Identity{Scanner: "mcp3208 x8 on SPI0.0", Channels: 64})
	fmt.Println(filepath.Base(path), "on other hardware:", err != nil)
	// Output:
	// LEDs: snaking rank by rank from a8 (a1 is LED 63)
	// fit: true
	// occupied: [e4] black: [e4]
	// calibration.json on other hardware: true
}
