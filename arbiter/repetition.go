package arbiter

import "github.com/boardd/boardd/board"

// positions is the sequence of positions a game has stood in since its
// start, with how often each has stood: the current position's count is
// read in constant time, and a take-back forgets the positions it undoes.
// Positions are counted twice: whole (castling rights and en passant
// included, as fide2023:9.2.2 wants) and by placement alone (the men and
// the player to move, as hastings1895:VII reads).
type positions struct {
	keys      []board.RepetitionKey
	counts    map[board.RepetitionKey]int
	placement map[board.RepetitionKey]int
}

// placementOf is k without castling rights and en passant.
func placementOf(k board.RepetitionKey) board.RepetitionKey {
	k.Castling, k.EnPassant = 0, board.NoSquare
	return k
}

// reset begins the sequence at start.
func (p *positions) reset(start board.RepetitionKey) {
	p.keys = append(p.keys[:0], start)
	if p.counts == nil {
		p.counts = make(map[board.RepetitionKey]int)
		p.placement = make(map[board.RepetitionKey]int)
	}
	clear(p.counts)
	clear(p.placement)
	p.counts[start] = 1
	p.placement[placementOf(start)] = 1
}

// push records the position the game now stands in.
func (p *positions) push(k board.RepetitionKey) {
	p.keys = append(p.keys, k)
	p.counts[k]++
	p.placement[placementOf(k)]++
}

// truncate keeps the first n positions (at least the start).
func (p *positions) truncate(n int) {
	n = max(n, 1)
	for len(p.keys) > n {
		k := p.keys[len(p.keys)-1]
		p.keys = p.keys[:len(p.keys)-1]
		forget(p.counts, k)
		forget(p.placement, placementOf(k))
	}
}

func forget(m map[board.RepetitionKey]int, k board.RepetitionKey) {
	if m[k]--; m[k] <= 0 {
		delete(m, k)
	}
}

// len is how many positions the sequence holds.
func (p *positions) len() int { return len(p.keys) }

// current returns how often the current position has stood, itself
// included: whole, or by placement alone.
func (p *positions) current(byPlacement bool) int {
	if len(p.keys) == 0 {
		return 0
	}
	k := p.keys[len(p.keys)-1]
	if byPlacement {
		return p.placement[placementOf(k)]
	}
	return p.counts[k]
}

// count returns how often the position k has stood: whole, or by placement
// alone.
func (p *positions) count(k board.RepetitionKey, byPlacement bool) int {
	if byPlacement {
		return p.placement[placementOf(k)]
	}
	return p.counts[k]
}
