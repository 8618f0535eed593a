package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
)

// defaultHallAddr is where `boardd hall` listens unless told otherwise: not
// the console's port, so that a hall and a board may share a machine.
const defaultHallAddr = "127.0.0.1:8090"

// runHall serves the club hall: it follows every board through the broker
// and serves the grid, each board's page and the broadcast PGN.
func runHall(ctx context.Context, env *environment, args []string) int {
	ht := &helpText{
		name:  "hall",
		usage: []string{"hall [flags]"},
		about: "Follows every board of a club night or a tournament through an MQTT broker (Mosquitto) and serves one page: a grid of every board (position, clocks, last move, result; boards waiting for a choice highlighted), each board in the console's page, where the arbiter rules with the hall's token, and the games as PGN for live broadcasts (/broadcast/current.pgn, /broadcast/rounds/ROUND.pgn). The hall's arbiter token is made at the first start and logged once; it stays on the hall's machine. So does the hall's signing key, made at the first start too: the hall signs every action it sends, and each board holds a copy of its public half, hall-verify-key.pem, from the hall's state directory. docs/hall.md has the set-up.",
		groups: []flagGroup{
			{"The broker", []string{"broker", "user"}},
			{"The page", []string{"listen", "tls-cert", "tls-key", "state-dir", "log-level"}},
			{"The broadcast", []string{"event", "site", "round", "pairings"}},
		},
		examples: []string{
			"boardd hall                          # a broker on this machine; open http://127.0.0.1:8090",
			`boardd hall --broker mqtts://broker.club.lan --listen :8090 --tls-cert hall.pem --tls-key hall.key --event "Club Championship" --round 3 --pairings round3.csv`,
		},
		exit: "Exit status: 0 when stopped; 1 when the hall failed; 2 for a bad command line.",
	}
	fs := ht.flags()
	brokerURL := fs.String("broker", "mqtt://127.0.0.1:1883", "the hall's MQTT broker: mqtt://[user@]host:port, mqtts://… for TLS (docs/hall.md)")
	user := fs.String("user", "hall", "the hall's user name at the broker, when the URL has none")
	listen := fs.String("listen", defaultHallAddr, "the hall's web address (HOST:PORT; :8090 for every interface, with --tls-cert and --tls-key)")
	tlsCert := fs.String("tls-cert", "", "serve the hall's page over HTTPS with this certificate (PEM)")
	tlsKey := fs.String("tls-key", "", "the private key of --tls-cert (PEM)")
	dir := fs.String("state-dir", "", "the hall's state directory: its arbiter token, its signing key, its credentials, every game it follows (games/; default $STATE_DIRECTORY, else $XDG_STATE_HOME/boardd-hall, else ~/.local/state/boardd-hall)")
	event := fs.String("event", "", "the broadcast's Event tag, where the boards leave it unknown")
	site := fs.String("site", "", "the broadcast's Site tag")
	round := fs.String("round", "", "the round in play: its games are broadcast at /broadcast/rounds/ROUND.pgn")
	pairings := fs.String("pairings", "", "a CSV file of board,white,black[,round] naming each board's players")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if code, ok := ht.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := ht.noArgs(env, fs); !ok {
		return code
	}
	log, err := newLogger(env.stderr, *logLevel)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd hall: %v\n", err)
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(env.stderr, "boardd hall: %v\n", err)
		return code
	}
	state, err := hallStateDir(*dir, env.getenv)
	if err != nil {
		return fail(2, err)
	}
	if err := os.MkdirAll(state, 0o750); err != nil {
		return fail(1, fmt.Errorf("state directory %s: %w", state, err))
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		return fail(2, fmt.Errorf("--listen %q: want HOST:PORT, e.g. %s", *listen, defaultHallAddr))
	}
	var creds *console.TLS
	if *tlsCert != "" || *tlsKey != "" {
		if creds, err = console.LoadTLS(*tlsCert, *tlsKey); err != nil {
			return fail(2, err)
		}
	}
	cfg, err := broker.Load(broker.Options{URL: *brokerURL, Username: *user, Dirs: []string{env.getenv("CREDENTIALS_DIRECTORY"), state}})
	if err != nil {
		return fail(2, fmt.Errorf("--broker: %w", err))
	}
	var pairs map[string]hall.Pairing
	if *pairings != "" {
		f, err := os.Open(*pairings)
		if err != nil {
			return fail(2, fmt.Errorf("--pairings: %w", err))
		}
		pairs, err = hall.ReadPairings(f, *pairings)
		f.Close()
		if err != nil {
			return fail(2, fmt.Errorf("--pairings: %w", err))
		}
	}
	token, created, err := console.LoadToken(state)
	if err != nil {
		return fail(1, err)
	}
	signer, keyCreated, err := actionsig.LoadOrCreate(state)
	if err != nil {
		return fail(1, err)
	}
	h, err := hall.New(ctx, hall.Options{Broker: cfg, Token: token, Signer: signer, Event: *event, Site: *site, Round: *round, Pairings: pairs, Dir: filepath.Join(state, "games"), Logger: log})
	if err != nil {
		return fail(1, err)
	}
	var hosts []string
	if name, err := os.Hostname(); err == nil && name != "" {
		hosts = append(hosts, name, name+".local")
	}
	srv, err := hall.NewServer(h, hall.ServerOptions{Hosts: hosts, Logger: log})
	if err != nil {
		h.Close()
		return fail(1, err)
	}
	ln, err := console.Listen(*listen, console.ListenOptions{TLS: creds, Logger: log})
	if err != nil {
		srv.Close()
		h.Close()
		return fail(1, err)
	}
	hs := console.HTTPServer(srv)
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	served := make(chan error, 1)
	go func() { served <- ln.Serve(hs) }()
	url := ln.URL()
	log.Info("boardd hall", "url", url, "broker", cfg.Redacted(), "state", state, "boards_paired", len(pairs))
	ln.LogExposure(log)
	tokenPath := filepath.Join(state, console.TokenFile)
	if created {
		log.Info("arbiter token created; it is shown this once and kept in "+tokenPath+"; it stays on this machine: no board needs it",
			"token", token, "arbiter_url", url+"#token="+token)
	} else {
		log.Info("arbiter token kept in " + tokenPath + " (readable by the hall only)")
	}
	keyPath := filepath.Join(state, actionsig.VerifyKeyFile)
	what := "the hall signs its actions; each board needs a copy of its verify key, "
	if keyCreated {
		what = "signing key created; " + what
	}
	log.Info(what+keyPath+", as "+actionsig.VerifyKeyFile+" in its state directory (docs/hall.md)", "fingerprint", actionsig.Fingerprint(signer.Public()))
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	log.Info("stopping")
	srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("hall: shutdown", "err", err)
	}
	h.Close()
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fail(1, serveErr)
	}
	return 0
}

// hallStateDir picks the hall's state directory: the flag, else
// $STATE_DIRECTORY (systemd's StateDirectory=), else
// $XDG_STATE_HOME/boardd-hall, else ~/.local/state/boardd-hall.
func hallStateDir(flagValue string, getenv func(string) string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if v := getenv("STATE_DIRECTORY"); v != "" {
		return stateDir("", getenv)
	}
	if v := getenv("XDG_STATE_HOME"); v != "" {
		return filepath.Join(v, "boardd-hall"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("no state directory: set --state-dir, $STATE_DIRECTORY, $XDG_STATE_HOME or $HOME")
	}
	return filepath.Join(home, ".local", "state", "boardd-hall"), nil
}
