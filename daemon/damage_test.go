package daemon

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
)

// richJournal plays journaltest.RichGame into a journal, as a daemon
// would, and returns the journal's bytes and the game's plies.
func richJournal(t *testing.T) ([]byte, int) {
	t.Helper()
	lines, plies, err := journaltest.RichGame()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	j, _, err := journal.Open(journal.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	base := game.Options{Laws: "fide2023"}
	h, err := j.Begin(0, journal.NewHeader(j.Game(), base, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := game.New(h.Options(base), nil)
	if err != nil {
		t.Fatal(err)
	}
	rn := game.NewRunner(p, nil)
	rec := journal.NewRecorder(j, journal.RecorderOptions{Game: func() *game.Game { return p }, Occupancy: func() board.Occupancy { return p.Snapshot().Occupancy }, Header: h})
	rn.OnReport(rec.Report)
	for _, l := range lines {
		p.Advance(l.T)
		rec.Input(l)
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	for d := p.Deadline(); d != timing.Never; d = p.Deadline() {
		p.Advance(d)
	}
	if n := p.Snapshot().Moves; n != plies {
		t.Fatalf("the rich game has %d plies, want %d", n, plies)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, journal.CurrentFile))
	if err != nil {
		t.Fatal(err)
	}
	return data, plies
}

// restartOn starts the journal's part of boardd run on a state directory
// holding data, lets its clock run on two seconds (the timers the hands
// left pending fire), stops it, and returns the moves it holds, the move
// reports journalled by then, and its log.
func restartOn(t *testing.T, data []byte) (moves, journalled int, logs string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, journal.CurrentFile), data, 0o640); err != nil {
		t.Fatal(err)
	}
	d, buf := testDaemon(t, Options{})
	if err := d.configure(); err != nil {
		t.Fatal(err)
	}
	d.stateDir = dir
	if err := d.openJournal(); err != nil {
		d.close()
		t.Fatal(err)
	}
	d.runner = game.NewRunner(d.game, d.clock)
	d.attachJournal()
	d.game.Advance(d.journal.rp.Resume + 2*time.Second) // what the runner's loop does as time passes
	moves = d.game.Snapshot().Moves
	d.close()
	g, err := journal.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range g.Records {
		if r.Kind == journal.KindReport && r.Report.Type == report.Move {
			journalled++
		}
	}
	return moves, journalled, buf.String()
}

// TestRunRestoresEveryLineGarbled: boardd run on the journal of a game with
// slides, captures, castling and a promotion, each line garbled beyond
// repair in turn (the header is rebuilt), restores every ply (at most one
// may be lost), journals no move twice (nor a garbled move report again),
// and its log names the damaged line and what the recovery did.
func TestRunRestoresEveryLineGarbled(t *testing.T) {
	data, plies := richJournal(t)
	lines := bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
	worst := 0
	for i := 0; i < len(lines); i++ {
		var bad []byte
		for k, l := range lines {
			if k == i {
				l = bytes.Repeat([]byte{'X'}, len(l))
			}
			bad = append(append(bad, l...), '\n')
		}
		moves, journalled, logs := restartOn(t, bad)
		what := fmt.Sprintf("line %d (%s) garbled", i+1, lines[i])
		worst = max(worst, plies-moves)
		if moves < plies-1 || moves > plies {
			t.Errorf("%s: %d of %d plies restored", what, moves, plies)
		}
		// A move report garbled is made again by the replay but not
		// journalled again (out of place at the end, it would double the
		// move for every reader).
		want := moves
		if bytes.Contains(lines[i], []byte(`"type":"move"`)) && i < len(lines)-1 { // the last is a torn tail, dropped
			want--
		}
		if journalled != want {
			t.Errorf("%s: %d move reports journalled for %d moves, want %d", what, journalled, moves, want)
		}
		if !strings.Contains(logs, fmt.Sprintf("line %d ", i+1)) && !strings.Contains(logs, fmt.Sprintf("line %d:", i+1)) {
			t.Errorf("%s: the log does not name the line:\n%s", what, logs)
		}
		if rec, err := journal.ParseRecord(lines[i]); err == nil && rec.Kind == journal.KindInput && i < len(lines)-1 &&
			!strings.Contains(logs, "inputs_put_back_from_the_reports=1") && !strings.Contains(logs, "inputs_put_back_from_the_reports=0 inputs_not_recovered=0") {
			t.Errorf("%s: the log does not say what became of the input:\n%s", what, logs)
		}
	}
	t.Logf("%d lines garbled one by one: at most %d plies lost", len(lines)-1, worst)
}

// TestRunKeepsAMoveWhoseReportWasTorn: the journal cut inside a move's
// report, its input whole: boardd run makes the move once the settle time
// passes and journals it once.
func TestRunKeepsAMoveWhoseReportWasTorn(t *testing.T) {
	data, _ := richJournal(t)
	lines := bytes.SplitAfter(data, []byte{'\n'})
	moves, at := 0, 0
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"type":"move"`)) {
			moves++
			for _, cut := range []int{1, len(l) / 2, len(l) - 1} {
				got, journalled, logs := restartOn(t, data[:at+cut])
				if got != moves || journalled != moves {
					t.Errorf("move %d's report cut at byte %d: %d moves, %d journalled, want %d\n%s", moves, cut, got, journalled, moves, logs)
				}
			}
		}
		at += len(l)
	}
}
