package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/sdnotify"
)

// notifyReady tells systemd the daemon is ready, pings its watchdog while
// the runner's loop answers, reloads on SIGHUP, and starts the input given
// by Options.Input or $BOARDD_INPUT. Stopping tells systemd first.
func (d *daemon) notifyReady() {
	n := sdnotify.New(d.o.Getenv)
	ctx, cancel := context.WithCancel(d.ctx)
	var wg sync.WaitGroup
	if err := n.Ready(d.status()); err != nil {
		d.log.Warn("systemd", "err", err)
	}
	if interval, ok := sdnotify.WatchdogInterval(d.o.Getenv, os.Getpid()); ok {
		ticker := time.NewTicker(interval / 2)
		alive := func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, interval/2)
			defer cancel()
			return d.runner.Do(ctx, func(*game.Game, time.Duration) {})
		}
		wg.Go(func() {
			defer ticker.Stop()
			n.KeepAlive(ctx, ticker.C, alive, func(err error) { d.log.Warn("systemd watchdog", "err", err) })
		})
		d.log.Debug("systemd watchdog", "timeout", interval)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				d.reload(n)
			}
		}
	})
	path := d.o.Input
	if path == "" {
		path = d.o.Getenv(envInput)
	}
	if path != "" {
		go d.feedInput(ctx, path) // not waited for: it may be blocked opening a FIFO
	}
	d.onClose(func() error {
		err := n.Stopping()
		signal.Stop(hup)
		cancel()
		wg.Wait()
		return errors.Join(err, n.Close())
	})
}

// status is the service's status line for systemd.
func (d *daemon) status() string {
	h := d.journal.rec.Header()
	return fmt.Sprintf("game %d (%s), state %s", h.Game, h.Laws, d.stateDir)
}

// reload applies what can change safely while a game is in progress: the
// log level, from the configuration file's log_level (which a SIGHUP puts
// in force over --log-level). Everything else applies from the next start.
func (d *daemon) reload(n *sdnotify.Notifier) {
	if err := n.Reloading(); err != nil {
		d.log.Warn("systemd", "err", err)
	}
	path, level, err := configLogLevel(d.o.Config)
	switch {
	case err != nil:
		d.log.Error("reload: configuration not read; nothing changed", "config", path, "err", err)
	case level == "":
		d.log.Info("reload: no log_level in the configuration; nothing changed", "config", path)
	default:
		if lerr := d.level.UnmarshalText([]byte(level)); lerr != nil {
			d.log.Error("reload: log level not changed", "config", path, "log_level", level, "err", "want debug, info, warn or error")
		} else {
			d.log.Info("reloaded", "config", path, "log_level", d.level.Level().String())
		}
	}
	if err := n.Ready(d.status()); err != nil {
		d.log.Warn("systemd", "err", err)
	}
}

// configLogLevel reads log_level from the configuration file (the flag's,
// or the default file if it exists). It returns "" when there is none.
func configLogLevel(flagValue string) (path, level string, err error) {
	path = flagValue
	if path == "" {
		path = config.DefaultPath
	}
	c, err := config.Load(path)
	if err != nil {
		if flagValue == "" && errors.Is(err, fs.ErrNotExist) {
			return "", "", nil
		}
		return path, "", err
	}
	return path, c.LogLevel, nil
}
