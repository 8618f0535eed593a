package arbiter

import (
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// square is the square named, for tables; it panics on a bad name.
func square(name string) board.Square {
	s, err := board.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

func TestPenaltyObligation(t *testing.T) {
	cases := []struct {
		name       string
		laws       string
		fen        string
		option     report.OptionID
		castleKing string // the castling the offending move attempted, if any
		want       *obligation
	}{
		{name: "the man moved must move", laws: "sarratt1808", fen: startWithoutRights, option: report.OptMoveTouched,
			want: &obligation{what: report.OptMoveTouched, square: square("e2")}},
		{name: "the own man taken must move", laws: "sarratt1808", fen: startWithoutRights, option: report.OptMoveTaken,
			want: &obligation{what: report.OptMoveTouched, square: square("d2")}},
		{name: "the adverse man must be taken", laws: "sarratt1808", fen: startWithoutRights, option: report.OptTakeTouched,
			want: &obligation{what: report.OptTakeTouched, square: square("d7")}},
		{name: "the king must move, castling allowed", laws: "sarratt1808", fen: castleBoth, option: report.OptKing,
			want: &obligation{what: report.OptKing, square: square("e1")}},
		{name: "the king must move, castling not (nycc:XI)", laws: "nycc", fen: castleBoth, option: report.OptKing,
			want: &obligation{what: report.OptKing, square: square("e1"), noCastle: true}},
		{name: "the rook of the false castling must move", laws: "sarratt1808", fen: castleBoth, option: report.OptRook, castleKing: "e1c1",
			want: &obligation{what: report.OptMoveTouched, square: square("a1")}},
		{name: "no rook to move", laws: "sarratt1808", fen: startWithoutRights, option: report.OptRook},
		{name: "castle", laws: "nycc", fen: castleBoth, option: report.OptCastle,
			want: &obligation{what: report.OptCastle, square: square("e1")}},
		{name: "an elected man must move", laws: "nycc", fen: startWithoutRights, option: report.MoveTouchedOn("b1"),
			want: &obligation{what: report.OptMoveTouched, square: square("b1")}},
		{name: "recall obliges nothing", laws: "nycc", fen: startWithoutRights, option: report.OptRecall},
		{name: "stand obliges nothing", laws: "nycc", fen: startWithoutRights, option: report.OptStand},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.laws, c.fen)
			target := analysis(t, c.fen)
			d := &decision{law: "law:1", offender: board.White, touched: sq(t, "e2"), taken: sq(t, "d2"), adverse: sq(t, "d7")}
			if c.castleKing != "" {
				d.castleKing = uci(t, c.castleKing)
			}
			got := h.g.penaltyObligation(d, c.option, target)
			if c.want == nil {
				if got != nil {
					t.Fatalf("obligation = %+v, want none", *got)
				}
				return
			}
			want := *c.want
			want.side, want.law = board.White, "law:1"
			if got == nil || *got != want {
				t.Fatalf("obligation = %+v, want %+v", got, want)
			}
		})
	}
}

// TestReplacementObligation checks what fide2023:7.5.1 binds the move that
// replaces an illegal one to, by the kind of illegal move.
func TestReplacementObligation(t *testing.T) {
	cases := []struct {
		name    string
		fen     string
		kind    report.Kind
		touched string // the man moved
		adverse string // the adverse man moved, if any
		want    *obligation
	}{
		{name: "the adverse man moved must be taken", fen: knightAttacksPawn, kind: report.KindMovedAdverse, touched: "d5", adverse: "d5",
			want: &obligation{what: report.OptTakeTouched, square: square("d5"), law: "fide2023:4.3.2"}},
		{name: "an adverse man that cannot be taken binds nothing", fen: startWithoutRights, kind: report.KindMovedAdverse, touched: "d7", adverse: "d7"},
		{name: "after a false castling the king must move", fen: castleBoth, kind: report.KindFalseCastling, touched: "h1",
			want: &obligation{what: report.OptMoveTouched, square: square("e1"), law: "fide2023:4.3.1"}},
		{name: "after a false move the man moved must move", fen: startWithoutRights, kind: report.KindFalseMove, touched: "g1",
			want: &obligation{what: report.OptMoveTouched, square: square("g1"), law: "fide2023:4.3.1"}},
		{name: "a man that cannot move binds nothing", fen: startWithoutRights, kind: report.KindFalseMove, touched: "a1"},
		{name: "successive moves bind nothing", fen: startWithoutRights, kind: report.KindSuccessive, touched: "g1"},
		{name: "nothing binds the side not to move", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1", kind: report.KindFalseMove, touched: "g1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, "fide2023", startWithoutRights)
			d := &decision{kind: c.kind, offender: board.White, touched: sq(t, c.touched), adverse: board.NoSquare}
			if c.adverse != "" {
				d.adverse = sq(t, c.adverse)
			}
			got := h.g.replacementObligation(d, analysis(t, c.fen))
			if c.want == nil {
				if got != nil {
					t.Fatalf("obligation = %+v, want none", *got)
				}
				return
			}
			want := *c.want
			want.side = board.White
			if got == nil || *got != want {
				t.Fatalf("obligation = %+v, want %+v", got, want)
			}
		})
	}
}

// TestSettlePendingBeforeMove checks what becomes of a touch-move choice
// left open when the offended player moves on: the right lapses and his
// move is judged, or (tournament mode) the arbiter exacts the penalty and
// the board goes back, his move with it.
func TestSettlePendingBeforeMove(t *testing.T) {
	cases := []struct {
		name       string
		tournament bool
		wantUndone bool
		wantRuling string
	}{
		{name: "the right lapses", wantRuling: "ruling stand by lapse sarratt1808:21"},
		{name: "the arbiter exacts the penalty", tournament: true, wantUndone: true, wantRuling: "ruling move-touched by arbiter sarratt1808:7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, "sarratt1808", startWithoutRights, func(o *Options) { o.Tournament = c.tournament })
			g1, b1 := h.touch("g1"), h.touch("b1")
			h.move("e2e4", g1, b1)
			if h.g.pending == nil {
				t.Fatal("no touch-move pending")
			}
			h.lines()
			reply := readingOf(h.g.Expectation().Analysis, uci(t, "e7e5"))
			if undone := h.g.settlePendingBeforeMove(h.now(), reply); undone != c.wantUndone {
				t.Errorf("undone = %v, want %v", undone, c.wantUndone)
			}
			if h.g.pending != nil {
				t.Error("the choice is still pending")
			}
			expectLines(t, h.lines(), c.wantRuling)
		})
	}
}
