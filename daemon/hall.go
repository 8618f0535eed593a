package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/uplink"
	"github.com/boardd/boardd/hall/wire"
)

// The --hall URL's query parameters the board reads itself.
const (
	// paramVerifyKey names the hall's verify key file (default:
	// hall-verify-key.pem in $CREDENTIALS_DIRECTORY or the state
	// directory).
	paramVerifyKey = "verify-key"
	// paramTokenFile named the hall's arbiter token, which boards held
	// before the hall signed its actions: refused, saying what replaces it.
	paramTokenFile = "token-file"
)

// legacyTokenFile is where boards kept the hall's arbiter token before the
// hall signed its actions. A board that still has one is warned about: the
// file lets whoever reads the card act as the arbiter on the hall's page.
const legacyTokenFile = "hall-token"

// hallSetup is the hall's settings for this board, read and checked before
// the board starts.
type hallSetup struct {
	board    string
	broker   *broker.Config
	verifier *actionsig.Verifier // nil: the board refuses every action
	keyPath  string
	legacy   []string // hall-token files still on the board
}

// loadHall reads what the board needs to join the hall named by c.Hall
// (nil when none): the broker's URL and credentials, and the hall's verify
// key. Its faults are the configuration's.
func loadHall(c *config.Config, stateDir string, getenv func(string) string) (*hallSetup, error) {
	if c.Hall == "" {
		return nil, nil
	}
	id := consoleBoardID(c.BoardID)
	if err := wire.CheckBoard(id); err != nil {
		return nil, fmt.Errorf("--board-id: %w", err)
	}
	dirs := []string{getenv("CREDENTIALS_DIRECTORY"), stateDir}
	cfg, err := broker.Load(broker.Options{URL: c.Hall, Username: id, Dirs: dirs, Extra: []string{paramVerifyKey, paramTokenFile}})
	if err != nil {
		return nil, fmt.Errorf("--hall: %w", err)
	}
	if cfg.Query.Has(paramTokenFile) {
		return nil, fmt.Errorf("--hall: %s= is no longer used: the hall signs its actions, and a board holds the hall's %s instead of its arbiter token (name it with %s=FILE, or put it in the state directory; docs/hall.md)", paramTokenFile, actionsig.VerifyKeyFile, paramVerifyKey)
	}
	s := &hallSetup{board: id, broker: cfg}
	if p := cfg.Query.Get(paramVerifyKey); p != "" {
		s.keyPath = p
		s.verifier, err = actionsig.LoadVerifier(p)
	} else {
		s.verifier, s.keyPath, err = actionsig.FindVerifier(dirs...)
	}
	if err != nil {
		return nil, fmt.Errorf("--hall: %w", err)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, legacyTokenFile)
		if _, err := os.Stat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
			s.legacy = append(s.legacy, p)
		}
	}
	return s, nil
}

// startHall connects the board to the club hall's broker when --hall (or
// the configuration's hall) names one: the uplink publishes the game from
// the journal, the board's state and health, and carries out the hall's
// arbiter actions signed by the hall for this board. The board's id
// (--board-id, else the host name) is its user name at the broker; its
// password, certificate and the hall's verify key are files in
// $CREDENTIALS_DIRECTORY or the state directory, or named in the URL
// (docs/hall.md).
func (d *daemon) startHall() error {
	s := d.hall
	if s == nil {
		return nil
	}
	for _, p := range s.legacy {
		d.log.Warn("hall: "+p+" holds the hall's arbiter token, which boards no longer use (the hall signs its actions): delete it, and give the hall a new arbiter token (delete its arbiter-token and restart it), since whoever read this card could act as the arbiter on the hall's page", "file", p)
	}
	j := d.gameJournal()
	if j == nil {
		return errors.New("hall: the journal is not open: the board cannot publish its game")
	}
	simulated := d.simulated()
	// The hall's page of the board shows the voice's fault and speaks the
	// board's lines, as the board's own console does.
	lo := console.LocalOptions{ID: s.board, Simulated: simulated, Tournament: d.opts.Tournament}
	d.voiceOptions(&lo)
	local, err := console.NewLocal(d.runner, lo)
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
		Board: s.board, Broker: s.broker, Journal: j, Runner: d.runner, Console: local, StateDir: d.stateDir,
		Verifier: s.verifier, Sensor: sensor, LED: leds, Logger: d.log,
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
	attrs := []any{"broker", s.broker.Redacted(), "board", s.board}
	if len(s.broker.Sources) > 0 {
		attrs = append(attrs, "credentials", strings.Join(s.broker.Sources, "; "))
	}
	if s.verifier != nil {
		attrs = append(attrs, "hall_verify_key", s.keyPath, "hall_key_fingerprint", s.verifier.Fingerprint())
	}
	d.log.Info("club hall", attrs...)
	return nil
}
