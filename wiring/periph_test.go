package wiring

import (
	"strings"
	"testing"
)

// TestBusMissing: a bus the machine lacks is named in boardd's words, with
// the hint and the buses it has; one it has (by name, alias or number)
// is no fault.
func TestBusMissing(t *testing.T) {
	const hint = "is SPI enabled?"
	cases := []struct {
		name             string
		present, aliases []string
		want             string // "" for no fault
	}{
		{"SPI0.0", []string{"SPI0.0", "SPI0.1"}, []string{"0"}, ""},
		{"0", []string{"SPI0.0"}, []string{"0"}, ""},
		{"SPI0.0", nil, nil, "SPI port SPI0.0: this machine has none (not a Raspberry Pi, or the bus is off: is SPI enabled?)"},
		{"SPI1.0", []string{"SPI0.0", "SPI0.1"}, []string{"0"}, "SPI port SPI1.0: not on this machine, which has SPI0.0, SPI0.1 (is SPI enabled?)"},
	}
	for _, c := range cases {
		err := busMissing("SPI port", c.name, c.present, c.aliases, hint)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s among %v: %v, want no fault", c.name, c.present, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s among %v: %v, want %q", c.name, c.present, err, c.want)
		}
	}
}

// TestPeriphFaultsInBoarddsWords opens buses this machine does not have
// (none at all off a Pi; SPI9.9 and I2C99 on one) through periph's real
// registries: the fault says what boardd's hint says, never periph's note
// to its programmers ("did you forget to call Init()?").
func TestPeriphFaultsInBoarddsWords(t *testing.T) {
	var p Periph
	if err := p.init(); err != nil {
		t.Skipf("periph's host drivers do not load here: %v", err)
	}
	_, spiErr := p.SPI("SPI9.9")
	_, i2cErr := p.I2C("I2C99")
	for _, c := range []struct {
		err  error
		want string
	}{{spiErr, "SPI port SPI9.9: "}, {i2cErr, "I²C bus I2C99: "}} {
		if c.err == nil {
			t.Errorf("opening a bus this machine lacks: no fault, want %q", c.want)
			continue
		}
		if msg := c.err.Error(); !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "Init()") || !strings.Contains(msg, "enabled") {
			t.Errorf("fault %q: want it to begin %q, give the hint, and not mention Init()", msg, c.want)
		}
	}
}
