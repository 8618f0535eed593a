package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/trace"
)

// engineFlags lays the engine's flags over the configuration's [engine]
// section; a flag's fault is named by the flag. An Elo given by flag drops
// the file's Skill Level, and the other way round.
func engineFlags(o *Options, c *config.Config, byFlag map[string]string) error {
	e := &c.Engine
	set := func(flagName, key, v string, dst *string) {
		if v != "" {
			*dst = v
			byFlag[key] = flagName
		}
	}
	set("--engine", "engine.path", o.Engine, &e.Path)
	set("--engine-side", "engine.side", o.EngineSide, &e.Side)
	set("--engine-limit", "engine.limit", o.EngineLimit, &e.Limit)
	set("--engine-book", "engine.book", absPath(o.EngineBook), &e.Book)
	set("--engine-clock", "engine.clock", o.EngineClock, &e.Clock)
	number := func(flagName, v string, lo, hi int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s %q: want a whole number from %d to %d", flagName, v, lo, hi)
		}
		return n, nil
	}
	if o.EngineElo != "" {
		n, err := number("--engine-elo", o.EngineElo, 1, 4000)
		if err != nil {
			return err
		}
		e.Elo, e.Skill = n, -1
		byFlag["engine.elo"] = "--engine-elo"
	}
	if o.EngineSkill != "" {
		n, err := number("--engine-skill", o.EngineSkill, 0, 100)
		if err != nil {
			return err
		}
		if o.EngineElo != "" {
			return errors.New("--engine-elo and --engine-skill: give one of them, not both")
		}
		e.Skill, e.Elo = n, 0
		byFlag["engine.skill"] = "--engine-skill"
	}
	return nil
}

// engineFlagsNeedAnEngine refuses an engine's level, side or limit given by
// flag when no engine is named (by flag or file): a mistake to say, not to
// ignore. It runs once the values themselves have been checked.
func engineFlagsNeedAnEngine(o *Options, c *config.Config) error {
	if c.Engine.Path != "" {
		return nil
	}
	for _, f := range []struct{ name, v string }{
		{"--engine-side", o.EngineSide}, {"--engine-elo", o.EngineElo}, {"--engine-skill", o.EngineSkill},
		{"--engine-limit", o.EngineLimit}, {"--engine-book", o.EngineBook}, {"--engine-clock", o.EngineClock},
	} {
		if f.v != "" {
			return fmt.Errorf("%s %q: no engine to apply it to: give --engine PATH (or path in the configuration's [engine] section)", f.name, f.v)
		}
	}
	return nil
}

// checkEngine reads what the [engine] section names beyond the file: the
// engine's executable, its level and its opening book. Each fault is a
// UsageError, found before anything starts; a part whose keys faulted
// reports (nil for none) is not checked again.
func checkEngine(c *config.Config, faulted func(keys ...string) bool) (*computer.Book, []error) {
	if faulted == nil {
		faulted = func(...string) bool { return false }
	}
	e := c.Engine
	if e.Path == "" {
		return nil, nil
	}
	var errs []error
	if _, err := exec.LookPath(e.Path); err != nil {
		errs = append(errs, UsageError{fmt.Errorf("engine.path %q: no engine there (install one, e.g. apt install stockfish, and give its path, /usr/games/stockfish): %w", e.Path, err)})
	}
	if !faulted("engine.elo", "engine.skill", "engine.limit") {
		if _, err := computer.ParseLevel(e.Level()); err != nil {
			errs = append(errs, UsageError{fmt.Errorf("engine level: %w", err)})
		}
	}
	if e.Book == "" || faulted("engine.book") {
		return nil, errs
	}
	book, err := computer.OpenBook(e.Book)
	if err != nil {
		errs = append(errs, UsageError{fmt.Errorf("engine.book: %w", err)})
	}
	return book, errs
}

// probeEngineTimeout bounds how long Check waits for the engine to start
// and answer.
const probeEngineTimeout = 15 * time.Second

// probeEngine starts the configured engine as run would, lets it answer
// "uci" and "isready" and the level's options, and stops it.
func probeEngine(c *config.Config, book *computer.Book) error {
	ctx, cancel := context.WithTimeout(context.Background(), probeEngineTimeout)
	defer cancel()
	level, _ := computer.ParseLevel(c.Engine.Level())
	p, err := computer.Start(ctx, computer.Options{Path: c.Engine.Path, Level: level, Book: book, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return UsageError{fmt.Errorf("engine.path %q: %w", c.Engine.Path, err)}
	}
	return p.Close()
}

// engine is the computer opponent of the running board: the engine, the
// match that plays it against the player at the board, and the buttons and
// console commands that reach it.
type engine struct {
	d        *daemon
	player   *computer.Player
	match    *opponent.Match
	evaluate bool
}

// startEngine starts the engine the configuration names and the match
// that plays it. Without one, a game in progress whose journal has a side
// played from off the board gives that side back to the board.
func (d *daemon) startEngine() error {
	e := d.cfg.Engine
	if e.Path == "" {
		if with, _ := d.pairSettings(); d.o.Lichess || with != "" {
			return nil // the side played from off the board is lichess's (online.go) or the paired board's (pair.go)
		}
		return d.noEngine()
	}
	book, errs := checkEngine(d.cfg, nil)
	if len(errs) > 0 {
		return UsageError{errors.Join(errs...)}
	}
	level, _ := computer.ParseLevel(e.Level())
	player, err := computer.Start(d.ctx, computer.Options{
		Path: e.Path, Level: level, Book: book,
		Hint:   computer.Limit{MoveTime: e.HintTime},
		Logger: d.log,
	})
	if err != nil {
		// An executable that does not speak UCI is a wrong path, said
		// before anything starts, as a missing one is.
		return UsageError{fmt.Errorf("engine: %w", err)}
	}
	side, _ := opponent.ParseSide(e.Side)
	eng := &engine{d: d, player: player, evaluate: e.Evaluate}
	o := opponent.Options{
		Runner: d.runner, Player: opponent.NewEngine(player), Side: side,
		TimeControl: d.opts.TimeControl, ClockShown: e.Clock == config.EngineClockShown,
		SetTag: eng.setTag, Logger: d.log,
		Players: [2]string{board.White: d.cfg.White, board.Black: d.cfg.Black},
	}
	if e.Evaluate {
		o.Annotate = eng.annotate
		o.Evaluate = true
	}
	m, err := opponent.New(o)
	if err != nil {
		player.Close()
		return err
	}
	eng.match = m
	d.engine = eng
	ctx, cancel := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = m.Run(ctx)
	}()
	d.onClose(func() error {
		cancel()
		<-done
		return player.Close()
	})
	d.log.Info("engine", "name", player.Name(), "level", player.Level(), "side", e.Side, "clock", e.Clock, "book", e.Book)
	return nil
}

// noEngine gives the board back both sides of a game in progress that an
// engine played before boardd restarted without one.
func (d *daemon) noEngine() error {
	s := d.game.Snapshot()
	if !s.Remote[board.White] && !s.Remote[board.Black] {
		return nil
	}
	var sides []string
	tags := d.game.Record().Tags
	for _, c := range []board.Color{board.White, board.Black} {
		if s.Remote[c] {
			name := c.String()
			sides = append(sides, name+" ("+tags[tagName(c)]+")")
		}
	}
	d.log.Warn("the game in progress was played against an engine, and no engine is configured for this run: its side is played at the board from now on (give --engine PATH to go on against it, or --new-game to begin a new game)",
		"game", d.journal.header.Game, "engine_played", strings.Join(sides, ", "), "moves", s.Moves)
	// The page says so too, for as long as this game goes on.
	d.engineNotice.set(fmt.Sprintf("This game was played against an engine (%s), and no engine runs now: its side is played at the board (restart boardd with --engine to go on against it, or with --new-game).", strings.Join(sides, ", ")), s.Moves)
	d.runner.OnChange(d.engineNotice.follow)
	// The runner's loop has not started: this goroutine may touch the
	// game, through the journal as every input.
	l := trace.Line{T: d.game.Now(), Kind: trace.Remote, Side: trace.SideNone}
	d.journal.rec.Input(l)
	return d.game.Input(l)
}

// gameNotice is a notice the console shows for the game in progress only:
// it is dropped, for good, once that game ends or another begins.
type gameNotice struct {
	mu    sync.Mutex
	text  string
	moves int // the moves of the game when the notice was set
}

func (n *gameNotice) set(text string, moves int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.text, n.moves = text, moves
}

// follow drops the notice once its game has ended or another has begun
// (fewer moves than when it was set): a runner's change hook.
func (n *gameNotice) follow(s *game.Snapshot) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.text != "" && (s.Result != nil || s.Moves < n.moves) {
		n.text = ""
	}
}

// notices is the notice as the console's page shows it.
func (n *gameNotice) notices() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.text == "" {
		return nil
	}
	return []string{n.text}
}

// tagName is the PGN tag that names the player of side c.
func tagName(c board.Color) string {
	if c == board.White {
		return "White"
	}
	return "Black"
}

// setTag sets a PGN tag, journalled.
func (e *engine) setTag(ctx context.Context, name, value string) error {
	var err error
	if derr := e.d.runner.Do(ctx, func(_ *game.Game, now time.Duration) { err = e.d.journal.rec.SetTag(now, name, value) }); derr != nil {
		return derr
	}
	return err
}

// annotate notes the engine's evaluation at its move, journalled.
func (e *engine) annotate(ctx context.Context, ply int, san, comment string) error {
	var err error
	if derr := e.d.runner.Do(ctx, func(g *game.Game, now time.Duration) {
		if err = opponent.Annotated(g, ply, san); err == nil {
			err = e.d.journal.rec.Comment(now, ply, comment)
		}
	}); derr != nil {
		return derr
	}
	return err
}

// press takes a button press: the buttons of the engine's side (nobody
// sits there) are the player's commands: j'adoube takes back, claim asks
// for a hint, check offers a draw. It reports whether the press was one.
func (e *engine) press(ctx context.Context, l trace.Line) bool {
	side := e.match.State().Side
	if l.Kind != trace.Press || l.Side != side.String() {
		return false
	}
	var command string
	switch l.Button {
	case trace.ButtonJadoube:
		command = opponent.CommandTakeBack
	case trace.ButtonClaim:
		command = opponent.CommandHint
	case trace.ButtonCheck:
		command = opponent.CommandDraw
	default:
		e.d.log.Info("the engine's side's button does nothing", "button", l.Button, "side", l.Side)
		return true
	}
	if err := e.match.Do(ctx, command, ""); err != nil {
		e.d.log.Warn("engine command by button not carried out", "button", l.Button, "command", command, "err", err)
	}
	return true
}

// console is the engine as the console's board shows it and commands it.
func (e *engine) console() console.OpponentSource { return console.MatchSource(e.match, e.evaluate) }
