package console

import (
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
)

// The clocks as the page gets them: the running side's time counted down
// to the moment the state is taken (never below zero, never up), the side
// whose flag fell named.
func TestClockOf(t *testing.T) {
	k := func(status clock.Status, side board.Color) *game.Clocks {
		return &game.Clocks{White: "0:05:00", Black: "0:04:00", WhiteLeft: 5 * time.Minute, BlackLeft: 4 * time.Minute, Running: side, Status: status}
	}
	tests := []struct {
		name  string
		k     *game.Clocks
		since time.Duration
		want  Clock
	}{
		{"idle", k(clock.Idle, board.White), time.Second, Clock{White: "0:05:00", Black: "0:04:00", WhiteMs: 300000, BlackMs: 240000}},
		{"white running", k(clock.Running, board.White), 1500 * time.Millisecond, Clock{White: "0:05:00", Black: "0:04:00", WhiteMs: 298500, BlackMs: 240000, Running: "white"}},
		{"black running", k(clock.Running, board.Black), 250 * time.Millisecond, Clock{White: "0:05:00", Black: "0:04:00", WhiteMs: 300000, BlackMs: 239750, Running: "black"}},
		{"past zero", k(clock.Running, board.Black), 10 * time.Minute, Clock{White: "0:05:00", Black: "0:04:00", WhiteMs: 300000, BlackMs: 0, Running: "black"}},
		{"no time back", k(clock.Running, board.White), -time.Second, Clock{White: "0:05:00", Black: "0:04:00", WhiteMs: 300000, BlackMs: 240000, Running: "white"}},
		{"flag fallen", k(clock.Flagged, board.Black), time.Second, Clock{White: "0:05:00", Black: "0:04:00", WhiteMs: 300000, BlackMs: 240000, Flag: "black"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := clockOf(tc.k, tc.since); *got != tc.want {
				t.Errorf("got %+v, want %+v", *got, tc.want)
			}
		})
	}
}

// The players' names from the game's tags: "?" and no tag are unknown.
func TestPlayersOf(t *testing.T) {
	tests := []struct {
		name string
		tags map[string]string
		want Players
	}{
		{"none", nil, Players{}},
		{"unknown", map[string]string{"White": "?", "Black": "?"}, Players{}},
		{"named", map[string]string{"White": "Anna", "Black": "Stockfish 16, Skill Level 5"}, Players{White: "Anna", Black: "Stockfish 16, Skill Level 5"}},
		{"one named", map[string]string{"White": "?", "Black": "Ben"}, Players{Black: "Ben"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := playersOf(tc.tags); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
