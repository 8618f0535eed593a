package pair

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/voice"
)

// A take-back between paired boards is only by agreement: asked on one
// board, it stands on the other until that board's player agrees (both
// boards then take the same moves back, and the hands guided back by the
// lights set the men back) or plays on (refused, in words, on the asking
// board); in a tournament it is refused at once.
func TestTakeBackBetweenPairedBoards(t *testing.T) {
	for _, c := range []struct {
		name       string
		tournament bool
		moves      int    // both boards' moves when White asks
		agree      bool   // Black agrees; else he plays on
		plies      int    // the moves White asks to take back (his last and the reply: 0)
		wantPlies  int    // as Black's board says them
		refused    string // White's request refused at once, saying this
	}{
		{"his move and the reply, agreed", false, 2, true, 0, 2, ""},
		{"his move alone, agreed", false, 1, true, 1, 1, ""},
		{"refused by playing on", false, 1, false, 1, 1, ""},
		{"never in a tournament", true, 2, false, 0, 0, "tournament"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			la, lb := Pipe()
			o := game.Options{Laws: "fide2023", Tournament: c.tournament}
			white := newPairedBoardUnder(t, ctx, o, board.White, la, []string{"e2e4", "g1f3"}, voice.Words{})
			black := newPairedBoardUnder(t, ctx, o, board.Black, lb, []string{"e7e5", "b8c6"}, voice.Words{})
			defer cancel()
			playTo(t, ctx, c.moves, white, black)
			err := white.m.TakeBack(ctx, c.plies)
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("take-back: %v, want it refused saying %q", err, c.refused)
				}
				if black.p.State().TakeBackAsked {
					t.Error("a refused take-back was asked of the other board")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := white.p.State().TakeBack; got != TakeBackAsked {
				t.Errorf("White's request is %q, want %q", got, TakeBackAsked)
			}
			waitFor(t, ctx, "the request standing on Black's board", func() bool { return black.p.State().TakeBackAsked })
			if st := black.p.State(); st.TakeBackPlies != c.wantPlies || st.TakeBackTo != c.moves-c.wantPlies {
				t.Errorf("Black's board has the request as %d moves, to move %d; want %d, to %d", st.TakeBackPlies, st.TakeBackTo, c.wantPlies, c.moves-c.wantPlies)
			}
			if !c.agree {
				if _, err := black.hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == c.moves+1 }); err != nil {
					t.Fatal(err)
				}
				waitFor(t, ctx, "the request refused on White's board", func() bool { return white.p.State().TakeBack == TakeBackRefused })
				if s, _ := white.r.Snapshot(ctx); s.Moves != c.moves {
					t.Errorf("White's board took back after all: %d moves", s.Moves)
				}
				return
			}
			if err := black.m.TakeBack(ctx, 0); err != nil {
				t.Fatalf("agreeing: %v", err)
			}
			to := c.moves - c.wantPlies
			var wg sync.WaitGroup
			for i, b := range []*pairedBoard{white, black} {
				// Each board's hands wait for its take-back (White's
				// player may not play on meanwhile: that would take his
				// request back).
				waitFor(t, ctx, "the take-back on both boards", func() bool {
					s, err := b.r.Snapshot(ctx)
					return err == nil && s.Moves == to
				})
				wg.Add(1)
				go func() {
					defer wg.Done()
					// The hands set the men back as the lights guide them.
					s, err := b.hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == to && !s.Syncing && !s.HasAwaiting })
					if err != nil {
						t.Errorf("board %d: %v", i, err)
						return
					}
					if s.Position != board.Start() && to == 0 || s.Result != nil {
						t.Errorf("board %d after the take-back: %s, result %+v", i, s.Position.FEN(), s.Result)
					}
				}()
			}
			wg.Wait()
			for i, b := range []*pairedBoard{white, black} {
				if st := b.p.State(); st.Difference != nil || st.TakeBackAsked || st.TakeBack != "" {
					t.Errorf("board %d after the take-back: %+v", i, st)
				}
			}
			if got := white.m.State().Fault; got != "" {
				t.Errorf("White's match shows a fault: %s", got)
			}
		})
	}
}

// playTo has both boards' hands play (and carry out) until each has
// moves moves.
func playTo(t *testing.T, ctx context.Context, moves int, boards ...*pairedBoard) {
	t.Helper()
	var wg sync.WaitGroup
	for i, b := range boards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := b.hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == moves && !s.HasAwaiting }); err != nil {
				t.Errorf("board %d playing to move %d: %v", i, moves, err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}
