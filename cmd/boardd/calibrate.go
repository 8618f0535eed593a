package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/wiring"
)

// calFlags are the flags `boardd calibrate` and `boardd selftest` share.
type calFlags struct {
	config    string
	stateDir  string
	sim       bool
	simSeed   uint64
	simFaults string
	simSpeed  float64
	simAuto   bool
	simNoLEDs bool
}

func (f *calFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "configuration file naming the sensor and LED wiring (default /etc/boardd/boardd.toml if it exists; none: the simulated board)")
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory holding calibration.json (default as boardd run)")
	fs.BoolVar(&f.sim, "sim", false, "use the simulated analogue board (the default when no hardware is configured)")
	fs.Uint64Var(&f.simSeed, "sim-seed", 1, "simulated board: the seed of its gains, offsets, wiring and noise")
	fs.StringVar(&f.simFaults, "sim-faults", "", "simulated board: faults, e.g. dead=e4,stuck=h3,noisy=b7,cross=c4+c3,swap=a2+b2,deadled=f6")
	fs.Float64Var(&f.simSpeed, "sim-speed", 10, "simulated board: how many times faster than real time it runs (0: as fast as possible)")
	fs.BoolVar(&f.simAuto, "sim-auto", false, "simulated board: the simulated person also answers the questions (no keyboard needed)")
	fs.BoolVar(&f.simNoLEDs, "sim-no-leds", false, "simulated board: a board without LEDs")
}

// calBoard is the board the wizard or the self-test works on, and where its
// calibration lives.
type calBoard struct {
	session  *calibration.Session
	stateDir string
	sim      *calibration.SimBoard
	cal      *calibration.Calibration // the saved calibration, when asked for
	close    func() error
}

// openCalBoard opens the configured board, or the simulated one. Errors
// that are the user's (flags, configuration) are usageErrors. With
// calibrated, the board's saved calibration is read first, and a board
// never calibrated (or its calibration unreadable) is refused before any
// hardware is opened or any directory made; otherwise the state directory
// is made for the calibration to come.
func openCalBoard(env *environment, f *calFlags, out io.Writer, calibrated bool) (*calBoard, error) {
	var c *config.Config
	switch {
	case f.config != "":
		var err error
		if c, err = config.Load(f.config); err != nil {
			return nil, usageError{err}
		}
	case !f.sim:
		var err error
		c, err = config.Load(config.DefaultPath)
		if errors.Is(err, fs.ErrNotExist) {
			c = nil
		} else if err != nil {
			return nil, usageError{err}
		}
	}
	dirFlag := f.stateDir
	if dirFlag == "" && c != nil {
		dirFlag = c.StateDir
	}
	dir, err := stateDir(dirFlag, env.getenv)
	if err != nil {
		return nil, usageError{err}
	}
	b := &calBoard{stateDir: dir, close: func() error { return nil }}
	if calibrated {
		// SelfTest itself refuses a calibration made on other hardware.
		if b.cal, err = calibration.LoadAny(calibration.Path(dir)); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("state directory %s: %w", dir, err)
	}
	s := &calibration.Session{Out: out, Terminal: isTerminal(out)}
	b.session = s
	if f.sim || c == nil || c.Sensor.Wiring == config.WiringSim {
		return b, b.openSim(env, f)
	}
	w := c.Sensor.Wiring
	switch {
	case w == config.WiringNone:
		return nil, usageError{errors.New("the configuration names no sensors (sensor.wiring = none): nothing to calibrate; use --sim for the simulated board")}
	case strings.HasPrefix(w, config.SerialPrefix):
		return nil, usageError{fmt.Errorf("sensor.wiring = %s: a serial board reads its own sensors; calibrate it with its own tools", w)}
	}
	buses := &wiring.Periph{}
	sc, closeSc, err := wiring.OpenScanner(c, buses)
	if err != nil {
		return nil, err
	}
	closeAll := []func() error{closeSc}
	closeBoard := func() error {
		var errs []error
		for i := len(closeAll) - 1; i >= 0; i-- {
			errs = append(errs, closeAll[i]())
		}
		return errors.Join(errs...)
	}
	var sink led.Sink
	if lw := c.LED.Wiring; lw != config.WiringNone && lw != config.WiringSim && !strings.HasPrefix(lw, config.SerialPrefix) {
		var closeLEDs func() error
		if sink, closeLEDs, err = wiring.OpenLEDs(c, buses); err != nil {
			_ = closeBoard()
			return nil, err
		}
		closeAll = append(closeAll, closeLEDs)
	}
	clock := timing.NewReal()
	s.Scanner, s.LEDs, s.Clock, s.Wait = sc, sink, clock, timing.Wait
	s.Name = wiring.BoardName(sc, c)
	s.In = lines(env.stdin)
	b.close = closeBoard
	return b, nil
}

// openSim builds the simulated board: reproducible from its seed, so that
// calibrate and selftest, run one after the other, meet the same board.
func (b *calBoard) openSim(env *environment, f *calFlags) error {
	faults, err := calibration.ParseFaults(f.simFaults)
	if err != nil {
		return usageError{fmt.Errorf("--sim-faults: %w", err)}
	}
	clock := &timing.Virtual{}
	sim := calibration.NewSimBoard(clock, calibration.SimOptions{Seed: f.simSeed, Faults: faults, NoLEDs: f.simNoLEDs})
	person := &calibration.SimPerson{Board: sim, Clock: clock}
	s := b.session
	s.Scanner, s.Clock, s.Wait = sim, clock, calibration.VirtualWait(clock, f.simSpeed)
	if sim.HasLEDs() {
		s.LEDs = sim
	}
	s.Observe, s.Picture = person.Observe, sim.Picture
	if f.simAuto {
		answers := make(chan string, 64)
		person.Answers = answers
		s.In = answers
	} else {
		s.In = lines(env.stdin)
	}
	b.sim = sim
	return nil
}

// lines delivers r's lines; the channel closes when r ends.
func lines(r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runCalibrate is `boardd calibrate`: the wizard, then the calibration file
// and a summary. Exit status 0: saved, board fit; 1: saved with faults, or
// failed; 2: usage; 130: interrupted (progress kept).
func runCalibrate(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "calibrate",
		usage: []string{"calibrate [flags]"},
		about: "Learns a board of analogue Hall sensors, once before play: every square's sensor levels, which sensor and which LED is which square, and where a1 is. Clear the board and press Enter; put a White man on each square the wizard names, lifting it when told, and a Black man on each square the LEDs light. q or Ctrl-C stops; the next run resumes where it left off. The result is saved as calibration.json in the state directory, with a summary of weak or suspicious squares.\n\n" +
			"Without hardware configured it calibrates a simulated analogue board, which --sim-auto also plays by itself.",
		groups: []flagGroup{
			{"The board", []string{"config", "state-dir", "restart"}},
			{"The simulated board", []string{"sim", "sim-auto", "sim-seed", "sim-faults", "sim-speed", "sim-no-leds"}},
		},
		examples: []string{
			"boardd calibrate                     # the configured board, the LEDs guiding",
			"boardd calibrate --restart           # start over",
			"boardd calibrate --sim --sim-auto    # try it on the simulated board",
		},
		exit: "Exit status: 0 when saved and the board is fit; 1 when saved with faults, or failed; 2 for a bad command line or configuration; 130 when interrupted (the progress is kept).",
	}
	fs := h.flags()
	var f calFlags
	f.register(fs)
	restart := fs.Bool("restart", false, "discard the saved progress of an interrupted calibration and start over")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	b, err := openCalBoard(env, &f, env.stdout, false)
	if err != nil {
		return failed(env, "calibrate", err)
	}
	defer b.close()
	path := calibration.Path(b.stateDir)
	prev, _ := calibration.LoadAny(path) // its LED map guides the first walk
	cal, rep, err := calibration.Calibrate(ctx, b.session, calibration.WizardOptions{
		Store: calibration.ProgressPath(b.stateDir), Restart: *restart, Previous: prev,
	})
	if errors.Is(err, calibration.ErrInterrupted) {
		fmt.Fprintf(env.stderr, "\nboardd calibrate: %v\n", err)
		return 130
	}
	if err != nil {
		return failed(env, "calibrate", err)
	}
	cal.Made = time.Now().UTC().Truncate(time.Second)
	if err := calibration.Save(path, cal); err != nil {
		return failed(env, "calibrate", err)
	}
	w := env.stdout
	fmt.Fprintf(w, "\nCalibration saved to %s.\n", path)
	for _, n := range cal.Notes() {
		fmt.Fprintf(w, "  %s\n", n)
	}
	if len(rep.Findings) == 0 {
		fmt.Fprintln(w, "No weak or suspicious squares.")
		return 0
	}
	fmt.Fprintln(w, "Weak or suspicious squares:")
	rep.Write(w)
	if !rep.Fit() {
		fmt.Fprintf(w, "The board is not fit for play: repair %s, calibrate again, and check it with 'boardd selftest'.\n",
			strings.Join(rep.Squares(calibration.Fault).SquareNames(), " "))
		return 1
	}
	return 0
}

// failed reports err and returns the exit status it calls for.
func failed(env *environment, cmd string, err error) int {
	fmt.Fprintf(env.stderr, "boardd %s: %v\n", cmd, err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}
