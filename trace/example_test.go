package trace_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/boardd/boardd/trace"
)

// Reading a trace line by line: comments and blank lines are skipped, each
// input comes back typed, and a line at fault stops the reader with an
// *Error that names it (here a time that goes back).
func ExampleReader() {
	in := strings.NewReader(`# laws: fide2023
{"t":0,"lift":"e2"}
{"t":400,"place":"e4"}

{"t":900,"press":"clock","side":"white"}
{"t":800,"lift":"e7"}
`)
	r := trace.NewReader(in)
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		var bad *trace.Error
		if errors.As(err, &bad) {
			fmt.Println("line", bad.Line, "at fault:", bad.Fault)
			break
		}
		switch l.Kind {
		case trace.Lift, trace.Place:
			fmt.Println(l.T, l.Kind, l.Square)
		default:
			fmt.Println(l.T, l.Kind, l.Button, l.Side)
		}
	}
	// Output:
	// 0s lift e2
	// 400ms place e4
	// 900ms press clock white
	// line 6 at fault: t 800 goes back in time (the line before had 900)
}
