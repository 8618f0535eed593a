package board

import (
	"strings"
	"testing"

	"github.com/corentings/chess/v2"
)

func TestParseSquare(t *testing.T) {
	tests := []struct {
		in   string
		want Square
		ok   bool
	}{{"a1", 0, true}, {"h1", 7, true}, {"e4", 28, true}, {"H8", 63, true}, {"i1", NoSquare, false}, {"a9", NoSquare, false}, {"", NoSquare, false}, {"e44", NoSquare, false}}
	for _, tt := range tests {
		got, err := ParseSquare(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && got.String() != string([]byte{tt.in[0] | 0x20, tt.in[1]}) {
			t.Errorf("String of %q = %q", tt.in, got.String())
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 b - - 12 40",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("ParseFEN(%q): %v", fen, err)
		}
		if got := p.FEN(); got != fen {
			t.Errorf("FEN round trip: got %q want %q", got, fen)
		}
	}
}

// TestParseFENAgreesWithLibrary reads FENs both ways.
func TestParseFENAgreesWithLibrary(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq d6 0 3",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 37 61",
		"4k3/8/8/8/8/8/8/4K3 b - - 0 1",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		var lib chess.Position
		if err := lib.UnmarshalText([]byte(fen)); err != nil {
			t.Fatal(err)
		}
		if want := fromLibrary(&lib); p != want {
			t.Errorf("%s: parsed %+v, library %+v", fen, p, want)
		}
	}
}

func TestParseFENRejects(t *testing.T) {
	for _, fen := range []string{"", "garbage", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"} {
		if _, err := ParseFEN(fen); err == nil {
			t.Errorf("ParseFEN(%q) accepted", fen)
		}
	}
}

// TestApplyMatchesLibrary walks every legal line to depth 3 from positions rich
// in castling, en passant and promotion, and checks that Apply gives the FEN
// the rules library gives.
func TestApplyMatchesLibrary(t *testing.T) {
	for _, c := range []struct {
		fen   string
		depth int
	}{
		{StartFEN, 3},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2},
		{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3},
		{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 2},
		{"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2},
	} {
		fen := c.fen
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		n := walk(t, p, c.depth)
		if n == 0 {
			t.Fatalf("no positions walked from %s", fen)
		}
	}
}

func walk(t *testing.T, p Position, depth int) int {
	t.Helper()
	if depth == 0 {
		return 1
	}
	a, err := Analyse(p)
	if err != nil {
		t.Fatal(err)
	}
	var lib chess.Position
	if err := lib.UnmarshalText([]byte(p.FEN())); err != nil {
		t.Fatal(err)
	}
	libMoves := lib.ValidMoves()
	if len(libMoves) != len(a.Moves) {
		t.Fatalf("%s: %d moves, library %d", p.FEN(), len(a.Moves), len(libMoves))
	}
	total := 0
	for i := range libMoves {
		m := a.Moves[i]
		want := lib.Update(&libMoves[i]).String()
		q := p.Apply(m)
		if got := q.FEN(); got != want {
			t.Fatalf("%s + %s: got %s want %s", p.FEN(), m, got, want)
		}
		na, err := Analyse(q)
		if err != nil {
			t.Fatal(err)
		}
		// The letters must be the library's; the check sign is checked
		// against the position itself, because the library marks an
		// underpromotion as giving check when a queen there would.
		got := a.SANAfter(m, na)
		if base, want := strings.TrimRight(got, "+#"), strings.TrimRight(a.SAN(m), "+#"); base != want {
			t.Fatalf("%s: SAN of %s is %q, library says %q", p.FEN(), m, got, want)
		}
		sign := ""
		if q.InCheck(q.Turn) {
			sign = "+"
			if len(na.Moves) == 0 {
				sign = "#"
			}
		}
		if !strings.HasSuffix(got, sign) || sign == "" && strings.ContainsAny(got, "+#") {
			t.Fatalf("%s: SAN of %s is %q, want sign %q", p.FEN(), m, got, sign)
		}
		if kind := p.MoveFault(m, a); kind != NoFault {
			t.Fatalf("%s: legal %s classified %s", p.FEN(), m, kind)
		}
		total += walk(t, q, depth-1)
	}
	return total
}

func TestMoveFault(t *testing.T) {
	tests := []struct {
		fen, move string
		want      Fault
	}{
		{StartFEN, "c1d2", FaultOwnCapture},
		{StartFEN, "e2e5", FaultGeometry},
		{StartFEN, "g1g3", FaultGeometry},
		{"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1f1", NoFault},
		{"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1e2", FaultIntoCheck},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1c1", FaultCastling},
		{"4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "e1g1", FaultCastling},
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", NoFault},
		{"4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", FaultIntoCheck},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Analyse(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseUCI(tt.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.MoveFault(m, a); got != tt.want {
			t.Errorf("%s %s: fault %v want %v", tt.fen, tt.move, got, tt.want)
		}
	}
}

func TestCanMate(t *testing.T) {
	tests := []struct {
		fen         string
		white, dead bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, true},
		{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", false, true},
		{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", false, true},
		{"4k3/8/8/8/8/8/p7/4KN2 w - - 0 1", true, false},
		{"4k3/8/8/8/8/8/8/3RK3 w - - 0 1", true, false},
		{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", false, true},
		{"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", true, false},
	}
	for _, tt := range tests {
		p, _ := ParseFEN(tt.fen)
		if got := p.CanMate(White); got != tt.white {
			t.Errorf("%s: CanMate(White) = %v", tt.fen, got)
		}
		if got := p.Dead(); got != tt.dead {
			t.Errorf("%s: Dead() = %v", tt.fen, got)
		}
	}
}

func TestRepetitionKeyIgnoresUncapturableEnPassant(t *testing.T) {
	a, _ := ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	b, _ := ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if a.Key() != b.Key() {
		t.Error("an en passant square no pawn can use changed the repetition key")
	}
	c, _ := ParseFEN("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	d, _ := ParseFEN("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if c.Key() == d.Key() {
		t.Error("a usable en passant capture did not change the repetition key")
	}
}

func BenchmarkAnalyse(b *testing.B) {
	p, _ := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyse(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApply(b *testing.B) {
	p := Start()
	m := Move{From: 12, To: 28}
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Apply(m)
	}
}
