package hall

import (
	"strings"

	"github.com/boardd/boardd/console"
)

// Summary is one board in the hall's grid (GET /api/hall, and the hall's
// event stream).
type Summary struct {
	ID      string           `json:"id"`
	Heard   bool             `json:"heard"`  // the board has been heard from
	Online  bool             `json:"online"` // its last health said online
	Seq     uint64           `json:"seq"`    // the last event held
	Game    uint64           `json:"game"`
	Laws    string           `json:"laws"`
	FEN     string           `json:"fen"`
	Turn    string           `json:"turn"`
	Moves   int              `json:"moves"`
	Last    *Move            `json:"last"`
	Clock   *console.Clock   `json:"clock"`
	Result  *console.Result  `json:"result"`
	Pending *console.Pending `json:"pending"`
	Syncing bool             `json:"syncing"`
	White   string           `json:"white"`
	Black   string           `json:"black"`
	Round   string           `json:"round"`
	Faults  []string         `json:"faults"`
	Backlog uint64           `json:"backlog"`
	// Duplicates and Gaps count events dropped as already held, and as not
	// following what was held (each makes the hall ask again).
	Duplicates uint64 `json:"duplicates"`
	Gaps       uint64 `json:"gaps"`
}

// Summary returns the board's line in the grid.
func (b *Board) Summary() Summary {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := Summary{
		ID: b.id, Heard: !b.heard.IsZero(), Online: b.health.Online, Seq: b.last, Game: b.game,
		FEN: b.fen, Moves: len(b.moves), Clock: b.clock, Result: b.result, Pending: b.pending,
		Round: b.round, Faults: b.health.Faults, Backlog: b.health.Backlog, Duplicates: b.dups, Gaps: b.gaps,
	}
	if s.Faults == nil {
		s.Faults = []string{}
	}
	if b.header != nil {
		s.Laws = b.header.Laws
		s.White, s.Black = b.header.Tags["White"], b.header.Tags["Black"]
	}
	if b.state != nil {
		s.Syncing = b.state.head.Syncing
		if b.state.head.Laws.ID != "" {
			s.Laws = b.state.head.Laws.ID
		}
		if s.Game == 0 {
			s.Game = b.state.Game
		}
	}
	if p, ok := b.h.o.Pairings[b.id]; ok {
		if p.White != "" {
			s.White = p.White
		}
		if p.Black != "" {
			s.Black = p.Black
		}
	}
	if n := len(b.moves); n > 0 {
		m := b.moves[n-1]
		s.Last = &m
	}
	if f := strings.Fields(b.fen); len(f) > 1 {
		s.Turn = map[string]string{"w": "white", "b": "black"}[f[1]]
	}
	return s
}
