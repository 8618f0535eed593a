package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/config"
)

// loadConfig reads the configuration (Options.Config; else
// /etc/boardd/boardd.toml if it exists; else the defaults, a simulated
// board) and lays the flags over it, then checks the whole. A fault in a
// value a flag set is named by the flag. It touches no hardware.
//
// When the only faults are in keys (a config.FileError holding
// config.Errors: every fault of the file and of the flags, each key that
// would not do at its default), the configuration is returned with the
// error, so that Check can go on to check what the faults leave sound; a
// file that cannot be read or is not TOML returns none.
func loadConfig(o *Options) (*config.Config, string, error) {
	path := o.Config
	var c *config.Config
	var faults config.Errors
	// keep takes the file's faults in its keys, giving up on any other.
	keep := func(err error) error {
		var fe *config.FileError
		if errors.As(err, &fe) && errors.As(fe.Err, &faults) {
			return nil
		}
		return err
	}
	switch {
	case path != "":
		var err error
		if c, err = config.LoadUnchecked(path); c == nil {
			return nil, path, err
		} else if err := keep(err); err != nil {
			return nil, path, err
		}
	default:
		var err error
		c, err = config.LoadUnchecked(config.DefaultPath)
		switch {
		case c != nil:
			path = config.DefaultPath
			if err := keep(err); err != nil {
				return nil, path, err
			}
		case errors.Is(err, fs.ErrNotExist):
			c = config.Default()
		default:
			return nil, config.DefaultPath, err
		}
	}
	byFlag := map[string]string{}
	set := func(flagName, key, v string, dst *string) {
		if v != "" {
			*dst = v
			byFlag[key] = flagName
		}
	}
	set("--laws", "laws", o.Laws, &c.Laws)
	set("--time-control", "time_control", o.TimeControl, &c.TimeControl)
	set("--listen", "listen", o.Listen, &c.Listen)
	// A file named on the command line is relative to where boardd was
	// started; the file's own are absolute.
	set("--tls-cert", "tls_cert", absPath(o.TLSCert), &c.TLSCert)
	set("--tls-key", "tls_key", absPath(o.TLSKey), &c.TLSKey)
	set("--state-dir", "state_dir", o.StateDir, &c.StateDir)
	set("--hall", "hall", o.Hall, &c.Hall)
	set("--board-id", "board_id", o.BoardID, &c.BoardID)
	set("--sensor", "sensor.wiring", o.Sensor, &c.Sensor.Wiring)
	set("--led", "led.wiring", o.LED, &c.LED.Wiring)
	set("--log-level", "log_level", o.LogLevel, &c.LogLevel)
	set("--emulate", "emulate", absEmulate(o.Emulate), &c.Emulate)
	set("--voice", "voice.language", o.Voice, &c.Voice.Language)
	set("--voice-convention", "voice.convention", o.VoiceConvention, &c.Voice.Convention)
	set("--visually-impaired", "visually_impaired", o.VisuallyImpaired, &c.VisuallyImpaired)
	if o.Tournament {
		c.Tournament = true
		byFlag["tournament"] = "--tournament"
	}
	if o.WarnOnly {
		c.WarnOnly = true
		byFlag["warn_only"] = "--warn-only"
	}
	if err := engineFlags(o, c, byFlag); err != nil {
		return nil, path, err
	}
	if err := lichessFlags(o, c, byFlag); err != nil {
		return nil, path, err
	}
	if err := c.Check(); err != nil {
		var es config.Errors
		if !errors.As(err, &es) {
			return nil, path, err
		}
		for _, e := range es {
			if name, ok := byFlag[e.Key]; ok {
				if e.Key == "emulate" {
					// The flag takes a relative path too (absEmulate).
					e.Expected = emulateFlagWant
				}
				e.Key = name + " (" + e.Key + ")"
			}
		}
		faults = append(faults, es...)
	}
	if len(faults) == 0 {
		if err := engineFlagsNeedAnEngine(o, c); err != nil {
			return nil, path, err
		}
		return c, path, nil
	}
	switch {
	case path == "":
		return c, path, faults
	case len(byFlag) > 0:
		return c, path, &config.FileError{Path: path + " with the flags", Err: faults}
	}
	return c, path, &config.FileError{Path: path, Err: faults}
}

// absPath returns path made absolute ("" stays ""; a path that cannot be
// made absolute is left for the check to refuse).
func absPath(path string) string {
	if path == "" {
		return ""
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// configure reads the configuration once, with the flags over it, and
// fills the game's options from it. A configuration that will not do is a
// usage error: exit status 2 with the key, the value and what was expected.
func (d *daemon) configure() error {
	c, path, err := loadConfig(&d.o)
	if err != nil {
		return UsageError{err}
	}
	d.cfg, d.cfgPath = c, path
	if c.LogLevel != "" {
		if err := d.level.UnmarshalText([]byte(c.LogLevel)); err != nil {
			return UsageError{fmt.Errorf("log level %q: want debug, info, warn or error", c.LogLevel)}
		}
	}
	d.opts.Laws = c.Laws
	d.opts.Tournament = c.Tournament
	d.opts.WarnOnly = c.WarnOnly
	d.opts.TimeControl = c.TimeControl
	for tag, name := range map[string]string{"White": c.White, "Black": c.Black} {
		if name == "" {
			continue
		}
		if d.opts.Tags == nil {
			d.opts.Tags = map[string]string{}
		}
		d.opts.Tags[tag] = name
	}
	d.opts.Odds = d.o.Odds
	d.opts.VisuallyImpaired = c.VisuallyImpaired
	if c.VisuallyImpaired != "" && c.Voice.Language == config.VoiceOff {
		// D.2.3 wants the move announced: boardd announces it as it is
		// made, but only the console's speaking page says it aloud.
		d.log.Warn("a visually impaired player with no voice: his moves are said only by a console page with speak ticked (--voice en or de speaks them at the board)", "side", c.VisuallyImpaired)
	}
	d.opts.Timing.Debounce = c.Sensor.Debounce
	d.opts.Timing.Settle = c.Hands.Settle
	d.opts.Timing.QuickSettle = c.Hands.QuickSettle
	if d.opts.Timing.QuickSettle == 0 {
		d.opts.Timing.QuickSettle = -1 // nothing shown before the move is made
	}
	d.opts.Logger = d.log
	// A new game against an engine says so from its journal's header.
	switch {
	case c.Engine.Path == "":
	case c.Engine.Side == "white":
		d.opts.Remote[board.White] = true
	case c.Engine.Side == "black":
		d.opts.Remote[board.Black] = true
	}
	if path == "" {
		path = "none (defaults)"
	}
	d.log.Info("configuration", "file", path, "sensor", c.Sensor.Wiring, "leds", c.LED.Wiring, "buttons", len(c.Buttons.Pins))
	return nil
}
