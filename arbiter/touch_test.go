package arbiter

import (
	"slices"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/report"
)

// Positions the touch-move pieces are tried on.
const (
	// White may castle either side; a black rook on f8 would bar the short
	// castling in castleBarredShort.
	castleBoth         = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	castleBarredShort  = "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	enPassantOnD6      = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
	knightAttacksPawn  = "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1"
	startWithoutRights = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
)

func analysis(t *testing.T, fen string) *board.Analysis {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	a, err := board.Analyse(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func uci(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func squares(t *testing.T, names ...string) []board.Square {
	t.Helper()
	var out []board.Square
	for _, n := range names {
		out = append(out, sq(t, n))
	}
	return out
}

// readingOf is the reading of legal move m made in a, with only the man
// moved touched.
func readingOf(a *board.Analysis, m board.Move) *gesture.Reading {
	man := a.Position.Men[m.From]
	return &gesture.Reading{Move: m, Mover: man.Color(), Legal: true, After: a.Position.Apply(m).Men,
		Touches: []gesture.TouchMark{{Square: m.From, Man: man}}}
}

func hasOption(options []report.Option, id report.OptionID) bool {
	return slices.ContainsFunc(options, func(o report.Option) bool { return o.ID == id })
}

func TestTouchHonoured(t *testing.T) {
	cases := []struct {
		name, fen, move, touched string
		want                     bool
	}{
		{"the man moved", startWithoutRights, "e2e4", "e2", true},
		{"the square moved to", knightAttacksPawn, "c3d5", "d5", true},
		{"another man", startWithoutRights, "e2e4", "d2", false},
		{"the pawn taken en passant", enPassantOnD6, "e5d6", "d5", true},
		{"the rook castled with", castleBoth, "e1g1", "h1", true},
		{"the other rook", castleBoth, "e1g1", "a1", false},
		{"a rook the king passes by", castleBoth, "e1f1", "h1", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysis(t, c.fen)
			if got := touchHonoured(&a.Position, uci(t, c.move), sq(t, c.touched)); got != c.want {
				t.Errorf("touchHonoured(%s, %s) = %v, want %v", c.move, c.touched, got, c.want)
			}
		})
	}
}

func TestObligationKept(t *testing.T) {
	const twoTakers = "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1" // e4 and c3 can both take d5
	cases := []struct {
		name     string
		fen      string
		what     report.OptionID
		square   string
		noCastle bool
		move     string
		bound    string // the own man the penalty is bound to: the taker (fide2023:4.3.3) or the rook (4.4.1); "" any
		want     bool
	}{
		{"king moved", castleBoth, report.OptKing, "e1", false, "e1f1", "", true},
		{"king castled where it may", castleBoth, report.OptKing, "e1", false, "e1g1", "", true},
		{"king castled where it may not (nycc:XI)", castleBoth, report.OptKing, "e1", true, "e1g1", "", false},
		{"rook moved for the king", castleBoth, report.OptKing, "e1", false, "h1h2", "", false},
		{"touched man moved", startWithoutRights, report.OptMoveTouched, "e2", false, "e2e4", "", true},
		{"another man moved", startWithoutRights, report.OptMoveTouched, "e2", false, "d2d4", "", false},
		{"rook owed, rook moved", castleBoth, report.OptRook, "h1", false, "h1h5", "", true},
		{"man taken", knightAttacksPawn, report.OptTakeTouched, "d5", false, "c3d5", "", true},
		{"man not taken", knightAttacksPawn, report.OptTakeTouched, "d5", false, "c3e4", "", false},
		{"man taken en passant", enPassantOnD6, report.OptTakeTouched, "d5", false, "e5d6", "", true},
		{"man taken by the own man touched (fide2023:4.3.3)", twoTakers, report.OptTakeTouched, "d5", false, "e4d5", "e4", true},
		{"man taken by a third man (fide2023:4.3.3)", twoTakers, report.OptTakeTouched, "d5", false, "c3d5", "e4", false},
		{"man taken by any man where none is named", twoTakers, report.OptTakeTouched, "d5", false, "c3d5", "", true},
		{"castled", castleBoth, report.OptCastle, "e1", false, "e1c1", "", true},
		{"castled on the side owed (fide2023:4.4.1)", castleBoth, report.OptCastle, "e1", false, "e1g1", "h1", true},
		{"castled on the other side (fide2023:4.4.1)", castleBoth, report.OptCastle, "e1", false, "e1c1", "h1", false},
		{"king moved, not castled", castleBoth, report.OptCastle, "e1", false, "e1d1", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysis(t, c.fen)
			ob := &obligation{side: board.White, what: c.what, square: sq(t, c.square), noCastle: c.noCastle}
			if c.bound != "" {
				ob.bound = ob.bound.With(sq(t, c.bound))
			}
			if got := obligationKept(&a.Position, ob, uci(t, c.move)); got != c.want {
				t.Errorf("obligationKept(%s on %s, %s) = %v, want %v", c.what, c.square, c.move, got, c.want)
			}
		})
	}
}

// TestObligationBrokenNamesItsLaw checks that a move breaking an imposed
// obligation is a touch-move irregularity under the obligation's own law,
// offering what it imposed.
func TestObligationBrokenNamesItsLaw(t *testing.T) {
	h := newHarness(t, "sarratt1808", startWithoutRights)
	ob := &obligation{side: board.White, what: report.OptMoveTouched, square: sq(t, "g1"), law: "sarratt1808:13"}
	m := uci(t, "e2e4")
	rd := readingOf(h.g.cur, m)
	if d := h.g.obligationBroken(rd, ob); d == nil {
		t.Fatal("e2e4 with the g1 knight owed: no irregularity")
	} else if d.kind != report.KindTouchMove || d.law != "sarratt1808:13" || d.touched != sq(t, "g1") || !hasOption(d.options, report.OptMoveTouched) {
		t.Errorf("decision = %s %s touched %s options %v; want touch-move sarratt1808:13 touched g1 with move-touched", d.kind, d.law, d.touched, d.options)
	}
	if d := h.g.obligationBroken(readingOf(h.g.cur, uci(t, "g1f3")), ob); d != nil {
		t.Errorf("g1f3 with the g1 knight owed: %s %s, want none", d.kind, d.law)
	}
}

func TestCastlingOwedAfterKingThenRook(t *testing.T) {
	cases := []struct {
		name    string
		fen     string
		touched []string
		move    string
		want    bool
		rook    string // the rook to castle with, when owed
	}{
		{"king then rook, king moved", castleBoth, []string{"e1", "h1"}, "e1f1", true, "h1"},
		{"king then rook, castled that side", castleBoth, []string{"e1", "h1"}, "e1g1", false, ""},
		{"king then rook, castled the other side", castleBoth, []string{"e1", "h1"}, "e1c1", true, "h1"},
		{"king then queen's rook, castled short", castleBoth, []string{"e1", "a1"}, "e1g1", true, "a1"},
		{"rook then king", castleBoth, []string{"h1", "e1"}, "e1f1", false, ""},
		{"king alone", castleBoth, []string{"e1"}, "e1f1", false, ""},
		{"castling that side not legal", castleBarredShort, []string{"e1", "h1"}, "e1d1", false, ""},
		{"both rooks, castled with the first touched", castleBoth, []string{"e1", "h1", "a1"}, "e1g1", false, ""},
		{"both rooks, castled with the second touched", castleBoth, []string{"e1", "h1", "a1"}, "e1c1", true, "h1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysis(t, c.fen)
			k, rook, got := castlingOwedAfterKingThenRook(a, board.White, squares(t, c.touched...), uci(t, c.move))
			if got != c.want {
				t.Fatalf("owed = %v, want %v", got, c.want)
			}
			if got && k != sq(t, "e1") {
				t.Errorf("king square = %s, want e1", k)
			}
			if got && rook != sq(t, c.rook) {
				t.Errorf("rook square = %s, want %s", rook, c.rook)
			}
		})
	}
}

func TestCastlingWithRookTouchedFirst(t *testing.T) {
	cases := []struct {
		name     string
		touched  []string
		move     string
		wantRook string // empty: no castling barred
	}{
		{"rook then king, castled with it", []string{"h1", "e1"}, "e1g1", "h1"},
		{"king then rook", []string{"e1", "h1"}, "e1g1", ""},
		{"the other rook first", []string{"a1", "e1"}, "e1g1", ""},
		{"queen's rook first, castled long", []string{"a1", "e1"}, "e1c1", "a1"},
		{"rook first, no castling", []string{"h1", "e1"}, "e1f1", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysis(t, castleBoth)
			rook, barred := castlingWithRookTouchedFirst(&a.Position, squares(t, c.touched...), uci(t, c.move))
			if barred != (c.wantRook != "") {
				t.Fatalf("barred = %v, want %v", barred, c.wantRook != "")
			}
			if barred && rook != sq(t, c.wantRook) {
				t.Errorf("rook = %s, want %s", rook, c.wantRook)
			}
		})
	}
}

func TestCanTakeWith(t *testing.T) {
	cases := []struct {
		name, fen, from, victim string
		want                    bool
	}{
		{"knight takes pawn", knightAttacksPawn, "c3", "d5", true},
		{"king cannot reach", knightAttacksPawn, "e1", "d5", false},
		{"pawn takes en passant", enPassantOnD6, "e5", "d5", true},
		{"the adversary's man is not the taker", knightAttacksPawn, "d5", "c3", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := canTakeWith(analysis(t, c.fen), sq(t, c.from), sq(t, c.victim)); got != c.want {
				t.Errorf("canTakeWith(%s, %s) = %v, want %v", c.from, c.victim, got, c.want)
			}
		})
	}
}

func TestFirstBindingMan(t *testing.T) {
	cases := []struct {
		name           string
		fen            string
		order, own     []string
		want           string // empty: nothing binds (fide2023:4.5)
		wantOwn        bool
		wantBindsOwned bool
	}{
		{"a man that cannot move is passed over", startWithoutRights, []string{"a1", "g1"}, []string{"a1", "g1"}, "g1", true, true},
		{"nothing touched can move", startWithoutRights, []string{"a1", "d1"}, []string{"a1", "d1"}, "", false, false},
		{"an adverse man that can be taken", knightAttacksPawn, []string{"d5", "c3"}, []string{"c3"}, "d5", false, true},
		{"an adverse man that cannot be taken is passed over", knightAttacksPawn, []string{"e8", "c3"}, []string{"c3"}, "c3", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			order := squares(t, c.order...)
			own := squares(t, c.own...)
			var adverse []board.Square
			for _, s := range order {
				if !slices.Contains(own, s) {
					adverse = append(adverse, s)
				}
			}
			got, isOwn, binds := firstBindingMan(analysis(t, c.fen), touchedSet{order: order, own: own, adverse: adverse})
			if binds != (c.want != "") {
				t.Fatalf("binds = %v, want %v", binds, c.want != "")
			}
			if binds && (got != sq(t, c.want) || isOwn != c.wantOwn) {
				t.Errorf("first binding man = %s (own %v), want %s (own %v)", got, isOwn, c.want, c.wantOwn)
			}
		})
	}
}

func TestUnhonouredOwnMen(t *testing.T) {
	cases := []struct {
		name    string
		touched []string
		move    string
		want    []string
	}{
		{"the man moved honours its touch", []string{"g1"}, "g1f3", nil},
		{"a man that cannot move binds nobody", []string{"a1", "g1"}, "g1f3", nil},
		{"each other man that can move, in order", []string{"g1", "a1", "b1", "e2"}, "e2e4", []string{"g1", "b1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := unhonouredOwnMen(analysis(t, startWithoutRights), uci(t, c.move), squares(t, c.touched...))
			if want := squares(t, c.want...); !slices.Equal(got, want) {
				t.Errorf("unhonoured = %v, want %v", got, want)
			}
		})
	}
}

func TestUntakenAdverseMan(t *testing.T) {
	cases := []struct {
		name, fen string
		touched   []string
		move      string
		want      string // empty: every touch honoured
	}{
		{"taken", knightAttacksPawn, []string{"d5"}, "c3d5", ""},
		{"not taken", knightAttacksPawn, []string{"d5"}, "c3e4", "d5"},
		{"taken en passant", enPassantOnD6, []string{"d5"}, "e5d6", ""},
		{"a man that cannot be taken binds nobody", knightAttacksPawn, []string{"e8"}, "c3e4", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := untakenAdverseMan(analysis(t, c.fen), uci(t, c.move), squares(t, c.touched...))
			if ok != (c.want != "") {
				t.Fatalf("untaken = %v, want %v", ok, c.want != "")
			}
			if ok && got != sq(t, c.want) {
				t.Errorf("untaken man = %s, want %s", got, c.want)
			}
		})
	}
}

// TestTouchMoveViolationByCode checks that touchMoveViolation hands the
// same touches to the rule of the law-set in force: the first touched binds
// under fide2023 (4.3.1), every touched man under sarratt1808 (7), where the
// adversary may elect the second man too.
func TestTouchMoveViolationByCode(t *testing.T) {
	cases := []struct {
		laws        string
		wantLaw     report.Law
		wantOptions []report.OptionID
	}{
		{"fide2023", "fide2023:4.3.1", []report.OptionID{report.OptStand, report.OptMoveTouched}},
		{"sarratt1808", "sarratt1808:7", []report.OptionID{report.OptStand, report.OptMoveTouched, report.MoveTouchedOn("b1")}},
	}
	for _, c := range cases {
		t.Run(c.laws, func(t *testing.T) {
			h := newHarness(t, c.laws, startWithoutRights)
			rd := readingOf(h.g.cur, uci(t, "e2e4"))
			rd.Touches = append(rd.Touches[:0], h.touch("g1"), h.touch("b1"), h.touch("e2"))
			d := h.g.touchMoveViolation(rd)
			if d == nil {
				t.Fatal("g1 and b1 touched, e2e4 played: no irregularity")
			}
			var ids []report.OptionID
			for _, o := range d.options {
				ids = append(ids, o.ID)
			}
			if d.law != c.wantLaw || d.touched != sq(t, "g1") || !slices.Equal(ids, c.wantOptions) {
				t.Errorf("decision = %s touched %s %v, want %s touched g1 %v", d.law, d.touched, ids, c.wantLaw, c.wantOptions)
			}
		})
	}
}
