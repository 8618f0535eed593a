package daemon

import (
	"fmt"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
)

// Check reads the configuration as Run does (o.Config, or the default
// file, with the flags over it) and checks everything Run checks before the
// board starts: every key and value, the odds, the console's certificate
// and key, the hall's URL, credentials and verify key. It touches no
// hardware and starts nothing, so that `boardd config check` passes exactly
// the files `boardd run` takes. Its faults are UsageErrors.
func Check(o Options) (*config.Config, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	c, _, err := loadConfig(&o)
	if err != nil {
		return nil, UsageError{err}
	}
	// Without a state directory (no $HOME, say), the hall's credentials
	// are looked for in $CREDENTIALS_DIRECTORY only: where run finds its
	// state directory is run's environment, not the file's fault.
	dir, _ := StateDir(c.StateDir, o.Getenv)
	if _, err := game.StartPosition(game.Options{Laws: c.Laws, Odds: o.Odds}); err != nil {
		return nil, UsageError{fmt.Errorf("--odds: %w", err)}
	}
	if _, err := checkBeyondFile(c, dir, o.Getenv); err != nil {
		return nil, err
	}
	if _, err := checkEngine(c); err != nil {
		return nil, err
	}
	if _, err := lichessPlayOf(&o, c); err != nil {
		return nil, UsageError{err}
	}
	return c, nil
}

// beyondFile is what the configuration names outside its own file, read
// and checked before the board starts.
type beyondFile struct {
	tls  *console.TLS // the console's certificate, or nil for plain HTTP
	hall *hallSetup   // the hall's settings, or nil for no hall
}

// checkBeyondFile reads the files the configuration names: the console's
// certificate and key, the hall's credentials and verify key. A fault is a
// UsageError, found before anything starts or is logged.
func checkBeyondFile(c *config.Config, stateDir string, getenv func(string) string) (beyondFile, error) {
	var b beyondFile
	if c.TLSCert != "" || c.TLSKey != "" {
		t, err := console.LoadTLS(c.TLSCert, c.TLSKey)
		if err != nil {
			return b, UsageError{err}
		}
		b.tls = t
	}
	h, err := loadHall(c, stateDir, getenv)
	if err != nil {
		return b, UsageError{err}
	}
	b.hall = h
	return b, nil
}
