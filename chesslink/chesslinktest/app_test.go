package chesslinktest_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/chesslink"
	"github.com/boardd/boardd/chesslink/chesslinktest"
)

// The app speaks to a real emulator: replies, statuses and silence are
// told apart, and a port closed and made again is found by the emulator.
func TestAppSpeaksToTheEmulator(t *testing.T) {
	link := filepath.Join(t.TempDir(), "board")
	app := chesslinktest.Open(t, link)
	e := chesslink.NewEmulator(chesslink.Options{MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	start := board.Start().Men
	if err := e.SetPlacement(start); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = e.Serve(ctx, link) }()
	defer func() { cancel(); wg.Wait() }()

	app.Send("W0201")
	app.Expect("w0201")
	app.Drain()
	app.Send("S")
	if got := app.NextStatus(); got != start {
		t.Errorf("status %s", chesslinktest.FEN(got))
	}
	app.Write([]byte("V57")) // a bad check
	if n := app.Silence(100 * time.Millisecond); n != 0 {
		t.Errorf("%d statuses", n)
	}
	app.Close()
	app = chesslinktest.Open(t, link)
	app.Send("V")
	app.Expect("v0103")
	if got, want := chesslinktest.FEN(chesslinktest.Placement(t, board.StartFEN)), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"; got != want {
		t.Errorf("Placement and FEN: %s", got)
	}
}
