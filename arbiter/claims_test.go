package arbiter

import (
	"testing"

	"github.com/boardd/boardd/lawset"
)

// shuffleKnights plays the knights out and back twice less one move: the
// position after it (Black to move) has stood twice, and Black's knight
// going back to g8 would make the start stand for the third time.
func shuffleKnights(h *harness) {
	for _, m := range []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"} {
		h.move(m)
	}
}

// TestDrawClaims covers the claims of fide2023:9.2-9.5 on a board: the
// claim on the position just reached, on the move about to be made, and
// the right lost by touching a man. Each case would fail were the rule
// wrong: want lines in order, and no line beginning with a not prefix.
func TestDrawClaims(t *testing.T) {
	const fifty = "7k/8/8/8/8/8/8/KR6 w - - 99 80" // one quiet move short of fifty each
	cases := []struct {
		name string
		sets string
		fen  string
		run  func(h *harness)
		want []string
		not  []string
	}{
		{name: "claim on the repeating move draws as it is made", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.press("claim", "black")
			h.move("f6g8")
		}, want: []string{"result 1/2-1/2 fide2023:9.2.1.1"}, not: []string{"ruling"}},
		{name: "claim on the move waits for it: nothing before the move", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.press("claim", "black")
			h.press("claim", "black") // a second press changes nothing
		}, not: []string{"ruling", "result"}},
		{name: "claim on the move, another move made: incorrect", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.press("claim", "black")
			h.move("b8c6")
			h.move("g1f3")
		}, want: []string{"ruling refused by arbiter fide2023:9.5.3"}, not: []string{"result"}},
		{name: "claim on the move, an illegal move made: incorrect, the position restored", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.press("claim", "black")
			h.move("f6f4")
		}, want: []string{"irregularity false-move fide2023:7.5.1 by black chooser arbiter [restore]", "ruling restore by arbiter fide2023:7.5.1", "ruling refused by arbiter fide2023:9.5.3"}, not: []string{"result"}},
		{name: "claim that no move could bear out: refused at once", sets: "fide2023", run: func(h *harness) {
			h.move("e2e4")
			h.press("claim", "black")
		}, want: []string{"ruling refused by arbiter fide2023:9.5.3"}, not: []string{"result"}},
		{name: "claim on the move completing fifty moves each", sets: "fide2023", fen: fifty, run: func(h *harness) {
			h.press("claim", "white")
			h.move("b1b2")
		}, want: []string{"result 1/2-1/2 fide2023:9.3.1"}, not: []string{"ruling"}},
		{name: "claim on the fiftieth move, a king move made instead of the rook's: still fifty", sets: "fide2023", fen: fifty, run: func(h *harness) {
			h.press("claim", "white")
			h.move("a1a2")
		}, want: []string{"result 1/2-1/2 fide2023:9.3.1"}},
		{name: "claim on the fiftieth move, a capture made: incorrect", sets: "fide2023", fen: "7k/8/8/8/8/8/r7/KR6 w - - 99 80", run: func(h *harness) {
			h.press("claim", "white")
			h.move("a1a2")
		}, want: []string{"ruling refused by arbiter fide2023:9.5.3"}, not: []string{"result"}},
		{name: "a man touched before the claim: refused, whatever the position", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.move("f6g8") // the start stands for the third time, White to move
			h.touch("g1")
			h.press("claim", "white")
		}, want: []string{"ruling refused by arbiter fide2023:9.4"}, not: []string{"result"}},
		{name: "a man touched before a claim on the move: refused, and the move then made decides nothing", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			mark := h.touch("f6")
			h.press("claim", "black")
			h.move("f6g8", mark)
		}, want: []string{"ruling refused by arbiter fide2023:9.4"}, not: []string{"result", "ruling refused by arbiter fide2023:9.5.3"}},
		{name: "the claim on the position just reached still draws at once", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.move("f6g8")
			h.press("claim", "white")
		}, want: []string{"result 1/2-1/2 fide2023:9.2"}},
		{name: "an announced adjustment is no touch", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.move("f6g8")
			h.adjust("e2", true)
			h.press("claim", "white")
		}, want: []string{"result 1/2-1/2 fide2023:9.2"}},
		{name: "a press by the side not to move is no claim", sets: "fide2023", run: func(h *harness) {
			shuffleKnights(h)
			h.press("claim", "white")
			h.move("f6g8")
		}, not: []string{"ruling", "result"}},
		{name: "nycc: a repetition claim after a touch is judged as before", sets: "nycc", run: func(h *harness) {
			shuffleKnights(h)
			h.move("f6g8")
			h.touch("g1")
			h.press("claim", "white")
		}, want: []string{"result 1/2-1/2 nycc:V"}},
		{name: "nycc: no claim on a move not yet made", sets: "nycc", run: func(h *harness) {
			shuffleKnights(h)
			h.press("claim", "black")
			h.move("f6g8")
		}, not: []string{"result"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
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

// TestIntendedClaimGoesWithItsLaws: a claim on the intended move made under
// fide2023 is not decided under a code put in force before the move (which
// knows no such claim and no law to refuse it by).
func TestIntendedClaimGoesWithItsLaws(t *testing.T) {
	h := newHarness(t, "fide2023", "")
	shuffleKnights(h)
	h.press("claim", "black")
	nycc, err := lawset.Lookup("nycc")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.g.SetLaws(nycc); err != nil {
		t.Fatal(err)
	}
	h.move("f6g8")
	got := h.lines()
	expectLines(t, got, "move f6g8")
	refuseLine(t, got, "ruling")
	refuseLine(t, got, "result")
}

// BenchmarkClaimOnIntendedMove measures what a claim press costs when the
// position does not bear it out and every legal move must be tried (the
// middle game of a Ruy Lopez, about thirty moves, none repeating).
func BenchmarkClaimOnIntendedMove(b *testing.B) {
	ls, err := lawset.Lookup("fide2023")
	if err != nil {
		b.Fatal(err)
	}
	g, err := NewGame(Options{Laws: ls, Setup: "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if g.someMoveBearsClaim() {
			b.Fatal("no move repeats a position here")
		}
	}
}

// TestNoticedCheck covers sarratt1808:19: the claim button pressed by a
// player whose king has stood in an uncalled check since before his own last
// move. Each case fails were the condition read wrong: who may notice, how
// long the check must have stood, and which codes know the law.
func TestNoticedCheck(t *testing.T) {
	const bishopCheck = "4k3/ppp2ppp/8/8/8/8/PPP2PPP/4KB2 w - - 0 1"
	const noticed = "irregularity noticed-check sarratt1808:19 by white chooser black [recall,stand]"
	cases := []struct {
		name string
		sets string
		run  func(h *harness)
		want []string
		not  []string
	}{
		{name: "check stood during two moves: noticed", sets: "sarratt1808", run: func(h *harness) {
			h.move("f1b5")
			h.move("a7a6")
			h.move("a2a3")
			h.press("claim", "black")
		}, want: []string{noticed}},
		{name: "check just given: nothing of his to put back", sets: "sarratt1808", run: func(h *harness) {
			h.move("f1b5")
			h.press("claim", "black")
		}, not: []string{"irregularity noticed-check"}},
		{name: "the checker's press is no noticing", sets: "sarratt1808", run: func(h *harness) {
			h.move("f1b5")
			h.move("a7a6")
			h.move("a2a3")
			h.press("claim", "white")
		}, not: []string{"irregularity noticed-check"}},
		{name: "a check announced and parried leaves nothing to notice", sets: "sarratt1808", run: func(h *harness) {
			h.move("f1b5")
			h.press("check", "white")
			h.move("c7c6")
			h.move("a2a3")
			h.press("claim", "black")
		}, not: []string{"irregularity noticed-check"}},
		{name: "recall takes back his move and the reply", sets: "sarratt1808", run: func(h *harness) {
			h.move("f1b5")
			h.move("a7a6")
			h.move("a2a3")
			h.press("claim", "black")
			h.choose("recall", "black")
		}, want: []string{noticed, "ruling recall by black sarratt1808:19"}},
		{name: "philidor1825 has no such law", sets: "philidor1825", run: func(h *harness) {
			h.move("f1b5")
			h.move("a7a6")
			h.move("a2a3")
			h.press("claim", "black")
		}, not: []string{"irregularity noticed-check"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.sets, bishopCheck)
			c.run(h)
			got := h.lines()
			expectLines(t, got, c.want...)
			for _, n := range c.not {
				refuseLine(t, got, n)
			}
		})
	}
}
