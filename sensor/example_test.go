package sensor_test

import (
	"fmt"

	"github.com/boardd/boardd/sensor"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/spi/spitest"
)

// A 74HC165 chain on periph.io's fake SPI bus: two chips read ranks 1 and
// 2, Hall switches with pull-ups pull an input low under a man, and the
// check byte (the last chip's grounded SER shifted through) proves the
// chain is whole. The bus plays back two transfers: rank 1 full and, on
// rank 2, every man but the e-pawn's; then a chain whose cable came loose
// (MISO pulled up: every bit high), which reads as a fault, not as an empty
// board.
func ExampleHC165() {
	bus := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{
		{W: []byte{0, 0, 0}, R: []byte{0x00, 0x10, 0x00}},
		{W: []byte{0, 0, 0}, R: []byte{0xFF, 0xFF, 0xFF}},
	}}}
	chain, err := sensor.NewHC165(bus, &sensor.HC165Opts{
		Load: &gpiotest.Pin{N: "GPIO25", Num: 25}, Chips: 2, ActiveLow: true, Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var f sensor.Frame
	if err := chain.Scan(&f); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(chain)
	fmt.Println(f.Occupancy.SquareNames())
	fmt.Println(chain.Scan(&f))
	if err := bus.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 74hc165 chain of 2 on playback, load GPIO25(25)
	// [a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 f2 g2 h2]
	// sensor: 74hc165: check byte reads 0xff, expected 0x00: chain broken or unpowered
}
