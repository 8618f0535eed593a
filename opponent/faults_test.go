package opponent_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/boardd/boardd/opponent"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/computer"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent/opponenttest"
	"github.com/boardd/boardd/report"
)

// misbehaving writes a fake engine, a shell script, that misbehaves on its
// first bad starts as mode says (crash: exits while searching; hang: never
// answers "go", nor "stop"; garbage: answers a move that is none) and is
// Stockfish from then on. It counts its starts in the file starts beside
// it, which a test may rewrite.
func misbehaving(t *testing.T, mode string, bad int) string {
	t.Helper()
	sf := stockfish(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "fake-engine")
	script := fmt.Sprintf(`#!/bin/sh
# A fake UCI engine that misbehaves (%[1]s) on its first %[2]d starts, then is Stockfish.
n=$(cat %[3]q 2>/dev/null || echo 0)
n=$((n+1))
echo $n > %[3]q
if [ $n -gt %[2]d ]; then exec %[4]q; fi
while read -r line; do
  case "$line" in
    uci) echo "id name Fake 1.0"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      echo "info depth 1 score cp 20 pv e7e5"
      case %[1]q in
        crash) exit 3 ;;
        garbage) echo "bestmove zz9" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
`, mode, bad, filepath.Join(dir, "starts"), sf)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// quickEngine starts an engine at path with the fault timings shortened,
// so that a hang is seen within a second (the handshake keeps a long
// timeout: Stockfish on a loaded machine may take seconds to start).
func quickEngine(t *testing.T, path string) (*opponent.Engine, error) {
	t.Helper()
	l, _ := computer.ParseLevel("movetime:100ms")
	p, err := computer.Start(context.Background(), computer.Options{
		Path: path, Level: l, Grace: 200 * time.Millisecond, StopGrace: 200 * time.Millisecond,
		HandshakeTimeout: 15 * time.Second, MinBackoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
	})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { p.Close() })
	return opponent.NewEngine(p), nil
}

// An engine that crashes, hangs or answers garbage while the game goes on:
// it is restarted, given the position again, and its move comes; the fault
// is shown as one recovered from, and the game is kept (nothing but the
// engine's move is recorded).
func TestMisbehavingEngineRecovers(t *testing.T) {
	for _, mode := range []string{"crash", "hang", "garbage"} {
		t.Run(mode, func(t *testing.T) {
			eng, err := quickEngine(t, misbehaving(t, mode, 1))
			if err != nil {
				t.Fatal(err)
			}
			b := newBoard(t, game.Options{})
			m := startMatch(t, b, opponent.Options{Player: eng, Side: opponent.Black})
			h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4", "d2d4")}
			play(t, h, func(s *game.Snapshot) bool { return s.Moves == 4 })
			st := m.State()
			want := map[string]string{"crash": "crashed while searching", "hang": "hung while searching", "garbage": "answered garbage while searching"}[mode]
			if !strings.Contains(st.Recovered, want) || st.Fault != "" {
				t.Errorf("recovered %q, fault %q; want a recovery from %q", st.Recovered, st.Fault, want)
			}
			if st.Name != "Stockfish 15.1" && !strings.HasPrefix(st.Name, "Stockfish") {
				t.Errorf("name %q after the restart", st.Name)
			}
			if rs := b.reportsOf(report.Move); len(rs) != 4 {
				t.Errorf("%d moves", len(rs))
			}
			for _, typ := range []report.Type{report.Irregularity, report.Mismatch} {
				if rs := b.reportsOf(typ); len(rs) > 0 {
					t.Errorf("%s: %+v", typ, rs)
				}
			}
		})
	}
}

// An engine that crashes at every start: the player gives up, the match
// shows the fault and the game waits, keeping its moves; once the engine
// can start again (here: it becomes Stockfish), the question is asked again
// and the game goes on. A missing engine is refused at the start, with
// its path.
func TestBrokenEngineKeepsTheGame(t *testing.T) {
	path := misbehaving(t, "crash", 1000)
	eng, err := quickEngine(t, path)
	if err != nil {
		t.Fatal(err)
	}
	b := newBoard(t, game.Options{})
	m := startMatch(t, b, opponent.Options{Player: eng, Side: opponent.Black, RetryAfter: 300 * time.Millisecond})
	h := &opponenttest.Hands{Door: b.r, Human: board.White, Choose: fixed("e2e4")}
	play(t, h, func(s *game.Snapshot) bool { return s.Moves == 1 })
	eventually(t, "the fault to show", func() bool { return m.State().Fault != "" })
	t.Logf("fault: %s", m.State().Fault)
	st := m.State()
	if !strings.Contains(st.Fault, "crashed") || !strings.Contains(st.Fault, path) {
		t.Errorf("fault %q: want it to say the engine crashed and name it", st.Fault)
	}
	if s := snap(t, b); s.Moves != 1 || s.HasAwaiting || s.Result != nil {
		t.Errorf("game not kept: %d moves, awaiting %v, result %v", s.Moves, s.HasAwaiting, s.Result)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "starts"), []byte("5000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the engine's move once it starts again", func() bool { return snap(t, b).HasAwaiting })
	eventually(t, "the fault to clear", func() bool { return m.State().Fault == "" })

	_, err = quickEngine(t, filepath.Join(t.TempDir(), "no-such-engine"))
	var fe *computer.FaultError
	if !errors.As(err, &fe) || fe.Fault != computer.FaultMissing || !strings.Contains(err.Error(), "no-such-engine") {
		t.Errorf("a missing engine: %v", err)
	}
}
