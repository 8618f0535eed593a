package voice

import (
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
)

// Without a position seen, a move's words come from its SAN: the piece,
// a capture (the man taken unknown), check, mate and castling.
func TestAnnouncerWordsFromSAN(t *testing.T) {
	for _, c := range []struct {
		uci, san, want string
	}{
		{"g1f3", "Nf3", "knight from g1 to f3"},
		{"b5c6", "Bxc6+", "bishop from b5 takes on c6, check"},
		{"e5d6", "exd6", "pawn from e5 takes on d6"},
		{"h5f7", "Qxf7#", "queen from h5 takes on f7, checkmate"},
		{"e1g1", "O-O", "castles kingside"},
		{"e8c8", "O-O-O+", "castles queenside, check"},
		{"a7a8n", "a8=N", "pawn from a7 to a8, becomes a knight"},
		{"zz", "Nf3", "Nf3"}, // a move that does not parse is said as its SAN
	} {
		var said []string
		a := NewAnnouncer(Words{}, func(s string) { said = append(said, s) })
		a.Report(report.Report{Type: report.Move, Side: "white", UCI: c.uci, SAN: c.san})
		if got := strings.Join(said, " | "); got != c.want {
			t.Errorf("%s %s: said %q, want %q", c.uci, c.san, got, c.want)
		}
	}
}

// The opponent's move to carry out is said once however many snapshots
// show it, again if another comes; the last move repeated is the one
// awaited while one is; nothing is said of reports a player need not hear.
func TestAnnouncerAwaitingOnce(t *testing.T) {
	var said []string
	a := NewAnnouncer(Words{}, func(s string) { said = append(said, s) })
	if a.RepeatLast() || a.Clocks() || a.Position() {
		t.Error("an announcer that has seen nothing answered a request")
	}
	p, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	g8f6, _ := board.ParseUCI("g8f6")
	e7e5, _ := board.ParseUCI("e7e5")
	for range 3 {
		a.Snapshot(&game.Snapshot{Position: p, Awaiting: g8f6, HasAwaiting: true})
	}
	a.Report(report.Report{Type: report.Touch, Side: "black", Square: "g8"})
	a.Report(report.Report{Type: report.Synced})
	a.RepeatLast()
	a.Snapshot(&game.Snapshot{Position: p, Awaiting: e7e5, HasAwaiting: true})
	a.Snapshot(&game.Snapshot{Position: p})
	a.Snapshot(&game.Snapshot{Position: p, Awaiting: e7e5, HasAwaiting: true})
	want := []string{
		"Black plays knight from g8 to f6. Make the move on the board.",
		"Black plays knight from g8 to f6. Make the move on the board.",
		"Black plays pawn from e7 to e5. Make the move on the board.",
		"Black plays pawn from e7 to e5. Make the move on the board.",
	}
	if strings.Join(said, "\n") != strings.Join(want, "\n") {
		t.Errorf("said:\n%s\nwant:\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
}
