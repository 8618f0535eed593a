package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardd/boardd/console"
)

// startConsole serves the web console and the simulated board on
// d.cfg.Listen (default 127.0.0.1:8080): it loads or makes the arbiter
// token, follows the runner, and logs the URL (and, the first time, the
// token).
func (d *daemon) startConsole() error {
	addr := d.cfg.Listen
	if addr == "" {
		addr = console.DefaultAddr
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return UsageError{fmt.Errorf("--listen %q: want HOST:PORT, e.g. %s", addr, console.DefaultAddr)}
	}
	token, created, err := console.LoadToken(d.stateDir)
	var notSaved *console.TokenNotSavedError
	switch {
	case errors.As(err, &notSaved):
		// A first start on a full disk: the board runs, the game kept in
		// memory by the journal, and the token with it.
		d.log.Error("console: the arbiter token could not be saved: it holds until boardd stops, and is saved as soon as the disk takes it (retried every "+tokenRetry.String()+")",
			"file", notSaved.Path, "err", notSaved.Err)
		d.saveTokenLater(token)
	case err != nil:
		return err
	}
	id := consoleBoardID(d.cfg.BoardID)
	if err := console.ValidBoardID(id); err != nil {
		return UsageError{fmt.Errorf("--board-id: %w", err)}
	}
	simulated := d.simulated()
	lo := console.LocalOptions{ID: id, Simulated: simulated, Tournament: d.opts.Tournament, Layer: d.consoleLayer(), Notices: d.engineNotice.notices}
	d.voiceOptions(&lo)
	if d.engine != nil {
		lo.Opponent = d.engine.console()
	}
	if d.online != nil {
		lo.Opponent = d.online.console()
	}
	if d.paired != nil {
		lo.Opponent = pairedOpponent{console.MatchSource(d.paired, false)}
		lo.Pair = d.pairing.console
	}
	local, err := console.NewLocal(d.runner, lo)
	if err != nil {
		return err
	}
	var hosts []string
	if h, err := os.Hostname(); err == nil && h != "" {
		hosts = append(hosts, h, h+".local")
	}
	srv, err := console.New(console.Options{Boards: []console.Board{local}, Token: token, Hosts: hosts, Logger: d.log})
	if err != nil {
		local.Close()
		return err
	}
	ln, err := console.Listen(addr, console.ListenOptions{TLS: d.tls, Logger: d.log})
	if err != nil {
		srv.Close()
		local.Close()
		return err
	}
	hs := console.HTTPServer(srv)
	hs.ErrorLog = slog.NewLogLogger(d.log.Handler(), slog.LevelWarn)
	go func() {
		if err := ln.Serve(hs); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("console stopped", "err", err)
		}
	}()
	d.onClose(func() error {
		srv.Close()   // ends the event streams
		local.Close() // ends calls waiting on the runner
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := hs.Shutdown(ctx); err != nil {
			return fmt.Errorf("console: shutdown: %w", err)
		}
		return nil
	})
	url := ln.URL()
	// The warnings come before the console's line, which tools (and the
	// tests) wait for as the sign that the console is up.
	ln.LogExposure(d.log)
	if ln.Exposed() && simulated {
		d.log.Warn("the console listens beyond this machine: anyone who reaches it can play on the simulated board", "listen", addr)
	}
	d.log.Info("console", "url", url, "board", id, "simulated", simulated)
	path := filepath.Join(d.stateDir, console.TokenFile)
	switch {
	case notSaved != nil:
		d.log.Info("arbiter token created; it is shown this once, and kept in "+path+" once the disk has room", "token", token, "arbiter_url", url+"#token="+token)
	case created:
		d.log.Info("arbiter token created; it is shown this once and kept in "+path, "token", token, "arbiter_url", url+"#token="+token)
	default:
		d.log.Info("arbiter token kept in " + path + " (readable by boardd only)")
	}
	return nil
}

// voiceOptions gives a console view of the board (the console's, the hall
// uplink's) the board's voice: its words for the page's speech (the say
// events; a silent board gives plain English) and its fault ("voice" while
// the speech program fails).
func (d *daemon) voiceOptions(lo *console.LocalOptions) {
	if d.voice == nil {
		return
	}
	lo.Voice = d.voice.words
	sp := d.voice.speaker
	lo.Faults = func() []string {
		if sp.Fault() != nil {
			return []string{"voice"}
		}
		return nil
	}
}

// tokenRetry is how often an arbiter token that could not be saved is
// written again.
const tokenRetry = 5 * time.Second

// saveTokenLater writes the arbiter token to the state directory every
// tokenRetry until it is saved or boardd stops, and logs when it is.
func (d *daemon) saveTokenLater(token string) {
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(tokenRetry)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				if err := console.SaveToken(d.stateDir, token); err == nil {
					d.log.Info("console: the arbiter token is saved after all", "file", filepath.Join(d.stateDir, console.TokenFile))
					return
				}
			}
		}
	}()
	d.onClose(func() error {
		cancel()
		<-done
		return nil
	})
}

// consoleBoardID is the board's id in the console's URLs: --board-id, else
// the host name, else "board".
func consoleBoardID(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	h, err := os.Hostname()
	if err != nil {
		return "board"
	}
	h = strings.ToLower(h)
	if i := strings.IndexByte(h, '.'); i > 0 {
		h = h[:i]
	}
	if console.ValidBoardID(h) != nil {
		return "board"
	}
	return h
}
