package clock_test

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
)

// How a driver keeps the time of a game: the clocks start, each completed
// move goes to Moved, the driver wakes at Deadline, and a fallen flag is
// found there (what it means is the law-set's).
func Example() {
	ctl, err := clock.Parse("hastings1895")
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := clock.New(ctl, board.White)
	if err != nil {
		fmt.Println(err)
		return
	}
	k.Start(0) // a replay's first input line
	moves := []time.Duration{40 * time.Minute, 75 * time.Minute, 80 * time.Minute}
	side := board.White
	for _, at := range moves {
		k.Moved(at, side)
		w, b := k.Times(at)
		fmt.Printf("%-5s %s  white %s black %s\n", side, clock.Clk(k.Remaining(at, side)), clock.Format(w), clock.Format(b))
		side = side.Other()
	}
	fmt.Println("TimeControl:", clock.Tag(k.Control()))
	fmt.Println("Black's flag falls at", clock.Format(k.Deadline()))
	if f, ok := k.Flag(k.Deadline()); ok {
		fmt.Println(f.Side, "flagged at", clock.Format(f.T))
	}
	// Output:
	// white [%clk 1:20:00]  white 1:20:00 black 2:00:00
	// black [%clk 1:25:00]  white 1:20:00 black 1:25:00
	// white [%clk 1:15:00]  white 1:15:00 black 1:25:00
	// TimeControl: 30/7200:15/3600
	// Black's flag falls at 2:45:00
	// black flagged at 2:45:00
}
