package hwtest

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/serialport"
	"github.com/boardd/boardd/timing"
)

// rigBoardd is boardd's side of a rig test, in process: a game driven
// in real time by a runner, joined to the board on a serial link that opens
// the pty's path through go.bug.st/serial as it would a USB port.
type rigBoardd struct {
	runner *game.Runner
	pipe   *game.Game
	board  *serialport.Board
	logs   *rigLog
}

// rigLog collects boardd's log lines from several goroutines.
type rigLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *rigLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *rigLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func startRigBoardd(t *testing.T, path, laws string) *rigBoardd {
	t.Helper()
	logs := &rigLog{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	b, err := serialport.NewBoard(serialport.Options{Path: path, MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	p, err := game.New(game.Options{Laws: laws, Logger: logger}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewReal()
	r := game.NewRunner(p, clock)
	leds := led.NewDriver(b.Sink(), clock, logger)
	lighting.Follow(r, leds)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 3)
	go func() { r.Run(ctx); done <- struct{}{} }()
	go func() { b.Run(ctx, r); done <- struct{}{} }()
	go func() { leds.Run(ctx); done <- struct{}{} }()
	t.Cleanup(func() { cancel(); <-done; <-done; <-done })
	return &rigBoardd{runner: r, pipe: p, board: b, logs: logs}
}

// rigPlay plays scenario file name against an in-process boardd over a pty
// and returns the result and boardd's side.
func rigPlay(t *testing.T, name string) (*Result, *rigBoardd) {
	t.Helper()
	sc, err := ReadScenarioFile(filepath.Join("testdata", "rig", name))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cable, err := NewPTYCable(filepath.Join(t.TempDir(), "board"))
	if err != nil {
		t.Fatal(err)
	}
	bd := startRigBoardd(t, cable.Link, sc.Laws)
	rig, err := NewRig(RigOptions{Cable: cable, Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rig.Close() })
	res, err := rig.Play(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Write(&out)
	t.Log("\n" + out.String())
	if !res.Passed() {
		t.Errorf("scenario %s failed; boardd said:\n%s", name, bd.logs)
	}
	return res, bd
}

// game asks boardd's game for its PGN move text and move count.
func (bd *rigBoardd) game(t *testing.T) (pgn string, moves int) {
	t.Helper()
	err := bd.runner.Do(context.Background(), func(p *game.Game, now time.Duration) {
		pgn, moves = p.PGN(), p.Snapshot().Moves
	})
	if err != nil {
		t.Fatal(err)
	}
	return pgn, moves
}

func TestRigFullGame(t *testing.T) {
	res, bd := rigPlay(t, "full-game.jsonl")
	pgn, n := bd.game(t)
	if n != 15 || !strings.Contains(pgn, "3. exf6 Nc6 4. fxg7 Bd7 5. gxh8=Q Be6") || !strings.Contains(pgn, "8. O-O") {
		t.Errorf("boardd's game (%d moves):\n%s", n, pgn)
	}
	if len(res.Latency.Samples) < 30 {
		t.Errorf("only %d latency samples", len(res.Latency.Samples))
	}
	if res.Decoder.Dropped() != 0 || res.Session.Lost != 0 {
		t.Errorf("a clean line dropped %d frames and lost %d", res.Decoder.Dropped(), res.Session.Lost)
	}
}

func TestRigTouchMove(t *testing.T) {
	_, bd := rigPlay(t, "touch-move.jsonl")
	if pgn, n := bd.game(t); n != 1 || !strings.Contains(pgn, "1. Nf3") {
		t.Errorf("boardd's game (%d moves):\n%s", n, pgn)
	}
}

func TestRigUnplugMidMove(t *testing.T) {
	_, bd := rigPlay(t, "unplug.jsonl")
	pgn, n := bd.game(t)
	if n != 2 || !strings.Contains(pgn, "1. e4 e5") {
		t.Errorf("boardd's game (%d moves):\n%s", n, pgn)
	}
	st := bd.board.Link().Stats()
	if st.Losses != 1 || st.Opens != 2 {
		t.Errorf("link losses %d opens %d, want 1 and 2", st.Losses, st.Opens)
	}
	logs := bd.logs.String()
	for _, want := range []string{"board link lost", "board checked"} {
		if !strings.Contains(logs, want) {
			t.Errorf("boardd's log lacks %q:\n%s", want, logs)
		}
	}
}

func TestRigLineNoise(t *testing.T) {
	_, bd := rigPlay(t, "noise.jsonl")
	if pgn, n := bd.game(t); n != 3 || !strings.Contains(pgn, "1. d4 d5 2. c4") {
		t.Errorf("boardd's game (%d moves):\n%s", n, pgn)
	}
	st := bd.board.Link().Stats()
	if st.Decoder.Dropped() == 0 || st.Session.BadVersion != 1 {
		t.Errorf("boardd counted %d dropped frames and %d bad versions; want some and 1", st.Decoder.Dropped(), st.Session.BadVersion)
	}
}

func TestRigResult(t *testing.T) {
	rigPlay(t, "fools-mate.jsonl")
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
