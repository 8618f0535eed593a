package arbiter

import (
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// TestUnnamedPromotion checks each law-set's way with a pawn set on the last
// rank without its new man named.
func TestUnnamedPromotion(t *testing.T) {
	const pawnOnSeventh = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
	cases := []struct {
		name        string
		laws        string
		clocked     bool
		byClock     bool // the move completed by its player's clock press
		wantJudged  bool
		wantMoves   int         // moves recorded
		wantPending report.Kind // the irregularity left pending, if any
		wantIllegal int         // illegal moves counted (fide2023:7.5.5)
	}{
		{name: "a queen (sarratt1808:22)", laws: "sarratt1808"},
		{name: "a queen, the move illegal (fide2023:7.5.2)", laws: "fide2023", wantJudged: true, wantMoves: 1, wantIllegal: 1},
		{name: "a queen, the clock not pressed yet (fide2023:6.2.1)", laws: "fide2023", clocked: true},
		{name: "a queen, the move illegal once the clock is pressed (fide2023:7.5.2)", laws: "fide2023", clocked: true, byClock: true, wantJudged: true, wantMoves: 1, wantIllegal: 1},
		{name: "the move incomplete until named (hastings1895:X)", laws: "hastings1895", wantJudged: true, wantPending: report.KindBadPromotion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.laws, pawnOnSeventh, func(o *Options) { o.Clocked = c.clocked })
			rd := readingOf(h.g.cur, uci(t, "b7b8"))
			rd.CompletedBy = gesture.BySettle
			if c.byClock {
				rd.CompletedBy = gesture.ByClock
			}
			judged := h.g.unnamedPromotion(h.now(), rd)
			if judged != c.wantJudged {
				t.Fatalf("judged = %v, want %v", judged, c.wantJudged)
			}
			if rd.Move.Promo != board.Queen {
				t.Errorf("the move reads %s, want the queen named", rd.Move.UCI())
			}
			if n := h.g.MoveCount(); n != c.wantMoves {
				t.Errorf("%d moves recorded, want %d", n, c.wantMoves)
			}
			var pending report.Kind
			if h.g.pending != nil {
				pending = h.g.pending.kind
			}
			if pending != c.wantPending {
				t.Errorf("pending %q, want %q", pending, c.wantPending)
			}
			if h.g.illegal[board.White] != c.wantIllegal {
				t.Errorf("%d illegal moves counted, want %d", h.g.illegal[board.White], c.wantIllegal)
			}
		})
	}
}

// TestNamePromotion checks that the man named for a pawn awaiting its name
// (hastings1895:X) is the one recorded.
func TestNamePromotion(t *testing.T) {
	h := newHarness(t, "hastings1895", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	h.g.awaitPromotionName(h.now(), readingOf(h.g.cur, uci(t, "b7b8")))
	d := h.g.pending
	if d == nil || len(d.options) != 4 {
		t.Fatalf("pending %+v, want bad-promotion with four men to name", d)
	}
	h.g.pending = nil
	h.g.namePromotion(h.now(), d, report.OptPromoteN)
	if got, _ := h.g.LastMove(); got.UCI() != "b7b8n" {
		t.Errorf("recorded %s, want b7b8n", got.UCI())
	}
	if got := h.g.Position().Men[sq(t, "b8")]; got != board.NewMan(board.White, board.Knight) {
		t.Errorf("b8 holds %v, want a white knight", got)
	}
}
