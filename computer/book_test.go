package computer

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
)

// play returns the position after moves from fen ("" for the start).
func play(t testing.TB, fen string, moves ...string) board.Position {
	t.Helper()
	pos := board.Start()
	if fen != "" {
		var err error
		if pos, err = board.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range moves {
		m, err := board.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Apply(m)
	}
	return pos
}

// The keys are those of the Polyglot format's own examples.
func TestPolyglotKey(t *testing.T) {
	for _, tc := range []struct {
		moves string
		key   uint64
	}{
		{"", 0x463b96181691fc9c},
		{"e2e4", 0x823c9b50fd114196},
		{"e2e4 d7d5", 0x0756b94461c50fb0},
		{"e2e4 d7d5 e4e5", 0x662fafb965db29d4},
		{"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
		{"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
		{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
		{"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
		{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
	} {
		got, err := Key(play(t, "", strings.Fields(tc.moves)...))
		if err != nil || got != tc.key {
			t.Errorf("key after %q = %016x, %v; want %016x", tc.moves, got, err, tc.key)
		}
	}
}

// bookEntry is one entry of a test book: a position, a move from square to
// square (castling as the king taking its rook), a promotion piece (Polyglot's
// number: 1 knight ... 4 queen) and a weight.
type bookEntry struct {
	pos      board.Position
	from, to string
	promo    int
	weight   uint16
}

// writeBook writes entries in the Polyglot format: 16-byte big-endian
// entries sorted by key (key, move, weight, learn).
func writeBook(t testing.TB, entries []bookEntry) []byte {
	t.Helper()
	type raw struct {
		key          uint64
		move, weight uint16
	}
	var raws []raw
	for _, e := range entries {
		key, err := Key(e.pos)
		if err != nil {
			t.Fatal(err)
		}
		from, _ := board.ParseSquare(e.from)
		to, _ := board.ParseSquare(e.to)
		move := uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9 | uint16(e.promo)<<12
		raws = append(raws, raw{key, move, e.weight})
	}
	sort.SliceStable(raws, func(i, j int) bool { return raws[i].key < raws[j].key })
	var b bytes.Buffer
	for _, r := range raws {
		var entry [16]byte
		binary.BigEndian.PutUint64(entry[0:], r.key)
		binary.BigEndian.PutUint16(entry[8:], r.move)
		binary.BigEndian.PutUint16(entry[10:], r.weight)
		binary.BigEndian.PutUint32(entry[12:], 0)
		b.Write(entry[:])
	}
	return b.Bytes()
}

// testBook is a tiny book: three weighted first moves, one of weight 0, and
// an illegal one; Black's answer to 1.e4; a castling, a rook move from e1 to
// h1 that is no castling, and an under-promotion.
func testBook(t testing.TB) *Book {
	t.Helper()
	start := board.Start()
	italian := play(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5")
	data := writeBook(t, []bookEntry{
		{start, "e2", "e4", 0, 60},
		{start, "d2", "d4", 0, 30},
		{start, "g1", "f3", 0, 10},
		{start, "a2", "a3", 0, 0},
		{start, "e2", "e5", 0, 50}, // not a legal move: never offered
		{play(t, "", "e2e4"), "e7", "e5", 0, 1},
		{italian, "e1", "h1", 0, 5},
		{play(t, "4k3/8/8/8/8/8/8/K3R3 w - - 0 1"), "e1", "h1", 0, 1},
		{play(t, "8/P7/8/8/8/8/8/k1K5 w - - 0 1"), "a7", "a8", 3, 1},
	})
	path := filepath.Join(t.TempDir(), "tiny.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := OpenBook(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBookMoves(t *testing.T) {
	b := testBook(t)
	for _, tc := range []struct {
		name string
		pos  board.Position
		want []string // UCI:weight, heaviest first
	}{
		{"start", board.Start(), []string{"e2e4:60", "d2d4:30", "g1f3:10", "a2a3:0"}},
		{"after 1.e4", play(t, "", "e2e4"), []string{"e7e5:1"}},
		{"castling", play(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"), []string{"e1g1:5"}},
		{"a rook from e1 to h1", play(t, "4k3/8/8/8/8/8/8/K3R3 w - - 0 1"), []string{"e1h1:1"}},
		{"under-promotion", play(t, "8/P7/8/8/8/8/8/k1K5 w - - 0 1"), []string{"a7a8r:1"}},
		{"out of the book", play(t, "", "d2d4"), nil},
	} {
		moves, err := b.Moves(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range moves {
			got = append(got, m.Move.UCI()+":"+strconv.Itoa(m.Weight))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Picks follow the weights; a move of weight 0 is never played; a position
// whose moves all weigh 0 has no pick.
func TestBookPick(t *testing.T) {
	b := testBook(t)
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	const n = 4000
	for range n {
		m, ok, err := b.Pick(board.Start(), rng)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		counts[m.UCI()]++
	}
	for move, weight := range map[string]float64{"e2e4": .6, "d2d4": .3, "g1f3": .1} {
		if share := float64(counts[move]) / n; share < weight-0.04 || share > weight+0.04 {
			t.Errorf("%s played %.3f of the time, want about %.1f", move, share, weight)
		}
	}
	if counts["a2a3"] != 0 || len(counts) != 3 {
		t.Errorf("picks %v", counts)
	}
	zero, err := ReadBook(bytes.NewReader(writeBook(t, []bookEntry{{board.Start(), "e2", "e4", 0, 0}})), "zero")
	if err != nil {
		t.Fatal(err)
	}
	if m, ok, err := zero.Pick(board.Start(), rng); ok || err != nil {
		t.Errorf("picked %v from a book of weight 0 (%v)", m, err)
	}
}

func TestBookDamaged(t *testing.T) {
	_, err := ReadBook(bytes.NewReader(make([]byte, 17)), "odd.bin")
	if err == nil || !strings.Contains(err.Error(), "odd.bin") || !strings.Contains(err.Error(), "16-byte") {
		t.Errorf("error %v", err)
	}
	if _, err := OpenBook(filepath.Join(t.TempDir(), "none.bin")); err == nil || !strings.Contains(err.Error(), "none.bin") {
		t.Errorf("error %v", err)
	}
}

// The player plays from the book without asking the engine, until the book
// runs out, a draw is offered (the answer needs an evaluation) or BookPlies
// is reached.
func TestPlayerBook(t *testing.T) {
	vt := newVirtualTime()
	path := fakeEngine(t, "good")
	o := fakeOptions(t, path, vt)
	o.Book, o.Rand = testBook(t), rand.New(rand.NewPCG(3, 4))
	p := startPlayer(t, o)
	think := func(req Request) Reply {
		t.Helper()
		r := result(t, p.Think(context.Background(), req))
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r.Reply
	}
	r := think(Request{})
	if !r.FromBook || !slices.Contains([]string{"e2e4", "d2d4", "g1f3"}, r.UCI) || r.Info.Scored || r.Engine != "Fake Engine 1.0" {
		t.Errorf("reply %+v", r)
	}
	if r := think(Request{Moves: []string{"e2e4"}}); !r.FromBook || r.UCI != "e7e5" || r.SAN != "e5" {
		t.Errorf("reply %+v", r)
	}
	if got := received(t, path, 1); slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "go") }) {
		t.Errorf("the engine was asked: %q", got)
	}
	if r := think(Request{DrawOffered: true}); r.FromBook || r.UCI != "a2a3" {
		t.Errorf("with a draw offered: %+v", r)
	}
	if r := think(Request{Moves: []string{"e2e4", "e7e5", "g1f3"}}); r.FromBook {
		t.Errorf("out of the book: %+v", r)
	}
	o.BookPlies = 1
	p2 := startPlayer(t, o)
	if r := result(t, p2.Think(context.Background(), Request{Moves: []string{"e2e4"}})); r.Err != nil || r.Reply.FromBook {
		t.Errorf("past BookPlies: %+v", r)
	}
}
