package online

import (
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/opponent"
)

// BenchmarkReply measures what the player does with lichess's move once it
// comes, 40 plies into a game: the question's position replayed, the move
// checked and written in SAN for the match to announce.
func BenchmarkReply(b *testing.B) {
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
		"f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
		"b1d2", "c8b7", "b3c2", "f8e8", "d2f1", "e7f8", "f1g3", "g7g6", "c1g5", "h7h6",
		"g5d2", "f8g7", "a2a4", "c7c5", "d4d5", "c5c4", "b2b4", "c4b3", "c2b3", "d7c5"}
	q := opponent.Question{Start: board.Start()}
	for _, m := range moves[:len(moves)-1] {
		mv, err := board.ParseUCI(m)
		if err != nil {
			b.Fatal(err)
		}
		q.Moves = append(q.Moves, mv)
	}
	p := &Player{}
	b.ReportAllocs()
	for b.Loop() {
		if a := p.reply(q, moves[len(moves)-1]); a.Err != nil || a.SAN != "Nc5" {
			b.Fatalf("%+v", a)
		}
	}
}
