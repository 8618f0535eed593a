package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardd/boardd/arbiter"
	"github.com/boardd/boardd/trace"
)

func TestZZExploreLEDs(t *testing.T) {
	for _, c := range []struct{ laws, text string }{
		{"sarratt1808", `{"t":0,"lift":"g1"}
{"t":150,"place":"g1"}
{"t":800,"lift":"e2"}
{"t":1000,"place":"e4"}
{"t":2100,"choose":"move-touched","side":"black"}
{"t":2400,"lift":"e4"}
{"t":2550,"place":"e2"}
{"t":3200,"lift":"g1"}
{"t":3400,"place":"f3"}`},
		{"sarratt1808", `{"t":0,"setup":"4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"}
{"t":0,"lift":"e1"}
{"t":150,"place":"g1"}
{"t":300,"lift":"h1"}
{"t":450,"place":"f1"}
{"t":2100,"choose":"king","side":"black"}
{"t":2400,"lift":"f1"}
{"t":2550,"place":"h1"}
{"t":2700,"lift":"g1"}
{"t":2850,"place":"e1"}`},
		{"fide2023", `{"t":0,"lift":"f2"}
{"t":200,"place":"f3"}
{"t":1000,"lift":"e7"}
{"t":1200,"place":"e5"}
{"t":2000,"lift":"g2"}
{"t":2200,"place":"g4"}
{"t":3000,"lift":"d8"}
{"t":3200,"place":"h4"}
{"t":6000,"lift":"a2"}`},
		{"fide2023", `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"b8"}
{"t":5000,"lift":"d7"}
{"t":9000,"lift":"g8"}`},
	} {
		lines, err := trace.ReadAll(strings.NewReader(c.text))
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Laws: c.laws}
		if lines[0].Kind == trace.Setup {
			opts.Setup = lines[0].FEN
			lines = lines[1:]
		}
		p, err := New(opts, nil, func(r arbiter.Report) { b := r.AppendJSON(nil); fmt.Printf("  R %s\n", b) })
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			p.Input(l)
			p.Advance(l.T + 1)
			f := p.LEDs()
			fmt.Printf("after %+v (deadline %v)\n%s", l, p.Deadline(), f.String())
		}
		for i := 0; i < 6 && p.Deadline() < 1<<62; i++ {
			p.Advance(p.Deadline())
			f := p.LEDs()
			fmt.Printf("advanced to %v\n%s", p.Now(), f.String())
		}
		fmt.Println("=========")
	}
}
