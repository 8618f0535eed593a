package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/daemon"
	"github.com/boardd/boardd/lichess/lichesstest"
	"github.com/boardd/boardd/trace"
)

// hands writes the lift and place lines of moves made on the simulated
// board, 150 ms apart; a capture is written with an x at the end (h5f7x).
type hands struct {
	t  *testing.T
	at time.Duration
}

func (h *hands) move(uci string) []trace.Line {
	capture := strings.HasSuffix(uci, "x")
	m, err := board.ParseUCI(strings.TrimSuffix(uci, "x"))
	if err != nil {
		h.t.Fatal(err)
	}
	var out []trace.Line
	gestures := []trace.Line{{Kind: trace.Lift, Square: m.From}, {Kind: trace.Place, Square: m.To}}
	if capture {
		gestures = []trace.Line{{Kind: trace.Lift, Square: m.From}, {Kind: trace.Lift, Square: m.To}, {Kind: trace.Place, Square: m.To}}
	}
	for _, l := range gestures {
		h.at += 150 * time.Millisecond
		l.T = h.at
		out = append(out, l)
	}
	return out
}

// TestBinaryOnline plays a lichess game in the real boardd binary against
// a local lichess (given by $BOARDD_LICHESS_URL, as only tests do), kills
// boardd with SIGKILL after the board's move has been sent and before the
// opponent's reply is carried out, starts it again, and plays the game to
// its mate: the game in progress is found on lichess and in the journal,
// no move is sent twice, the PGN's Site is the game's URL; and a revoked
// token stops boardd with a message saying what to do, without the token.
func TestBinaryOnline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the boardd binary")
	}
	bin := buildBoardd(t)
	srv := lichesstest.New(lichesstest.Options{GameKeepAlive: 500 * time.Millisecond, EventKeepAlive: 500 * time.Millisecond})
	t.Cleanup(srv.Close)
	id, err := srv.CreateGame(lichesstest.GameSpec{Side: board.White, Rated: true, Clock: &lichesstest.GameClock{Initial: 15 * time.Minute, Increment: 10 * time.Second},
		Opponent: lichesstest.Opponent{Name: "Rival", Rating: 1650, Moves: []string{"e7e5", "b8c6", "g8f6"}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lichess-token"), []byte(srv.Token()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := daemonEnv("BOARDD_INPUT=-", daemon.LichessURLEnv+"="+srv.URL())
	args := []string{"run", "--lichess", "--state-dir", dir, "--listen", "127.0.0.1:0", "--log-level", "debug"}
	lichessMoves := func(n int) {
		t.Helper()
		waitFor(t, 15*time.Second, "lichess's game at "+string(rune('0'+n))+" moves", func() bool {
			v, _ := srv.Game(id)
			return len(v.Moves) >= n
		})
	}
	h := &hands{t: t}
	p := startBoardd(t, bin, env, args...)
	defer func() {
		if t.Failed() {
			t.Logf("boardd said:\n%s", p.stderr.String())
		}
	}()
	waitFor(t, 15*time.Second, "the game found on lichess", func() bool { return p.logLines("lichess: playing", "game="+id) == 1 })
	p.feed(t, h.move("e2e4"))
	lichessMoves(2)
	p.feed(t, append(h.move("e7e5"), h.move("f1c4")...))
	lichessMoves(4) // f1c4 sent, b8c6 the reply
	time.Sleep(300 * time.Millisecond)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done

	h.at = 0
	p = startBoardd(t, bin, env, args...)
	waitFor(t, 15*time.Second, "the game resumed", func() bool {
		return p.logLines("lichess: the board's journal holds the game", "moves=3") == 1 || p.logLines("lichess: the board's journal holds the game", "moves=4") == 1
	})
	p.feed(t, append(h.move("b8c6"), h.move("d1h5")...))
	lichessMoves(6)
	p.feed(t, append(h.move("g8f6"), h.move("h5f7x")...))
	waitFor(t, 15*time.Second, "the mate on lichess", func() bool { v, _ := srv.Game(id); return v.Status == "mate" })
	waitFor(t, 10*time.Second, "the game over on the board", func() bool { return p.logLines("lichess: the game is over") == 1 })
	v, _ := srv.Game(id)
	if got := strings.Join(v.Moves, " "); got != "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7" {
		t.Errorf("lichess's moves: %s", got)
	}
	played := map[int]int{}
	for _, post := range srv.MovePosts() {
		if post.Played {
			played[post.Ply]++
		}
	}
	for ply, n := range played {
		if n != 1 {
			t.Errorf("ply %d played %d times", ply, n)
		}
	}
	p.cmd.Process.Signal(os.Interrupt)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Errorf("boardd: %v", err)
	}
	pgn := pgnOf(t, bin, dir)
	for _, want := range []string{`[Site "` + srv.URL() + "/" + id + `"]`, `[Black "Rival"]`, `[BlackElo "1650"]`, "4. Qxf7#", `[Result "1-0"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("the PGN lacks %s:\n%s", want, pgn)
		}
	}
	if strings.Contains(p.stderr.String(), srv.Token()) {
		t.Error("boardd logged the token")
	}

	// A game begun elsewhere, with moves the board's journal does not
	// hold: the board begins it from the start and is guided through
	// lichess's moves (its own side's shown as a hint, the opponent's to
	// carry out); once caught up, the board's next move goes to lichess,
	// and nothing already on lichess is sent again.
	elsewhere, err := srv.CreateGame(lichesstest.GameSpec{Side: board.White, Moves: []string{"d2d4", "d7d5", "c2c4"},
		Opponent: lichesstest.Opponent{Name: "Elsewhere", Moves: []string{"e7e6", "g8f6"}}})
	if err != nil {
		t.Fatal(err)
	}
	fresh := t.TempDir()
	if err := os.WriteFile(filepath.Join(fresh, "lichess-token"), []byte(srv.Token()), 0o600); err != nil {
		t.Fatal(err)
	}
	h.at = 0
	p = startBoardd(t, bin, env, "run", "--lichess", "--state-dir", fresh, "--listen", "127.0.0.1:0", "--log-level", "debug")
	waitFor(t, 15*time.Second, "the game begun elsewhere taken up", func() bool {
		return p.logLines("lichess: playing", "game="+elsewhere) == 1 && p.logLines("begun elsewhere") == 1
	})
	waitFor(t, 15*time.Second, "lichess's first move shown for the board", func() bool {
		return p.logLines("a move of the board's side made on lichess; shown for the board", "move=d2d4") >= 1
	})
	p.feed(t, h.move("d2d4"))
	p.feed(t, h.move("d7d5")) // the opponent's move, carried out
	waitFor(t, 15*time.Second, "lichess's third move shown for the board", func() bool {
		return p.logLines("a move of the board's side made on lichess; shown for the board", "move=c2c4") >= 1
	})
	p.feed(t, h.move("c2c4"))
	p.feed(t, h.move("e7e6")) // the opponent's reply on lichess, carried out
	p.feed(t, h.move("b1c3")) // the board's own move
	waitFor(t, 15*time.Second, "the board's move on lichess", func() bool {
		v, _ := srv.Game(elsewhere)
		return len(v.Moves) >= 5
	})
	if v, _ := srv.Game(elsewhere); !strings.HasPrefix(strings.Join(v.Moves, " "), "d2d4 d7d5 c2c4 e7e6 b1c3") {
		t.Errorf("lichess's moves: %v", v.Moves)
	}
	if posts := len(srv.MovePosts()); posts != 5 {
		t.Errorf("%d move POSTs, want the first game's 4 and b1c3", posts)
	}
	p.cmd.Process.Signal(os.Interrupt)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Errorf("boardd: %v", err)
	}
	if pgn := pgnOf(t, bin, fresh); !strings.Contains(pgn, "1. d4 d5 2. c4 e6 3. Nc3") {
		t.Errorf("the board's PGN of the game begun elsewhere:\n%s", pgn)
	}

	// A revoked token: boardd stops at once and says what to do.
	srv.RevokeToken(srv.Token())
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "create a new personal token") || strings.Contains(string(out), srv.Token()) {
		t.Errorf("with a revoked token: %v\n%s", err, out)
	}
}
