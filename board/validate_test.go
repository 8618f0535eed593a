package board

import (
	"strings"
	"testing"
)

func TestValidateRefusesWhatNoGameShows(t *testing.T) {
	tests := []struct {
		fen   string
		fault string // "" for a legal position
	}{
		{StartFEN, ""},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ""},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", ""},
		{"8/8/8/8/8/8/8/K6k w - - 0 1", ""},
		{"4k3/8/8/8/8/8/8/4K2R b K - 0 1", ""},     // black to move, not in check
		{"4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", ""},    // black in check on its move: fine
		{"QQQQQQQQ/8/8/8/8/8/8/K6k b - - 0 1", ""}, // eight promoted queens, no pawn left, a double check
		{"8/8/8/8/8/8/8/Kk6 w - - 0 1", "the kings touch (a1 and b1)"},
		{"8/8/8/3k4/4K3/8/8/8 b - - 0 1", "the kings touch"},
		{"4k3/8/8/8/8/8/8/4K1P1 w - - 0 1", "a white pawn on g1"},
		{"4k1p1/8/8/8/8/8/8/4K3 w - - 0 1", "a black pawn on g8"},
		{"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "black, not to move, is in check"},
		{"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "9 black pawns"},
		{"QQQQQQQQ/QQ6/8/8/8/8/8/K6k b - - 0 1", "9 men beyond the initial array but only 8 pawns gone"},
		{"QQ2k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", "1 men beyond the initial array but only 0 pawns gone"},
		{"4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1", "checked by 3 men"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "want a square on rank 6"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "no white pawn on e4"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "start square e2 is occupied"},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tt.fen, err)
			continue
		}
		err = p.Validate()
		switch {
		case tt.fault == "" && err != nil:
			t.Errorf("Validate(%s): %v, want none", tt.fen, err)
		case tt.fault != "" && (err == nil || !strings.Contains(err.Error(), tt.fault)):
			t.Errorf("Validate(%s): %v, want %q", tt.fen, err, tt.fault)
		}
		if _, serr := ParseSetup(tt.fen); (serr == nil) != (err == nil) {
			t.Errorf("ParseSetup(%s): %v, Validate: %v", tt.fen, serr, err)
		}
	}
}

func TestValidateCountsKings(t *testing.T) {
	p := Start()
	p.Men[NewSquare(3, 3)] = NewMan(White, King)
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "2 white kings") {
		t.Errorf("two white kings: %v", err)
	}
	p = Start()
	p.Men[NewSquare(4, 7)] = NoMan
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "0 black kings") {
		t.Errorf("no black king: %v", err)
	}
}

// TestEveryPositionOfPlayIsValid: positions reached by legal moves from the
// initial one are always valid set-ups.
func TestEveryPositionOfPlayIsValid(t *testing.T) {
	var walk func(p Position, depth int)
	n := 0
	walk = func(p Position, depth int) {
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		n++
		if depth == 0 {
			return
		}
		a, err := Analyse(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range a.Moves {
			walk(p.Apply(m), depth-1)
		}
	}
	for _, fen := range []string{StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		walk(p, 2)
	}
	t.Logf("%d positions", n)
}
