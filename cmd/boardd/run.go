package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/daemon"
)

// runDaemon is `boardd run`: its flags, then the daemon until ctx ends.
func runDaemon(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "run",
		usage: []string{"run [flags]"},
		about: "Runs one board: it reads the configuration (the flags over it), restores the game in progress from the journal in the state directory or begins one, and serves the console, where the arbiter rules and, on a simulated board, the page is the board. It runs until interrupted (Ctrl-C, SIGTERM); the journal keeps the game across restarts and power cuts.\n\n" +
			"With no configuration file and no --sensor, the board is simulated: open the console's address in a browser and play by clicking. The arbiter token is made at the first start and shown once in the log as a link.",
		groups: []flagGroup{
			{"The game", []string{"laws", "time-control", "tournament", "warn-only", "odds", "new-game"}},
			{"The board", []string{"config", "sensor", "led", "input"}},
			{"The console and the hall", []string{"listen", "tls-cert", "tls-key", "hall", "board-id"}},
			{"Chess apps", []string{"emulate"}},
			{"The voice", []string{"voice", "voice-convention", "visually-impaired"}},
			{"Two boards, one game", []string{"pair", "pair-side"}},
			{"State and logs", []string{"state-dir", "archive-cap", "log-level", "trust-clock"}},
			{"Playing the computer", []string{"engine", "engine-side", "engine-elo", "engine-skill", "engine-limit", "engine-book", "engine-clock"}},
			{"Playing online (lichess)", []string{"lichess", "lichess-seek", "lichess-rated", "lichess-color", "lichess-accept"}},
		},
		examples: []string{
			"boardd run                          # a simulated board: open http://127.0.0.1:8080",
			"boardd run --laws sarratt1808       # under Sarratt's laws of 1808",
			"boardd run --laws nycc --new-game   # archive the saved game and begin one under the NYCC code",
			"boardd run --time-control 300+2     # five minutes and two seconds a move",
			"boardd run --warn-only              # learn the rules: irregularities explained, no penalty exacted",
			"boardd run --sensor serial:/dev/ttyACM0 --led serial:/dev/ttyACM0",
			"boardd run --listen 0.0.0.0:8443 --tls-cert /etc/boardd/console.pem --tls-key /etc/boardd/console.key   # the console for the club's network, over HTTPS",
			"boardd run --hall mqtts://broker.club.lan --board-id board-01",
			"boardd run --engine /usr/games/stockfish --engine-elo 1500   # play Stockfish (Black) on the simulated board",
			"boardd run --lichess --lichess-seek 15+10 --lichess-rated   # seek a rated 15+10 game on lichess and play it on the board",
			"boardd run --lichess --lichess-accept alice,bob   # play the challenges of alice and bob on lichess",
			"boardd run --emulate chesslink:/dev/ttyGS0   # chess apps drive the board as a Millennium ChessLink board",
			"boardd run --voice de --voice-convention appendix-d   # moves read aloud by espeak-ng, by FIDE's Appendix D",
			"boardd run --voice en --visually-impaired white   # White's player is blind: his board read by FIDE's Appendix D.2.2 and D.2.3",
		},
		exit: "Exit status: 0 when stopped; 1 when the board failed; 2 for a bad command line or configuration (every fault on stderr).",
	}
	fs := h.flags()
	o := daemon.Options{Stdin: env.stdin, Stderr: env.stderr, Getenv: env.getenv}
	fs.StringVar(&o.Config, "config", "", "configuration file (default /etc/boardd/boardd.toml if it exists; none: a simulated board)")
	fs.StringVar(&o.Laws, "laws", "", "law-set id: "+lawIDs()+" (default from the config, else fide2023)")
	fs.StringVar(&o.StateDir, "state-dir", "", "state directory (default $STATE_DIRECTORY, else $XDG_STATE_HOME/boardd, else ~/.local/state/boardd)")
	fs.StringVar(&o.Listen, "listen", "", "console address (default 127.0.0.1:8080; 0.0.0.0:8443 for the club's network, with --tls-cert and --tls-key)")
	fs.StringVar(&o.TLSCert, "tls-cert", "", "serve the console over HTTPS with this certificate (PEM; default from the config, else plain HTTP)")
	fs.StringVar(&o.TLSKey, "tls-key", "", "the private key of --tls-cert (PEM)")
	fs.StringVar(&o.Sensor, "sensor", "", "sensor driver: sim, none, serial:SPEC, hc165, mcp23017, matrix, mcp3008 or mcp3208 (default from the config, else sim)")
	fs.StringVar(&o.LED, "led", "", "LED driver: none, sim, serial:SPEC, ws2812, sk6812, apa102, max7219 or ht16k33 (default from the config, else none)")
	fs.StringVar(&o.Hall, "hall", "", "club hall broker: mqtts://host for TLS (port 8883 unless given), or mqtt://host (1883) (default: no hall)")
	fs.StringVar(&o.BoardID, "board-id", "", "this board's id in the hall (default the host name)")
	fs.StringVar(&o.TimeControl, "time-control", "", "time control: "+clock.Syntax+" (default: no clock)")
	fs.BoolVar(&o.Tournament, "tournament", false, "tournament mode: the arbiter exacts every penalty, nobody may waive one")
	fs.BoolVar(&o.WarnOnly, "warn-only", false, "warn-only, for casual games: each irregularity is shown and explained with its law, no penalty exacted (an illegal move is still set back); never with --tournament")
	fs.StringVar(&o.Odds, "odds", "", "a game at odds: the men given (squares, or pawn, knight, rook, queen, pawn-and-move), comma-separated; add 'move' to give the move too")
	fs.BoolVar(&o.NewGame, "new-game", false, "archive the saved game in progress, unfinished, and begin a new game under the rules asked for (without it a saved game goes on under its own rules, and is refused if --laws, --time-control, --odds or --tournament ask for others)")
	fs.BoolVar(&o.TrustClock, "trust-clock", false, "date games by the wall clock even when no NTP daemon says it is synchronised (a PC, a VM or a container whose clock is set; also BOARDD_TRUST_CLOCK=1); by default a game is dated ????.??.?? until NTP, systemd-timesyncd or a hardware clock has set the clock")
	fs.StringVar(&o.LogLevel, "log-level", "", "log level: debug, info, warn or error (default from the config, else info)")
	fs.StringVar(&o.Input, "input", "", "play trace lines into the board from FILE, a FIFO, or - for standard input (a rig, a demonstration)")
	fs.StringVar(&o.ArchiveCap, "archive-cap", "", "disk space for finished games, e.g. 64MiB (default 64MiB)")
	fs.StringVar(&o.Engine, "engine", "", "a UCI chess engine plays one side, e.g. /usr/games/stockfish (default from the config, else none)")
	fs.StringVar(&o.EngineSide, "engine-side", "", "the side the engine plays: white, black or random, drawn at each new game (default black)")
	fs.StringVar(&o.EngineElo, "engine-elo", "", "the engine plays at this Elo (UCI_Elo), e.g. 1500 (default: Elo 1500, or Skill Level 5 where it has no UCI_Elo)")
	fs.StringVar(&o.EngineSkill, "engine-skill", "", "the engine plays at this Skill Level, 0 to 20 in Stockfish (instead of --engine-elo)")
	fs.StringVar(&o.EngineLimit, "engine-limit", "", "the engine's limit a move: movetime:2s, depth:8 or nodes:20000, joined by commas (default 1s a move; with a time control it plays on the clocks)")
	fs.StringVar(&o.EngineBook, "engine-book", "", "an opening book in Polyglot format for the engine (default none)")
	fs.StringVar(&o.EngineClock, "engine-clock", "", "the engine's clock runs until its move is carried out on the board (carried) or until it is shown (shown) (default carried)")
	fs.BoolVar(&o.Lichess, "lichess", false, "play on lichess: the account's game in progress, else a --lichess-seek or a challenge; the token is read from $CREDENTIALS_DIRECTORY/lichess-token or lichess-token in the state directory, never from a flag (docs/online.md)")
	fs.StringVar(&o.LichessSeek, "lichess-seek", "", "seek a game on lichess with this clock: MINUTES+SECONDS, e.g. 15+10 (rapid or classical; default from the config's [lichess] seek, else none)")
	fs.BoolVar(&o.LichessRated, "lichess-rated", false, "the seek is for a rated game (default from the config, else casual)")
	fs.StringVar(&o.LichessColor, "lichess-color", "", "the side the seek asks for: white, black or random (default from the config, else random)")
	fs.StringVar(&o.LichessAccept, "lichess-accept", "", "accept the challenges of these lichess players (comma-separated, or anyone) (default from the config, else none: games started elsewhere are played)")
	fs.StringVar(&o.Emulate, "emulate", "", "answer chess apps as a Millennium ChessLink board on a serial port: chesslink:PATH, e.g. chesslink:/dev/ttyGS0 (a USB gadget port; a relative PATH is taken from the directory boardd is started in; docs/chesslink.md; default from the config, else none)")
	fs.StringVar(&o.Voice, "voice", "", "read moves, rulings and clocks aloud through espeak-ng: en, de or off (default from the config's [voice] language, else off; docs/voice.md)")
	fs.StringVar(&o.VoiceConvention, "voice-convention", "", "how a move is said: plain (\"knight from g1 to f3\") or appendix-d (FIDE's Appendix D.2.1: \"Springer Gustav eins Felix drei\") (default from the config, else plain)")
	fs.StringVar(&o.VisuallyImpaired, "visually-impaired", "", "white or black: the side whose player at this board is visually impaired; his lifts are touches and his moves made once announced, by FIDE's Appendix D (fide2023:D.2.2, D.2.3; --laws fide2023 only; default from the config's visually_impaired, else neither)")
	fs.StringVar(&o.Pair, "pair", "", "play one game on two boards (FIDE's Appendix D play): hall:BOARD pairs with that board through the hall's broker (with --hall), listen:ADDR waits for the other board on a direct link (e.g. listen:0.0.0.0:7070), connect:ADDR connects to it (docs/voice.md)")
	fs.StringVar(&o.PairSide, "pair-side", "", "with --pair, the side played at this board: white or black (the other board plays the other)")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	if err := daemon.Run(ctx, o); err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		var ue daemon.UsageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

// usageError is a fault in a command's arguments or configuration: exit
// status 2.
type usageError struct{ error }

// stateDir picks the state directory as boardd run does.
func stateDir(flagValue string, getenv func(string) string) (string, error) {
	return daemon.StateDir(flagValue, getenv)
}
