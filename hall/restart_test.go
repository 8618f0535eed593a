package hall_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/trace"
)

// runningHall is a hall and its web server, restartable on the same
// directory.
type runningHall struct {
	h   *hall.Hall
	srv *hall.Server
	hs  *httptest.Server
}

func startHallIn(t *testing.T, c *broker.Config, dir, round string) *runningHall {
	t.Helper()
	h, err := hall.New(context.Background(), hall.Options{
		Broker: c, Token: testToken, Signer: testSigner, AckEvery: 100 * time.Millisecond, Logger: logger(t), Dir: dir, FlushEvery: 50 * time.Millisecond,
		Event: "Olympiad", Round: round,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, KeepAlive: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := hall.NewServer(h, hall.ServerOptions{Settle: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := &runningHall{h: h, srv: srv, hs: httptest.NewServer(srv)}
	t.Cleanup(r.stop)
	return r
}

func (r *runningHall) stop() {
	if r.h == nil {
		return
	}
	r.srv.Close()
	r.hs.Close()
	r.h.Close()
	r.h = nil
}

func (r *runningHall) get(t *testing.T, path string) (int, string) {
	t.Helper()
	res, err := http.Get(r.hs.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// games splits a PGN file into its games' movetexts, by board.
func gamesByBoard(pgn string) map[string][]string {
	out := map[string][]string{}
	for _, g := range strings.Split(pgn, "\n\n[")[0:] {
		if strings.TrimSpace(g) == "" {
			continue
		}
		if !strings.HasPrefix(g, "[") {
			g = "[" + g
		}
		id := ""
		for _, l := range strings.Split(g, "\n") {
			if v, ok := strings.CutPrefix(l, `[Board "`); ok {
				id = strings.TrimSuffix(v, `"]`)
			}
		}
		out[id] = append(out[id], movetext(g))
	}
	return out
}

// The hall is restarted mid-round, and the broker with it (so that its
// retained states are gone too), while one board is switched off: the
// round's PGN is served again at once from the hall's disk (the finished
// game, the board switched off), and once the boards that play on have
// caught up it equals their games, every game of the round once.
func TestHallRestartMidRound(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	dir := t.TempDir()
	r := startHallIn(t, config(t, br.URL(), "hall"), dir, "7")
	ctx := ctxTimeout(t, 90*time.Second)
	opts := gameOptions("fide2023")
	boards := map[string]*halltest.Board{}
	games := map[string]testGame{}
	for i, id := range []string{"b1", "b2", "b3"} {
		boards[id] = startBoard(t, id, boardDir(t, id), config(t, br.URL(), id), opts)
		games[id] = makeGame(t, testGames[i])
	}
	t.Cleanup(func() {
		for _, b := range boards {
			b.Close()
		}
	})
	play := func(id string, from, to int) {
		t.Helper()
		if err := boards[id].PlayMoves(ctx, games[id].lines, games[id].ends, from, to); err != nil {
			t.Fatal(err)
		}
	}
	held := func(id string, n int) {
		t.Helper()
		waitFor(t, id+"'s moves in the hall", 10*time.Second, func() bool { return len(hallMoves(r.h, id)) >= n })
	}
	// b1 finishes a game (the arbiter's result) and begins another, set up
	// where the men stand.
	play("b1", 0, 6)
	held("b1", 6)
	hb := r.h.Board("b1")
	setup := boards["b1"].Moves()[5].FEN
	for _, l := range []trace.Line{{Kind: trace.Arbiter, Action: wire.ActionResult, Value: "1-0"}, {Kind: trace.Arbiter, Action: wire.ActionNewGame, Value: setup}} {
		if err := hb.Submit(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "b1's new game in the hall", 10*time.Second, func() bool { return hb.Summary().Game == 2 && len(hb.Finished()) == 1 })
	b1game1 := movetext(hb.Finished()[0].PGN)
	if !strings.HasSuffix(b1game1, "1-0") {
		t.Fatalf("b1's first game as the hall keeps it: %q", b1game1)
	}
	// b2 and b3 play; b3 is then switched off.
	play("b2", 0, 4)
	play("b3", 0, 4)
	held("b2", 4)
	held("b3", 4)
	b3pgn, err := boards["b3"].Local.PGN(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b3's game kept by the hall", 5*time.Second, func() bool {
		code, body := r.get(t, "/broadcast/rounds/7.pgn")
		return code == http.StatusOK && strings.Count(body, "[Event ") == 4 && slicesContain(gamesByBoard(body)["b3"], movetext(b3pgn))
	})
	if err := boards["b3"].Close(); err != nil {
		t.Fatal(err)
	}
	delete(boards, "b3")

	// The hall and the broker stop; b1 and b2 play on.
	r.stop()
	if err := br.Kill(); err != nil {
		t.Fatal(err)
	}
	play("b1", 6, 8)
	play("b2", 4, 8)
	if err := br.Restart(); err != nil {
		t.Fatal(err)
	}
	r = startHallIn(t, config(t, br.URL(), "hall"), dir, "7")

	// At once, from disk: b1's finished game and b3's, whose board is off.
	code, body := r.get(t, "/broadcast/rounds/7.pgn")
	if code != http.StatusOK {
		t.Fatalf("round 7 after the restart: %d %s", code, body)
	}
	got := gamesByBoard(body)
	if !slicesContain(got["b1"], b1game1) || !slicesContain(got["b3"], movetext(b3pgn)) {
		t.Errorf("round 7 at the hall's restart, before any board spoke: %v", got)
	}

	// Once the boards that play on have caught up, the round is theirs.
	want := map[string][]string{"b1": {b1game1}, "b3": {movetext(b3pgn)}}
	for _, id := range []string{"b1", "b2"} {
		p, err := boards[id].Local.PGN(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want[id] = append(want[id], movetext(p))
	}
	waitFor(t, "the round caught up after the restart", 20*time.Second, func() bool {
		_, body := r.get(t, "/broadcast/rounds/7.pgn")
		got = gamesByBoard(body)
		return equalGames(got, want)
	})
	if n := strings.Count(body, "[Event \"Olympiad\"]"); n != 4 {
		t.Logf("round 7:\n%s", body)
	}
	// The round's index lists every board of the round with its own URL.
	code, idx := r.get(t, "/broadcast/rounds/7/")
	if code != http.StatusOK || !strings.Contains(idx, `"games":4`) || !strings.Contains(idx, `"/broadcast/rounds/7/boards/b3.pgn"`) {
		t.Errorf("round 7's index: %d %s", code, idx)
	}
	code, one := r.get(t, "/broadcast/rounds/7/boards/b1.pgn")
	if g := gamesByBoard(one)["b1"]; code != http.StatusOK || len(g) != 2 || g[0] != b1game1 {
		t.Errorf("board b1's games of round 7: %d %v", code, g)
	}
}

func slicesContain(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func equalGames(got, want map[string][]string) bool {
	if len(got) != len(want) {
		return false
	}
	for id, w := range want {
		g := got[id]
		if len(g) != len(w) {
			return false
		}
		for i := range w {
			if g[i] != w[i] {
				return false
			}
		}
	}
	return true
}
