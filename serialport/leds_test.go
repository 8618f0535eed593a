package serialport

import (
	"testing"

	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/link"
)

// The link carries the LED language by number: the highest role and blink
// it admits are the LED language's last, and every frame comes back whole.
func TestLEDCodesKeepTheLanguage(t *testing.T) {
	if int(led.LastRole) != link.MaxRole || int(led.Fast) != link.MaxBlink {
		t.Fatalf("led's last role is %d and fast blink %d; the link admits roles to %d and blinks to %d", led.LastRole, led.Fast, link.MaxRole, link.MaxBlink)
	}
	var f led.Frame
	for sq := range 64 {
		f.Role[sq] = led.Role(sq % (link.MaxRole + 1))
		if f.Role[sq] != led.Off {
			f.Blink[sq] = led.Blink(sq % (link.MaxBlink + 1))
		}
	}
	m := &link.LEDs{}
	m.Role, m.Blink = f.Codes()
	wire, err := link.Append(nil, 1, m)
	if err != nil {
		t.Fatal(err)
	}
	var d link.Decoder
	var got led.Frame
	d.Feed(wire, func(fr link.Frame, err error) {
		var m link.LEDs
		if err := m.Unmarshal(fr.Payload); err != nil {
			t.Fatal(err)
		}
		got = led.FrameOfCodes(&m.Role, &m.Blink)
	})
	if got != f {
		t.Errorf("the frame came back as\n%s\nwant\n%s", got.String(), f.String())
	}
}
