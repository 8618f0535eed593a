package board

// AnalysisCache remembers the analyses of the positions a game stood in
// lately, so that a position standing again (a repetition, a take-back, a
// restore after a ruling) costs a map look-up instead of the rules
// library's move generation. Positions that differ only in their move
// counters share an analysis. It holds at most its size's positions,
// forgetting the oldest first. The zero value is not usable; use
// NewAnalysisCache. It is not safe for concurrent use.
type AnalysisCache struct {
	byKey map[RepetitionKey]*Analysis
	ring  []RepetitionKey // insertion order, to forget the oldest
	next  int
}

// NewAnalysisCache returns a cache of up to size analyses (16 if size is
// less than 1).
func NewAnalysisCache(size int) *AnalysisCache {
	if size < 1 {
		size = 16
	}
	return &AnalysisCache{byKey: make(map[RepetitionKey]*Analysis, size), ring: make([]RepetitionKey, 0, size)}
}

// Analyse returns p's analysis, from the cache when a position with the
// same men, side to move, castling rights and en passant square was
// analysed lately.
func (c *AnalysisCache) Analyse(p Position) (*Analysis, error) {
	k := p.cacheKey()
	if a, ok := c.byKey[k]; ok {
		if a.Position == p {
			return a, nil
		}
		b := *a // the same moves; the move counters are p's
		b.Position = p
		return &b, nil
	}
	a, err := Analyse(p)
	if err != nil {
		return nil, err
	}
	if len(c.ring) < cap(c.ring) {
		c.ring = append(c.ring, k)
	} else {
		delete(c.byKey, c.ring[c.next])
		c.ring[c.next] = k
		c.next = (c.next + 1) % len(c.ring)
	}
	c.byKey[k] = a
	return a, nil
}

// cacheKey is what decides a position's legal moves: the repetition key,
// with the en passant square kept even where no pawn can take on it.
func (p *Position) cacheKey() RepetitionKey {
	return RepetitionKey{Men: p.Men, Turn: p.Turn, Castling: p.Castling, EnPassant: p.EnPassant}
}
