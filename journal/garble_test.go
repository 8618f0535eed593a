package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// richGame is the hand events of a short game with everything a hand does
// on the board: men slid through squares on the way (set down in passing
// and lifted again), captures, castling on both sides, a promotion with
// capture (the piece named first) and a long rook slide. It returns the
// lines and the game's plies.
func richGame(t testing.TB) ([]trace.Line, int) {
	t.Helper()
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	steps := []struct {
		uci string
		via []string
	}{
		{"e2e4", []string{"e3"}}, {"d7d5", []string{"d6"}},
		{"e4d5", nil}, {"c7c6", nil},
		{"d5c6", nil}, {"g8f6", nil},
		{"g1f3", nil}, {"e7e6", nil},
		{"f1e2", nil}, {"f8e7", nil},
		{"e1g1", nil}, {"e8g8", nil},
		{"c6b7", nil}, {"b8c6", nil},
		{"b7a8q", nil}, {"d8b6", []string{"c7"}},
		{"d2d4", []string{"d3"}}, {"c8d7", nil},
		{"a8a7", nil}, {"f8b8", []string{"e8", "d8", "c8"}},
		{"b2b3", nil},
	}
	for _, s := range steps {
		var err error
		switch {
		case len(s.uci) == 5:
			err = p.Promote(s.uci)
		case s.via != nil:
			err = p.Slide(s.uci, s.via...)
		default:
			err = p.Move(s.uci)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return p.Lines, len(steps)
}

// richJournal is the journal of richGame and the PGN played.
func richJournal(t testing.TB) (data []byte, pgn string, plies int) {
	t.Helper()
	lines, plies := richGame(t)
	dir := t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(lines...)
	s.finish()
	pgn = s.p.PGN()
	if got := s.p.Snapshot().Moves; got != plies || strings.Contains(pgn, "{") {
		t.Fatalf("the rich game was not played as meant: %d plies of %d\n%s", got, plies, pgn)
	}
	s.close()
	data, err := os.ReadFile(filepath.Join(dir, CurrentFile))
	if err != nil {
		t.Fatal(err)
	}
	return data, pgn, plies
}

// garbles are the ways TestEveryLineGarbled damages a line beyond repair.
var garbles = []struct {
	name   string
	damage func(line []byte) []byte // the line without its newline
}{
	{"blanked with X", func(l []byte) []byte { return bytes.Repeat([]byte{'X'}, len(l)) }},
	{"every bit flipped", func(l []byte) []byte {
		out := make([]byte, len(l))
		for i, b := range l {
			out[i] = ^b
			if out[i] == '\n' {
				out[i] = 0
			}
		}
		return out
	}},
	{"two bytes flipped", func(l []byte) []byte {
		out := append([]byte(nil), l...)
		out[len(out)/3] ^= 0x04
		out[2*len(out)/3] ^= 0x10
		return out
	}},
}

// garbled returns data with line i (0-based) damaged by fn.
func garbled(data []byte, i int, fn func([]byte) []byte) []byte {
	lines := bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
	var out []byte
	for k, l := range lines {
		if k == i {
			l = fn(l)
		}
		out = append(append(out, l...), '\n')
	}
	return out
}

// pgnMoves is the movetext of a PGN.
func pgnMoves(pgn string) string {
	if i := strings.Index(pgn, "\n\n"); i >= 0 {
		return pgn[i+2:]
	}
	return pgn
}

// TestEveryLineGarbled damages each line but the header of the journal of a
// game with slides, captures, castling and a promotion beyond repair, in
// three ways, and restores the game: at most one ply is lost for the
// damaged line, and the damage and what the recovery did are said.
func TestEveryLineGarbled(t *testing.T) {
	data, want, plies := richJournal(t)
	n := bytes.Count(data, []byte{'\n'})
	for _, gb := range garbles {
		worst, lostAny := 0, 0
		for i := 1; i < n; i++ {
			bad := garbled(data, i, gb.damage)
			g, rp, _ := restore(t, bad)
			rec, _ := ParseRecord(bytes.Split(data, []byte{'\n'})[i])
			what := fmt.Sprintf("%s, line %d (%s)", gb.name, i+1, rec.Raw)
			got := rp.Game.Snapshot().Moves
			lost := plies - got
			if lost > worst {
				worst = lost
			}
			if lost > 0 {
				lostAny++
			}
			if lost > 1 || lost < 0 {
				t.Errorf("%s: %d of %d plies restored\n%s", what, got, plies, pgnMoves(rp.Game.PGN()))
				continue
			}
			if lost == 0 && rp.Game.PGN() != want {
				t.Errorf("%s: every ply restored, but another game:\n%s", what, pgnMoves(rp.Game.PGN()))
			}
			// The last line garbled is a torn tail, dropped; any other is
			// a damaged record, passed over.
			if last := i == n-1; last && !g.Torn() || !last && (len(g.Damaged) != 1 || g.Damaged[0].Line != i+1) {
				t.Errorf("%s: damaged records %+v, torn tail %v", what, g.Damaged, g.Torn())
			}
			said := false
			for _, w := range g.Warnings {
				said = said || strings.Contains(w, fmt.Sprintf("line %d ", i+1)) || strings.Contains(w, fmt.Sprintf("line %d:", i+1))
			}
			if !said {
				t.Errorf("%s: the warnings %q do not name the line", what, g.Warnings)
			}
			// An input lost is put back, or said not to be, unless the
			// replay made every journalled report without it (a man set
			// down in passing).
			if rec.Kind == KindInput && len(rp.Reconstructed)+rp.Unrecovered != 1 && rp.Diverged != 0 {
				t.Errorf("%s: an input lost, %d diverged, yet %d put back and %d said unrecovered", what, rp.Diverged, len(rp.Reconstructed), rp.Unrecovered)
			}
		}
		t.Logf("%s: %d lines garbled, %d lost a ply, at most %d", gb.name, n-1, lostAny, worst)
	}
}
