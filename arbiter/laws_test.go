package arbiter

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/gesture"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/report"
)

// harness drives a Game with gestures directly, as the recogniser would.
type harness struct {
	t *testing.T
	g *Game
	n time.Duration
}

func newHarness(t *testing.T, laws, fen string, opts ...func(*Options)) *harness {
	t.Helper()
	ls, err := lawset.Lookup(laws)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Laws: ls, Setup: fen}
	for _, f := range opts {
		f(&o)
	}
	g, err := NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, g: g}
}

func (h *harness) now() time.Duration { h.n += 100 * time.Millisecond; return h.n }

func sq(t *testing.T, s string) board.Square {
	v, err := board.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// touch reports a man lifted by the side to move.
func (h *harness) touch(square string) gesture.TouchMark {
	s := sq(h.t, square)
	pos := h.g.Expectation().Analysis.Position
	h.g.Judge(gesture.Gesture{Kind: gesture.Touch, T: h.now(), Side: pos.Turn, Square: s, Man: pos.Men[s]})
	return gesture.TouchMark{Square: s, Man: pos.Men[s]}
}

// adjust reports a man set back on its square.
func (h *harness) adjust(square string, announced bool) {
	s := sq(h.t, square)
	pos := h.g.Expectation().Analysis.Position
	h.g.Judge(gesture.Gesture{Kind: gesture.Adjust, T: h.now(), Side: pos.Turn, Square: s, Man: pos.Men[s], Announced: announced})
}

// move completes a man-move read as uci, with the touches made before it.
func (h *harness) move(uci string, touches ...gesture.TouchMark) {
	h.t.Helper()
	m, err := board.ParseUCI(uci)
	if err != nil {
		h.t.Fatal(err)
	}
	a := h.g.Expectation().Analysis
	pos := a.Position
	man := pos.Men[m.From]
	rd := &gesture.Reading{Move: m, Mover: man.Color(), Legal: a.IsLegal(m) && man.Color() == pos.Turn}
	if pos.IsPromotion(m) && m.Promo == board.NoKind {
		rd.Legal = man.Color() == pos.Turn
		for _, lm := range a.Moves {
			if lm.From == m.From && lm.To == m.To {
				rd.Legal = rd.Legal && true
			}
		}
	}
	after := pos.Apply(m)
	rd.After = after.Men
	if !rd.Legal {
		switch {
		case man.Color() == pos.Turn:
			rd.False = map[board.Fault]report.Kind{board.FaultOwnCapture: report.KindOwnCapture, board.FaultCastling: report.KindFalseCastling,
				board.FaultIntoCheck: report.KindMovedIntoCheck, board.FaultPromotion: report.KindBadPromotion}[pos.MoveFault(m, a)]
			if rd.False == "" {
				rd.False = report.KindFalseMove
			}
		case pos.Geometric(m) || pos.IsCastling(m):
			rd.False = report.KindSuccessive
		default:
			rd.False, rd.AdverseMan, rd.Mover = report.KindMovedAdverse, true, pos.Turn
		}
	}
	mark := gesture.TouchMark{Square: m.From, Man: man}
	rd.Touches = append(append([]gesture.TouchMark{}, touches...), mark)
	h.g.Judge(gesture.Gesture{Kind: gesture.Move, T: h.now(), Side: rd.Mover, Reading: rd})
}

// wander plays n quiet moves that never repeat a position.
func (h *harness) wander(n int) {
	h.t.Helper()
	seen := map[board.RepetitionKey]bool{}
	for i := 0; i < n; i++ {
		a := h.g.Expectation().Analysis
		seen[a.Position.Key()] = true
		played := false
		for _, m := range a.Moves {
			if a.Position.Men[m.To] != board.NoMan || a.Position.Men[m.From].Kind() == board.Pawn {
				continue
			}
			next := a.Position.Apply(m)
			if seen[next.Key()] {
				continue
			}
			h.move(m.UCI())
			played = true
			break
		}
		if !played {
			h.t.Fatalf("wander: stuck after %d moves", i)
		}
	}
}

func (h *harness) press(button, side string) {
	c, _ := board.ParseColor(side)
	h.g.Judge(gesture.Gesture{Kind: gesture.Press, T: h.now(), Side: c, Button: button})
}

func (h *harness) choose(option, side string) {
	h.t.Helper()
	if err := h.g.Choose(h.now(), report.OptionID(option), report.Party(side)); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) synced() { h.g.Judge(gesture.Gesture{Kind: gesture.Synced, T: h.now()}) }

// lines returns the reports so far as compact strings.
func (h *harness) lines() []string {
	var out []string
	for _, r := range h.g.Drain(nil) {
		switch r.Type {
		case report.Irregularity:
			var ids []string
			for _, o := range r.Options {
				ids = append(ids, string(o.ID))
			}
			out = append(out, "irregularity "+string(r.Kind)+" "+string(r.Law)+" by "+r.Offender+" chooser "+string(r.Chooser)+" ["+strings.Join(ids, ",")+"]")
		case report.Ruling:
			out = append(out, "ruling "+string(r.Option)+" by "+string(r.By)+" "+string(r.Law))
		case report.Result:
			out = append(out, "result "+string(r.Result)+" "+string(r.Law))
		case report.Move:
			out = append(out, "move "+r.UCI)
		}
	}
	return out
}

func expectLines(t *testing.T, got []string, want ...string) {
	t.Helper()
	i := 0
	for _, w := range want {
		for i < len(got) && got[i] != w {
			i++
		}
		if i == len(got) {
			t.Fatalf("missing %q (in order) in:\n  %s", w, strings.Join(got, "\n  "))
		}
		i++
	}
}

func refuseLine(t *testing.T, got []string, prefix string) {
	t.Helper()
	for _, l := range got {
		if strings.HasPrefix(l, prefix) {
			t.Fatalf("unexpected %q in:\n  %s", l, strings.Join(got, "\n  "))
		}
	}
}

// Each case is named after the law it proves and would fail were the rule
// wrong.
func TestLaws(t *testing.T) {
	const bare = "4k3/7p/8/8/8/8/8/R3K3 w - - 0 1"
	const castle = "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"
	cases := []struct {
		law  string
		run  func(h *harness)
		sets string
		fen  string
		want []string
		not  []string
	}{
		{law: "philidor1825:V", sets: "philidor1825", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("e2e4", g1)
		}, want: []string{"irregularity touch-move philidor1825:V by white chooser black [stand,move-touched]"}},
		{law: "philidor1825:VI", sets: "philidor1825", run: func(h *harness) {
			e7 := h.touch("e7")
			h.adjust("e7", false)
			h.move("d2d4", e7)
		}, fen: "4k3/4p3/8/8/8/8/3PQ3/4K3 w - - 0 1", want: []string{"irregularity touch-move philidor1825:VI by white chooser black [stand,take-touched]"}},
		{law: "philidor1825:VIII", sets: "philidor1825", run: func(h *harness) {
			h.move("e2e5")
			h.move("e7e6") // the adversary plays on: the false move stands (the king cannot move: recall is the only other option)
		}, want: []string{"irregularity false-move philidor1825:VIII by white chooser black [stand,recall]", "ruling stand by lapse philidor1825:VIII", "move e2e5", "move e7e6"}},
		{law: "philidor1825:XII", sets: "philidor1825", fen: castle, run: func(h *harness) { h.move("e1g1") },
			want: []string{"irregularity false-castling philidor1825:XII by white chooser white [rook,king]"}},
		{law: "philidor1825:XVI", sets: "philidor1825", fen: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", run: func(h *harness) { h.move("g5g6") },
			want: []string{"result 0-1 philidor1825:XVI"}},
		{law: "philidor1825:XVII", sets: "philidor1825", fen: "7k/8/8/8/8/8/8/KB5N w - - 0 1", run: func(h *harness) {
			h.press("claim", "black")
			for i := 0; i < 25; i++ {
				h.move("a1a2")
				h.move("h8g8")
				h.move("a2a1")
				h.move("g8h8")
			}
		}, want: []string{"ruling count by black philidor1825:XVII", "result 1/2-1/2 philidor1825:XVII"}},
		{law: "sarratt1808:7", sets: "sarratt1808", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("e2e4", g1)
			h.choose("move-touched", "black")
		}, want: []string{"irregularity touch-move sarratt1808:7 by white chooser black [stand,move-touched]", "ruling move-touched by black sarratt1808:7"}},
		{law: "sarratt1808:9", sets: "sarratt1808", fen: "4k3/4p3/8/8/8/8/3PQ3/4K3 w - - 0 1", run: func(h *harness) {
			e7 := h.touch("e7")
			h.adjust("e7", false)
			h.move("d2d4", e7)
		}, want: []string{"irregularity touch-move sarratt1808:9 by white chooser black [stand,take-touched]"}},
		{law: "sarratt1808:10", sets: "sarratt1808", run: func(h *harness) { h.move("e7e3") },
			want: []string{"irregularity moved-adverse-man sarratt1808:10 by white chooser black [stand,replace]"}},
		{law: "sarratt1808:11", sets: "sarratt1808", fen: "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", run: func(h *harness) { h.move("d1c2") },
			not: []string{"irregularity false-move sarratt1808:11"}},
		{law: "sarratt1808:11", sets: "sarratt1808", fen: "4k3/8/8/8/8/3p4/4P3/2B1K3 w - - 0 1", run: func(h *harness) { h.move("c1d3") },
			want: []string{"irregularity false-move sarratt1808:11 by white chooser black [stand,take-touched,move-touched]"}},
		{law: "sarratt1808:12", sets: "sarratt1808", run: func(h *harness) { h.move("d1d2") },
			want: []string{"irregularity own-capture sarratt1808:12 by white chooser black [stand,move-taken]"}},
		{law: "sarratt1808:13", sets: "sarratt1808", fen: bare, run: func(h *harness) { h.move("a1b3") },
			want: []string{"irregularity false-move sarratt1808:13 by white chooser black [stand,move-touched,king]"}},
		{law: "sarratt1808:14", sets: "sarratt1808", run: func(h *harness) {
			h.move("e2e4")
			h.move("d2d4")
		}, want: []string{"move e2e4", "irregularity successive-moves sarratt1808:14 by white chooser black [keep-first,keep-all]"}},
		{law: "sarratt1808:16", sets: "sarratt1808", fen: castle, run: func(h *harness) { h.move("e1g1") },
			want: []string{"irregularity false-castling sarratt1808:16 by white chooser black [king,rook]"}},
		{law: "sarratt1808:17", sets: "sarratt1808", fen: "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", run: func(h *harness) {
			h.touch("c1")
			h.adjust("c1", false)
		}, not: []string{"irregularity"}},
		// 17 speaks of a man that cannot move without exposing the king: a
		// pinned bishop binds, one hemmed in by its own pawns does not.
		{law: "sarratt1808:17", sets: "sarratt1808", fen: "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", run: func(h *harness) {
			h.touch("e2")
			h.adjust("e2", false)
		}, want: []string{"irregularity touched-unmovable sarratt1808:17 by white chooser black [king,stand]"}},
		{law: "sarratt1808:17", sets: "sarratt1808", fen: "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", run: func(h *harness) {
			h.touch("c1")
			h.adjust("c1", false)
		}, not: []string{"irregularity"}},
		{law: "nycc:XI", sets: "nycc", fen: "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", run: func(h *harness) {
			h.touch("c1")
			h.adjust("c1", false)
		}, want: []string{"irregularity touched-unmovable nycc:XI by white chooser black [king,stand]"}},
		{law: "sarratt1808:21", sets: "sarratt1808", run: func(h *harness) {
			h.move("e2e5")
			h.touch("e7")
		}, want: []string{"ruling stand by lapse sarratt1808:21"}},
		{law: "sarratt1808:24", sets: "sarratt1808", fen: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", run: func(h *harness) { h.move("g5g6") },
			want: []string{"result 1/2-1/2 sarratt1808:24"}},
		{law: "nycc:V", sets: "nycc", fen: "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", run: func(h *harness) { h.move("d1c3") },
			want: []string{"result 1/2-1/2 nycc:V"}},
		{law: "nycc:X", sets: "nycc", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("e2e4", g1)
		}, want: []string{"irregularity touch-move nycc:X by white chooser black [stand,move-touched]"}},
		{law: "nycc:XI", sets: "nycc", fen: "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", run: func(h *harness) {
			h.touch("c1")
			h.adjust("c1", false)
		}, want: []string{"irregularity touched-unmovable nycc:XI by white chooser black [king,stand]"}},
		{law: "nycc:XII", sets: "nycc", fen: castle, run: func(h *harness) { h.move("e1g1") },
			want: []string{"irregularity false-castling nycc:XII by white chooser black [stand,king,rook]"}},
		{law: "nycc:XII", sets: "nycc", fen: bare, run: func(h *harness) { h.move("a1b3") },
			want: []string{"irregularity false-move nycc:XII by white chooser black [stand,recall,move-touched,king]"}},
		{law: "nycc:XII", sets: "nycc", run: func(h *harness) {
			b1 := h.touch("b1")
			h.adjust("b1", false)
			h.move("f1b5", b1) // through his own pawn; the knight touched binds too
		}, want: []string{"irregularity false-move nycc:XII by white chooser black [stand,recall,move-touched-b1]"}},
		{law: "nycc:XII", sets: "nycc", run: func(h *harness) {
			b1 := h.touch("b1")
			h.adjust("b1", true) // j'adoube: the knight does not bind
			b1.Announced = true
			h.move("f1b5", b1)
		}, want: []string{"irregularity false-move nycc:XII by white chooser black [stand,recall]"}},
		{law: "sarratt1808:13", sets: "sarratt1808", run: func(h *harness) {
			b1 := h.touch("b1")
			h.adjust("b1", false)
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("f1b5", b1, g1)
		}, want: []string{"irregularity false-move sarratt1808:13 by white chooser black [stand,move-touched-b1,move-touched-g1]"}},
		{law: "hastings1895:IV", sets: "hastings1895", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("f1b5", g1)
		}, want: []string{"irregularity false-move hastings1895:IV by white chooser arbiter [move-touched-g1]", "ruling move-touched-g1 by arbiter hastings1895:IV"}},
		{law: "nycc:XIII", sets: "nycc", fen: "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", run: func(h *harness) { h.move("e1e2") },
			want: []string{"irregularity moved-into-check nycc:XIII by white chooser black [king]"}},
		{law: "nycc:XIV", sets: "nycc", fen: "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", run: func(h *harness) {
			h.move("e2e4")
			h.move("d2d4")
		}, want: []string{"irregularity successive-moves nycc:XIV by white chooser black [keep-all,keep-first,keep-second,recall,move-touched-e2,move-touched-d2,king]"}},
		{law: "nycc:XIV", sets: "nycc", fen: "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", run: func(h *harness) {
			h.move("e2e3")
			h.move("e3e4") // the same man twice: one man to elect, and no second move without the first
		}, want: []string{"irregularity successive-moves nycc:XIV by white chooser black [keep-all,keep-first,recall,move-touched-e2,king]"}},
		{law: "nycc:XIV", sets: "nycc", run: func(h *harness) {
			h.move("e7e5") // Black moves before any move: no first move to keep
		}, want: []string{"irregularity successive-moves nycc:XIV by black chooser white [keep-all,recall]"}},
		{law: "hastings1895:differences", sets: "hastings1895", run: func(h *harness) {
			h.move("e7e5")
		}, want: []string{"irregularity successive-moves hastings1895:differences by black chooser arbiter [recall]", "ruling recall by arbiter hastings1895:differences"}},
		{law: "nycc:XIV", sets: "nycc", fen: "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", run: func(h *harness) {
			h.move("e1f1")
			h.move("e2e4") // the king is elected by the king option
		}, want: []string{"irregularity successive-moves nycc:XIV by white chooser black [keep-all,keep-first,keep-second,recall,move-touched-e2,king]"}},
		{law: "hastings1895:IV", sets: "hastings1895", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("e2e4", g1) // a plurality touched: the pawn played may be elected, no waiver
		}, want: []string{"irregularity touch-move hastings1895:IV by white chooser black [move-touched,stand]"}},
		{law: "hastings1895:VII", sets: "hastings1895", run: func(h *harness) {
			for i := 0; i < 2; i++ {
				h.move("g1f3")
				h.move("g8f6")
				h.move("f3g1")
				h.move("f6g8")
			}
		}, want: []string{"result 1/2-1/2 hastings1895:VII"}},
		{law: "hastings1895:VIII", sets: "hastings1895", fen: "7k/8/8/8/8/8/8/KR6 w - - 0 1", run: func(h *harness) {
			h.press("claim", "black")
			h.wander(100)
			h.press("claim", "black")
		}, want: []string{"ruling count by black hastings1895:VIII", "result 1/2-1/2 hastings1895:VIII"}},
		{law: "fide2023:4.3.1", sets: "fide2023", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("e2e4", g1)
		}, want: []string{"irregularity touch-move fide2023:4.3.1 by white chooser black [stand,move-touched]"}},
		{law: "fide2023:4.3.2", sets: "fide2023", fen: "4k3/4p3/8/8/8/8/3PQ3/4K3 w - - 0 1", run: func(h *harness) {
			e7 := h.touch("e7")
			h.adjust("e7", false)
			h.move("d2d4", e7)
		}, want: []string{"irregularity touch-move fide2023:4.3.2 by white chooser black [stand,take-touched]"}},
		{law: "fide2023:4.3.3", sets: "fide2023", fen: "4k3/4p3/8/8/8/8/3PQ3/4K3 w - - 0 1", run: func(h *harness) {
			e2 := h.touch("e2")
			e7 := h.touch("e7")
			h.move("d2d4", e2, e7)
		}, want: []string{"irregularity touch-move fide2023:4.3.3 by white chooser black [stand,take-touched]"}},
		{law: "fide2023:4.5", sets: "fide2023", fen: "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", run: func(h *harness) {
			c1 := h.touch("c1")
			h.adjust("c1", false)
			h.move("e1f1", c1)
		}, not: []string{"irregularity"}},
		{law: "fide2023:4.4.1", sets: "fide2023", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", run: func(h *harness) {
			e1 := h.touch("e1")
			h1 := h.touch("h1")
			h.move("e1f1", e1, h1)
		}, want: []string{"irregularity touch-move fide2023:4.4.1 by white chooser black [stand,castle]"}},
		{law: "fide2023:4.4.2", sets: "fide2023", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", run: func(h *harness) {
			h1 := h.touch("h1")
			e1 := h.touch("e1")
			h.move("e1g1", h1, e1)
		}, want: []string{"irregularity touch-move fide2023:4.4.2 by white chooser black [stand,rook]"}},
		{law: "fide2023:4.8", sets: "fide2023", run: func(h *harness) {
			g1 := h.touch("g1")
			h.adjust("g1", false)
			h.move("e2e4", g1)
			h.touch("e7")
		}, want: []string{"ruling stand by lapse fide2023:4.8"}},
		{law: "fide2023:5.2.1", sets: "fide2023", fen: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", run: func(h *harness) { h.move("g5g6") },
			want: []string{"result 1/2-1/2 fide2023:5.2.1"}},
		{law: "fide2023:5.2.2", sets: "fide2023", fen: "4k3/8/8/8/8/8/3p4/3NK3 w - - 0 1", run: func(h *harness) { h.move("e1d2") },
			want: []string{"result 1/2-1/2 fide2023:5.2.2"}},
		{law: "fide2023:7.5.1", sets: "fide2023", run: func(h *harness) { h.move("e2e5") },
			want: []string{"irregularity false-move fide2023:7.5.1 by white chooser arbiter [restore]", "ruling restore by arbiter fide2023:7.5.1"}},
		{law: "fide2023:7.5.5", sets: "fide2023", run: func(h *harness) {
			h.move("e2e5")
			h.synced()
			h.move("e2e5")
		}, want: []string{"result 0-1 fide2023:7.5.5"}},
		{law: "fide2023:9.3", sets: "fide2023", fen: "7k/8/8/8/8/8/8/KR6 w - - 98 80", run: func(h *harness) {
			h.move("b1b2")
			h.move("h8g8")
			h.press("claim", "white")
		}, want: []string{"result 1/2-1/2 fide2023:9.3"}},
		{law: "fide2023:9.5.3", sets: "fide2023", run: func(h *harness) {
			h.move("e2e4")
			h.press("claim", "black")
		}, want: []string{"ruling refused by arbiter fide2023:9.5.3"}, not: []string{"result"}},
		{law: "fide2023:9.6.2", sets: "fide2023", fen: "7k/8/8/8/8/8/8/KR6 w - - 149 80", run: func(h *harness) { h.move("b1b2") },
			want: []string{"result 1/2-1/2 fide2023:9.6.2"}},
	}
	for _, c := range cases {
		t.Run(c.law, func(t *testing.T) {
			h := newHarness(t, c.sets, c.fen)
			c.run(h)
			got := h.lines()
			expectLines(t, got, c.want...)
			for _, n := range c.not {
				refuseLine(t, got, n)
			}
		})
	}
}

// TestSameTraceDifferentLaws shows the law-sets ruling the same event
// differently.
func TestSameTraceDifferentLaws(t *testing.T) {
	stalemate := func(h *harness) { h.move("g5g6") }
	want := map[string]string{
		"philidor1825": "result 0-1 philidor1825:XVI",
		"sarratt1808":  "result 1/2-1/2 sarratt1808:24",
		"nycc":         "result 1/2-1/2 nycc:V",
		"hastings1895": "result 1/2-1/2 ",
		"fide2023":     "result 1/2-1/2 fide2023:5.2.1",
	}
	for set, w := range want {
		h := newHarness(t, set, "7k/8/8/6Q1/8/8/8/K7 w - - 0 1")
		stalemate(h)
		expectLines(t, h.lines(), w)
	}
	// The same false castling.
	castling := map[string]string{
		"philidor1825": "irregularity false-castling philidor1825:XII by white chooser white [rook,king]",
		"sarratt1808":  "irregularity false-castling sarratt1808:16 by white chooser black [king,rook]",
		"nycc":         "irregularity false-castling nycc:XII by white chooser black [stand,king,rook]",
		"hastings1895": "irregularity false-castling hastings1895:IX by white chooser black [king,rook]",
		"fide2023":     "irregularity false-castling fide2023:4.4.3 by white chooser arbiter [restore]",
	}
	for set, w := range castling {
		h := newHarness(t, set, "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1")
		h.move("e1g1")
		expectLines(t, h.lines(), w)
	}
}
