package daemon

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
)

// Check reads the configuration as Run does (o.Config, or the default
// file, with the flags over it) and checks everything Run checks before the
// board starts: every key and value, the odds, the console's certificate
// and key, the hall's URL, credentials and verify key, the engine. It
// touches no hardware and starts nothing but the engine, for as long as it
// takes to answer "uci" and "isready" (an executable that is no UCI engine
// is refused by run too), so that `boardd config check` passes exactly the
// files `boardd run` takes.
//
// It finds every fault at once: a fault in a key does not stop the checks
// that follow, only those that read that key (a certificate is not read
// when tls_cert itself will not do). Its error is a UsageError holding
// CheckFaults, one for each fault, naming the file.
func Check(o Options) (*config.Config, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	c, path, err := loadConfig(&o)
	if c == nil {
		return nil, UsageError{err}
	}
	f := &CheckFaults{Path: path}
	if err != nil {
		var fe *config.FileError
		if errors.As(err, &fe) {
			f.Path = fe.Path
		}
		var es config.Errors
		errors.As(err, &es)
		for _, e := range es {
			f.Faults = append(f.Faults, e)
		}
	}
	faulted := f.faulted
	// Without a state directory (no $HOME, say), the hall's credentials
	// are looked for in $CREDENTIALS_DIRECTORY only: where run finds its
	// state directory is run's environment, not the file's fault.
	dir, _ := StateDir(c.StateDir, o.Getenv)
	if !faulted("laws") {
		if _, err := game.StartPosition(game.Options{Laws: c.Laws, Odds: o.Odds}); err != nil {
			f.Faults = append(f.Faults, fmt.Errorf("--odds: %w", err))
		}
	}
	_, errs := checkBeyondFile(c, dir, o.Getenv, faulted)
	f.Faults = append(f.Faults, errs...)
	book, errs := checkEngine(c, faulted)
	f.Faults = append(f.Faults, errs...)
	if len(errs) == 0 && c.Engine.Path != "" && !faulted("engine.path", "engine.elo", "engine.skill", "engine.limit") {
		if err := probeEngine(c, book); err != nil {
			f.Faults = append(f.Faults, err)
		}
	}
	if !faulted("lichess.seek") {
		if _, err := lichessPlayOf(&o, c); err != nil {
			f.Faults = append(f.Faults, err)
		}
	}
	if len(f.Faults) > 0 {
		return nil, UsageError{f}
	}
	return c, nil
}

// CheckFaults is every fault Check found in a configuration: those in its
// keys (*config.Error) and those in what it names beyond its file.
type CheckFaults struct {
	Path   string  // the file, as "FILE" or "FILE with the flags"; "" for none
	Faults []error // in the order found: the keys first, in the file's order
}

// Error returns the faults, one a line, after the file they are in.
func (f *CheckFaults) Error() string {
	lines := make([]string, len(f.Faults))
	for i, e := range f.Faults {
		lines[i] = e.Error()
	}
	msg := strings.Join(lines, "\n")
	if len(f.Faults) > 1 {
		msg = fmt.Sprintf("%d faults:\n%s", len(f.Faults), msg)
	}
	if f.Path == "" {
		return msg
	}
	return f.Path + ": " + msg
}

// Unwrap returns the faults.
func (f *CheckFaults) Unwrap() []error { return f.Faults }

// faulted reports whether a fault in the keys names one of keys, or a key
// inside it ("engine" covers engine.path), or the flag that set it.
func (f *CheckFaults) faulted(keys ...string) bool {
	for _, err := range f.Faults {
		var e *config.Error
		if !errors.As(err, &e) {
			continue
		}
		key := e.Key
		if i := strings.LastIndex(key, " ("); i >= 0 && strings.HasSuffix(key, ")") {
			key = key[i+2 : len(key)-1] // "--laws (laws)", named by its flag
		}
		for _, k := range keys {
			if key == k || strings.HasPrefix(key, k+".") || strings.HasPrefix(key, k+"[") {
				return true
			}
		}
	}
	return false
}

// beyondFile is what the configuration names outside its own file, read
// and checked before the board starts.
type beyondFile struct {
	tls  *console.TLS // the console's certificate, or nil for plain HTTP
	hall *hallSetup   // the hall's settings, or nil for no hall
}

// checkBeyondFile reads the files the configuration names: the console's
// certificate and key, the hall's credentials and verify key. Each fault is
// a UsageError, found before anything starts or is logged; a part whose
// keys faulted reports (nil for none: Run's configuration has none) is not
// read.
func checkBeyondFile(c *config.Config, stateDir string, getenv func(string) string, faulted func(keys ...string) bool) (beyondFile, []error) {
	if faulted == nil {
		faulted = func(...string) bool { return false }
	}
	var b beyondFile
	var errs []error
	if (c.TLSCert != "" || c.TLSKey != "") && !faulted("tls_cert", "tls_key") {
		t, err := console.LoadTLS(c.TLSCert, c.TLSKey)
		if err != nil {
			errs = append(errs, UsageError{err})
		}
		b.tls = t
	}
	if !faulted("hall", "board_id", "state_dir") {
		h, err := loadHall(c, stateDir, getenv)
		if err != nil {
			errs = append(errs, UsageError{err})
		}
		b.hall = h
	}
	return b, errs
}
