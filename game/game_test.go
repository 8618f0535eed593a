package game

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// run replays trace text and returns the reports.
func run(t testing.TB, laws, text string) []report.Report {
	t.Helper()
	var out []report.Report
	lines, err := trace.ReadAll(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Laws: laws}
	if len(lines) > 0 && lines[0].Kind == trace.Setup {
		opts.Setup = lines[0].FEN
		lines = lines[1:]
	}
	p, err := New(opts, func(r report.Report) { out = append(out, r) })
	if err != nil {
		t.Fatal(err)
	}
	var last time.Duration
	for _, l := range lines {
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
		last = l.T
	}
	p.Finish(last)
	return out
}

func moves(rs []report.Report) []string {
	var out []string
	for _, r := range rs {
		if r.Type == report.Move {
			out = append(out, r.UCI)
		}
	}
	return out
}

func count(rs []report.Report, typ report.Type) int {
	n := 0
	for _, r := range rs {
		if r.Type == typ {
			n++
		}
	}
	return n
}

// frames turns a list of (ms, occupancy) changes into frame lines with
// contact bounce: each changed square flips back and forth for a few
// milliseconds before it settles.
func bouncing(start board.Occupancy, steps []struct {
	at  int
	sq  string
	add bool
}) string {
	var b strings.Builder
	occ := start
	b.WriteString(string(trace.Append(nil, trace.Line{Kind: trace.Frame, Occupancy: occ})))
	for _, s := range steps {
		sq, _ := board.ParseSquare(s.sq)
		final := occ.Without(sq)
		if s.add {
			final = occ.With(sq)
		}
		for i, d := range []int{0, 2, 3, 5, 6} {
			o := final
			if i%2 == 1 {
				o = occ
			}
			b.WriteString(string(trace.Append(nil, trace.Line{T: time.Duration(s.at+d) * time.Millisecond, Kind: trace.Frame, Occupancy: o})))
		}
		occ = final
	}
	return b.String()
}

func TestBouncingFramesGiveTheSameMoves(t *testing.T) {
	events := `{"t":0,"lift":"e2"}
{"t":400,"place":"e4"}
{"t":1200,"lift":"e7"}
{"t":1500,"place":"e5"}
{"t":2500,"lift":"g1"}
{"t":2800,"place":"f3"}
`
	start := board.Start()
	frames := bouncing(start.Occupancy(), []struct {
		at  int
		sq  string
		add bool
	}{{0, "e2", false}, {400, "e4", true}, {1200, "e7", false}, {1500, "e5", true}, {2500, "g1", false}, {2800, "f3", true}})
	want := []string{"e2e4", "e7e5", "g1f3"}
	for name, text := range map[string]string{"events": events, "frames": frames} {
		got := run(t, "fide2023", text)
		if strings.Join(moves(got), " ") != strings.Join(want, " ") {
			t.Errorf("%s: moves %v, want %v", name, moves(got), want)
		}
		if n := count(got, report.Irregularity) + count(got, report.Mismatch); n != 0 {
			t.Errorf("%s: %d irregularities or mismatches on clean play", name, n)
		}
	}
}

func TestNoiseShorterThanDebounceIsIgnored(t *testing.T) {
	start := board.Start()
	occ := start.Occupancy()
	var b strings.Builder
	for i := 0; i < 50; i++ {
		o := occ
		if i%2 == 0 {
			o = occ.Without(12) // e2 flickers for 5 ms at a time
		}
		b.Write(trace.Append(nil, trace.Line{T: time.Duration(i*5) * time.Millisecond, Kind: trace.Frame, Occupancy: o}))
	}
	b.Write(trace.Append(nil, trace.Line{T: 300 * time.Millisecond, Kind: trace.Frame, Occupancy: occ}))
	got := run(t, "fide2023", b.String())
	for _, r := range got {
		if r.Type != report.End {
			t.Fatalf("noise produced %s", r.Type)
		}
	}
}

func newBenchGame(b *testing.B) *Game {
	p, err := New(Options{Laws: "fide2023"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkFrameUnchanged measures the common case: a scan that finds the
// board as it was.
func BenchmarkFrameUnchanged(b *testing.B) {
	p := newBenchGame(b)
	start := board.Start()
	occ := start.Occupancy()
	t := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		t += time.Millisecond
		p.Frame(t, occ)
	}
}

// BenchmarkFrameChange measures frames that change a square: a man lifted
// and set back, with its debounce and the gesture it makes.
func BenchmarkFrameChange(b *testing.B) {
	p := newBenchGame(b)
	start := board.Start()
	occ := start.Occupancy()
	lifted := occ.Without(1) // b1
	t := time.Duration(0)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t += 30 * time.Millisecond
		if i%2 == 0 {
			p.Frame(t, lifted)
		} else {
			p.Frame(t, occ)
		}
		i++
	}
}

// randomGameTrace plays n plies of a deterministic pseudo-random legal game
// and returns its trace (lift, place, with captures lifting the victim first).
func randomGameTrace(tb testing.TB, plies int, seed uint64) ([]trace.Line, int) {
	pos := board.Start()
	var lines []trace.Line
	t := time.Duration(0)
	x := seed | 1
	played := 0
	for i := 0; i < plies; i++ {
		a, err := board.Analyse(pos)
		if err != nil {
			tb.Fatal(err)
		}
		if len(a.Moves) == 0 || pos.HalfMoves >= 90 || pos.Dead() {
			break
		}
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		m := a.Moves[x%uint64(len(a.Moves))]
		if pos.IsPromotion(m) {
			side := pos.Turn.String()
			lines = append(lines, trace.Line{T: t, Kind: trace.Promote, Piece: m.Promo, Side: side})
		}
		if pos.Men[m.To] != board.NoMan {
			lines = append(lines, trace.Line{T: t, Kind: trace.Lift, Square: m.To})
			t += 100 * time.Millisecond
		}
		if pos.IsEnPassant(m) {
			lines = append(lines, trace.Line{T: t, Kind: trace.Lift, Square: board.EnPassantVictim(m)})
			t += 100 * time.Millisecond
		}
		lines = append(lines, trace.Line{T: t, Kind: trace.Lift, Square: m.From})
		t += 200 * time.Millisecond
		lines = append(lines, trace.Line{T: t, Kind: trace.Place, Square: m.To})
		t += 100 * time.Millisecond
		if pos.IsCastling(m) {
			rf, rt := board.CastlingRook(m.From, m.To)
			lines = append(lines, trace.Line{T: t, Kind: trace.Lift, Square: rf})
			t += 100 * time.Millisecond
			lines = append(lines, trace.Line{T: t, Kind: trace.Place, Square: rt})
		}
		t += 700 * time.Millisecond
		pos = pos.Apply(m)
		played++
	}
	return lines, played
}

func TestRandomGamesReplayClean(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		lines, played := randomGameTrace(t, 300, seed)
		var got []report.Report
		p, err := New(Options{Laws: "fide2023"}, func(r report.Report) { got = append(got, r) })
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			p.Input(l)
		}
		p.Finish(lines[len(lines)-1].T)
		if n := len(moves(got)); n != played {
			var b strings.Builder
			for _, r := range got {
				b.Write(r.AppendJSON(nil))
				b.WriteByte('\n')
			}
			t.Fatalf("seed %d: %d moves recovered of %d\n%s", seed, n, played, b.String())
		}
		if n := count(got, report.Irregularity) + count(got, report.Mismatch); n != 0 {
			t.Fatalf("seed %d: %d irregularities on clean play", seed, n)
		}
	}
}

// BenchmarkReplay measures replay throughput through the whole game:
// moves per second of virtual play.
func BenchmarkReplay(b *testing.B) {
	lines, played := randomGameTrace(b, 200, 7)
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		p, err := New(Options{Laws: "fide2023"}, func(r report.Report) { buf = r.AppendJSON(buf[:0]) })
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range lines {
			p.Input(l)
		}
		p.Finish(lines[len(lines)-1].T)
	}
	b.ReportMetric(float64(played*b.N)/b.Elapsed().Seconds(), "moves/s")
}

// TestSetUpOnAnEmptyBoardStartsTheGame replays a trace whose first frame is
// an empty board: the men are set up one by one, then the game begins, with
// no mismatch on the way.
func TestSetUpOnAnEmptyBoardStartsTheGame(t *testing.T) {
	var b strings.Builder
	var occ board.Occupancy
	b.Write(trace.Append(nil, trace.Line{Kind: trace.Frame}))
	ms := 100
	start := board.Start()
	for _, sq := range start.Occupancy().Squares() {
		occ = occ.With(sq)
		b.Write(trace.Append(nil, trace.Line{T: time.Duration(ms) * time.Millisecond, Kind: trace.Frame, Occupancy: occ}))
		ms += 30
	}
	e2, e4 := board.Square(12), board.Square(28)
	b.Write(trace.Append(nil, trace.Line{T: time.Duration(ms+1000) * time.Millisecond, Kind: trace.Frame, Occupancy: occ.Without(e2)}))
	b.Write(trace.Append(nil, trace.Line{T: time.Duration(ms+1300) * time.Millisecond, Kind: trace.Frame, Occupancy: occ.Without(e2).With(e4)}))
	var out strings.Builder
	if err := Replay(context.Background(), strings.NewReader(b.String()), &out, Options{Laws: "fide2023"}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Contains(got, `"mismatch"`) || !strings.Contains(got, `"type":"synced"`) || !strings.Contains(got, `"uci":"e2e4"`) {
		t.Fatalf("set-up then e4:\n%s", got)
	}
}

// TestNewGameRefusesAnIllegalSetUp: the arbiter's new game from a FEN takes
// only a position a game can show; the game in progress goes on untouched.
func TestNewGameRefusesAnIllegalSetUp(t *testing.T) {
	for _, c := range []struct{ fen, fault string }{
		{"8/8/8/8/8/8/8/Kk6 w - - 0 1", "the kings touch"},
		{"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a white pawn on a1"},
		{"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "black, not to move, is in check"},
	} {
		g, err := New(Options{Laws: "fide2023"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = g.Action(time.Second, trace.ActionNewGame, c.fen)
		if err == nil || !strings.Contains(err.Error(), c.fault) {
			t.Errorf("new-game %s: %v, want %q", c.fen, err, c.fault)
		}
		if s := g.Snapshot(); s.Syncing || s.Position.FEN() != board.StartFEN {
			t.Errorf("new-game %s refused, but the game changed: %s, syncing %v", c.fen, s.Position.FEN(), s.Syncing)
		}
	}
	g, _ := New(Options{Laws: "fide2023"}, nil)
	if err := g.Action(time.Second, trace.ActionNewGame, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"); err != nil {
		t.Errorf("a legal set-up refused: %v", err)
	}
}
