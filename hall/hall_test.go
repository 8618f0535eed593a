package hall_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
)

// Three boards play their games through a real Mosquitto; the hall's games
// equal the replays of the same traces move for move, and its PGN the
// boards' own.
func TestThreeBoardsReplay(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, _ := startHall(t, config(t, br.URL(), "hall"))
	opts := gameOptions("fide2023")
	var boards []*halltest.Board
	var games []testGame
	for i, uci := range testGames {
		id := fmt.Sprintf("b%d", i+1)
		b := startBoard(t, id, boardDir(t, id), config(t, br.URL(), id), opts)
		t.Cleanup(func() { b.Close() })
		boards = append(boards, b)
		games = append(games, makeGame(t, uci))
	}
	ctx := ctxTimeout(t, 60*time.Second)
	var wg sync.WaitGroup
	errs := make([]error, len(boards))
	for i, b := range boards {
		wg.Go(func() { errs[i] = b.PlayMoves(ctx, games[i].lines, games[i].ends, 0, len(games[i].ends)) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, b := range boards {
		want := replayMoves(t, games[i], opts)
		if len(want) != len(testGames[i]) {
			t.Fatalf("%s: the replay made %d moves of %d", b.ID(), len(want), len(testGames[i]))
		}
		waitFor(t, b.ID()+"'s moves in the hall", 10*time.Second, func() bool { return len(hallMoves(h, b.ID())) >= len(want) })
		if got := hallMoves(h, b.ID()); !slices.Equal(got, want) {
			t.Errorf("%s: the hall holds\n%v\nthe replay made\n%v", b.ID(), got, want)
		}
		// The PGN the hall broadcasts is the board's, with the hall's tags.
		bpgn, err := b.Local.PGN(ctx)
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, b.ID()+"'s PGN in the hall", 5*time.Second, func() bool {
			hpgn, err := h.Board(b.ID()).PGN(ctx)
			return err == nil && movetext(hpgn) == movetext(bpgn)
		})
		// QoS 1 and the resend on connecting may deliver an event twice, or
		// late; the hall drops and heals them, so what counts is the equal
		// games above. The counts say how much work that took.
		if _, dups, gaps, _ := h.Board(b.ID()).Counts(); dups != 0 || gaps != 0 {
			t.Logf("%s: %d duplicates and %d gaps dropped or healed with the broker up throughout", b.ID(), dups, gaps)
		}
	}
}

// movetext returns a PGN's moves, without its tags.
func movetext(pgn string) string {
	var out []string
	for _, l := range strings.Split(pgn, "\n") {
		if !strings.HasPrefix(l, "[") {
			out = append(out, l)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
