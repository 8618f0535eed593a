package board

import (
	"slices"
	"testing"
)

// The cache answers as Analyse does: the same legal moves and check, the
// position with its own move counters, and it forgets the oldest first.
func TestAnalysisCache(t *testing.T) {
	c := NewAnalysisCache(2)
	start := Start()
	later := start
	later.HalfMoves, later.FullMove = 8, 5
	a1, err := c.Analyse(start)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := c.Analyse(later)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Analyse(later)
	if a2.Position != later || !slices.Equal(a2.Moves, want.Moves) || a2.InCheck != want.InCheck {
		t.Errorf("cached analysis of the same men with other counters: %+v", a2.Position)
	}
	if a1.Position != start {
		t.Error("the first analysis was changed")
	}
	if got := a2.SAN(Move{From: 6, To: 21}); got != "Nf3" {
		t.Errorf("SAN from a cached analysis: %q", got)
	}
	e4 := start.Apply(Move{From: 12, To: 28})
	d4 := start.Apply(Move{From: 11, To: 27})
	for _, p := range []Position{e4, d4} {
		if _, err := c.Analyse(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.byKey[start.cacheKey()]; ok || len(c.byKey) != 2 {
		t.Errorf("after two more positions the cache holds %d, the start among them: %v", len(c.byKey), ok)
	}
}

func BenchmarkAnalysisCacheHit(b *testing.B) {
	c := NewAnalysisCache(0)
	p := Start()
	if _, err := c.Analyse(p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.FullMove++
		if _, err := c.Analyse(p); err != nil {
			b.Fatal(err)
		}
	}
}
