package config

import (
	"errors"
	"strings"
	"testing"
)

// Pins are checked against the Raspberry Pi's header: GPIO0 to GPIO27, by
// the exact names periph finds them by. A matrix on another GPIO chip (an
// expander's) may use that chip's own line names.
func TestPinsOnThePiHeader(t *testing.T) {
	const header = `expected a GPIO of the Raspberry Pi's header, "GPIO0" to "GPIO27" (Broadcom numbers, as gpioinfo names them)`
	tests := []struct {
		name, data string
		want       string // the fault, "" for none
	}{
		{"a header pin", "[buttons]\nwhite_clock = \"GPIO27\"", ""},
		{"the lowest", "[buttons]\nwhite_clock = \"GPIO0\"", ""},
		{"no such GPIO", "[buttons]\nwhite_clock = \"GPIO99\"", `buttons.white_clock = "GPIO99": ` + header + `, or "" for no button`},
		{"past the header", "[buttons]\nblack_claim = \"GPIO28\"", `buttons.black_claim = "GPIO28": ` + header + `, or "" for no button`},
		{"lower case", "[buttons]\nwhite_clock = \"gpio25\"", `buttons.white_clock = "gpio25": ` + header + `, or "" for no button`},
		{"a physical pin number", "[buttons]\nwhite_clock = \"P1_22\"", `buttons.white_clock = "P1_22": ` + header + `, or "" for no button`},
		{"leading zero", "[buttons]\nwhite_clock = \"GPIO05\"", `buttons.white_clock = "GPIO05": ` + header + `, or "" for no button`},
		{"the 74HC165 load pin", "[sensor]\nwiring = \"hc165\"\n[sensor.hc165]\nload = \"GPIO40\"", `sensor.hc165.load = "GPIO40": ` + header},
		{"a clock display pin", "[clock_display]\nwhite_clk = \"GPIO20\"\nwhite_dio = \"GPIO21\"\nblack_clk = \"GPIO19\"\nblack_dio = \"GPIO30\"", `clock_display.black_dio = "GPIO30": ` + header},
		{"an ADC chip select", "[sensor]\nwiring = \"mcp3008\"\n[sensor.adc]\nchip_selects = [\"GPIO4\", \"GPIO31\"]", `sensor.adc.chip_selects[1] = "GPIO31": ` + header},
		{"matrix lines on the Pi's chip", "[sensor]\nwiring = \"matrix\"\n[sensor.matrix]\nrows = [\"GPIO4\", \"GPA0\"]\ncolumns = [\"GPIO6\"]",
			`sensor.matrix.rows[1] = "GPA0": ` + header + `; or name the chip the lines are on (gpiochip = "gpiochip2") to use its own line names`},
		{"matrix lines on an expander's chip", "[sensor]\nwiring = \"matrix\"\n[sensor.matrix]\ngpiochip = \"gpiochip2\"\nrows = [\"GPA0\", \"GPA1\"]\ncolumns = [\"GPB0\", \"GPB1\"]", ""},
		{"a line name that is no name", "[sensor]\nwiring = \"matrix\"\n[sensor.matrix]\ngpiochip = \"gpiochip2\"\nrows = [\"GP A0\"]", `sensor.matrix.rows[0] = "GP A0": expected a line name of the GPIO chip, such as "GPIO25" on the Pi's header or the name an expander's chip gives its line`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.data))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var es Errors
			if !errors.As(err, &es) || es[0].Error() != tt.want {
				t.Errorf("faults %v\nwant %q", err, tt.want)
			}
		})
	}
}

// The time controls a configuration accepts are those --time-control
// accepts: presets, stages, increments and both kinds of delay.
func TestTimeControlsAsTheFlag(t *testing.T) {
	for _, tc := range []string{"", "fide-classical", "hastings1895", "300+2", "300d5", "300b5", "40/5400+30:1800+30", "30/7200:15/3600", "5400"} {
		if _, err := Parse([]byte(`time_control = "` + tc + `"`)); err != nil {
			t.Errorf("time_control %q refused: %v", tc, err)
		}
	}
	for _, tc := range []string{"40/90min", "fast", "300+", "300x5"} {
		if _, err := Parse([]byte(`time_control = "` + tc + `"`)); err == nil || !strings.Contains(err.Error(), "expected a time control") {
			t.Errorf("time_control %q: %v, want refused", tc, err)
		}
	}
}

// The example files' comments name every form the values may take.
func TestExampleCommentsNameEveryForm(t *testing.T) {
	text, err := Example(WiringMatrix)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"$STATE_DIRECTORY", "$XDG_STATE_HOME/boardd", "~/.local/state/boardd", // the state directory, in order
		"300d5", "300b5", "fide-rapid", "40/5400+30:1800+30", // time controls
		"serial:usb", "serial:usb:VID:PID", "@BAUD", // serial boards
		`":8080"`, "mqtts://", // addresses
		"GPIO0 to GPIO27", // pins
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the example does not mention %q", want)
		}
	}
	if i, j, k := strings.Index(text, "$STATE_DIRECTORY"), strings.Index(text, "$XDG_STATE_HOME"), strings.Index(text, "~/.local/state"); !(i < j && j < k) {
		t.Errorf("the state directories are not named in the order boardd tries them")
	}
}
