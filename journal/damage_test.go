package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// longGame is the hand events of Von Jaenisch - Staunton, London 1851: 182
// plies, captures, castling and all.
func longGame(t testing.TB) []trace.Line {
	t.Helper()
	data, err := os.ReadFile("testdata/jaenisch-staunton-1851.uci")
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			moves = append(moves, strings.Fields(line)...)
		}
	}
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := p.Move(moves...); err != nil {
		t.Fatal(err)
	}
	return p.Lines
}

// longJournal is the journal of the long game, and the game's PGN as
// played.
func longJournal(t testing.TB) (data []byte, pgn string) {
	t.Helper()
	dir := t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(longGame(t)...)
	s.finish()
	pgn = s.p.PGN()
	s.close()
	data, err := os.ReadFile(filepath.Join(dir, CurrentFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pgn, "91. ") || strings.Contains(pgn, "{") {
		t.Fatalf("the long game was not played as meant:\n%s", pgn)
	}
	return data, pgn
}

// restore opens a state directory holding journal data and replays it, as
// boardd does when it starts.
func restore(t testing.TB, data []byte) (*Game, *Replayed, []byte) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, CurrentFile), data, 0o640); err != nil {
		t.Fatal(err)
	}
	j, g, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	rp, err := Replay(g, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, CurrentFile))
	return g, rp, after
}

// TestEveryByteDamaged damages each byte of the journal of a long game in
// turn, in three ways (every bit flipped, the lowest bit flipped, as c2
// becomes c3, and the byte made a newline), and reads the journal back.
// One damaged byte, wherever it falls (a record, its checksum, the newline
// between two records), is repaired: the records read back are the
// records written, so the game restored is the game played; nothing at all
// is lost, less than the goal of losing at most the move the byte belongs
// to. A sample of the damaged journals is restored in full (Open, which
// also repairs the file on disk, and Replay) to show it.
func TestEveryByteDamaged(t *testing.T) {
	data, want := longJournal(t)
	clean := scanFile(data)
	if len(clean.fixes) > 0 || clean.tail >= 0 || clean.legacy > 0 {
		t.Fatalf("the clean journal reads with repairs: %+v", clean.fixes)
	}
	t.Logf("journal of %d bytes, %d records", len(data), len(clean.recs))
	// Where each line begins.
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(at int) int {
		n := 0
		for n+1 < len(starts) && starts[n+1] <= at {
			n++
		}
		return n
	}
	// window is lines [from, to) of the journal.
	window := func(from, to int) (int, int) {
		from, to = max(from, 0), min(to, len(starts))
		end := len(data)
		if to < len(starts) {
			end = starts[to]
		}
		return starts[from], end
	}
	damaged := append([]byte(nil), data...)
	modes := []struct {
		name   string
		damage func(b byte) byte
	}{
		{"every bit", func(b byte) byte { return ^b }},
		{"lowest bit", func(b byte) byte { return b ^ 1 }},
		{"made a newline", func(byte) byte { return '\n' }},
	}
	// The race detector slows the walk: it then takes every fifth byte.
	stride := 1
	if raceEnabled {
		stride = 5
	}
	full, whole := 0, 0
	for _, m := range modes {
		line := 0
		for at := 0; at < len(data); at += stride {
			if m.damage(data[at]) == data[at] {
				continue
			}
			for line+1 < len(starts) && starts[line+1] <= at {
				line++
			}
			damaged[at] = m.damage(data[at])
			// A line is read by itself, the line after it (a newline that
			// joined or cut lines) and whether a checksummed line came
			// before: the line before it, it and the two after it read
			// as the whole journal would. Every 53rd byte the whole
			// journal is read too.
			from, to := window(line-1, line+3)
			sc, cleanWindow := scanFile(damaged[from:to]), scanFile(data[from:to])
			if at%53 == 0 {
				sc, cleanWindow = scanFile(damaged), clean
				whole++
			}
			if msg := sameRecords(cleanWindow, sc); msg != "" || len(sc.fixes) != 1 || sc.tail >= 0 {
				t.Fatalf("%s of byte %d (%q in line %d %q) damaged: %s; %d repairs, tail at %d", m.name, at, data[at], line+1, lineAround(data, at), msg, len(sc.fixes), sc.tail)
			}
			if at%2999 == 0 || at == len(data)-1 {
				full++
				g, rp, after := restore(t, damaged)
				if got := rp.Game.PGN(); got != want || rp.Diverged+rp.Missing+len(rp.Lost) != 0 {
					t.Fatalf("%s of byte %d: restored with %d diverged, %d missing, %d lost:\n%s", m.name, at, rp.Diverged, rp.Missing, len(rp.Lost), got)
				}
				if len(g.Warnings) != 1 || !strings.Contains(g.Warnings[0], fmt.Sprintf("line %d ", lineOf(at)+1)) || !strings.Contains(g.Warnings[0], "repaired") {
					t.Errorf("%s of byte %d: warnings %q, want one naming line %d repaired", m.name, at, g.Warnings, lineOf(at)+1)
				}
				if !bytes.Equal(after, data) {
					t.Errorf("%s of byte %d: the journal on disk was not repaired", m.name, at)
				}
			}
			damaged[at] = data[at]
		}
	}
	t.Logf("%d damaged journals read whole, %d restored in full", whole, full)
}

// sameRecords says how the records of b differ from a's, or "".
func sameRecords(a, b *scan) string {
	var at, bt [][]byte
	for _, r := range a.recs {
		if r.text != nil {
			at = append(at, r.text)
		}
	}
	for _, r := range b.recs {
		if r.text != nil {
			bt = append(bt, r.text)
		}
	}
	if len(at) != len(bt) {
		return fmt.Sprintf("%d records read back, want %d", len(bt), len(at))
	}
	for i := range at {
		if !bytes.Equal(at[i], bt[i]) {
			return fmt.Sprintf("record %d read back as %s, want %s", i+1, bt[i], at[i])
		}
	}
	return ""
}

func lineAround(data []byte, at int) []byte {
	from := bytes.LastIndexByte(data[:at], '\n') + 1
	to := bytes.IndexByte(data[at:], '\n')
	if to < 0 {
		return data[from:]
	}
	return data[from : at+to]
}

// TestGarbledInputIsPutBackFromTheReports: a whole input line garbled in
// the middle of the long game (damage no checksum can repair, as a bad
// sector leaves) no longer loses every move after it: the replay puts the
// input back from the reports that follow it.
func TestGarbledInputIsPutBackFromTheReports(t *testing.T) {
	data, want := longJournal(t)
	lines := bytes.SplitAfter(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
	lines[len(lines)-1] = append(lines[len(lines)-1], '\n')
	checked := 0
	for _, at := range []int{len(lines) / 2, len(lines)/2 + 1, len(lines)/2 + 2, len(lines) / 3, 2 * len(lines) / 3} {
		rec, err := ParseRecord(lines[at][:len(lines[at])-1])
		if err != nil {
			t.Fatal(err)
		}
		if rec.Kind != KindInput {
			continue
		}
		checked++
		var bad []byte
		for i, l := range lines {
			if i == at {
				l = bytes.Repeat([]byte{'#'}, len(l)-1)
				l = append(l, '\n')
			}
			bad = append(bad, l...)
		}
		g, rp, _ := restore(t, bad)
		if len(g.Damaged) != 1 || g.Damaged[0].Line != at+1 {
			t.Fatalf("line %d garbled: damaged records %+v", at+1, g.Damaged)
		}
		if got := rp.Game.PGN(); got != want || rp.Diverged != 0 || len(rp.Reconstructed) != 1 || rp.Reconstructed[0] != rec.Input {
			t.Errorf("line %d (%s) garbled: %d of %d plies restored, %d diverged, put back %+v:\n%s", at+1, rec.Raw, rp.Game.Snapshot().Moves, 182, rp.Diverged, rp.Reconstructed, got)
		}
	}
	if checked < 2 {
		t.Fatalf("only %d inputs garbled", checked)
	}
}

// TestGarbledReportDoublesNothing: a move report garbled beyond repair in
// the middle of the journal is made again by the replay, but not journalled
// again at the end (where it would double the move for every reader).
func TestGarbledReportDoublesNothing(t *testing.T) {
	data, want := longJournal(t)
	lines := bytes.SplitAfter(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
	lines[len(lines)-1] = append(lines[len(lines)-1], '\n')
	at := len(lines) / 2
	for ; at < len(lines); at++ {
		if bytes.Contains(lines[at], []byte(`"type":"move"`)) {
			break
		}
	}
	var bad []byte
	for i, l := range lines {
		if i == at {
			l = append(bytes.Repeat([]byte{'x'}, len(l)-1), '\n')
		}
		bad = append(bad, l...)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), bad, 0o640)
	s := start(t, Options{Dir: dir}, noWall)
	rp := s.rp
	got := s.p.PGN()
	s.close()
	if got != want || len(rp.Lost) != 0 || rp.Missing != 1 || rp.Diverged != 0 {
		t.Errorf("a move report garbled: lost %d, missing %d, diverged %d; PGN\n%s", len(rp.Lost), rp.Missing, rp.Diverged, got)
	}
	g, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Records); n != len(lines)-1 {
		t.Errorf("%d records after the restart, want the %d not garbled: nothing journalled again", n, len(lines)-1)
	}
}

// TestJournalWithoutChecksumsReads: a journal written before checksums is
// read as before, with one warning; what is appended to it is sealed.
func TestJournalWithoutChecksumsReads(t *testing.T) {
	data, want := longJournal(t)
	var old []byte
	for _, l := range bytes.SplitAfter(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'}) {
		text, ok := verify(bytes.TrimSuffix(l, []byte{'\n'}))
		if !ok {
			t.Fatalf("line %q", l)
		}
		old = append(append(old, text...), '\n')
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), old, 0o640)
	j, g, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Warnings) != 1 || !strings.Contains(g.Warnings[0], "no checksum") || g.Unsealed != len(g.Records) {
		t.Errorf("warnings %q, %d of %d records unsealed", g.Warnings, g.Unsealed, len(g.Records))
	}
	rp, err := Replay(g, game.Options{})
	if err != nil || rp.Game.PGN() != want || rp.Diverged != 0 {
		t.Fatalf("replay of the old journal: %v, %d diverged", err, rp.Diverged)
	}
	if err := j.AppendInput(trace.Line{T: g.LastT + time.Second, Kind: trace.Lift, Square: 12}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	after, _ := os.ReadFile(filepath.Join(dir, CurrentFile))
	if _, ok := verify(bytes.TrimSuffix(after[len(old):], []byte{'\n'})); !ok {
		t.Errorf("the line appended is not sealed: %q", after[len(old):])
	}
	again, err := ReadFile(filepath.Join(dir, CurrentFile))
	if err != nil || len(again.Records) != len(g.Records)+1 || len(again.Damaged) != 0 {
		t.Errorf("read again: %v, %d records, damaged %v", err, len(again.Records), again.Damaged)
	}
}

// TestOldReadersReadSealedLines: a boardd from before checksums, and any
// JSON reader, reads a sealed line as the record with one more key.
func TestOldReadersReadSealedLines(t *testing.T) {
	data, _ := longJournal(t)
	for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'}) {
		old, err := parseRecord(l) // what ParseRecord did before checksums
		if err != nil {
			t.Fatalf("line %d %s: %v", i+1, l, err)
		}
		now, err := ParseRecord(l)
		if err != nil || old.Seq != now.Seq || old.Kind != now.Kind || old.T != now.T {
			t.Fatalf("line %d: read as %+v before checksums, %+v now (%v)", i+1, old, now, err)
		}
	}
}
