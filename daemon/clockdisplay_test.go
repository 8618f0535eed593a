package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lichess/lichesstest"
	"github.com/boardd/boardd/online"
	"github.com/boardd/boardd/timing"
)

// readings records what a clock display shows, as the TM1637's digits.
type readings struct{ shown [][2][4]byte }

func (r *readings) Show(white, black time.Duration) error {
	r.shown = append(r.shown, [2][4]byte{led.TM1637Segments(white), led.TM1637Segments(black)})
	return nil
}
func (r *readings) Halt() error    { return nil }
func (r *readings) String() string { return "readings" }

func (r *readings) last() [2][4]byte {
	if len(r.shown) == 0 {
		return [2][4]byte{}
	}
	return r.shown[len(r.shown)-1]
}

// digits is how the display renders two times.
func digits(white, black time.Duration) [2][4]byte {
	return [2][4]byte{led.TM1637Segments(white), led.TM1637Segments(black)}
}

// During an online game the clock display shows lichess's clocks, not the
// board's: each state's figures, the side to move's counted down on the
// board's clock in between, in virtual time (lichess's and the board's).
func TestClockDisplayShowsLichessClocks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	serverClock := &lichesstest.Clock{}
	srv := lichesstest.New(lichesstest.Options{Clock: serverClock, Wait: serverClock.Wait})
	t.Cleanup(srv.Close)
	// The account plays Black; both first moves are made, so White's
	// clock runs.
	id, err := srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Moves: []string{"e2e4", "e7e5"},
		Clock: &lichesstest.GameClock{Initial: 15 * time.Minute, Increment: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	boardClock := &timing.Virtual{}
	runner := game.NewRunner(g, boardClock)
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = runner.Run(rctx) }()
	d, _ := testDaemon(t, Options{Lichess: true})
	d.runner, d.clock = runner, boardClock
	op := newOnlinePlay(t, srv, lichessPlay{})
	d.online, op.d = op, d

	disp := &readings{}
	warned := false
	show := func() [2][4]byte {
		t.Helper()
		if _, err := d.updateClockDisplay(ctx, disp, &warned); err != nil {
			t.Fatal(err)
		}
		return disp.last()
	}
	if got := show(); len(disp.shown) != 0 {
		t.Fatalf("no game and no time control, yet the display shows %v", got)
	}

	s, err := online.New(online.Options{Client: op.client, Runner: runner, GameID: id, Side: board.Black, Clock: boardClock})
	if err != nil {
		t.Fatal(err)
	}
	op.mu.Lock()
	op.session = s
	op.mu.Unlock()
	go func() { _ = s.Run(rctx) }()
	// until returns when the session's state satisfies ok.
	until := func(what string, ok func(online.State) bool) {
		t.Helper()
		for !ok(s.State()) {
			select {
			case <-ctx.Done():
				t.Fatalf("waiting for %s: %+v", what, s.State())
			case <-time.After(2 * time.Millisecond):
			}
		}
	}
	until("lichess's clocks", func(st online.State) bool { return st.Clocks != nil && st.Clocks.Running })

	steps := []struct {
		name         string
		board        time.Duration // the board's clock moves on by this
		lichessMove  string        // then the opponent moves on lichess after lichessAfter
		lichessAfter time.Duration
		want         [2][4]byte
	}{
		{name: "lichess's figures", want: digits(15*time.Minute, 15*time.Minute)},
		{name: "White's clock runs down", board: 61500 * time.Millisecond, want: digits(13*time.Minute+59*time.Second, 15*time.Minute)},
		{name: "half a second more reads the same", board: 400 * time.Millisecond, want: digits(13*time.Minute+59*time.Second, 15*time.Minute)},
		// White moves on lichess 62 s after its clock started: 15:00 - 62 s
		// + 10 s increment; now Black's runs.
		{name: "White moved on lichess", lichessMove: "g1f3", lichessAfter: 62 * time.Second, want: digits(14*time.Minute+8*time.Second, 15*time.Minute)},
		{name: "Black's clock runs down", board: 2500 * time.Millisecond, want: digits(14*time.Minute+8*time.Second, 14*time.Minute+58*time.Second)},
		{name: "far beyond the flag it reads 0:00", board: time.Hour, want: digits(14*time.Minute+8*time.Second, 0)},
	}
	for _, st := range steps {
		if st.lichessMove != "" {
			serverClock.Advance(st.lichessAfter)
			if err := srv.PlayOpponent(id, st.lichessMove); err != nil {
				t.Fatal(err)
			}
			until("the state after "+st.lichessMove, func(o online.State) bool { return o.Turn == board.Black })
		}
		boardClock.Set(boardClock.Now() + st.board)
		if got := show(); got != st.want {
			t.Errorf("%s: the display shows %v, want %v", st.name, got, st.want)
		}
	}
}
