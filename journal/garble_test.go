package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal/journaltest"
)

// richJournal is the journal of richGame and the PGN played.
func richJournal(t testing.TB) (data []byte, pgn string, plies int) {
	t.Helper()
	lines, plies, err := journaltest.RichGame()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(lines...)
	s.finish()
	pgn = s.p.PGN()
	if got := s.p.Snapshot().Moves; got != plies || strings.Contains(pgn, "{") {
		t.Fatalf("the rich game was not played as meant: %d plies of %d\n%s", got, plies, pgn)
	}
	s.close()
	data, err = os.ReadFile(filepath.Join(dir, CurrentFile))
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

// TestEveryLineGarbled damages each line of the journal of a game with
// slides, captures, castling and a promotion beyond repair, in three ways,
// and restores the game: at most one ply is lost for the damaged line (none
// is), and the damage and what the recovery did are said. A damaged header
// is rebuilt.
func TestEveryLineGarbled(t *testing.T) {
	data, want, plies := richJournal(t)
	n := bytes.Count(data, []byte{'\n'})
	for _, gb := range garbles {
		worst, lostAny := 0, 0
		for i := 0; i < n; i++ {
			bad := garbled(data, i, gb.damage)
			g, rp, _ := restore(t, bad)
			rp.SettleHands(g) // as boardd pgn does, and boardd run once its clock runs on
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
			// The header is rebuilt.
			if i == 0 {
				if len(g.Damaged) != 0 || len(g.Warnings) == 0 || !strings.Contains(g.Warnings[0], "line 1 (the header") || !strings.Contains(g.Warnings[0], "rebuilt as game 1, seq 1, laws fide2023") {
					t.Errorf("%s: damaged %+v, warnings %q: want the header said rebuilt", what, g.Damaged, g.Warnings)
				}
				continue
			}
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
		t.Logf("%s: %d lines garbled, %d lost a ply, at most %d", gb.name, n, lostAny, worst)
	}
}

// TestTornMoveReportSettles cuts the journal of the rich game inside each
// move report in turn, at every offset: the move's input survives, its
// report is a torn tail. A daemon restarted on it makes the move once the
// settle time has passed; SettleHands, for readers of the journal, makes it
// too, so boardd pgn shows what boardd run will restore.
func TestTornMoveReportSettles(t *testing.T) {
	data, _, _ := richJournal(t)
	whole, err := parse("whole", data)
	if err != nil {
		t.Fatal(err)
	}
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	cuts, moves := 0, 0
	for i, r := range whole.Records {
		if r.Kind != KindReport || r.Report.Type != "move" {
			continue
		}
		moves++
		line := i // records[0] is the header, on the first line
		for cut := starts[line]; cut < starts[line+1]-1; cut++ {
			g, err := parse("cut", data[:cut])
			if err != nil {
				t.Fatalf("move %d cut at byte %d: %v", moves, cut, err)
			}
			rp, err := Replay(g, game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			before := rp.Game.Snapshot().Moves
			rp.SettleHands(g)
			if got := rp.Game.Snapshot().Moves; got != moves || before != moves-1 {
				t.Fatalf("move %d (%s) cut at byte %d of its line: %d moves replayed, %d once the hands settled; want %d, then %d",
					moves, r.Report.SAN, cut-starts[line], before, got, moves-1, moves)
			}
			cuts++
		}
	}
	t.Logf("%d move reports cut at %d offsets", moves, cuts)
}

// TestDamagedHeaderIsRebuilt: a header damaged beyond repair is rebuilt on
// disk at the start (the damaged journal kept beside it), with the law-set
// left legible in the damaged line when there is one, else the first with
// which the replay makes the journalled reports; the next start reads the
// journal clean.
func TestDamagedHeaderIsRebuilt(t *testing.T) {
	data, want, _ := richJournal(t)
	header, rest, _ := bytes.Cut(data, []byte{'\n'})
	cases := []struct {
		name string
		line []byte
		laws string
	}{
		{"blanked", bytes.Repeat([]byte{'X'}, len(header)), "fide2023"},
		{"its law-set legible", []byte(`XXXXXXXXXXXXXXXXXXXXXXXXXX"laws":"nycc"XXXXXXXXXXXXXXXXXXXX`), "nycc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			bad := append(append(append([]byte(nil), c.line...), '\n'), rest...)
			if err := os.WriteFile(filepath.Join(dir, CurrentFile), bad, 0o640); err != nil {
				t.Fatal(err)
			}
			j, g, err := Open(Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			if g == nil || g.Header.Laws != c.laws || g.Header.Game != 1 || len(g.Warnings) == 0 || !strings.Contains(g.Warnings[0], "rebuilt as game 1, seq 1, laws "+c.laws) {
				t.Fatalf("game %+v, warnings %q: want the header rebuilt with laws %s", g, g.Warnings, c.laws)
			}
			if aside, _ := filepath.Glob(filepath.Join(dir, CurrentFile+".damaged-*")); len(aside) != 1 {
				t.Errorf("the damaged journal kept: %q", aside)
			}
			again, err := Read(dir)
			if err != nil || len(again.Warnings) != 0 || again.Header.Laws != c.laws {
				t.Fatalf("read again: %v, warnings %q", err, again.Warnings)
			}
			rp, err := Replay(again, game.Options{})
			if err != nil || rp.Diverged != 0 || rp.Game.Snapshot().Moves != 21 {
				t.Fatalf("replayed: %v, %d diverged", err, rp.Diverged)
			}
			if c.laws == "fide2023" && rp.Game.PGN() != want {
				t.Errorf("another game:\n%s", rp.Game.PGN())
			}
		})
	}
}
