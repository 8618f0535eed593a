package placement_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/placement"
	"github.com/boardd/boardd/trace"
)

// follower plays inputs into a real game and hands the tracker every new
// snapshot, as game.Runner's OnChange does.
type follower struct {
	t       testing.TB
	g       *game.Game
	tr      placement.Tracker
	seen    uint64
	now     time.Duration
	shown   [64]board.Man
	updates int
}

func newFollower(t testing.TB, laws, setup string) *follower {
	t.Helper()
	g, err := game.New(game.Options{Laws: laws, Setup: setup}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{t: t, g: g}
	f.notice(true)
	return f
}

func (f *follower) notice(first bool) {
	if v := f.g.Version(); v != f.seen || first {
		f.seen = v
		f.shown = f.tr.Update(f.g.Snapshot())
		f.updates++
	}
}

// step plays one trace line (without its time: each comes 150 ms after the
// one before), or "wait N" to let N ms pass.
func (f *follower) step(line string) {
	f.t.Helper()
	if ms, ok := strings.CutPrefix(line, "wait "); ok {
		d, err := time.ParseDuration(ms + "ms")
		if err != nil {
			f.t.Fatal(err)
		}
		end := f.now + d
		for f.now < end {
			f.now = min(f.now+10*time.Millisecond, end)
			f.g.Advance(f.now)
			f.notice(false)
		}
		return
	}
	f.now += 150 * time.Millisecond
	f.g.Advance(f.now)
	f.notice(false)
	l, err := trace.Parse([]byte(`{"t":0,` + line[1:]))
	if err != nil {
		f.t.Fatalf("%s: %v", line, err)
	}
	l.T = f.now
	if err := f.g.Input(l); err != nil {
		f.t.Fatalf("%s: %v", line, err)
	}
	f.notice(false)
}

func placementOf(men [64]board.Man) string {
	p := board.Position{Men: men}
	return p.Placement()
}

// TestTrackerMidMove plays captures, castling, en passant and promotions
// in the orders hands make them, and checks the placement after each step:
// what an app following the board expects to see, mid-move included.
func TestTrackerMidMove(t *testing.T) {
	type step struct{ in, want string }
	cases := []struct {
		name  string
		laws  string
		setup string
		steps []step
	}{
		{"a pawn lifted and moved", "fide2023", "", []step{
			{`{"lift":"e2"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"place":"e4"}`, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"},
			{"wait 600", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"},
		}},
		{"a capture, the taker lifted first", "fide2023", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", []step{
			{`{"lift":"e4"}`, "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"lift":"d5"}`, "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"place":"d5"}`, "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR"},
			{"wait 600", "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR"},
		}},
		{"a capture, the man taken lifted first", "fide2023", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", []step{
			{`{"lift":"d5"}`, "rnbqkbnr/ppp1pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"},
			{`{"lift":"e4"}`, "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"place":"d5"}`, "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR"},
			{"wait 600", "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR"},
		}},
		{"castling, the king first", "fide2023", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []step{
			{`{"lift":"e1"}`, "r3k2r/8/8/8/8/8/8/R6R"},
			{`{"place":"g1"}`, "r3k2r/8/8/8/8/8/8/R5KR"},
			{`{"lift":"h1"}`, "r3k2r/8/8/8/8/8/8/R5K1"},
			{`{"place":"f1"}`, "r3k2r/8/8/8/8/8/8/R4RK1"},
			{"wait 600", "r3k2r/8/8/8/8/8/8/R4RK1"},
		}},
		{"castling with both hands, the rook set down first", "fide2023", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", []step{
			{`{"lift":"a8"}`, "4k2r/8/8/8/8/8/8/R3K2R"},
			{`{"lift":"e8"}`, "7r/8/8/8/8/8/8/R3K2R"},
			{`{"place":"d8"}`, "3r3r/8/8/8/8/8/8/R3K2R"},
			{`{"place":"c8"}`, "2kr3r/8/8/8/8/8/8/R3K2R"},
			{"wait 600", "2kr3r/8/8/8/8/8/8/R3K2R"},
		}},
		{"en passant, the man taken last", "fide2023", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", []step{
			{`{"lift":"e5"}`, "rnbqkbnr/ppp1p1pp/8/3p1p2/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"place":"d6"}`, "rnbqkbnr/ppp1p1pp/3P4/3p1p2/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"lift":"d5"}`, "rnbqkbnr/ppp1p1pp/3P4/5p2/8/8/PPPP1PPP/RNBQKBNR"},
			{"wait 600", "rnbqkbnr/ppp1p1pp/3P4/5p2/8/8/PPPP1PPP/RNBQKBNR"},
		}},
		{"en passant, the man taken first", "fide2023", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", []step{
			{`{"lift":"d5"}`, "rnbqkbnr/ppp1p1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"lift":"e5"}`, "rnbqkbnr/ppp1p1pp/8/5p2/8/8/PPPP1PPP/RNBQKBNR"},
			{`{"place":"d6"}`, "rnbqkbnr/ppp1p1pp/3P4/5p2/8/8/PPPP1PPP/RNBQKBNR"},
			{"wait 600", "rnbqkbnr/ppp1p1pp/3P4/5p2/8/8/PPPP1PPP/RNBQKBNR"},
		}},
		{"a promotion never named becomes a queen", "nycc", "7k/P7/8/8/8/8/8/K7 w - - 0 1", []step{
			{`{"lift":"a7"}`, "7k/8/8/8/8/8/8/K7"},
			{`{"place":"a8"}`, "Q6k/8/8/8/8/8/8/K7"},
			{"wait 2000", "Q6k/8/8/8/8/8/8/K7"},
		}},
		{"a promotion to a knight named first", "fide2023", "7k/P7/8/8/8/8/8/K7 w - - 0 1", []step{
			{`{"promote":"n","side":"white"}`, "7k/P7/8/8/8/8/8/K7"},
			{`{"lift":"a7"}`, "7k/8/8/8/8/8/8/K7"},
			{`{"place":"a8"}`, "N6k/8/8/8/8/8/8/K7"},
			{"wait 600", "N6k/8/8/8/8/8/8/K7"},
		}},
		{"a capture promoting, black", "fide2023", "k7/8/8/8/8/8/6p1/K4N2 b - - 0 1", []step{
			{`{"promote":"r","side":"black"}`, "k7/8/8/8/8/8/6p1/K4N2"},
			{`{"lift":"g2"}`, "k7/8/8/8/8/8/8/K4N2"},
			{`{"lift":"f1"}`, "k7/8/8/8/8/8/8/K7"},
			{`{"place":"f1"}`, "k7/8/8/8/8/8/8/K4r2"},
			{"wait 600", "k7/8/8/8/8/8/8/K4r2"},
		}},
		{"a man put back where he stood", "fide2023", "", []step{
			{`{"lift":"b1"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR"},
			{`{"place":"b1"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
		}},
		{"a man brought from off the board where none belongs is not named", "fide2023", "", []step{
			{`{"place":"e4"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
			{`{"lift":"e4"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
			{`{"lift":"g1"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFollower(t, c.laws, c.setup)
			for i, s := range c.steps {
				f.step(s.in)
				if got := placementOf(f.shown); got != s.want {
					t.Fatalf("step %d (%s): placement %s, want %s", i+1, s.in, got, s.want)
				}
			}
		})
	}
}

// TestTrackerFollowsTheGame plays a whole game's recognised moves and
// checks that after each the placement is the game's position.
func TestTrackerFollowsTheGame(t *testing.T) {
	f := newFollower(t, "fide2023", "")
	moves := []string{"e2e4", "a7a6", "e4e5", "d7d5", "e5d6", "g8f6", "d6c7", "b8c6", "g1f3", "e7e6", "f1c4", "b7b5", "e1g1", "b5c4", "c7d8q", "e8d8"}
	for _, uci := range moves {
		m, err := board.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		before := f.g.Snapshot().Position
		if m.Promo != board.NoKind {
			f.step(`{"promote":"` + string(m.Promo.Letter()) + `","side":"` + before.Turn.String() + `"}`)
		}
		f.step(`{"lift":"` + m.From.String() + `"}`)
		if p := before.Men[m.To]; p != board.NoMan {
			f.step(`{"lift":"` + m.To.String() + `"}`)
		}
		f.step(`{"place":"` + m.To.String() + `"}`)
		if before.IsEnPassant(m) {
			f.step(`{"lift":"` + board.EnPassantVictim(m).String() + `"}`)
		}
		if before.IsCastling(m) {
			rf, rt := board.CastlingRook(m.From, m.To)
			f.step(`{"lift":"` + rf.String() + `"}`)
			f.step(`{"place":"` + rt.String() + `"}`)
		}
		shownMidway := placementOf(f.shown)
		f.step("wait 600")
		after := f.g.Snapshot().Position
		if after.Placement() == before.Placement() {
			t.Fatalf("%s was not played", uci)
		}
		if got := placementOf(f.shown); got != after.Placement() {
			t.Errorf("after %s: placement %s, want %s", uci, got, after.Placement())
		}
		if shownMidway != after.Placement() {
			t.Errorf("%s: before the game recognised it the board showed %s, want %s already", uci, shownMidway, after.Placement())
		}
	}
}

func TestSetDown(t *testing.T) {
	man := func(c byte) board.Man { m, _ := board.ManFromFEN(c); return m }
	sq := func(s string) board.Square { q, _ := board.ParseSquare(s); return q }
	type h = placement.Held
	cases := []struct {
		name string
		held []h
		on   string
		want int
	}{
		{"the last lifted", []h{{man('P'), sq("e2")}}, "e4", 0},
		{"the taker, lifted first", []h{{man('B'), sq("c4")}, {man('p'), sq("f7")}}, "f7", 0},
		{"the taker, lifted last", []h{{man('p'), sq("f7")}, {man('B'), sq("c4")}}, "f7", 1},
		{"a king castling, lifted first", []h{{man('K'), sq("e1")}, {man('R'), sq("h1")}}, "g1", 0},
		{"a rook castling, lifted first", []h{{man('R'), sq("a1")}, {man('K'), sq("e1")}}, "d1", 0},
		{"a rook's move not castling", []h{{man('K'), sq("e1")}, {man('R'), sq("h1")}}, "h3", 1},
		{"the man who can go there", []h{{man('N'), sq("g1")}, {man('B'), sq("f1")}}, "f3", 0},
		{"nobody can: the last lifted", []h{{man('N'), sq("g1")}, {man('B'), sq("f1")}}, "a8", 1},
	}
	for _, c := range cases {
		if got := placement.SetDown(c.held, sq(c.on)); got != c.want {
			t.Errorf("%s: %d set down on %s, want %d", c.name, got, c.on, c.want)
		}
	}
}

// Hands that cannot follow say so, and know again once told.
func TestHandsForget(t *testing.T) {
	var h placement.Hands
	start := board.Start()
	h.Lift(12)
	if h.Known() {
		t.Fatal("the zero hands know something")
	}
	h.Agree(&start.Men)
	h.Lift(12)
	h.Place(28)
	if !h.Known() || h.At(28) != board.NewMan(board.White, board.Pawn) || h.At(12) != board.NoMan {
		t.Fatalf("e2-e4 not followed: known %v, e4 %v", h.Known(), h.At(28))
	}
	h.Place(36) // a man from nowhere
	if h.Known() || h.At(28) != board.NoMan || h.Held() != nil {
		t.Errorf("a man set down with none in hand was followed")
	}
	h.Agree(&start.Men)
	h.Lift(30) // g4: empty
	if h.Known() {
		t.Errorf("a lift from an empty square was followed")
	}
}

func TestName(t *testing.T) {
	start := board.Start()
	var h placement.Hands
	// Nothing known; e2 and d2 off their squares; e4 and h5 occupied.
	occ := start.Occupancy().Without(12).Without(11).With(28)
	men, unknown := placement.Name(&h, &start.Men, occ)
	if men[28] != board.NewMan(board.White, board.Pawn) || unknown != 0 {
		t.Errorf("e4 %v (unknown %v): two white pawns off their squares name a man set down", men[28], unknown.SquareNames())
	}
	occ = occ.Without(1).With(39)
	men, unknown = placement.Name(&h, &start.Men, occ)
	if men[39] != board.NoMan || unknown != board.Occupancy(0).With(28).With(39) {
		t.Errorf("h5 %v, unknown %v: with a pawn and a knight off, nobody can tell", men[39], unknown.SquareNames())
	}
}

// TestTrackerOutOfStep: a false move taken back by a ruling, then a game
// over and the board set up anew. The men are followed through the
// take-back, the last position stays named while the board is cleared,
// and men brought from the box are named by the position set up.
func TestTrackerOutOfStep(t *testing.T) {
	f := newFollower(t, "sarratt1808", "")
	for _, s := range []struct{ in, want string }{
		{`{"lift":"e2"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
		{`{"place":"e5"}`, "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR"},
		{"wait 600", "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR"},
		{`{"choose":"recall","side":"black"}`, "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR"},
		{`{"lift":"e5"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
		{`{"place":"e2"}`, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
	} {
		f.step(s.in)
		if got := placementOf(f.shown); got != s.want {
			t.Fatalf("%s: placement %s, want %s", s.in, got, s.want)
		}
	}
	if s := f.g.Snapshot(); s.Syncing || s.Moves != 0 {
		t.Fatalf("the take-back did not end: syncing %v, %d moves", s.Syncing, s.Moves)
	}

	// Fool's mate, then the board cleared and set up again.
	f = newFollower(t, "fide2023", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
	mate := "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR"
	for _, in := range []string{`{"lift":"d8"}`, `{"place":"h4"}`, "wait 600"} {
		f.step(in)
	}
	if s := f.g.Snapshot(); s.Result == nil || placementOf(f.shown) != mate {
		t.Fatalf("after the mate: result %v, placement %s", s.Result, placementOf(f.shown))
	}
	f.step(`{"lift":"h4"}`)
	f.step(`{"lift":"e1"}`)
	if got, want := placementOf(f.shown), "rnb1kbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQ1BNR"; got != want {
		t.Fatalf("clearing the board: placement %s, want %s", got, want)
	}
	f.step(`{"place":"e1"}`) // a king back from the box: where the new game wants one
	if got, want := placementOf(f.shown), "rnb1kbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR"; got != want {
		t.Fatalf("a man from off the board: placement %s, want %s", got, want)
	}
}

// FuzzTracker plays arbitrary lifts, placements, promotion namings and
// pauses into a real game and checks what the tracker shows: never a man on
// an empty square, never a pawn on its last rank (it is shown promoted), and
// the game's men whenever the board reads as the game expects.
func FuzzTracker(f *testing.F) {
	f.Add([]byte{12, 28, 0x80 | 40, 52, 36, 0x80 | 40})
	f.Add([]byte{4, 7, 6, 5, 0x80 | 50})
	f.Add([]byte{0xC0, 12, 0x80 | 10, 12, 28, 28, 0x40 | 3, 0xFF})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 200 {
			ops = ops[:200]
		}
		fl := newFollower(t, "fide2023", "")
		for _, op := range ops {
			sq := board.Square(op & 63)
			switch op >> 6 {
			case 0, 1:
				kind := "lift"
				if !fl.g.Snapshot().Occupancy.Has(sq) {
					kind = "place"
				}
				fl.step(`{"` + kind + `":"` + sq.String() + `"}`)
			case 2:
				fl.step("wait " + string(rune('1'+op&7)) + "00")
			default:
				side := "white"
				if op&1 == 1 {
					side = "black"
				}
				fl.step(`{"promote":"` + string("qrbn"[op>>1&3]) + `","side":"` + side + `"}`)
			}
			s := fl.g.Snapshot()
			for sq, m := range fl.shown {
				if m == board.NoMan {
					continue
				}
				if !s.Occupancy.Has(board.Square(sq)) {
					t.Fatalf("%s shown on the empty square %s", m, board.Square(sq))
				}
				if r := board.Square(sq).Rank(); m.Kind() == board.Pawn && r == 7*(1-int(m.Color())) {
					t.Fatalf("%s shown on its last rank, %s", m, board.Square(sq))
				}
			}
			if s.Occupancy == s.Expected.Occupancy() && fl.shown != s.Expected.Men {
				t.Fatalf("the board reads as the game expects, but %s is shown for %s", placementOf(fl.shown), s.Expected.Placement())
			}
		}
	})
}

// TestTrackerOnRawFrames: on real sensors the game takes raw scans and
// debounces them; the tracker follows the debounced board all the same.
func TestTrackerOnRawFrames(t *testing.T) {
	f := newFollower(t, "fide2023", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	sq := func(n string) board.Square { s, _ := board.ParseSquare(n); return s }
	occ := f.g.Snapshot().Occupancy
	scan := func(o board.Occupancy, ms int) {
		for range ms {
			f.now += time.Millisecond
			f.g.Frame(f.now, o)
			f.notice(false)
		}
	}
	scan(occ, 50)
	for _, s := range []struct {
		o    board.Occupancy
		want string
	}{
		{occ.Without(sq("e4")), "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPP1PPP/RNBQKBNR"},
		{occ.Without(sq("e4")).Without(sq("d5")), "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
		{occ.Without(sq("e4")), "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR"},
	} {
		scan(s.o, 5) // contact bounce, shorter than the debounce
		scan(occ, 3)
		scan(s.o, 100)
		if got := placementOf(f.shown); got != s.want {
			t.Fatalf("placement %s, want %s", got, s.want)
		}
	}
	scan(occ.Without(sq("e4")), 600)
	if s := f.g.Snapshot(); s.Moves != 1 || placementOf(f.shown) != s.Position.Placement() {
		t.Errorf("after exd5: %d moves, shown %s", s.Moves, placementOf(f.shown))
	}
}
