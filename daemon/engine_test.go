package daemon

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

const stockfishPath = "/usr/games/stockfish"

func stockfish(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Skipf("Stockfish is not installed (apt-get install stockfish): %v", err)
	}
	return stockfishPath
}

// The engine's flags lay over the [engine] section; an Elo by flag drops
// the file's Skill Level; faults are named by the flag or key.
func TestEngineFlagsOverTheFile(t *testing.T) {
	path := writeFile(t, "boardd.toml", `[engine]
path = "/usr/games/stockfish"
side = "white"
skill = 4
limit = "depth:6"
`)
	d, _ := testDaemon(t, Options{Config: path, EngineElo: "1800", EngineSide: "random", EngineClock: "shown"})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	e := d.cfg.Engine
	if e.Path != "/usr/games/stockfish" || e.Side != "random" || e.Elo != 1800 || e.Skill != -1 || e.Clock != "shown" || e.Level() != "elo:1800,depth:6" {
		t.Errorf("engine %+v, level %q", e, e.Level())
	}
	if d.opts.Remote != [2]bool{} {
		t.Errorf("a random side is in the new game's header: %v", d.opts.Remote)
	}
	d, _ = testDaemon(t, Options{Config: path})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	if d.opts.Remote != [2]bool{true, false} {
		t.Errorf("the engine's side is not in the new game's header: %v", d.opts.Remote)
	}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{EngineElo: "strong"}, `--engine-elo "strong": want a whole number from 1 to 4000`},
		{Options{EngineElo: "1500", EngineSkill: "3"}, "--engine-elo and --engine-skill"},
		{Options{EngineSide: "both"}, `--engine-side (engine.side) = "both": expected white, black or random`},
		{Options{EngineLimit: "fast"}, `--engine-limit (engine.limit) = "fast"`},
		{Options{EngineClock: "late"}, `--engine-clock (engine.clock) = "late"`},
	} {
		d, _ := testDaemon(t, tc.o)
		err := d.configure()
		var ue UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a usage error saying %q", tc.o, err, tc.want)
		}
	}
}

// An engine that is not there, or a book that is no book, stops the start
// (and config check) with the reason: a usage error.
func TestMissingEngineIsRefused(t *testing.T) {
	notBook := writeFile(t, "book.bin", "not a polyglot book")
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Engine: "/no/such/engine"}, `engine.path "/no/such/engine": no engine there`},
		{Options{Engine: stockfish(t), EngineBook: notBook}, "engine.book"},
	} {
		_, err := Check(tc.o)
		var ue UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("check %+v: %v, want a usage error saying %q", tc.o, err, tc.want)
		}
		tc.o.StateDir, tc.o.Listen = t.TempDir(), "127.0.0.1:0"
		err = Run(context.Background(), tc.o)
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %+v: %v, want a usage error saying %q", tc.o, err, tc.want)
		}
	}
}

// consoleHands plays the simulated board of a running daemon through its
// console, as a player at the page does.
func consoleHands(r *running, human board.Color, moves ...string) (*opponenttest.Hands, *opponenttest.ConsoleDoor) {
	door := &opponenttest.ConsoleDoor{Board: r.url + "/api/boards/test"}
	i := 0
	return &opponenttest.Hands{Door: door, Human: human, Step: 40 * time.Millisecond, Choose: func(a *board.Analysis) board.Move {
		m, _ := board.ParseUCI(moves[i%len(moves)])
		i++
		return m
	}}, door
}

// A game against Stockfish on the running daemon's simulated board, through
// the console: the journal's header says Black is played from off the
// board, the PGN names the engine and carries its evaluations, and the game
// survives a restart (the journal replays it: the engine picks up where it
// was). Restarted without an engine, the board takes back both sides.
func TestEngineGameSurvivesARestart(t *testing.T) {
	sf := stockfish(t)
	dir := t.TempDir()
	o := Options{StateDir: dir, Listen: "127.0.0.1:0", BoardID: "test", Engine: sf, EngineLimit: "depth:3"}
	r := runDaemon(t, o)
	h, door := consoleHands(r, board.White, "e2e4", "d2d4", "g1f3")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 4 }); err != nil {
		t.Fatal(err)
	}
	// The evaluation of the position as it stands comes once the engine
	// has evaluated it.
	var st console.State
	for {
		var err error
		if st, err = door.State(ctx); err != nil {
			t.Fatal(err)
		}
		if o := st.Opponent; o != nil && o.Eval != nil && o.Eval.Ply == len(st.Moves) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no evaluation of the position after %d moves: %+v", len(st.Moves), st.Opponent)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if o := st.Opponent; o == nil || o.Name != "Stockfish 15.1" && !strings.HasPrefix(o.Name, "Stockfish") || o.Side != "black" || o.Level != "depth 3" || o.Eval == nil {
		t.Errorf("opponent %+v", st.Opponent)
	}
	g, err := journal.Read(dir)
	if err != nil || g == nil {
		t.Fatalf("journal: %v", err)
	}
	if g.Header.Remote != trace.SideBlack || !strings.HasPrefix(g.Header.Tags["Black"], "Stockfish") || g.Header.Tags["Annotator"] == "" {
		t.Errorf("header remote %q, tags %v", g.Header.Remote, g.Header.Tags)
	}
	comments := 0
	for _, rec := range g.Records {
		if rec.Kind == journal.KindComment {
			comments++
		}
	}
	if comments < 1 {
		t.Errorf("%d evaluations journalled", comments)
	}
	stopDaemon(r)

	// Restarted, the game goes on where it was: White to move, the engine
	// playing Black.
	r = runDaemon(t, o)
	h, door = consoleHands(r, board.White, "b1c3", "c1f4")
	if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 6 }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.log.String(), "game restored from the journal") {
		t.Error("the game was not restored")
	}
	pgnText := getText(t, r.url+"/api/boards/test/pgn")
	if !strings.Contains(pgnText, `[Black "Stockfish`) || !strings.Contains(pgnText, "depth 3") || strings.Count(pgnText, "[%eval") < 2 {
		t.Errorf("PGN:\n%s", pgnText)
	}
	for _, typ := range []report.Type{report.Irregularity, report.Mismatch} {
		for _, rec := range g.Records {
			if rec.Kind == journal.KindReport && rec.Report.Type == typ {
				t.Errorf("%s: %+v", typ, rec.Report)
			}
		}
	}
	// A take-back from the page: the player's last move and the reply.
	if err := door.Command(ctx, "takeback", ""); err != nil {
		t.Fatal(err)
	}
	if st, _ := door.State(ctx); len(st.Moves) != 4 || !st.Syncing {
		t.Errorf("after the take-back: %d moves, syncing %v", len(st.Moves), st.Syncing)
	}
	stopDaemon(r)

	// Without an engine, both sides are played at the board.
	o.Engine, o.EngineLimit = "", ""
	r = runDaemon(t, o)
	st, err = (&opponenttest.ConsoleDoor{Board: r.url + "/api/boards/test"}).State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Opponent != nil || st.Remote != nil {
		t.Errorf("without an engine: opponent %+v, remote %+v", st.Opponent, st.Remote)
	}
	// The page says so too, naming the side and the engine.
	if len(st.Notices) != 1 || !strings.Contains(st.Notices[0], "black (Stockfish") || !strings.Contains(st.Notices[0], "no engine runs now") {
		t.Errorf("the page's notices %q, want one saying the engine's game (black, Stockfish) goes on without it", st.Notices)
	}
	// The log says so at WARN, naming the side the engine played and the
	// engine.
	warn := regexp.MustCompile(`level=WARN msg="the game in progress was played against an engine, and no engine is configured for this run[^"]*--engine PATH[^"]*" game=1 engine_played="black \(Stockfish[^)]*\)"`)
	if !warn.MatchString(r.log.String()) {
		t.Errorf("the log does not say at WARN that the engine's side (black, Stockfish) went back to the board:\n%s", r.log.String())
	}
}

// stopDaemon stops a running daemon and waits for it (its cleanup then
// finds it stopped).
func stopDaemon(r *running) {
	r.stop()
	err := <-r.done
	r.done <- err
}

// getText GETs a text.
func getText(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, res.Status, err)
	}
	return string(data)
}

// The buttons of the engine's side command the engine: j'adoube takes
// back, claim asks for a hint, check offers a draw; the player's own
// buttons still reach the game.
func TestEngineButtons(t *testing.T) {
	sf := stockfish(t)
	d, _ := testDaemon(t, Options{StateDir: t.TempDir(), Engine: sf, EngineLimit: "depth:2"})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	d.stateDir = d.cfg.StateDir
	ctx, cancel := context.WithCancel(context.Background())
	d.ctx = ctx
	defer func() {
		cancel()
		d.close()
	}()
	if err := d.openJournal(); err != nil {
		t.Fatal(err)
	}
	d.runner = game.NewRunner(d.game, d.clock)
	d.attachJournal()
	if err := d.startEngine(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.runner.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	h := &opponenttest.Hands{Door: d.runner, Human: board.White, Choose: func(*board.Analysis) board.Move { m, _ := board.ParseUCI("e2e4"); return m }}
	if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == 2 }); err != nil {
		t.Fatal(err)
	}
	press := func(button, side string) {
		d.press(ctx, trace.Line{Kind: trace.Press, Button: button, Side: side})
	}
	snap := func() *game.Snapshot {
		s, err := d.runner.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	press(trace.ButtonClaim, trace.SideBlack) // a hint
	deadline := time.Now().Add(10 * time.Second)
	for !snap().HasHint && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !snap().HasHint {
		t.Error("black's claim button gave no hint")
	}
	press(trace.ButtonCheck, trace.SideBlack) // a draw offer
	if st := d.engine.match.State(); st.Draw != "offered" {
		t.Errorf("black's check button: draw %q", st.Draw)
	}
	press(trace.ButtonJadoube, trace.SideBlack) // take back
	if s := snap(); s.Moves != 0 || !s.Syncing {
		t.Errorf("black's j'adoube button: %d moves, syncing %v", s.Moves, s.Syncing)
	}
	press(trace.ButtonJadoube, trace.SideWhite) // the player's own: j'adoube
	var heard bool
	if g, err := journal.Read(d.stateDir); err == nil {
		for _, in := range g.Inputs() {
			if in.Kind == trace.Press && in.Side == trace.SideWhite {
				heard = true
			}
			if in.Kind == trace.Press && in.Side == trace.SideBlack {
				t.Errorf("the engine's side's button reached the game: %+v", in)
			}
		}
	}
	if !heard {
		t.Error("white's own j'adoube did not reach the game")
	}
}

// An engine's level, side or limit given with no engine is refused, naming
// the flag, rather than ignored; with an engine named they are taken.
func TestEngineFlagsNeedAnEngine(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{EngineElo: "1500"}, `--engine-elo "1500": no engine`},
		{Options{EngineSide: "black"}, `--engine-side "black": no engine`},
		{Options{EngineLimit: "depth:3"}, `--engine-limit "depth:3": no engine`},
		{Options{Engine: "/usr/games/stockfish", EngineElo: "1500"}, ""},
	} {
		d, _ := testDaemon(t, c.o)
		err := d.configure()
		if c.want == "" {
			if err != nil && strings.Contains(err.Error(), "no engine to apply") {
				t.Errorf("%+v: %v", c.o, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("engine flags without an engine: %v, want %q", err, c.want)
		}
	}
}
