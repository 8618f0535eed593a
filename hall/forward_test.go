package hall_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
)

// The broker is killed mid-game (SIGKILL: it saves nothing, retained
// messages included) while three boards play on; one board's Pi reboots
// during the outage. When the broker is back every board sends what the hall
// has not acknowledged, from its journal: the hall's games equal the
// replays, no move lost and none twice.
func TestBrokerKilledMidGame(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, _ := startHall(t, config(t, br.URL(), "hall"))
	opts := gameOptions("fide2023")
	var ps []*player
	for i, uci := range testGames {
		id := fmt.Sprintf("b%d", i+1)
		p := &player{dir: boardDir(t, id), g: makeGame(t, uci)}
		p.b = startBoard(t, id, p.dir, config(t, br.URL(), id), opts)
		p.want = replayMoves(t, p.g, opts)
		ps = append(ps, p)
	}
	t.Cleanup(func() {
		for _, p := range ps {
			p.b.Close()
		}
	})
	ctx := ctxTimeout(t, 90*time.Second)
	play := func(from, to int) { t.Helper(); playMoves(t, ctx, ps, from, to) }
	held := func(n int) func() bool {
		return func() bool {
			for _, p := range ps {
				if len(hallMoves(h, p.b.ID())) < n {
					return false
				}
			}
			return true
		}
	}

	play(0, 6)
	waitFor(t, "6 moves of each board in the hall", 10*time.Second, held(6))

	if err := br.Kill(); err != nil {
		t.Fatal(err)
	}
	play(6, 10)
	// Board 2's Pi reboots: the daemon stops and starts again on its state
	// directory, restores its game from the journal and plays on.
	r := ps[1]
	if err := r.b.Close(); err != nil {
		t.Logf("closing b2 with the broker down: %v", err)
	}
	r.b = startBoard(t, "b2", r.dir, config(t, br.URL(), "b2"), opts)
	if got := len(r.b.Moves()); got != 10 {
		t.Fatalf("b2 restored %d moves from its journal, want 10", got)
	}
	play(10, 14)
	for _, p := range ps {
		if got := len(hallMoves(h, p.b.ID())); got != 6 {
			t.Fatalf("%s: the hall holds %d moves with the broker down, want 6", p.b.ID(), got)
		}
	}

	if err := br.Restart(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	waitFor(t, "14 moves of each board in the hall after the broker's restart", 20*time.Second, held(14))
	t.Logf("the hall caught up %v after the broker's restart", time.Since(start).Round(time.Millisecond))
	// The rebooted board sent what it played before the reboot from its
	// journal: nothing of it was in memory any more.
	if st := r.b.Uplink.Stats(); st.FromDisk == 0 {
		t.Errorf("b2 sent %d events after its reboot, none from its journal", st.Events)
	} else {
		t.Logf("b2 sent %d events from its journal after its reboot", st.FromDisk)
	}
	play(14, len(testGames[0]))

	for _, p := range ps {
		id := p.b.ID()
		waitFor(t, id+"'s game in the hall", 10*time.Second, func() bool { return len(hallMoves(h, id)) >= len(p.want) })
		if got := hallMoves(h, id); !slices.Equal(got, p.want) {
			t.Errorf("%s: the hall holds\n%v\nthe replay made\n%v", id, got, p.want)
		}
		applied, dups, gaps, _ := h.Board(id).Counts()
		t.Logf("%s: %d events taken, %d dropped as held already, %d as not following", id, applied, dups, gaps)
		if st := p.b.Uplink.Stats(); st.Connects < 2 && id != "b2" {
			t.Errorf("%s connected %d times: the outage went unnoticed", id, st.Connects)
		}
	}
}

// player is a board in a hall test with the game it plays and the moves
// the hall must end up holding.
type player struct {
	b    *halltest.Board
	g    testGame
	dir  string // its state directory, where a test restarts it
	want []string
}

// playMoves plays moves from to to of every player's game, all boards at
// once, and fails the test on the first board that could not.
func playMoves(t *testing.T, ctx context.Context, ps []*player, from, to int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(ps))
	for i, p := range ps {
		wg.Go(func() { errs[i] = p.b.PlayMoves(ctx, p.g.lines, p.g.ends, from, to) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
