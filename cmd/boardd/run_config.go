package main

import (
	"errors"
	"io/fs"

	"github.com/boardd/boardd/config"
)

// loadConfig reads the configuration (--config FILE; else
// /etc/boardd/boardd.toml if it exists; else the defaults, a simulated
// board) and lays the flags over it, then checks the whole. A fault in a
// value a flag set is named by the flag. It touches no hardware, so every
// part of the daemon may call it (without a config field in the daemon
// struct, each part reads it afresh; the file is small).
func (d *daemon) loadConfig() (*config.Config, string, error) {
	path := d.flags.config
	var c *config.Config
	switch {
	case path != "":
		var err error
		if c, err = config.Load(path); err != nil {
			return nil, path, err
		}
	default:
		var err error
		c, err = config.Load(config.DefaultPath)
		switch {
		case err == nil:
			path = config.DefaultPath
		case errors.Is(err, fs.ErrNotExist):
			c = config.Default()
		default:
			return nil, config.DefaultPath, err
		}
	}
	f := d.flags
	byFlag := map[string]string{}
	set := func(flagName, key, v string, dst *string) {
		if v != "" {
			*dst = v
			byFlag[key] = flagName
		}
	}
	set("--laws", "laws", f.laws, &c.Laws)
	set("--time-control", "time_control", f.timeControl, &c.TimeControl)
	set("--listen", "listen", f.listen, &c.Listen)
	set("--state-dir", "state_dir", f.stateDir, &c.StateDir)
	set("--hall", "hall", f.hall, &c.Hall)
	set("--board-id", "board_id", f.boardID, &c.BoardID)
	set("--sensor", "sensor.wiring", f.sensor, &c.Sensor.Wiring)
	set("--led", "led.wiring", f.led, &c.LED.Wiring)
	set("--log-level", "log_level", f.logLevel, &c.LogLevel)
	if f.tournament {
		c.Tournament = true
	}
	if err := c.Check(); err != nil {
		var es config.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				if name, ok := byFlag[e.Key]; ok {
					e.Key = name + " (" + e.Key + ")"
				}
			}
		}
		if path == "" {
			return nil, path, err
		}
		return nil, path, &config.FileError{Path: path + " with the flags", Err: err}
	}
	return c, path, nil
}

// configure fills d.opts, and the flags the other parts read, from the
// configuration file and the flags (flags win). A configuration that will
// not do is a usage error: exit status 2 with the key, the value and what
// was expected.
func (d *daemon) configure() error {
	c, path, err := d.loadConfig()
	if err != nil {
		return usageError{err}
	}
	f := d.flags
	f.laws, f.timeControl, f.listen, f.hall, f.boardID = c.Laws, c.TimeControl, c.Listen, c.Hall, c.BoardID
	f.sensor, f.led, f.tournament = c.Sensor.Wiring, c.LED.Wiring, c.Tournament
	f.logLevel, f.stateDir = c.LogLevel, c.StateDir
	d.opts.Laws = c.Laws
	d.opts.Tournament = c.Tournament
	d.opts.TimeControl = c.TimeControl
	d.opts.Odds = f.odds
	d.opts.Debounce = c.Sensor.Debounce
	d.opts.Logger = d.log
	if path == "" {
		path = "none (defaults)"
	}
	d.log.Info("configuration", "file", path, "sensor", c.Sensor.Wiring, "leds", c.LED.Wiring, "buttons", len(c.Buttons.Pins))
	return nil
}
