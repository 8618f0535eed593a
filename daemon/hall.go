package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/uplink"
	"github.com/boardd/boardd/hall/wire"
)

// paramTokenFile is the --hall URL's query parameter naming the hall token's
// file (default: hall-token in $CREDENTIALS_DIRECTORY or the state
// directory).
const paramTokenFile = "token-file"

// startHall connects the board to the club hall's broker when --hall (or
// the configuration's hall) names one: the uplink publishes the game from
// the journal, the board's state and health, and carries out the hall's
// arbiter actions bearing the hall token. The board's id (--board-id, else
// the host name) is its user name at the broker; its password, certificate
// and the hall token are files in $CREDENTIALS_DIRECTORY or the state
// directory, or named in the URL (docs/hall.md).
func (d *daemon) startHall() error {
	if d.cfg.Hall == "" {
		return nil
	}
	id := consoleBoardID(d.cfg.BoardID)
	if err := wire.CheckBoard(id); err != nil {
		return UsageError{fmt.Errorf("--board-id: %w", err)}
	}
	dirs := []string{d.o.Getenv("CREDENTIALS_DIRECTORY"), d.stateDir}
	cfg, err := broker.Load(broker.Options{URL: d.cfg.Hall, Username: id, Dirs: dirs, Extra: []string{paramTokenFile}})
	if err != nil {
		return UsageError{fmt.Errorf("--hall: %w", err)}
	}
	var token, tokenPath string
	if p := cfg.Query.Get(paramTokenFile); p != "" {
		tokenPath = p
		token, err = uplink.ReadToken(p)
	} else {
		token, tokenPath, err = uplink.LoadToken(dirs...)
	}
	if err != nil {
		return UsageError{fmt.Errorf("--hall: %w", err)}
	}
	j := d.gameJournal()
	if j == nil {
		return errors.New("hall: the journal is not open: the board cannot publish its game")
	}
	simulated := d.simulated()
	local, err := console.NewLocal(d.runner, console.LocalOptions{ID: id, Simulated: simulated, Tournament: d.opts.Tournament})
	if err != nil {
		return err
	}
	sensor, leds := d.cfg.Sensor.Wiring, d.cfg.LED.Wiring
	if sensor == "" {
		sensor = "sim"
	}
	if leds == "" {
		leds = "none"
	}
	up, err := uplink.Start(context.WithoutCancel(d.ctx), uplink.Options{
		Board: id, Broker: cfg, Journal: j, Runner: d.runner, Console: local, StateDir: d.stateDir,
		Token: token, Sensor: sensor, LED: leds, Logger: d.log,
	})
	if err != nil {
		local.Close()
		return err
	}
	d.onClose(func() error {
		err := up.Close()
		local.Close()
		return err
	})
	attrs := []any{"broker", cfg.Redacted(), "board", id}
	if len(cfg.Sources) > 0 {
		attrs = append(attrs, "credentials", strings.Join(cfg.Sources, "; "))
	}
	if token != "" {
		attrs = append(attrs, "hall_token", tokenPath)
	}
	d.log.Info("club hall", attrs...)
	return nil
}
