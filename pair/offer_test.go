package pair

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/voice"
)

// A draw offered on one paired board goes to the other with the move it
// is made after (fide2023:9.1.2.1; under an older code, which says nothing
// of draw offers, alike, no law cited): it stands there until that
// board's player accepts it, ending the game drawn on both boards, or
// declines it by making his next move, and it lapses with that move.
func TestDrawOfferGoesToTheOtherBoard(t *testing.T) {
	for _, c := range []struct {
		name    string
		laws    string
		before  bool   // offered before White's move (it goes with the move)
		accept  bool   // Black accepts; else he moves
		touched bool   // Black lifts a man before accepting: declined
		law     string // the law the offer rests on, as Black's board has it
	}{
		{"accepted", "fide2023", false, true, false, "fide2023:9.1.2.1"},
		{"offered before the move, accepted", "fide2023", true, true, false, "fide2023:9.1.2.1"},
		{"declined by moving", "fide2023", false, false, false, "fide2023:9.1.2.1"},
		{"declined by touching a man", "fide2023", false, true, true, "fide2023:9.1.2.1"},
		{"accepted under Sarratt", "sarratt1808", false, true, false, ""},
		{"declined by moving under Sarratt", "sarratt1808", false, false, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			la, lb := Pipe()
			white := newPairedBoardUnder(t, ctx, game.Options{Laws: c.laws}, board.White, la, []string{"e2e4", "g1f3"}, voice.Words{})
			black := newPairedBoardUnder(t, ctx, game.Options{Laws: c.laws}, board.Black, lb, []string{"e7e5"}, voice.Words{})
			defer cancel()
			if c.before {
				if err := white.m.OfferDraw(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := white.hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == 1 }); err != nil {
				t.Fatal(err)
			}
			if !c.before {
				if err := white.m.OfferDraw(ctx); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, ctx, "the offer standing on Black's board", func() bool { return black.p.State().DrawOffered })
			if got := black.p.State().Law; got != c.law {
				t.Errorf("the offer rests on %q, want %q", got, c.law)
			}
			if white.p.State().DrawOffered {
				t.Error("White's board shows its own player's offer as the other's")
			}
			if c.accept {
				if err := black.m.OfferDraw(ctx); err == nil || !strings.Contains(err.Error(), "carry out the other board's move first") {
					t.Fatalf("accepting before White's move is carried out: %v, want it refused", err)
				}
				if _, err := black.hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == 1 && !s.HasAwaiting }); err != nil {
					t.Fatal(err)
				}
				if c.touched {
					// fide2023:9.1.2.1: touching a man to move him declines.
					g8, _ := board.ParseSquare("g8")
					err := black.r.Do(ctx, func(g *game.Game, now time.Duration) {
						g.Event(sensor.Event{T: now, Kind: sensor.Lift, Square: g8})
					})
					if err != nil {
						t.Fatal(err)
					}
					if err := black.m.OfferDraw(ctx); err == nil || !strings.Contains(err.Error(), "touched a man") {
						t.Fatalf("accepting with a man in hand: %v, want the offer lapsed", err)
					}
					return
				}
				if err := black.m.OfferDraw(ctx); err != nil {
					t.Fatalf("accepting: %v", err)
				}
				for i, b := range []*pairedBoard{white, black} {
					waitFor(t, ctx, "the result on both boards", func() bool {
						s, err := b.r.Snapshot(ctx)
						return err == nil && s.Result != nil
					})
					if s, _ := b.r.Snapshot(ctx); s.Result.Result != "1/2-1/2" || s.Result.Reason != "draw agreed" {
						t.Errorf("board %d: result %+v, want a draw agreed", i, s.Result)
					}
				}
				waitFor(t, ctx, "White's offer accepted", func() bool { return white.m.State().Draw == opponent.DrawAccepted })
				waitFor(t, ctx, "the offer gone with the game", func() bool { return !black.p.State().DrawOffered })
				return
			}
			if _, err := black.hands.Play(ctx, func(s *game.Snapshot) bool { return s.Moves == 2 }); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "White's offer declined", func() bool { return white.m.State().Draw == opponent.DrawDeclined })
			waitFor(t, ctx, "the offer lapsed on Black's board", func() bool { return !black.p.State().DrawOffered })
			if stands, ok := black.p.DrawOffer(); ok || stands != nil {
				t.Error("the lapsed offer can still be accepted")
			}
			if err := black.m.OfferDraw(ctx); err != nil {
				t.Fatalf("Black's own offer: %v", err)
			}
			for i, b := range []*pairedBoard{white, black} {
				if s, _ := b.r.Snapshot(ctx); s.Result != nil {
					t.Errorf("board %d: a declined offer ended the game: %+v", i, s.Result)
				}
			}
		})
	}
}
