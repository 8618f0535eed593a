package hall_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

const testToken = "0123456789abcdef0123456789abcdef"

// testSigner is the test hall's signing key; its boards hold its verify key.
var testSigner = actionsig.NewSigner(ed25519.NewKeyFromSeed([]byte("boardd hall tests' signing key..")))

// startBroker starts a real mosquitto for the test, or skips the test when
// it is not installed.
func startBroker(t testing.TB, o mosquittotest.Options) *mosquittotest.Broker {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	b, err := mosquittotest.Start(o)
	if errors.Is(err, mosquittotest.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Kill()
		if t.Failed() {
			t.Logf("mosquitto's log:\n%s", b.Log())
		}
	})
	return b
}

func logger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func config(t testing.TB, url, user string, dirs ...string) *broker.Config {
	t.Helper()
	c, err := broker.Load(broker.Options{URL: url, Username: user, Dirs: dirs})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// startHall starts a hall on the broker and its web server.
func startHall(t testing.TB, c *broker.Config) (*hall.Hall, *httptest.Server) {
	t.Helper()
	h, err := hall.New(context.Background(), hall.Options{
		Broker: c, Token: testToken, Signer: testSigner, AckEvery: 100 * time.Millisecond, Logger: logger(t),
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, KeepAlive: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := hall.NewServer(h, hall.ServerOptions{Ping: time.Second, Settle: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		h.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	return h, hs
}

// gameOptions are quick gesture timings, so that a test game takes a second
// or two.
func gameOptions(laws string) game.Options {
	return game.Options{Laws: laws, Timing: game.Timing{Settle: 60 * time.Millisecond, OpenWait: 300 * time.Millisecond}}
}

// startBoard starts a simulated board in dir.
func startBoard(t testing.TB, id, dir string, c *broker.Config, opts game.Options) *halltest.Board {
	t.Helper()
	b, err := halltest.Start(context.Background(), halltest.Options{
		ID: id, Dir: dir, Game: opts, Broker: c, Verifier: testSigner.Verifier(), Logger: logger(t).With("board", id),
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, KeepAlive: 5 * time.Second,
		StateEvery: 20 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testGames are three short games with captures, castling and en passant.
var testGames = [][]string{
	strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6 d2d4 e5d4 f3d4 c6c5 d4b3 d8d1 f1d1 c8g4 f2f3 g4e6"),
	strings.Fields("d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7 a1c1 c7c6 f1d3 d5c4 d3c4 f6d5 g5e7 d8e7"),
	strings.Fields("e2e4 c7c5 e4e5 d7d5 e5d6 d8d6 g1f3 b8c6 d2d4 c5d4 f3d4 c6d4 d1d4 d6d4 b1c3 g8f6 c1e3 d4b4 e1c1 c8f5"),
}

// game is a test game as trace lines, with the index of each move's last
// line.
type testGame struct {
	uci   []string
	lines []trace.Line
	ends  []int
}

func makeGame(t testing.TB, uci []string) testGame {
	t.Helper()
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 30 * time.Millisecond, Pause: 400 * time.Millisecond})
	g := testGame{uci: uci}
	for _, u := range uci {
		if err := p.Move(u); err != nil {
			t.Fatal(err)
		}
		g.ends = append(g.ends, len(p.Lines)-1)
	}
	g.lines = p.Lines
	return g
}

// replayMoves replays the game's lines in virtual time, as `boardd replay`
// does, and returns its moves as "uci san".
func replayMoves(t testing.TB, g testGame, opts game.Options) []string {
	t.Helper()
	var out []string
	p, err := game.New(opts, func(r report.Report) {
		if r.Type == report.Move {
			out = append(out, r.UCI+" "+r.SAN)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var last time.Duration
	for _, l := range g.lines {
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
		last = l.T
	}
	p.Finish(last + 2*time.Second)
	return out
}

// hallMoves returns a board's moves as the hall holds them.
func hallMoves(h *hall.Hall, id string) []string {
	b := h.Board(id)
	if b == nil {
		return nil
	}
	var out []string
	for _, m := range b.Moves() {
		out = append(out, m.UCI+" "+m.SAN)
	}
	return out
}

// waitFor polls cond until it holds or the time is up.
func waitFor(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting %v for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func boardDir(t testing.TB, id string) string {
	dir := filepath.Join(t.TempDir(), id)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	return dir
}

func ctxTimeout(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// halltestStart starts a board holding verifier as the hall's verify key
// (none if nil).
func halltestStart(t testing.TB, id, url string, verifier *actionsig.Verifier, opts game.Options) (*halltest.Board, error) {
	t.Helper()
	b, err := halltest.Start(context.Background(), halltest.Options{
		ID: id, Dir: boardDir(t, id), Game: opts, Broker: config(t, url, id), Verifier: verifier, Logger: logger(t).With("board", id),
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, StateEvery: 20 * time.Millisecond,
	})
	if err == nil {
		t.Cleanup(func() { b.Close() })
	}
	return b, err
}
