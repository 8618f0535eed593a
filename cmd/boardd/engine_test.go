package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent/opponenttest"
)

const stockfishPath = "/usr/games/stockfish"

// crashOnce writes a fake UCI engine, a shell script, that exits while
// searching on its first start and is Stockfish from its second on.
func crashOnce(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "crash-once")
	script := fmt.Sprintf(`#!/bin/sh
# A fake UCI engine: it crashes while searching on its first start, then is Stockfish.
if [ ! -e %[1]q ]; then
  touch %[1]q
  while read -r line; do
    case "$line" in
      uci) echo "id name Fake 1.0"
           echo "option name UCI_LimitStrength type check default false"
           echo "option name UCI_Elo type spin default 1320 min 1320 max 3190"
           echo "uciok" ;;
      isready) echo "readyok" ;;
      go*) exit 3 ;;
      quit) exit 0 ;;
    esac
  done
fi
exec %[2]q
`, filepath.Join(dir, "started"), stockfishPath)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// engineHands are the player at the running binary's simulated board,
// reached through its console's API as the page reaches it, playing White
// with moves (in turn) and carrying out the engine's.
func engineHands(url string, moves ...string) (*opponenttest.Hands, *opponenttest.ConsoleDoor) {
	door := &opponenttest.ConsoleDoor{Board: url}
	i := 0
	return &opponenttest.Hands{Door: door, Human: board.White, Step: 30 * time.Millisecond, Timeout: 20 * time.Second,
		Choose: func(a *board.Analysis) board.Move {
			for range len(moves) {
				m, _ := board.ParseUCI(moves[i%len(moves)])
				i++
				for _, legal := range a.Moves {
					if legal == m {
						return m
					}
				}
			}
			return a.Moves[0]
		}}, door
}

// testEngine runs the real binary as README shows it,
// `boardd run --engine /usr/games/stockfish --engine-elo 1500` (with a
// short limit a move), on the simulated board, and plays it through the
// console's API: the player's moves and the engine's, carried out on the
// board; the state names the engine, its level and evaluation; a take-back
// from the API. Restarted on the same state directory with an engine that
// crashes while searching, the game is restored, the crash is recovered
// from (restarted, the position sent again) and shown as such, and play
// goes on. A missing engine is a usage error naming it.
func testEngine(t *testing.T, bin string) {
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Skipf("Stockfish is not installed (apt-get install stockfish): %v", err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := func(engine string) (*proc, string) {
		p := startBoardd(t, bin, daemonEnv(), "run", "--state-dir", dir, "--listen", "127.0.0.1:0",
			"--engine", engine, "--engine-elo", "1500", "--engine-limit", "movetime:50ms")
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("boardd's log:\n%s", p.stderr.String())
			}
		})
		return p, strings.TrimSuffix(p.console(t), "/state")
	}
	stop := func(p *proc) {
		p.cmd.Process.Signal(syscall.SIGTERM)
		if err := p.wait(t, 20*time.Second); err != nil {
			t.Errorf("boardd stopped with %v; stderr:\n%s", err, p.stderr.String())
		}
	}

	p, url := run(stockfishPath)
	h, door := engineHands(url, "e2e4", "g1f3", "f1c4", "d2d3", "b1c3", "c1e3")
	if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 4 }); err != nil {
		t.Fatalf("%v; stderr:\n%s", err, p.stderr.String())
	}
	st, err := door.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if o := st.Opponent; o == nil || !strings.HasPrefix(o.Name, "Stockfish") || o.Side != "black" || !strings.Contains(o.Level, "Elo 1500") {
		t.Errorf("opponent %+v", st.Opponent)
	}
	if h.Carried < 2 {
		t.Errorf("%d engine moves carried out", h.Carried)
	}
	// A take-back from the API: the player's last move and the reply; the
	// hands put the board back as lit.
	if err := door.Command(ctx, "takeback", ""); err != nil {
		t.Fatal(err)
	}
	if st, _ := door.State(ctx); len(st.Moves) != 2 || !st.Syncing {
		t.Errorf("after the take-back: %d moves, syncing %v", len(st.Moves), st.Syncing)
	}
	if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return !s.Syncing && s.Moves == 2 }); err != nil {
		t.Fatal(err)
	}
	stop(p)
	pgn := pgnOf(t, bin, dir)
	if !strings.Contains(pgn, `[Black "Stockfish`) || !strings.Contains(pgn, "Elo 1500") {
		t.Errorf("the PGN does not name the engine and its level:\n%s", pgn)
	}

	// The same game, now against an engine that crashes in its first
	// search: restarted and asked again, it moves.
	p, url = run(crashOnce(t))
	h, door = engineHands(url, "d2d3", "b1c3", "c1e3", "a2a3", "h2h3")
	if _, err := h.Play(ctx, func(s *game.Snapshot) bool { return s.Moves >= 6 }); err != nil {
		t.Fatalf("%v; stderr:\n%s", err, p.stderr.String())
	}
	st, err = door.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if o := st.Opponent; o == nil || !strings.Contains(o.Recovered, "crashed") || o.Fault != "" || !strings.HasPrefix(o.Name, "Stockfish") {
		t.Errorf("after the crash: opponent %+v; want a recovery from the crash, shown", st.Opponent)
	}
	if !strings.Contains(p.stderr.String(), "crashed") {
		t.Errorf("the log does not tell of the crash:\n%s", p.stderr.String())
	}
	stop(p)

	// A missing engine is refused before anything starts.
	out, err := exec.CommandContext(ctx, bin, "run", "--state-dir", t.TempDir(), "--listen", "127.0.0.1:0", "--engine", "/no/such/engine").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "/no/such/engine") {
		t.Errorf("a missing engine: %v\n%s", err, out)
	}
}
