package uplink

import (
	"slices"
	"testing"

	"github.com/boardd/boardd/console"
)

// The health's faults are the console's, named as it names them: a journal
// fault is "journal", not "sensor", though both light the fault LEDs.
func TestFaultsOf(t *testing.T) {
	faultLEDs := []console.LED{{Square: "a1", Role: "fault"}, {Square: "h8", Role: "fault"}}
	for _, c := range []struct {
		name   string
		st     console.State
		noKey  bool
		faults []string
	}{
		{"all well", console.State{Faults: []string{}}, false, nil},
		{"all well, no verify key", console.State{Faults: []string{}}, true, []string{FaultNoKey}},
		{"sensor", console.State{Faults: []string{"sensor"}, LEDs: faultLEDs}, false, []string{"sensor"}},
		{"journal", console.State{Faults: []string{"journal"}, LEDs: faultLEDs}, false, []string{"journal"}},
		{"both and no key", console.State{Faults: []string{"sensor", "journal"}, LEDs: faultLEDs}, true, []string{"sensor", "journal", FaultNoKey}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := faultsOf(&c.st, c.noKey); !slices.Equal(got, c.faults) {
				t.Errorf("faults %q, want %q", got, c.faults)
			}
		})
	}
}
