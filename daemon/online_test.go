package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/lichess/lichesstest"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// What --lichess plays: the [lichess] section of the configuration with
// the --lichess-* flags over it (a seek's clock, colour and rating, the
// players whose challenges are accepted); faults named by the flag or the
// key.
func TestLichessSettings(t *testing.T) {
	const file = `[lichess]
seek = "30+0"
rated = true
color = "black"
accept = ["carol"]
`
	tests := []struct {
		name    string
		file    string // the configuration file, "" for none
		o       Options
		want    string // the fault, "" for none
		seek    time.Duration
		inc     time.Duration
		rated   bool
		color   string
		accepts []string
	}{
		{name: "no online play", o: Options{}},
		{name: "online, no seek", o: Options{Lichess: true}},
		{name: "flags", o: Options{Lichess: true, LichessSeek: "15+10", LichessRated: true, LichessColor: "White"}, seek: 15 * time.Minute, inc: 10 * time.Second, rated: true, color: "white"},
		{name: "fraction of a minute", o: Options{Lichess: true, LichessSeek: "7.5+3"}, seek: 7*time.Minute + 30*time.Second, inc: 3 * time.Second},
		{name: "accept flag", o: Options{Lichess: true, LichessAccept: "Alice, bob,anyone"}, accepts: []string{"alice", "bob", "*"}},
		{name: "the file", file: file, o: Options{Lichess: true}, seek: 30 * time.Minute, rated: true, color: "black", accepts: []string{"carol"}},
		{name: "flags over the file", file: file, o: Options{Lichess: true, LichessSeek: "15+10", LichessColor: "white", LichessAccept: "dave"}, seek: 15 * time.Minute, inc: 10 * time.Second, rated: true, color: "white", accepts: []string{"dave"}},
		{name: "the file without --lichess is kept for later", file: file, o: Options{}},
		{name: "blitz", o: Options{Lichess: true, LichessSeek: "3+2"}, want: "--lichess-seek (lichess.seek) = \"3+2\": expected a clock \"MINUTES+SECONDS\""},
		{name: "not a clock", o: Options{Lichess: true, LichessSeek: "fifteen"}, want: `--lichess-seek (lichess.seek) = "fifteen"`},
		{name: "colour", o: Options{Lichess: true, LichessSeek: "15+10", LichessColor: "green"}, want: `--lichess-color (lichess.color) = "green": expected white, black or random`},
		{name: "colour in the file", file: "[lichess]\nseek = \"15+10\"\ncolor = \"green\"\n", o: Options{Lichess: true}, want: `lichess.color = "green": expected white, black or random`},
		{name: "rated without a seek", o: Options{Lichess: true, LichessRated: true}, want: `--lichess-rated (lichess.rated) = true: expected false without lichess.seek`},
		{name: "a name that is none", o: Options{Lichess: true, LichessAccept: "alice,b*b"}, want: `--lichess-accept (lichess.accept[1]) = "b*b": expected a lichess user name`},
		{name: "an accept flag that names nobody", o: Options{Lichess: true, LichessAccept: " , "}, want: `--lichess-accept " , " names no lichess player`},
		{name: "flags without --lichess", o: Options{LichessSeek: "15+10"}, want: "go with --lichess"},
		{name: "engine flag", o: Options{Lichess: true, Engine: "/usr/games/stockfish"}, want: "--lichess and --engine"},
		{name: "engine in the file", file: "[engine]\npath = \"/usr/games/stockfish\"\n", o: Options{Lichess: true}, want: `--lichess and engine.path "/usr/games/stockfish"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Config = writeFile(t, "boardd.toml", tc.file)
			c, err := Check(o)
			var p lichessPlay
			if err == nil {
				p, err = lichessPlayOf(&o, c)
			}
			if tc.want != "" {
				var ue UsageError
				if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
					t.Errorf("%v, want the usage error %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.seek != 0 {
				if p.seek == nil || p.seek.Time != tc.seek || p.seek.Increment != tc.inc || p.seek.Color != tc.color || p.seek.Rated != tc.rated {
					t.Errorf("seek %+v", p.seek)
				}
			} else if p.seek != nil {
				t.Errorf("a seek %+v", p.seek)
			}
			if len(p.accept) != len(tc.accepts) {
				t.Errorf("accepts %v, want %v", p.accept, tc.accepts)
			}
			for _, a := range tc.accepts {
				if !p.accept[a] {
					t.Errorf("%q not accepted (%v)", a, p.accept)
				}
			}
		})
	}
}

// A token that will not do stops the start with what to do, and never
// shows the token: none in either place, readable by others, revoked,
// without board:play.
func TestLichessTokenFaults(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken("lip_noBoardScope0123456789", "challenge:read")
	tests := []struct {
		name, token string
		mode        os.FileMode
		revoke      bool
		usage       bool
		want        string
	}{
		{name: "none", want: "create a personal token with the board:play scope", usage: true},
		{name: "readable by others", token: srv.Token(), mode: 0o644, want: "chmod 600", usage: true},
		{name: "revoked", token: srv.Token(), mode: 0o600, revoke: true, want: "create a new personal token"},
		{name: "wrong scope", token: "lip_noBoardScope0123456789", mode: 0o600, want: "Play games with the board API"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.token != "" {
				path := filepath.Join(dir, "lichess-token")
				if err := os.WriteFile(path, []byte(tc.token+"\n"), tc.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			if tc.revoke {
				srv.RevokeToken(srv.Token())
			}
			d, logs := testDaemon(t, Options{Lichess: true})
			d.stateDir, d.cfg = dir, config.Default()
			d.o.Getenv = func(k string) string {
				if k == LichessURLEnv {
					return srv.URL()
				}
				return ""
			}
			err := d.startOnline()
			var ue UsageError
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &ue) != tc.usage {
				t.Errorf("%v (usage error: %v), want %q", err, errors.As(err, &ue), tc.want)
			}
			if tc.token != "" && (strings.Contains(err.Error(), tc.token) || strings.Contains(logs.String(), tc.token)) {
				t.Error("the token is shown")
			}
			if d.online != nil {
				t.Error("online play started")
			}
		})
	}
}

// newOnlinePlay is the daemon's online part on a local lichess, before it
// has found a game.
func newOnlinePlay(t *testing.T, srv *lichesstest.Server, play lichessPlay) *onlinePlay {
	t.Helper()
	d, _ := testDaemon(t, Options{Lichess: true})
	tok, err := lichess.NewToken(srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	c, err := lichess.New(lichess.Options{BaseURL: srv.URL(), Token: tok, MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &onlinePlay{d: d, client: c, play: play, watchers: map[int]func(){}}
}

// The game to play: the account's game in progress first; else the game a
// seek starts; else the game a challenge from a player --lichess-accept
// names starts (others are left alone).
func TestLichessFindsTheGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	find := func(op *onlinePlay, seek *lichess.Seek) <-chan lichess.GameInfo {
		ch := make(chan lichess.GameInfo, 1)
		go func() {
			g, err := op.find(ctx, seek)
			if err != nil {
				t.Errorf("find: %v", err)
			}
			ch <- g
		}()
		return ch
	}

	t.Run("in progress", func(t *testing.T) {
		srv := lichesstest.New(lichesstest.Options{})
		t.Cleanup(srv.Close)
		id, err := srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Moves: []string{"e2e4"}})
		if err != nil {
			t.Fatal(err)
		}
		g := <-find(newOnlinePlay(t, srv, lichessPlay{}), &lichess.Seek{Time: 15 * time.Minute})
		if side, _ := g.Side(); g.GameID != id || side != board.Black {
			t.Errorf("found %+v, want %s as Black", g, id)
		}
		if len(srv.Seeks()) != 0 {
			t.Error("a seek was made with a game in progress")
		}
	})

	t.Run("seek", func(t *testing.T) {
		srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond})
		t.Cleanup(srv.Close)
		found := find(newOnlinePlay(t, srv, lichessPlay{}), &lichess.Seek{Time: 15 * time.Minute, Increment: 10 * time.Second, Rated: true, Color: "white"})
		deadline := time.Now().Add(10 * time.Second)
		for len(srv.Seeks()) == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if len(srv.Seeks()) != 1 {
			t.Fatalf("seeks: %v", srv.Seeks())
		}
		id, err := srv.MatchSeek(srv.Seeks()[0], lichesstest.Opponent{Name: "Stranger"})
		if err != nil {
			t.Fatal(err)
		}
		if g := <-found; g.GameID != id {
			t.Errorf("found %+v, want %s", g, id)
		}
	})

	t.Run("challenge", func(t *testing.T) {
		srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond})
		t.Cleanup(srv.Close)
		srv.Challenge(lichesstest.ChallengeSpec{Opponent: lichesstest.Opponent{ID: "mallory"}})
		alice := srv.Challenge(lichesstest.ChallengeSpec{Color: "black", Opponent: lichesstest.Opponent{ID: "alice"}})
		g := <-find(newOnlinePlay(t, srv, lichessPlay{accept: map[string]bool{"alice": true}}), nil)
		if side, _ := g.Side(); g.GameID == "" || side != board.White || !strings.EqualFold(g.Opponent.ID, "alice") {
			t.Errorf("found %+v, want alice's game as White", g)
		}
		if left := srv.Challenges(); len(left) != 1 || left[0] == alice {
			t.Errorf("challenges left: %v, want mallory's", left)
		}
	})
}

// onlineDaemon is a daemon playing on the local lichess srv from the
// configuration's [lichess] section (the journal in a fresh state
// directory, no console, no hardware), its runner running until the test
// ends.
func onlineDaemon(t *testing.T, srv *lichesstest.Server, section string) *daemon {
	t.Helper()
	d, err := startOnlineDaemon(t, srv, section, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// startOnlineDaemon is onlineDaemon with its log written to logs (if not
// nil) and the lichess client's options adjusted by adjust (if not nil); it
// returns startOnline's error.
func startOnlineDaemon(t *testing.T, srv *lichesstest.Server, section string, logs io.Writer, adjust func(*lichess.Options)) (*daemon, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lichess-token"), []byte(srv.Token()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, _ := testDaemon(t, Options{StateDir: dir, Lichess: true, Config: writeFile(t, "boardd.toml", section)})
	if logs != nil {
		d.log = slog.New(slog.NewTextHandler(logs, nil))
	}
	d.lichessOptions = adjust
	d.o.Getenv = func(k string) string {
		if k == LichessURLEnv {
			return srv.URL()
		}
		return ""
	}
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	d.stateDir = dir
	ctx, cancel := context.WithCancel(context.Background())
	d.ctx = ctx
	if err := d.openJournal(); err != nil {
		t.Fatal(err)
	}
	d.runner = game.NewRunner(d.game, d.clock)
	d.attachJournal()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = d.runner.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		d.close()
		<-done
	})
	return d, d.startOnline()
}

// waitFor polls ok until it holds, failing the test after 10 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// After an online game ends, the next seek (with the same settings) waits
// for the board's new game, from the console's new-game command or from
// the start position set up on the board, and then plays the game it
// finds.
func TestLichessSeeksAgainAtANewGame(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond, GameKeepAlive: 100 * time.Millisecond})
	t.Cleanup(srv.Close)
	d := onlineDaemon(t, srv, "[lichess]\nseek = \"15+10\"\nrated = true\ncolor = \"black\"\n")
	ctx := d.ctx
	playing := func(id string) bool {
		s, _, _ := d.online.current()
		return s != nil && s.State().GameID == id && s.State().Opponent != ""
	}
	snap := func() *game.Snapshot {
		s, err := d.runner.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// playOne matches the seek waiting, checks the game has the seek's
	// settings, and has the opponent resign it.
	playOne := func(n int) {
		t.Helper()
		waitFor(t, fmt.Sprintf("seek %d", n), func() bool { return len(srv.Seeks()) == 1 })
		id, err := srv.MatchSeek(srv.Seeks()[0], lichesstest.Opponent{Name: fmt.Sprint("Stranger", n)})
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "game "+id, func() bool { return playing(id) })
		s, _, _ := d.online.current()
		if g, _ := srv.Game(id); g.Side != board.Black || !s.State().Rated || s.State().Speed != "rapid" {
			t.Errorf("game %d: side %v, rated %v, speed %q; want the seek's: Black, rated, rapid (15+10)", n, g.Side, s.State().Rated, s.State().Speed)
		}
		if err := srv.OpponentResigns(id); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the result on the board", func() bool { return snap().Result != nil })
		waitFor(t, "the game over", func() bool {
			_, _, searching := d.online.current()
			return strings.Contains(searching, "begin a new game")
		})
		// No seek before the board's new game.
		time.Sleep(100 * time.Millisecond)
		if len(srv.Seeks()) != 0 {
			t.Fatalf("game %d: a seek before the board's new game", n)
		}
	}
	playOne(1)
	// The console's new-game command.
	if err := d.runner.Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}); err != nil {
		t.Fatal(err)
	}
	playOne(2)
	// The board cleared and set up again: the game begins by itself.
	if snap().Mode != game.AwaitNewGame {
		t.Fatalf("after the result the board is in mode %v", snap().Mode)
	}
	setUp(t, ctx, d.runner, func() board.Occupancy { p := board.Start(); return p.Occupancy() }())
	playOne(3)
}

// setUp clears the board of occ's men and sets them up again, as a player
// does to begin a new game on a board that waits for one.
func setUp(t *testing.T, ctx context.Context, r *game.Runner, occ board.Occupancy) {
	t.Helper()
	for _, kind := range []trace.Kind{trace.Lift, trace.Place} {
		for _, sq := range occ.Squares() {
			if err := r.Submit(ctx, trace.Line{Kind: kind, Square: sq}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Without a seek but with players to accept, boardd goes on after a game
// ends: the next challenge of a player it accepts starts the next game,
// which the board begins by itself.
func TestLichessAcceptsTheNextChallenge(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond, GameKeepAlive: 100 * time.Millisecond})
	t.Cleanup(srv.Close)
	d := onlineDaemon(t, srv, "[lichess]\naccept = [\"alice\"]\n")
	for n := 1; n <= 2; n++ {
		srv.Challenge(lichesstest.ChallengeSpec{Color: "black", Opponent: lichesstest.Opponent{ID: "alice", Name: "Alice"}})
		var id string
		waitFor(t, fmt.Sprintf("game %d", n), func() bool {
			s, _, _ := d.online.current()
			if s == nil || s.State().Opponent == "" || s.State().Result != "" {
				return false
			}
			id = s.State().GameID
			return true
		})
		if err := srv.OpponentResigns(id); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the result on the board", func() bool {
			s, err := d.runner.Snapshot(d.ctx)
			return err == nil && s.Result != nil
		})
		waitFor(t, "the game over", func() bool {
			_, _, searching := d.online.current()
			return strings.Contains(searching, "waiting on lichess for a challenge")
		})
	}
	if len(srv.Seeks()) != 0 {
		t.Error("a seek without lichess.seek")
	}
}

// Lichess out of reach when boardd starts (no answer, or a 429) does not
// stop it: the start goes on, the outage is logged once and shown in the
// console's online panel, and the token is checked again with the
// client's backoff on its clock until lichess answers; then online play
// begins. A token lichess rejects once it answers stops online play (not
// boardd) and says why.
func TestLichessUnreachableAtStart(t *testing.T) {
	tests := []struct {
		name string
		// before is done to the server before boardd starts; at is done at
		// the n-th wait of the backoff (1-based).
		before func(*lichesstest.Server)
		at     map[int]func(*lichesstest.Server)
		waits  []time.Duration // the backoff's waits, in order
		play   bool            // online play goes on to look for a game
		panel  string          // the online panel at the end
		log    []string        // in the log, each once
	}{
		{
			name:   "down, then back",
			before: (*lichesstest.Server).GoDown,
			at:     map[int]func(*lichesstest.Server){3: (*lichesstest.Server).ComeUp},
			waits:  []time.Duration{time.Second, 2 * time.Second, 4 * time.Second},
			play:   true,
			panel:  "waiting on lichess for a challenge or a game",
			log:    []string{"lichess cannot be reached; boardd runs on", "lichess answers again"},
		},
		{
			name:   "rate limited",
			before: func(s *lichesstest.Server) { s.RateLimitNext(1, "/api/account", 0) },
			waits:  []time.Duration{time.Minute},
			play:   true,
			panel:  "waiting on lichess for a challenge or a game",
			log:    []string{"lichess cannot be reached; boardd runs on", "lichess answers again"},
		},
		{
			name:   "out of reach when looking for the game",
			before: func(s *lichesstest.Server) { s.RateLimitNext(1, "/api/account/playing", 0) },
			waits:  []time.Duration{time.Minute},
			play:   true,
			panel:  "waiting on lichess for a challenge or a game",
			log:    []string{"lichess cannot be reached while looking for the game", "lichess: event stream connected"},
		},
		{
			name:   "down, then back rejecting the token",
			before: (*lichesstest.Server).GoDown,
			at: map[int]func(*lichesstest.Server){2: func(s *lichesstest.Server) {
				s.RevokeToken(s.Token())
				s.ComeUp()
			}},
			waits: []time.Duration{time.Second, 2 * time.Second},
			panel: "online play stopped: lichess: lichess rejected the token",
			log:   []string{"lichess cannot be reached; boardd runs on", "the token check failed; online play stops"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond})
			t.Cleanup(srv.Close)
			tc.before(srv)
			var (
				logs     syncLog
				clock    timing.Virtual
				mu       sync.Mutex
				waits    []time.Duration
				panels   []string // the online panel at each wait
				online   *onlinePlay
				onlineMu sync.Mutex
			)
			// The backoff's waits pass at once on the virtual clock; the
			// long timers (request timeout, stall) never fire.
			wait := func(ctx context.Context, d time.Duration) error {
				if d >= time.Hour {
					<-ctx.Done()
					return ctx.Err()
				}
				mu.Lock()
				waits = append(waits, d)
				n := len(waits)
				mu.Unlock()
				onlineMu.Lock()
				op := online
				onlineMu.Unlock()
				if op != nil {
					_, _, searching := op.current()
					mu.Lock()
					panels = append(panels, searching)
					mu.Unlock()
				}
				if f := tc.at[n]; f != nil {
					f(srv)
				}
				clock.Set(clock.Now() + d)
				return ctx.Err()
			}
			started := make(chan struct{})
			d, err := startOnlineDaemon(t, srv, "", &logs, func(o *lichess.Options) {
				o.Clock, o.Wait = &clock, func(ctx context.Context, d time.Duration) error {
					select { // until d.online is known
					case <-started:
					case <-ctx.Done():
						return ctx.Err()
					}
					return wait(ctx, d)
				}
				o.RequestTimeout, o.StallTimeout = time.Hour, time.Hour
			})
			if err != nil {
				t.Fatalf("boardd stopped at start: %v", err)
			}
			onlineMu.Lock()
			online = d.online
			onlineMu.Unlock()
			close(started)
			waitFor(t, "the online panel: "+tc.panel, func() bool {
				_, _, searching := d.online.current()
				return strings.Contains(searching, tc.panel)
			})
			if tc.play {
				waitFor(t, "the event stream", func() bool { return srv.EventStreamsOpened() == 1 })
			}
			// The server counts a stream before boardd has read its answer
			// and logged it: wait for each line, then count them.
			for _, want := range tc.log {
				waitFor(t, "the log line "+want, func() bool { return strings.Contains(logs.String(), want) })
			}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(waits) != fmt.Sprint(tc.waits) {
				t.Errorf("waits %v, want %v", waits, tc.waits)
			}
			for i, p := range panels {
				if !strings.Contains(p, "lichess cannot be reached (lichess: GET /api/account") || !strings.Contains(p, "trying again in "+tc.waits[i].String()) {
					t.Errorf("the online panel at wait %d: %q", i+1, p)
				}
			}
			if len(panels) != len(tc.waits) {
				t.Errorf("%d panels seen, want %d", len(panels), len(tc.waits))
			}
			for _, want := range tc.log {
				if n := strings.Count(logs.String(), want); n != 1 {
					t.Errorf("%q %d times in the log, want once:\n%s", want, n, logs.String())
				}
			}
			if !tc.play && srv.EventStreamsOpened() != 0 {
				t.Error("online play went on with a rejected token")
			}
			if strings.Contains(logs.String(), srv.Token()) {
				t.Error("the token is in the log")
			}
		})
	}
}

// TestLichessPlayKey: lichess.play in the file turns online play on as
// --lichess does; an engine named on the command line plays instead for
// that run; an engine in the same file is a clash named by its key.
func TestLichessPlayKey(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		o      Options
		online bool
		fault  string
	}{
		{name: "play", file: "[lichess]\nplay = true\n", online: true},
		{name: "play with a seek", file: "[lichess]\nplay = true\nseek = \"15+10\"\n", online: true},
		{name: "not set", file: "[lichess]\nseek = \"15+10\"\n"},
		{name: "an engine flag plays instead", file: "[lichess]\nplay = true\n", o: Options{Engine: "/usr/games/stockfish"}},
		{name: "an engine in the same file", file: "[lichess]\nplay = true\n[engine]\npath = \"/bin/sh\"\n", online: true, fault: `lichess.play = true and engine.path "/bin/sh"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Config = writeFile(t, "boardd.toml", tc.file)
			o.Getenv = func(string) string { return "" }
			c, _, err := loadConfig(&o)
			if err != nil {
				t.Fatal(err)
			}
			if o.Lichess != tc.online {
				t.Errorf("online play %t, want %t", o.Lichess, tc.online)
			}
			_, err = lichessPlayOf(&o, c)
			if tc.fault == "" && err != nil || tc.fault != "" && (err == nil || !strings.Contains(err.Error(), tc.fault)) {
				t.Errorf("lichess play: %v, want %q", err, tc.fault)
			}
		})
	}
}

// Games in one run with the colours alternating, as a seek for a random
// colour gives them: each game's remote side is the new game's (not the
// last game's), lichess's first move is shown on the board, and the board's
// moves reach lichess, in every game.
func TestLichessColoursAlternate(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond, GameKeepAlive: 100 * time.Millisecond})
	t.Cleanup(srv.Close)
	d := onlineDaemon(t, srv, "[lichess]\nseek = \"15+10\"\n")
	ctx, cancel := context.WithTimeout(d.ctx, 60*time.Second)
	defer cancel()
	script := map[board.Color][]string{board.White: {"e2e4", "g1f3"}, board.Black: {"e7e5", "b8c6"}}
	var side board.Color
	h := &opponenttest.Hands{Door: d.runner, Timeout: 8 * time.Second, Choose: func(a *board.Analysis) board.Move {
		moves := script[side]
		i := a.Position.FullMove - 1
		if i >= len(moves) {
			t.Fatalf("the script has no move %d for %v", i+1, side)
		}
		m, err := board.ParseUCI(moves[i])
		if err != nil {
			t.Fatal(err)
		}
		return m
	}}
	tests := []struct {
		side board.Color
		opp  []string // the opponent's moves on lichess
	}{
		{board.White, []string{"e7e5", "b8c6"}},
		{board.Black, []string{"e2e4", "g1f3"}},
		{board.White, []string{"e7e5", "b8c6"}},
	}
	for n, tc := range tests {
		waitFor(t, fmt.Sprintf("seek %d", n+1), func() bool { return len(srv.Seeks()) == 1 })
		id, err := srv.MatchSeekAs(srv.Seeks()[0], tc.side, lichesstest.Opponent{Name: fmt.Sprint("Stranger", n+1), Moves: tc.opp})
		if err != nil {
			t.Fatal(err)
		}
		side, h.Human = tc.side, tc.side
		if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 4 && !s.HasAwaiting && s.Pending == nil }); err != nil {
			v, _ := srv.Game(id)
			t.Fatalf("game %d as %v: %v (lichess: %v)", n+1, tc.side, err, v.Moves)
		}
		want := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
		waitFor(t, fmt.Sprintf("game %d's moves on lichess", n+1), func() bool {
			v, _ := srv.Game(id)
			return slices.Equal(v.Moves, want)
		})
		_, m, _ := d.online.current()
		if got := m.State().Side; got != tc.side.Other() {
			t.Errorf("game %d: the remote side is %v, want %v", n+1, got, tc.side.Other())
		}
		if err := srv.OpponentResigns(id); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the result on the board", func() bool {
			s, err := d.runner.Snapshot(ctx)
			return err == nil && s.Result != nil
		})
		waitFor(t, "the game over", func() bool {
			_, _, searching := d.online.current()
			return strings.Contains(searching, "begin a new game")
		})
		if err := d.runner.Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}); err != nil {
			t.Fatal(err)
		}
	}
}

// The account's event stream stays open through a game (one stream, not
// reopened at the game's end), is reconnected when lichess drops it, and
// what it says during the game is seen: another game's gameFinish is
// logged, and a challenge from a player boardd accepts waits for the game
// to end and is then accepted.
func TestLichessEventsDuringAGame(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond, GameKeepAlive: 100 * time.Millisecond})
	t.Cleanup(srv.Close)
	id, err := srv.CreateGame(lichesstest.GameSpec{Side: board.White, Opponent: lichesstest.Opponent{Name: "First"}})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncLog
	d, err := startOnlineDaemon(t, srv, "[lichess]\naccept = [\"alice\"]\n", &logs, func(o *lichess.Options) {
		o.MinBackoff, o.MaxBackoff = 10*time.Millisecond, 100*time.Millisecond
	})
	if err != nil {
		t.Fatal(err)
	}
	playing := func(id string) bool {
		s, _, _ := d.online.current()
		return s != nil && s.State().GameID == id && s.State().Opponent != "" && s.State().Result == ""
	}
	waitFor(t, "the first game", func() bool { return playing(id) })
	waitFor(t, "the event stream", func() bool { return srv.EventStreamsOpened() == 1 })

	// Another game of the account's begins and ends meanwhile (in a
	// browser): its gameFinish is seen.
	other, err := srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Opponent: lichesstest.Opponent{Name: "Elsewhere"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.OpponentResigns(other); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the other game's gameFinish in the log", func() bool {
		return strings.Contains(logs.String(), "lichess: a game finished") && strings.Contains(logs.String(), "game="+other)
	})
	// Lichess drops the stream: it is opened again, the game goes on.
	srv.DropStreams()
	waitFor(t, "the event stream reconnected", func() bool { return srv.EventStreamsOpened() == 2 })
	challenge := srv.Challenge(lichesstest.ChallengeSpec{Color: "white", Opponent: lichesstest.Opponent{ID: "alice", Name: "Alice"}})
	waitFor(t, "the challenge seen during the game", func() bool {
		return strings.Contains(logs.String(), "challenge="+challenge)
	})
	if left := srv.Challenges(); !slices.Contains(left, challenge) {
		t.Errorf("the challenge was answered during the game: open challenges %v", left)
	}
	if !playing(id) {
		t.Fatal("the first game stopped")
	}
	if err := srv.OpponentResigns(id); err != nil {
		t.Fatal(err)
	}
	// The game over, the challenge waiting is accepted: the next game.
	var next string
	waitFor(t, "alice's game", func() bool {
		s, _, _ := d.online.current()
		if s == nil || s.State().GameID == id || s.State().Opponent != "Alice" {
			return false
		}
		next = s.State().GameID
		return true
	})
	if g, _ := srv.Game(next); g.Side != board.Black {
		t.Errorf("alice's game: the board plays %v, want Black", g.Side)
	}
	if n := srv.EventStreamsOpened(); n != 2 {
		t.Errorf("%d event streams opened, want 2 (the first, and one after the drop)", n)
	}
}

// After a result, the men set up in the start position straight from the
// final one (the board not cleared first) begin the board's new game, and
// the next seek is sent; that game plays.
func TestLichessSeeksAgainAtASetUpFromTheResult(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond, GameKeepAlive: 100 * time.Millisecond})
	t.Cleanup(srv.Close)
	d := onlineDaemon(t, srv, "[lichess]\nseek = \"15+10\"\ncolor = \"white\"\n")
	ctx, cancel := context.WithTimeout(d.ctx, 60*time.Second)
	defer cancel()
	h := &opponenttest.Hands{Door: d.runner, Human: board.White, Timeout: 8 * time.Second, Choose: func(a *board.Analysis) board.Move {
		m, _ := board.ParseUCI([]string{"e2e4", "e4d5"}[a.Position.FullMove-1])
		return m
	}}
	for n := 1; n <= 2; n++ {
		waitFor(t, fmt.Sprintf("seek %d", n), func() bool { return len(srv.Seeks()) == 1 })
		id, err := srv.MatchSeek(srv.Seeks()[0], lichesstest.Opponent{Name: fmt.Sprint("Stranger", n), Moves: []string{"d7d5", "b8c6"}})
		if err != nil {
			t.Fatal(err)
		}
		end, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 4 && !s.HasAwaiting && s.Pending == nil })
		if err != nil {
			t.Fatalf("game %d: %v", n, err)
		}
		waitFor(t, fmt.Sprintf("game %d's moves on lichess", n), func() bool {
			v, _ := srv.Game(id)
			return len(v.Moves) == 4
		})
		if n == 2 {
			if err := srv.OpponentResigns(id); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the result on the board", func() bool {
				s, err := d.runner.Snapshot(ctx)
				return err == nil && s.Result != nil
			})
			break
		}
		// The men put back where they began, one at a time, the board
		// never cleared.
		start := board.Start()
		for sq := board.Square(0); sq < 64; sq++ {
			if m := end.Position.Men[sq]; m != board.NoMan && m != start.Men[sq] {
				if err := d.runner.Submit(ctx, trace.Line{Kind: trace.Lift, Square: sq}); err != nil {
					t.Fatal(err)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		for sq := board.Square(0); sq < 64; sq++ {
			if m := start.Men[sq]; m != board.NoMan && end.Position.Men[sq] != m {
				if err := d.runner.Submit(ctx, trace.Line{Kind: trace.Place, Square: sq}); err != nil {
					t.Fatal(err)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		if err := srv.OpponentResigns(id); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the board's new game", func() bool {
			s, err := d.runner.Snapshot(ctx)
			return err == nil && s.Result == nil && s.Mode == game.Play && !s.Syncing && s.Moves == 0
		})
	}
}

// A token revoked mid-game stops online play with the advice the check at
// start gives (a new token with board:play, the file to put it in), in the
// log, the online panel and the session's fault; boardd runs on.
func TestLichessTokenRevokedMidGame(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond, GameKeepAlive: 100 * time.Millisecond})
	t.Cleanup(srv.Close)
	id, err := srv.CreateGame(lichesstest.GameSpec{Side: board.White, Moves: []string{"e2e4", "e7e5"}, Opponent: lichesstest.Opponent{Name: "Rival"}})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncLog
	d, err := startOnlineDaemon(t, srv, "", &logs, func(o *lichess.Options) {
		o.MinBackoff, o.MaxBackoff = 10*time.Millisecond, 100*time.Millisecond
	})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the game", func() bool {
		s, _, _ := d.online.current()
		return s != nil && s.State().GameID == id && s.State().Up
	})
	srv.RevokeToken(srv.Token())
	srv.DropStreams()
	var panel string
	waitFor(t, "online play stopped", func() bool {
		_, _, panel = d.online.current()
		return strings.Contains(panel, "stopped")
	})
	s, _, _ := d.online.current()
	tokenFile := filepath.Join(d.stateDir, lichess.TokenFile)
	for _, where := range []struct{ name, text string }{
		{"the online panel", panel},
		{"the session's fault", s.State().Fault},
		{"the log", logs.String()},
	} {
		for _, want := range []string{"lichess rejected the token", "create a new personal token with the board:play scope", lichess.TokenPage, lichess.TokenFile} {
			if !strings.Contains(where.text, want) {
				t.Errorf("%s lacks %q: %s", where.name, want, where.text)
			}
		}
	}
	if !strings.Contains(panel, tokenFile) {
		t.Errorf("the online panel does not name the token's file %s: %s", tokenFile, panel)
	}
	if _, err := d.runner.Snapshot(d.ctx); err != nil {
		t.Errorf("the board stopped with online play: %v", err)
	}
}
