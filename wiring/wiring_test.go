package wiring

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

// fakeBuses hands out periph fakes by name.
type fakeBuses struct {
	spi  map[string]*spitest.Playback
	i2c  map[string]*i2ctest.Playback
	pins map[string]*gpiotest.Pin
}

func (f *fakeBuses) SPI(name string) (spi.PortCloser, error) {
	if p, ok := f.spi[name]; ok {
		return p, nil
	}
	return nil, errors.New("no such port")
}

func (f *fakeBuses) I2C(name string) (i2c.BusCloser, error) {
	if b, ok := f.i2c[name]; ok {
		return b, nil
	}
	return nil, errors.New("no such bus")
}

func (f *fakeBuses) Pin(name string) (gpio.PinIO, error) {
	if p, ok := f.pins[name]; ok {
		return p, nil
	}
	return nil, errors.New("no such pin " + name)
}

func (f *fakeBuses) Lines(string, []string, bool) (gpio.Group, io.Closer, error) {
	return nil, nil, errors.New("no lines here")
}

func TestOpenScannerFromConfig(t *testing.T) {
	// A 74HC165 chain on a board turned round: the chain's input 0, wired
	// under a1, now lies under h8.
	c, err := config.Parse([]byte("[board]\na1 = \"h8\"\n[sensor]\nwiring = \"hc165\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	reply := []byte{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00}
	port := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{{W: make([]byte, 9), R: reply}}}}
	load := &gpiotest.Pin{N: "GPIO25"}
	sc, closeSc, err := OpenScanner(c, &fakeBuses{spi: map[string]*spitest.Playback{"SPI0.0": port}, pins: map[string]*gpiotest.Pin{"GPIO25": load}})
	if err != nil {
		t.Fatal(err)
	}
	var f sensor.Frame
	if err := sc.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if want := board.Occupancy(0).With(63); f.Occupancy != want {
		t.Errorf("occupancy %v, want h8", f.Occupancy.SquareNames())
	}
	if err := closeSc(); err != nil {
		t.Errorf("close: %v", err)
	}
	if load.L != gpio.High {
		t.Error("the load pin was not left high")
	}
}

func TestOpenScannerNamesTheMissingPart(t *testing.T) {
	c, err := config.Parse([]byte("[sensor]\nwiring = \"mcp3008\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	port := &spitest.Playback{}
	_, _, err = OpenScanner(c, &fakeBuses{spi: map[string]*spitest.Playback{"SPI0.0": port}, pins: map[string]*gpiotest.Pin{}})
	if err == nil || !strings.Contains(err.Error(), "sensor mcp3008: no such pin GPIO4") {
		t.Errorf("error %v", err)
	}
}

func TestOpenLEDsFromConfig(t *testing.T) {
	c, err := config.Parse([]byte("[led]\nwiring = \"ht16k33\"\n[led.ht16k33]\naddress = 0x72\n"))
	if err != nil {
		t.Fatal(err)
	}
	var ops []i2ctest.IO
	for _, w := range [][]byte{{0x21}, {0x81}, {0x81}, {0xEF}, {0xE0 | 5}} { // start, then 30% brightness
		ops = append(ops, i2ctest.IO{Addr: 0x72, W: w})
	}
	for com := 0; com < 8; com++ { // the first frame: e4 lit (COM3 ROW4)
		rows := byte(0)
		if com == 3 {
			rows = 0x10
		}
		ops = append(ops, i2ctest.IO{Addr: 0x72, W: []byte{byte(2 * com), rows, 0}})
	}
	for com := 0; com < 8; com++ { // Halt on close
		ops = append(ops, i2ctest.IO{Addr: 0x72, W: []byte{byte(2 * com), 0, 0}})
	}
	bus := &i2ctest.Playback{Ops: ops}
	sink, closeSink, err := OpenLEDs(c, &fakeBuses{i2c: map[string]*i2ctest.Playback{"I2C1": bus}})
	if err != nil {
		t.Fatal(err)
	}
	var f led.Frame
	f.Set(board.NewSquare(4, 3), led.MustMove, led.Steady)
	if err := sink.Show(&f, 0); err != nil {
		t.Fatal(err)
	}
	if err := closeSink(); err != nil { // halts, then closes the bus (Playback checks every op was made)
		t.Fatal(err)
	}
}

func TestOpenButtonsFromConfig(t *testing.T) {
	c, err := config.Parse([]byte("[buttons]\nwhite_clock = \"GPIO5\"\nblack_jadoube = \"GPIO6\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]*gpiotest.Pin{"GPIO5": {N: "GPIO5", EdgesChan: make(chan gpio.Level)}, "GPIO6": {N: "GPIO6", EdgesChan: make(chan gpio.Level)}}
	set, err := OpenButtons(c, &fakeBuses{pins: pins}, &timing.Virtual{}, func(trace.Line) {}, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if s := set.String(); !strings.Contains(s, "black jadoube button on GPIO6") || !strings.Contains(s, "white clock button on GPIO5") {
		t.Errorf("set %s", s)
	}
	if pins["GPIO5"].P != gpio.PullUp {
		t.Error("button pin has no pull-up")
	}
	if _, err := OpenButtons(c, &fakeBuses{pins: map[string]*gpiotest.Pin{}}, &timing.Virtual{}, func(trace.Line) {}, nil, nil); err == nil ||
		!strings.Contains(err.Error(), "buttons.black_jadoube: no such pin GPIO6") {
		t.Errorf("missing pin: %v", err)
	}
}
