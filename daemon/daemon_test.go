package daemon

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/timing"
)

func testDaemon(t *testing.T, o Options) (*daemon, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	o.Stdin, o.Stderr, o.Getenv = strings.NewReader(""), &logs, func(string) string { return "" }
	return &daemon{ctx: context.Background(), o: o, level: new(slog.LevelVar), log: slog.New(slog.NewTextHandler(&logs, nil))}, &logs
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigureFlagsOverrideFile(t *testing.T) {
	path := writeFile(t, "boardd.toml", `laws = "nycc"
time_control = "40/5400+30"
listen = ":9000"
hall = "mqtt://hall.local:1883"
board_id = "board-1"
log_level = "debug"
white = "Anna"
[sensor]
wiring = "hc165"
debounce = "35ms"
[led]
wiring = "ws2812"
`)
	d, _ := testDaemon(t, Options{Config: path, Laws: "hastings1895", LED: "none", BoardID: "board-2", LogLevel: "info"})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	if d.opts.Laws != "hastings1895" || d.opts.TimeControl != "40/5400+30" || d.opts.Timing.Debounce.Milliseconds() != 35 {
		t.Errorf("opts %+v", d.opts)
	}
	if w, ok := d.opts.Tags["White"]; w != "Anna" || !ok {
		t.Errorf("the White tag %q, want the name configured", w)
	}
	if b, ok := d.opts.Tags["Black"]; ok {
		t.Errorf("the Black tag %q, want none (unknown)", b)
	}
	c := d.cfg
	if c.Listen != ":9000" || c.Hall != "mqtt://hall.local:1883" || c.BoardID != "board-2" || c.TimeControl != "40/5400+30" ||
		c.Sensor.Wiring != "hc165" || c.LED.Wiring != "none" || c.LogLevel != "info" || d.level.Level() != slog.LevelInfo {
		t.Errorf("configuration after the flags %+v", *c)
	}
}

func TestConfigureRefusesWithKeyValueExpected(t *testing.T) {
	bad := writeFile(t, "bad.toml", "[led]\nbrightness = 400\n")
	cases := []struct {
		name string
		f    Options
		want string
	}{
		{"bad file", Options{Config: bad}, bad + ": led.brightness = 400: expected a brightness in percent, a whole number from 1 to 100"},
		{"bad flag", Options{Sensor: "hc595"}, `--sensor (sensor.wiring) = "hc595": expected one of sim, none, hc165`},
		{"missing file", Options{Config: filepath.Join(t.TempDir(), "missing.toml")}, "missing.toml: open"},
		{"flag clash", Options{Sensor: "hc165", LED: "ws2812", Config: writeFile(t, "clash.toml", "[led.ws2812]\nspi = \"SPI0.1\"\n")},
			`led.ws2812.spi = "SPI0.1": expected an SPI bus of its own`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, _ := testDaemon(t, c.f)
			err := d.configure()
			var ue UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v (%T), want a usage error containing %q", err, err, c.want)
			}
		})
	}
}

func TestNoLEDsConfigured(t *testing.T) {
	for _, w := range []string{"", "none", "sim"} {
		d, _ := testDaemon(t, Options{LED: w})
		if err := d.configure(); err != nil {
			t.Fatal(err)
		}
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
	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewReal()
	runner := game.NewRunner(p, clock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = runner.Run(ctx) }()
	d, _ := testDaemon(t, Options{})
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
		if err := runner.Do(ctx, func(p *game.Game, now time.Duration) { r = lighting.Compose(p.Snapshot()).Role[0] }); err != nil {
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
	d, _ := testDaemon(t, Options{Sensor: "mcp3208"})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	d.stateDir = t.TempDir()
	defer d.close()
	err := d.startHardware()
	var ue UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "never calibrated") {
		t.Errorf("error %v, want a usage error saying the board has not been calibrated", err)
	}
}
