package console

import "testing"

// A man set down as a legal move is shown pending (the state's landing, the
// landing LEDs) before the move is made, and the move, once made, replaces
// it: the page answers the hand sooner without anything being recorded.
func TestLandingBeforeTheMove(t *testing.T) {
	r := newRig(t, rigOptions{laws: "fide2023"})
	s := r.stream(t)
	s.waitState(t, "the initial state", func(st State) bool { return st.Turn == "white" })

	r.input(t, `{"lift":"g1"}`)
	r.input(t, `{"place":"f3"}`)
	st := s.waitState(t, "the knight's move pending", func(st State) bool { return st.Landing != nil })
	if l := st.Landing; l.UCI != "g1f3" || l.SAN != "Nf3" || l.From != "g1" || l.To != "f3" || l.Needs != "" {
		t.Fatalf("landing %+v, want Nf3 from g1 to f3 needing nothing", l)
	}
	if len(st.Moves) != 0 {
		t.Fatalf("moves %v while the move is only pending", st.Moves)
	}
	if leds := ledRoles(st); leds["g1"] != "landing/steady" || leds["f3"] != "landing/steady" {
		t.Errorf("LEDs %v, want g1 and f3 lit as landing", leds)
	}
	st = s.waitState(t, "the move made", func(st State) bool { return len(st.Moves) == 1 })
	if st.Landing != nil {
		t.Errorf("landing %+v after the move was made", st.Landing)
	}
	if leds := ledRoles(st); leds["g1"] != "last-move/steady" || leds["f3"] != "last-move/steady" {
		t.Errorf("LEDs %v, want the last move", leds)
	}
}
