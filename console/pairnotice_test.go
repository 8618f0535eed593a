package console

import "testing"

// What a paired board's page says under the board: the other board or the
// broker out of reach, and the other board's draw offer standing, with
// the law it rests on where the law-set has one.
func TestPairNotice(t *testing.T) {
	for _, c := range []struct {
		name string
		p    *Pair
		want string
	}{
		{"not paired", nil, ""},
		{"all well", &Pair{Other: "board-02"}, ""},
		{"the other board gone", &Pair{Other: "board-02", Gone: "board"}, "The other board (board-02) has gone away; the game waits for it."},
		{"a draw offered", &Pair{Other: "board-02", DrawOffer: "white", Law: "fide2023:9.1.2.1"},
			"White offers a draw (fide2023:9.1.2.1): accept with Offer a draw, decline by moving."},
		{"a draw offered under an older code", &Pair{Other: "board-02", DrawOffer: "black"},
			"Black offers a draw: accept with Offer a draw, decline by moving."},
		{"a draw offered, the broker gone", &Pair{Other: "board-02", Gone: "broker", DrawOffer: "black"},
			"The hall's broker is out of reach; the game waits for it. Black offers a draw: accept with Offer a draw, decline by moving."},
		{"a take-back asked", &Pair{Other: "board-02", TakeBackAsked: 2},
			"The other board's player asks to take back 2 moves: agree with Take back, refuse by moving."},
		{"his last move asked back", &Pair{Other: "board-02", TakeBackAsked: 1},
			"The other board's player asks to take back his last move: agree with Take back, refuse by moving."},
		{"this board's request waiting", &Pair{Other: "board-02", TakeBack: "asked"},
			"Take-back asked: it waits for the other board's player to agree."},
		{"this board's request refused", &Pair{Other: "board-02", TakeBack: "refused"},
			"The other board's player played on: no take-back."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pairNotice(c.p); got != c.want {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
}
