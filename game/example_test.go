package game_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/boardd/boardd/game"
)

// A trace in, reports out: the hands lift and set down men (debounced
// events, in milliseconds), and the game says what it decided, one JSON
// line a report, in virtual time; at the end the pending timers fire and
// the end line closes the output. A move is decided once the man set down
// has stood for the settle time (450 ms), when the hand can no longer be
// carrying it on, not when it lands.
func ExampleReplay() {
	trace := strings.Join([]string{
		`{"t":0,"lift":"e2"}`,
		`{"t":400,"place":"e4"}`,
		`{"t":1500,"lift":"e7"}`,
		`{"t":1900,"place":"e5"}`,
	}, "\n")
	err := game.Replay(context.Background(), strings.NewReader(trace), os.Stdout, game.Options{Laws: "fide2023"})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"type":"touch","t":0,"side":"white","square":"e2","piece":"pawn"}
	// {"type":"move","t":850,"side":"white","uci":"e2e4","san":"e4","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"}
	// {"type":"touch","t":1500,"side":"black","square":"e7","piece":"pawn"}
	// {"type":"move","t":2350,"side":"black","uci":"e7e5","san":"e5","fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"}
	// {"type":"end","t":2350,"fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2","pgn":"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[LawSet \"fide2023\"]\n[Termination \"unterminated\"]\n\n1. e4 e5 *\n"}
}
