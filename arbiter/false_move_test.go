package arbiter

import (
	"slices"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// falseReading is the reading of move m made in a, read as the false move
// kind by its mover.
func falseReading(a *board.Analysis, m board.Move, kind report.Kind) *gesture.Reading {
	man := a.Position.Men[m.From]
	after := a.Position
	after.Men[m.To], after.Men[m.From] = man, board.NoMan
	return &gesture.Reading{Move: m, Mover: man.Color(), False: kind, After: after.Men,
		Touches: []gesture.TouchMark{{Square: m.From, Man: man}}}
}

func TestFalseMoveRule(t *testing.T) {
	cases := []struct {
		name     string
		laws     string
		fen      string
		move     string
		kind     report.Kind
		wantKind report.Kind
		wantLaw  report.Law
		wantTook string
	}{
		{name: "a false move to an empty square", laws: "sarratt1808", fen: knightAttacksPawn, move: "c3d6", kind: report.KindFalseMove,
			wantKind: report.KindFalseMove, wantLaw: "sarratt1808:13", wantTook: "d6"},
		{name: "a false capture of an adverse man", laws: "sarratt1808", fen: "4k3/8/8/8/3p4/2N5/8/4K3 w - - 0 1", move: "c3d4", kind: report.KindFalseMove,
			wantKind: report.KindFalseMove, wantLaw: "sarratt1808:11", wantTook: "d4"},
		{name: "a false capture where the code has none", laws: "philidor1825", fen: "4k3/8/8/8/3p4/2N5/8/4K3 w - - 0 1", move: "c3d4", kind: report.KindFalseMove,
			wantKind: report.KindFalseMove, wantLaw: "philidor1825:VIII", wantTook: "d4"},
		{name: "an own man taken", laws: "sarratt1808", fen: startWithoutRights, move: "d1d2", kind: report.KindOwnCapture,
			wantKind: report.KindOwnCapture, wantLaw: "sarratt1808:12", wantTook: "d2"},
		{name: "a promotion on a wrong square (nycc:XII)", laws: "nycc", fen: "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", move: "b7d8", kind: report.KindFalseMove,
			wantKind: report.KindBadPromotion, wantLaw: "nycc:XII", wantTook: "d8"},
		{name: "the same under a code without that rule", laws: "sarratt1808", fen: "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", move: "b7d8", kind: report.KindFalseMove,
			wantKind: report.KindFalseMove, wantLaw: "sarratt1808:13", wantTook: "d8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.laws, c.fen)
			rd := falseReading(h.g.cur, uci(t, c.move), c.kind)
			kind, r, took := h.g.falseMoveRule(rd)
			if kind != c.wantKind || r.Law != c.wantLaw || took != sq(t, c.wantTook) {
				t.Errorf("falseMoveRule = %s %s took %s, want %s %s took %s", kind, r.Law, took, c.wantKind, c.wantLaw, c.wantTook)
			}
		})
	}
}

// TestFalseMoveRuleTookElsewhere checks that a man a false capture took off
// another square than the one moved to is the adverse man taken.
func TestFalseMoveRuleTookElsewhere(t *testing.T) {
	h := newHarness(t, "sarratt1808", "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1")
	rd := falseReading(h.g.cur, uci(t, "c3c6"), report.KindFalseMove)
	rd.Taken, rd.TookElsewhere = sq(t, "d5"), true
	if _, r, took := h.g.falseMoveRule(rd); took != sq(t, "d5") || r.Law != "sarratt1808:11" {
		t.Errorf("falseMoveRule took %s under %s, want d5 under sarratt1808:11", took, r.Law)
	}
}

func TestPositionAfterFalseMove(t *testing.T) {
	const blackMovesOutOfTurn = "4k3/8/8/8/8/8/8/R3K2R w KQ - 5 9"
	both := board.Right(board.White, true) | board.Right(board.White, false)
	cases := []struct {
		name         string
		fen          string
		move         string
		wantTurn     board.Color
		wantCastling board.Castling
		wantHalf     int
	}{
		{name: "the king moved off home loses both rights", fen: castleBoth, move: "e1e3", wantTurn: board.Black, wantCastling: 0, wantHalf: 1},
		{name: "a rook moved off home loses its right", fen: castleBoth, move: "h1f3", wantTurn: board.Black, wantCastling: board.Right(board.White, false), wantHalf: 1},
		{name: "a man of the side not to move keeps rights and counters", fen: blackMovesOutOfTurn, move: "e8e6", wantTurn: board.White, wantCastling: both, wantHalf: 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, "sarratt1808", c.fen)
			rd := falseReading(h.g.cur, uci(t, c.move), report.KindFalseMove)
			p := h.g.positionAfterFalseMove(rd)
			if p.Turn != c.wantTurn || p.Castling != c.wantCastling || p.HalfMoves != c.wantHalf || p.Men != rd.After {
				t.Errorf("position = turn %s castling %v half-moves %d, want turn %s castling %v half-moves %d, men as they stand",
					p.Turn, p.Castling, p.HalfMoves, c.wantTurn, c.wantCastling, c.wantHalf)
			}
		})
	}
}

func TestNoteMenConcerned(t *testing.T) {
	cases := []struct {
		name                   string
		fen                    string
		move                   string
		kind                   report.Kind
		wantAdverse, wantTaken string
		wantCastle             string
	}{
		{name: "the adverse man moved", fen: startWithoutRights, move: "d7d5", kind: report.KindMovedAdverse, wantAdverse: "d7", wantTaken: "-"},
		{name: "the own man taken", fen: startWithoutRights, move: "d1d2", kind: report.KindOwnCapture, wantAdverse: "-", wantTaken: "d2"},
		{name: "the castling attempted", fen: castleBarredShort, move: "e1g1", kind: report.KindFalseCastling, wantAdverse: "-", wantTaken: "-", wantCastle: "e1g1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, "sarratt1808", c.fen)
			rd := falseReading(h.g.cur, uci(t, c.move), c.kind)
			d := &decision{kind: c.kind, reading: rd, before: h.g.cur, adverse: board.NoSquare, taken: board.NoSquare}
			h.g.noteMenConcerned(d)
			if d.adverse.String() != c.wantAdverse || d.taken.String() != c.wantTaken {
				t.Errorf("adverse %s taken %s, want adverse %s taken %s", d.adverse, d.taken, c.wantAdverse, c.wantTaken)
			}
			var castle board.Move
			if c.wantCastle != "" {
				castle = uci(t, c.wantCastle)
			}
			if d.castleKing != castle {
				t.Errorf("castling noted %v, want %v", d.castleKing, castle)
			}
		})
	}
}

// TestOfferFalseMoveOptions checks the options a false move is offered
// beyond those its rule names, and those taken away.
func TestOfferFalseMoveOptions(t *testing.T) {
	const (
		kingFree   = "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"
		kingHemmed = "4k3/8/8/8/8/8/PP6/KB6 w - - 0 1"
	)
	stand, king, moveTouched := report.OptStand, report.OptKing, report.OptMoveTouched
	cases := []struct {
		name         string
		laws         string
		fen          string
		move         string
		rule         []report.OptionID
		kingFallback bool
		want         []report.OptionID
	}{
		{name: "the king, when it can move", laws: "philidor1825", fen: kingFree, move: "e1e3",
			rule: []report.OptionID{stand, king}, want: []report.OptionID{stand, king}},
		{name: "the recall, when no penalty can be carried out (philidor1825:VIII)", laws: "philidor1825", fen: kingHemmed, move: "b1b3",
			rule: []report.OptionID{stand, king}, want: []report.OptionID{stand, report.OptRecall}},
		{name: "no recall where the law names no penalty", laws: "philidor1825", fen: kingHemmed, move: "b1b3",
			rule: []report.OptionID{stand}, want: []report.OptionID{stand}},
		{name: "no waiver once a king is taken", laws: "philidor1825", fen: "4k3/8/8/8/8/8/8/4K2R w - - 0 1", move: "h1e8",
			rule: []report.OptionID{stand, king}, want: []report.OptionID{king}},
		{name: "the king beside another penalty", laws: "hastings1895", fen: kingFree, move: "g1g4",
			rule: []report.OptionID{moveTouched, king}, want: []report.OptionID{moveTouched, king}},
		{name: "the king only as a fallback (hastings1895:IV)", laws: "hastings1895", fen: kingFree, move: "g1g4",
			rule: []report.OptionID{moveTouched, king}, kingFallback: true, want: []report.OptionID{moveTouched}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.laws, c.fen)
			rd := falseReading(h.g.cur, uci(t, c.move), report.KindFalseMove)
			d := &decision{kind: report.KindFalseMove, offender: board.White, reading: rd, before: h.g.cur, touched: rd.Move.From, adverse: board.NoSquare, taken: board.NoSquare}
			physical := h.g.positionAfterFalseMove(rd)
			h.g.offerFalseMoveOptions(d, c.rule, c.kingFallback, &physical)
			var got []report.OptionID
			for _, o := range d.options {
				got = append(got, o.ID)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("options %v, want %v", got, c.want)
			}
		})
	}
}
