package clock_test

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
)

// How a driver keeps the time of a game: the clocks start, each completed
// move goes to Move, the driver wakes at Deadline, and a fallen flag is
// ruled by the law-set.
func Example() {
	ctl, err := clock.Parse("hastings1895")
	if err != nil {
		fmt.Println(err)
		return
	}
	tk, err := clock.NewTimekeeper("hastings1895", ctl, board.White)
	if err != nil {
		fmt.Println(err)
		return
	}
	tk.Begin(0) // a replay's first input line
	moves := []time.Duration{40 * time.Minute, 75 * time.Minute, 80 * time.Minute}
	side := board.White
	for _, at := range moves {
		tk.Move(at, side)
		w, b := tk.Times(at)
		fmt.Printf("%-5s %s  white %s black %s\n", side, tk.Clk(at, side), w, b)
		side = side.Other()
	}
	fmt.Println("TimeControl:", tk.Tag())
	fmt.Println("Black's flag falls at", clock.Format(tk.Deadline()))
	if f, ok := tk.Flag(tk.Deadline()); ok {
		r := tk.Rule(f, true)
		fmt.Println(r.Result, r.Law, "-", r.Reason)
	}
	// Output:
	// white [%clk 1:20:00]  white 1:20:00 black 2:00:00
	// black [%clk 1:25:00]  white 1:20:00 black 1:25:00
	// white [%clk 1:15:00]  white 1:15:00 black 1:25:00
	// TimeControl: 30/7200:15/3600
	// Black's flag falls at 2:45:00
	// 1-0 hastings1895:time-limit - Black exceeded the time limit and forfeits the game
}
