package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"math/bits"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/chesslink"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/placement"
	"github.com/boardd/boardd/timing"
)

// The emulation of a board that chess apps drive (--emulate
// chesslink:PATH, docs/chesslink.md): boardd answers as a Millennium
// ChessLink board on a serial port. Every change of the game reaches it
// through the runner's OnChange: a placement.Tracker names every man on the
// board, mid-move included, and the emulator reports the placement as the
// app asked (package chesslink). The app's LED patterns come back as a
// layer over boardd's own LEDs (led.Overlay): on the LED driver, and on the
// console's page.

// emulation is the running emulation.
type emulation struct {
	em      *chesslink.Emulator
	tracker placement.Tracker // on the runner's goroutine only
	log     *slog.Logger
	leds    *led.Driver // nil without LEDs of boardd's own (the console shows them)

	mu    sync.Mutex
	layer led.Frame // the app's LEDs as boardd shows them
}

// emulateFlagWant is what --emulate takes, as a fault says: on the command
// line a relative path is taken from the directory boardd was started in
// (absEmulate); in the configuration file the path is absolute.
const emulateFlagWant = `chesslink:PATH, the serial port apps reach the board on, such as "chesslink:/dev/ttyGS0" (a relative PATH is taken from the directory boardd is started in)`

// emulatePort returns the serial port of a configuration's emulate value
// ("" for none).
func emulatePort(value string) (string, error) {
	if value == "" {
		return "", nil
	}
	path, ok := strings.CutPrefix(value, config.EmulateChessLink)
	if !ok || path == "" {
		return "", fmt.Errorf("--emulate %q: want %s", value, emulateFlagWant)
	}
	return path, nil
}

// absEmulate makes the port of an --emulate value absolute, as a file
// named on the command line is relative to where boardd was started.
func absEmulate(value string) string {
	if path, ok := strings.CutPrefix(value, config.EmulateChessLink); ok && path != "" && !filepath.IsAbs(path) {
		return config.EmulateChessLink + absPath(path)
	}
	return value
}

// startEmulation serves the emulation the configuration names, if any. Call
// it after the LEDs start and before the console and the runner do.
func (d *daemon) startEmulation() error {
	path, err := emulatePort(d.cfg.Emulate)
	if err != nil || path == "" {
		return err
	}
	e := newEmulation(d.log.With("emulate", d.cfg.Emulate), d.clock, d.leds)
	d.runner.OnChange(e.onChange)
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = e.em.Serve(ctx, path)
	}()
	d.onClose(func() error {
		cancel()
		<-done
		st := e.em.Stats()
		e.log.Info("chesslink emulation stopped", "commands", st.Commands, "dropped", st.Decoder.Dropped(), "reports", st.Reports,
			"reports_held", st.ReportsHeld, "replies_lost", st.RepliesLost, "opens", st.Opens, "stats", st.String())
		return nil
	})
	d.apps = e
	d.log.Info("emulating a ChessLink board for apps", "port", path)
	return nil
}

// newEmulation returns an emulation whose emulator runs on clock, showing
// the app's LEDs on leds (nil: on the console only).
func newEmulation(log *slog.Logger, clock timing.Clock, leds *led.Driver) *emulation {
	e := &emulation{log: log, leds: leds}
	e.em = chesslink.NewEmulator(chesslink.Options{
		Clock:     clock,
		Logger:    log,
		ShowLEDs:  e.showLEDs,
		Connected: e.connected,
	})
	return e
}

// onChange hands the emulator the placement of each new snapshot; it runs
// on the runner's goroutine and costs a few passes over the squares.
func (e *emulation) onChange(s *game.Snapshot) {
	if err := e.em.SetPlacement(e.tracker.Update(s)); err != nil {
		e.log.Error("chesslink: placement refused", "err", err) // no man is ever no man
	}
}

// showLEDs takes an LED pattern the app set.
func (e *emulation) showLEDs(p chesslink.LEDPattern) {
	e.setLayer(appFrame(&p))
}

// connected takes the app's port opening and closing: a port lost (the
// USB cable pulled) darkens the app's LEDs, as a board's go dark when
// unplugged; an app that comes back lights them anew.
func (e *emulation) connected(open bool) {
	if !open {
		e.setLayer(led.Frame{})
	}
}

func (e *emulation) setLayer(f led.Frame) {
	e.mu.Lock()
	changed := f != e.layer
	e.layer = f
	e.mu.Unlock()
	if changed {
		e.log.Debug("chesslink: app LEDs", "squares", f.Squares(led.Hint).SquareNames())
	}
	if e.leds != nil {
		e.leds.ShowLayer(f)
	}
}

// Layer returns the app's LEDs as boardd shows them, for the console.
func (e *emulation) Layer() led.Frame {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.layer
}

// consoleLayer returns what the console lays over the game's LEDs: the
// emulated board's app's, or nil.
func (d *daemon) consoleLayer() func() led.Frame {
	if d.apps == nil {
		return nil
	}
	return d.apps.Layer
}

// appFrame maps an app's LED pattern onto boardd's square LEDs: each square
// the app lights (chesslink.LEDPattern.Squares) shows in the hint role (a
// move suggested to the player), steady when the app lights it steadily,
// else blinking at the rate nearest the app's (appBlink).
func appFrame(p *chesslink.LEDPattern) led.Frame {
	var f led.Frame
	slot := p.Slot()
	for sq, code := range p.Squares() {
		if code != 0 {
			f.Set(board.Square(sq), led.Hint, appBlink(code, slot))
		}
	}
	return f
}

// appBlink is boardd's blink nearest an app's LED code (eight time slots of
// slot each, bit 7 first, repeating): steady for a code lit in every slot;
// else fast when the code lights up more than twice a second (it comes on
// runs times in 8 slots), slow otherwise. Boardd's rates are 1 Hz and
// 4 Hz; 2 Hz lies between them, as the eye counts rates.
func appBlink(code uint8, slot time.Duration) led.Blink {
	if code == 0xFF {
		return led.Steady
	}
	// The slot before bit i's is bit i+1's (bit 0's comes before bit 7's):
	// a run starts where a lit slot follows a dark one.
	runs := bits.OnesCount8(code &^ bits.RotateLeft8(code, -1))
	if runs > 0 && 8*slot < time.Duration(runs)*500*time.Millisecond {
		return led.Fast
	}
	return led.Slow
}
