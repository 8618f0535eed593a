package arbiter

import "github.com/boardd/boardd/board"

// positions is the sequence of positions a game has stood in since its
// start, with how often each has stood: the current position's count is
// read in constant time, and a take-back forgets the positions it undoes.
type positions struct {
	keys   []board.RepetitionKey
	counts map[board.RepetitionKey]int
}

// reset begins the sequence at start.
func (p *positions) reset(start board.RepetitionKey) {
	p.keys = append(p.keys[:0], start)
	clear(p.counts)
	if p.counts == nil {
		p.counts = make(map[board.RepetitionKey]int)
	}
	p.counts[start] = 1
}

// push records the position the game now stands in.
func (p *positions) push(k board.RepetitionKey) {
	p.keys = append(p.keys, k)
	p.counts[k]++
}

// truncate keeps the first n positions (at least the start).
func (p *positions) truncate(n int) {
	n = max(n, 1)
	for len(p.keys) > n {
		k := p.keys[len(p.keys)-1]
		p.keys = p.keys[:len(p.keys)-1]
		if p.counts[k]--; p.counts[k] <= 0 {
			delete(p.counts, k)
		}
	}
}

// len is how many positions the sequence holds.
func (p *positions) len() int { return len(p.keys) }

// current returns how often the current position has stood, itself
// included.
func (p *positions) current() int {
	if len(p.keys) == 0 {
		return 0
	}
	return p.counts[p.keys[len(p.keys)-1]]
}
