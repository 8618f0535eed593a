package link_test

import (
	"fmt"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/link"
)

// hexFrame prints a frame's wire bytes as docs/serial-protocol.md shows
// them.
func hexFrame(seq uint8, m link.Message) {
	wire, err := link.Append(nil, seq, m)
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", wire)
}

// The examples of docs/serial-protocol.md, byte for byte.
func Example() {
	hexFrame(0, link.Hello{Version: 1, Flags: link.HelloReports | link.HelloButtons, Name: "rig"})
	hexFrame(0, link.Hello{Version: 1, Flags: link.HelloReply, Name: "boardd"})
	hexFrame(7, link.Occupancy{Time: 1000, Occupancy: 0xffff00000000ffff})
	hexFrame(8, link.Button{Side: link.SideWhite, Button: link.ButtonClock})
	hexFrame(3, link.Ack{Seq: 8, Of: link.TypeButton})
	hexFrame(9, link.Choose{Side: link.SideBlack, Index: 2})
	f := &link.LEDs{}
	e2, _ := board.ParseSquare("e2")
	e4, _ := board.ParseSquare("e4")
	f.Role[e2] = 1                 // must-move, steady
	f.Role[e4], f.Blink[e4] = 2, 1 // destination, slow
	hexFrame(4, f)
	hexFrame(5, link.ErrorMsg{Code: link.ErrRefused, Seq: 9, Of: link.TypeChoose, Detail: "no choice"})
	// Output:
	// 02 01 08 01 06 72 69 67 df fc 00
	// 02 01 0b 01 80 62 6f 61 72 64 64 b8 e9 00
	// 05 10 07 e8 03 01 03 ff ff 01 01 01 05 ff ff f3 b7 00
	// 07 12 08 01 04 a8 1b 00
	// 07 02 03 08 12 8b 22 00
	// 07 13 09 02 02 dc 0a 00
	// 03 20 04 01 01 01 01 01 01 01 01 01 01 01 02 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 02 22 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 03 74 d5 00
	// 11 03 05 06 09 13 6e 6f 20 63 68 6f 69 63 65 e1 cc 00
}
