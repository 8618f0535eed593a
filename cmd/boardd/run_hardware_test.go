package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/pipeline"
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

// runHW runs `boardd args...` in process.
func runHW(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code = dispatch(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigCheckCommand(t *testing.T) {
	good := writeFile(t, "good.toml", "laws = \"nycc\"\n[sensor]\nwiring = \"hc165\"\n")
	bad := writeFile(t, "bad.toml", "[sensor]\nwiring = \"hc165\"\nrate = 0\n[buttons]\nwhite_clock = \"GPIO25\"\n")
	cases := []struct {
		args       []string
		code       int
		out, inErr string
	}{
		{[]string{"config", "check", good}, 0, good + ": ok: sensor hc165, LEDs none, 0 buttons, laws nycc\n", ""},
		{[]string{"config", "check", bad}, 2, "", bad + ": 2 faults:\nsensor.rate = 0: expected scans a second, a number from 1 to 2000\n" +
			`buttons.white_clock = "GPIO25": expected a GPIO no other part uses (GPIO25 is the 74HC165 load pin, sensor.hc165.load)`},
		{[]string{"config", "check", filepath.Join(t.TempDir(), "none.toml")}, 2, "", "none.toml: open"},
		{[]string{"config", "check"}, 2, "", "usage: boardd config check FILE"},
		{[]string{"config", "example", "hc595"}, 2, "", `no example wiring "hc595": expected one of apa102, hc165`},
		{[]string{"config", "frobnicate"}, 2, "", `unknown subcommand "frobnicate"`},
		{[]string{"config"}, 2, "", "usage:"},
	}
	for _, c := range cases {
		code, out, errs := runHW(t, c.args...)
		if code != c.code || out != c.out || !strings.Contains(errs, c.inErr) {
			t.Errorf("boardd %s: exit %d, stdout %q, stderr %q; want %d, %q, stderr containing %q",
				strings.Join(c.args, " "), code, out, errs, c.code, c.out, c.inErr)
		}
	}
}

func TestConfigExamplesCheck(t *testing.T) {
	for _, name := range append([]string{""}, config.Examples()...) {
		args := []string{"config", "example"}
		if name != "" {
			args = append(args, name)
		}
		code, out, errs := runHW(t, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "# boardd configuration") {
			t.Fatalf("boardd %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
		path := writeFile(t, "ex.toml", out)
		if code, _, errs := runHW(t, "config", "check", path); code != 0 {
			t.Errorf("example %q refused by config check: %s", name, errs)
		}
	}
}

func testDaemon(t *testing.T, f runFlags) (*daemon, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &logs, getenv: func(string) string { return "" }}
	return &daemon{ctx: context.Background(), env: env, log: slog.New(slog.NewTextHandler(&logs, nil)), flags: &f}, &logs
}

func TestConfigureFlagsOverrideFile(t *testing.T) {
	path := writeFile(t, "boardd.toml", `laws = "nycc"
time_control = "40/5400+30"
listen = ":9000"
hall = "mqtt://hall.local:1883"
board_id = "board-1"
log_level = "debug"
[sensor]
wiring = "hc165"
debounce = "35ms"
[led]
wiring = "ws2812"
`)
	d, _ := testDaemon(t, runFlags{config: path, laws: "hastings1895", led: "none", boardID: "board-2", logLevel: "info"})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	f := d.flags
	if d.opts.Laws != "hastings1895" || d.opts.TimeControl != "40/5400+30" || d.opts.Debounce.Milliseconds() != 35 {
		t.Errorf("opts %+v", d.opts)
	}
	if f.listen != ":9000" || f.hall != "mqtt://hall.local:1883" || f.boardID != "board-2" || f.timeControl != "40/5400+30" ||
		f.sensor != "hc165" || f.led != "none" || f.logLevel != "info" {
		t.Errorf("flags after configure %+v", *f)
	}
}

func TestConfigureRefusesWithKeyValueExpected(t *testing.T) {
	bad := writeFile(t, "bad.toml", "[led]\nbrightness = 400\n")
	cases := []struct {
		name string
		f    runFlags
		want string
	}{
		{"bad file", runFlags{config: bad}, bad + ": led.brightness = 400: expected a brightness in percent, a whole number from 1 to 100"},
		{"bad flag", runFlags{sensor: "hc595"}, `--sensor (sensor.wiring) = "hc595": expected one of sim, none, hc165`},
		{"missing file", runFlags{config: filepath.Join(t.TempDir(), "missing.toml")}, "missing.toml: open"},
		{"flag clash", runFlags{sensor: "hc165", led: "ws2812", config: writeFile(t, "clash.toml", "[led.ws2812]\nspi = \"SPI0.1\"\n")},
			`led.ws2812.spi = "SPI0.1": expected an SPI bus of its own`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, _ := testDaemon(t, c.f)
			err := d.configure()
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v (%T), want a usage error containing %q", err, err, c.want)
			}
		})
	}
}

func TestDaemonExitsTwoOnABadConfig(t *testing.T) {
	bad := writeFile(t, "bad.toml", "[sensor]\nretries = \"many\"\n")
	code, _, errs := runHW(t, "run", "--config", bad, "--state-dir", t.TempDir())
	if code != 2 || !strings.Contains(errs, `sensor.retries = "many": expected retries of a failed read, a whole number from 0 to 10`) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

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
	sc, closeSc, err := openScanner(c, &fakeBuses{spi: map[string]*spitest.Playback{"SPI0.0": port}, pins: map[string]*gpiotest.Pin{"GPIO25": load}})
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
	_, _, err = openScanner(c, &fakeBuses{spi: map[string]*spitest.Playback{"SPI0.0": port}, pins: map[string]*gpiotest.Pin{}})
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
	sink, closeSink, err := openLEDs(c, &fakeBuses{i2c: map[string]*i2ctest.Playback{"I2C1": bus}})
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
	set, err := openButtons(c, &fakeBuses{pins: pins}, &timing.Virtual{}, func(trace.Line) {}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if s := set.String(); !strings.Contains(s, "black jadoube button on GPIO6") || !strings.Contains(s, "white clock button on GPIO5") {
		t.Errorf("set %s", s)
	}
	if pins["GPIO5"].P != gpio.PullUp {
		t.Error("button pin has no pull-up")
	}
	if _, err := openButtons(c, &fakeBuses{pins: map[string]*gpiotest.Pin{}}, &timing.Virtual{}, func(trace.Line) {}, nil); err == nil ||
		!strings.Contains(err.Error(), "buttons.black_jadoube: no such pin GPIO6") {
		t.Errorf("missing pin: %v", err)
	}
}

func TestNoLEDsConfigured(t *testing.T) {
	for _, w := range []string{"", "none", "sim"} {
		d, _ := testDaemon(t, runFlags{led: w})
		if sink, err := d.ledSink(); sink != nil || err != nil {
			t.Errorf("--led %q: sink %v, error %v; want neither", w, sink, err)
		}
	}
}

// flakyScanner fails its first fails scans, then reads the starting
// position.
type flakyScanner struct {
	mu    sync.Mutex
	fails int
	n     int
}

func (s *flakyScanner) Scan(f *sensor.Frame) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	if s.n <= s.fails {
		return errors.New("i2c: nack")
	}
	f.Occupancy = 0xFFFF00000000FFFF
	return nil
}
func (s *flakyScanner) Halt() error    { return nil }
func (s *flakyScanner) String() string { return "flaky" }

// TestScanFaultReachesTheLEDs runs a scan loop wired as startHardware wires
// it into a real runner: a run of failed scans lights the fault on the
// LEDs, and good scans put it out.
func TestScanFaultReachesTheLEDs(t *testing.T) {
	p, err := pipeline.New(pipeline.Options{Laws: "fide2023"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewReal()
	runner := pipeline.NewRunner(p, clock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = runner.Run(ctx) }()
	d, _ := testDaemon(t, runFlags{})
	d.runner, d.clock = runner, clock
	c := config.Default()
	c.Sensor.Rate, c.Sensor.Retries, c.Sensor.FaultAfter = 1000, 0, 3
	sc := &flakyScanner{fails: 3}
	faults := make(chan bool, 4)
	o := d.loopOpts(ctx, c)
	fault := o.Fault
	o.Fault = func(t time.Duration, f bool, err error) { fault(t, f, err); faults <- f }
	loop, err := sensor.NewLoop(sc, o)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = loop.Run(ctx) }()
	corner := func() led.Role {
		var r led.Role
		if err := runner.Do(ctx, func(p *pipeline.Pipeline, now time.Duration) { r = p.LEDs().Role[0] }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, want := range []bool{true, false} {
		select {
		case f := <-faults:
			if f != want {
				t.Fatalf("fault %v, want %v", f, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no fault change to %v", want)
		}
		if got := corner() == led.Fault; got != want {
			t.Errorf("a1's LED shows fault %v, want %v", got, want)
		}
	}
}

func TestAnalogueSensorsNeedACalibration(t *testing.T) {
	d, _ := testDaemon(t, runFlags{sensor: "mcp3208"})
	d.stateDir = t.TempDir()
	defer d.close()
	err := d.startHardware()
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not been calibrated") {
		t.Errorf("error %v, want a usage error saying the board has not been calibrated", err)
	}
}
