package config

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse feeds Parse arbitrary files: it must never panic, every fault
// must name a key and what was expected (or, for broken TOML, a line), and
// whatever it accepts must pass Check and read the same a second time.
func FuzzParse(f *testing.F) {
	for _, name := range Examples() {
		text, err := Example(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(text))
	}
	f.Add([]byte(""))
	f.Add([]byte("laws = 1\n[sensor]\nrate = -1\nsquares = [\"a1\", 2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var es Errors
			if errors.As(err, &es) {
				if len(es) == 0 {
					t.Fatal("an empty list of faults")
				}
				for _, e := range es {
					if e.Key == "" || e.Value == "" || e.Expected == "" {
						t.Fatalf("a fault without key, value or expectation: %#v", e)
					}
				}
				return
			}
			if !strings.HasPrefix(err.Error(), "line ") && !strings.HasPrefix(err.Error(), "toml: ") {
				t.Fatalf("a syntax error that names no line: %v", err)
			}
			return
		}
		if err := c.Check(); err != nil {
			t.Fatalf("accepted, then refused by Check: %v", err)
		}
		again, err := Parse(data)
		if err != nil || again.Laws != c.Laws || again.Sensor.Wiring != c.Sensor.Wiring || len(again.SensorSquares()) != len(c.SensorSquares()) {
			t.Fatalf("a second parse differs: %v", err)
		}
		_ = c.LEDSquares()
	})
}
