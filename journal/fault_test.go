package journal

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// faultyFS is the operating system's file system with faults on demand: a
// disk that fills, descriptors that run out, syncs that fail, or any one
// operation that fails once.
type faultyFS struct {
	mu       sync.Mutex
	room     int64 // bytes the disk still takes; negative: no limit
	noFiles  bool  // opening a file fails: the process has no descriptors left
	syncFail bool
	ops      int // operations so far (opens, writes, syncs, renames)
	failAt   int // the operation that fails once (0: none)
	failed   string
}

func newFaultyFS() *faultyFS { return &faultyFS{room: -1} }

func (f *faultyFS) set(fn func(*faultyFS)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

// op counts an operation and says whether it is the one to fail.
func (f *faultyFS) op(what string) bool {
	f.ops++
	if f.ops == f.failAt {
		f.failed = what
		return true
	}
	return false
}

func (f *faultyFS) OpenFile(name string, flag int, perm os.FileMode) (file, error) {
	f.mu.Lock()
	fail := f.noFiles || f.op("open "+filepath.Base(name))
	f.mu.Unlock()
	if fail {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.EMFILE}
	}
	of, err := osFS{}.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultyFile{file: of, fs: f}, nil
}

func (f *faultyFS) Rename(oldpath, newpath string) error {
	f.mu.Lock()
	fail := f.op("rename " + filepath.Base(oldpath))
	f.mu.Unlock()
	if fail {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EIO}
	}
	return os.Rename(oldpath, newpath)
}

func (f *faultyFS) Remove(name string) error { return os.Remove(name) }

type faultyFile struct {
	file
	fs *faultyFS
}

// take takes room for n bytes: how many fit, and the fault if not all do.
func (f *faultyFile) take(n int) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.fs.op("write " + filepath.Base(f.Name())) {
		return 0, syscall.EIO
	}
	if f.fs.room < 0 {
		return n, nil
	}
	fit := int(min(int64(n), f.fs.room))
	f.fs.room -= int64(fit)
	if fit < n {
		return fit, syscall.ENOSPC
	}
	return n, nil
}

func (f *faultyFile) Write(p []byte) (int, error) {
	fit, err := f.take(len(p))
	n, werr := f.file.Write(p[:fit])
	if werr != nil {
		return n, werr
	}
	if err != nil {
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return n, nil
}

func (f *faultyFile) WriteAt(p []byte, off int64) (int, error) {
	fit, err := f.take(len(p))
	n, werr := f.file.WriteAt(p[:fit], off)
	if werr != nil {
		return n, werr
	}
	if err != nil {
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return n, nil
}

func (f *faultyFile) syncFault() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.fs.syncFail || f.fs.op("sync "+filepath.Base(f.Name())) {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: syscall.EIO}
	}
	return nil
}

func (f *faultyFile) Datasync() error {
	if err := f.syncFault(); err != nil {
		return err
	}
	return f.file.Datasync()
}

func (f *faultyFile) Sync() error {
	if err := f.syncFault(); err != nil {
		return err
	}
	return f.file.Sync()
}

// logBuffer collects a journal's log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// count counts the log lines holding every one of parts.
func (l *logBuffer) count(parts ...string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all && line != "" {
			n++
		}
	}
	return n
}

func faultyOptions(dir string, fsys *faultyFS, logs *logBuffer) Options {
	return Options{Dir: dir, fs: fsys, Logger: slog.New(slog.NewTextHandler(logs, nil))}
}

// twoGames is the scenario: 8 plies of a game, the arbiter's new
// game, the board set up again and two plies of the next. cut is where the
// first game ends (the new-game line).
func twoGames(t testing.TB) (lines []trace.Line, cut int) {
	t.Helper()
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := p.Move("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6"); err != nil {
		t.Fatal(err)
	}
	cut = len(p.Lines)
	p.Lines = append(p.Lines, trace.Line{T: p.T, Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter})
	p.T += time.Second
	p.Reset()
	if err := p.Move("d2d4", "d7d5"); err != nil {
		t.Fatal(err)
	}
	return p.Lines, cut
}

// cleanRun plays lines with nothing failing: the state directory the
// faulty runs must come to.
func cleanRun(t *testing.T, lines []trace.Line) (dir, firstPGN, secondPGN string) {
	dir = t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(lines...)
	s.finish()
	secondPGN = s.p.PGN()
	s.close()
	games, err := List(dir)
	if err != nil || len(games) != 1 {
		t.Fatalf("clean run: archive %+v, %v", games, err)
	}
	pgn, _ := os.ReadFile(games[0].PGN)
	if !strings.Contains(string(pgn), "4. c3 Nf6 *") || !strings.Contains(secondPGN, "1. d4 d5 *") {
		t.Fatalf("the games were not played as meant:\n%s\n%s", pgn, secondPGN)
	}
	return dir, string(pgn), secondPGN
}

// sameState checks that the state directory dir holds what the clean run's
// does: game 1 archived whole, game 2 in progress, every record once.
func sameState(t *testing.T, what, dir, clean string) {
	t.Helper()
	for _, name := range []string{filepath.Join(ArchiveDir, archiveName(1, "pgn")), filepath.Join(ArchiveDir, archiveName(1, "jsonl")), CurrentFile} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		want, _ := os.ReadFile(filepath.Join(clean, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %s differs from the clean run's (%v):\n%s\nwant\n%s", what, name, err, got, want)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	more, _ := filepath.Glob(filepath.Join(dir, ArchiveDir, "*.tmp"))
	next, _ := filepath.Glob(filepath.Join(dir, CurrentFile+".*"))
	if all := append(append(leftovers, more...), next...); len(all) > 0 {
		t.Errorf("%s: temporary files left: %q", what, all)
	}
}

// TestFullDiskLosesNothing is the first repro on an injected file
// system: the disk fills after two plies, the game goes on to eight, the
// arbiter starts a new game and two more plies are played. Nothing is lost
// while boardd runs: the records wait in order, the LEDs show the fault and
// the log says so once, naming the file; once there is room again every
// record is written, the finished game archived whole, and the state is the
// clean run's.
func TestFullDiskLosesNothing(t *testing.T) {
	lines, _ := twoGames(t)
	clean, firstPGN, secondPGN := cleanRun(t, lines)

	dir, fsys, logs := t.TempDir(), newFaultyFS(), &logBuffer{}
	s := start(t, faultyOptions(dir, fsys, logs), noWall)
	s.feed(lines[:5]...)
	fsys.set(func(f *faultyFS) { f.room = 0 })
	s.feed(lines[5:]...)
	s.finish()
	if err := s.j.Fault(); err == nil || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("fault %v, want no space left", err)
	}
	if !s.p.Snapshot().JournalFault {
		t.Errorf("the game does not show the journal's fault")
	}
	if n := logs.count("level=ERROR", "not being saved", filepath.Join(dir, CurrentFile), "no space left on device"); n != 1 {
		t.Errorf("%d error lines naming the journal and the fault, want 1:\n%s", n, logs)
	}
	if g, _ := Read(dir); g == nil || g.Header.Game != 1 || len(g.Finished) != 0 {
		t.Fatalf("on the full disk the journal holds %+v", g)
	}
	if games, _ := List(dir); len(games) != 0 {
		t.Errorf("archived on a full disk: %+v", games)
	}
	// Room again: the next retry writes it all and archives game 1.
	fsys.set(func(f *faultyFS) { f.room = -1 })
	s.rec.Tick(s.now + time.Second)
	if err := s.j.Fault(); err != nil || s.p.Snapshot().JournalFault {
		t.Errorf("after the retry: fault %v, shown %v", err, s.p.Snapshot().JournalFault)
	}
	if n := logs.count("level=INFO", "writing again", "records_written_late="); n != 1 {
		t.Errorf("%d lines saying the journal writes again, want 1:\n%s", n, logs)
	}
	if got := s.p.PGN(); got != secondPGN {
		t.Errorf("game 2:\n%s\nwant\n%s", got, secondPGN)
	}
	s.close()
	sameState(t, "after the disk had room again", dir, clean)
	games, _ := List(dir)
	if pgn, _ := os.ReadFile(games[0].PGN); string(pgn) != firstPGN {
		t.Errorf("game 1 archived as\n%s\nwant\n%s", pgn, firstPGN)
	}
}

// TestFullDiskAtStart: a journal that cannot even be begun does not stop
// the board; its header waits with the rest.
func TestFullDiskAtStart(t *testing.T) {
	lines, cut := twoGames(t)
	dir, fsys, logs := t.TempDir(), newFaultyFS(), &logBuffer{}
	fsys.room = 0
	s := start(t, faultyOptions(dir, fsys, logs), noWall)
	s.feed(lines[:cut]...)
	s.finish()
	if s.j.Fault() == nil || !s.j.Pending() {
		t.Fatalf("no fault on a full disk")
	}
	if _, err := os.Stat(filepath.Join(dir, CurrentFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a journal without its header: %v", err)
	}
	fsys.set(func(f *faultyFS) { f.room = -1 })
	s.rec.Tick(s.now)
	want := s.p.PGN()
	s.close()
	g, err := Read(dir)
	if err != nil || g == nil {
		t.Fatal(g, err)
	}
	rp, err := Replay(g, game.Options{})
	if err != nil || rp.Game.PGN() != want || rp.Diverged != 0 {
		t.Errorf("the journal written late: %v, %d diverged", err, rp.Diverged)
	}
	if n := logs.count("level=ERROR", "not being saved"); n != 1 {
		t.Errorf("%d error lines, want 1:\n%s", n, logs)
	}
}

// TestDescriptorsRunOutAtNewGame is the second repro: no file
// descriptor is left when the arbiter starts a new game. The journal, open
// already, goes on (the LEDs show no fault: the game is saved); the next
// game's header is journalled, so the finished game is whole at the head of
// the journal and `boardd pgn` shows the game in progress; the archiving is
// logged once and made when descriptors are free again, by the next retry
// or, if boardd was stopped meanwhile, the next start.
func TestDescriptorsRunOutAtNewGame(t *testing.T) {
	lines, cut := twoGames(t)
	clean, _, secondPGN := cleanRun(t, lines)
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart %v", restart), func(t *testing.T) {
			dir, fsys, logs := t.TempDir(), newFaultyFS(), &logBuffer{}
			s := start(t, faultyOptions(dir, fsys, logs), noWall)
			s.feed(lines[:cut]...)
			fsys.set(func(f *faultyFS) { f.noFiles = true })
			s.feed(lines[cut:]...)
			s.finish()
			if err := s.j.Fault(); err != nil || s.p.Snapshot().JournalFault {
				t.Errorf("the game is saved, but the journal says %v (shown %v)", err, s.p.Snapshot().JournalFault)
			}
			if n := logs.count("level=ERROR", "not archived yet", "game=1", "too many open files"); n != 1 {
				t.Errorf("%d error lines about game 1's archiving, want 1:\n%s", n, logs)
			}
			g, err := Read(dir)
			if err != nil || g.Header.Game != 2 || len(g.Finished) != 1 || g.Finished[0].Header.Game != 1 {
				t.Fatalf("the journal meanwhile: %+v, %v", g, err)
			}
			if rp, err := Replay(g, game.Options{}); err != nil || rp.Game.PGN() != secondPGN {
				t.Errorf("the game in progress read from the journal meanwhile: %v\n%s", err, rp.Game.PGN())
			}
			s.rec.Tick(s.now + time.Second) // too soon to retry, and nothing to retry with
			if games, _ := List(dir); len(games) != 0 {
				t.Fatalf("archived without descriptors: %+v", games)
			}
			fsys.set(func(f *faultyFS) { f.noFiles = false })
			if restart {
				s.close()
				s = start(t, faultyOptions(dir, fsys, logs), noWall)
				if s.p.PGN() != secondPGN {
					t.Errorf("restored game 2:\n%s", s.p.PGN())
				}
			} else {
				s.rec.Tick(s.now + RetryEvery + time.Second)
				if n := logs.count("level=INFO", "archived after all", "game=1"); n != 1 {
					t.Errorf("%d lines saying game 1 is archived after all, want 1:\n%s", n, logs)
				}
			}
			s.close()
			sameState(t, "once descriptors were free", dir, clean)
			j, _, err := Open(Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			want := uint64(1)
			if err := j.ReadFrom(1, func(r Record) error {
				if r.Seq != want {
					return fmt.Errorf("seq %d, want %d", r.Seq, want)
				}
				want++
				return nil
			}); err != nil || want != j.Seq()+1 {
				t.Errorf("ReadFrom(1): %v, read up to %d of %d", err, want-1, j.Seq())
			}
		})
	}
}

// TestRotationFailingAtEachStep fails each file operation of a rotation in
// turn (an open, a write, a sync, a rename), once: the finished game is
// archived whole or stays whole at the head of the journal, never half; the
// retry, or a restart at that point (a crash), finishes it; the state
// directory comes out as the clean run's.
func TestRotationFailingAtEachStep(t *testing.T) {
	lines, cut := twoGames(t)
	clean, _, _ := cleanRun(t, lines)
	// Count the operations of a rotation.
	probe := newFaultyFS()
	s := start(t, faultyOptions(t.TempDir(), probe, &logBuffer{}), noWall)
	s.feed(lines[:cut]...)
	before := probe.ops
	s.feed(lines[cut])
	steps := probe.ops - before
	s.close()
	if steps < 8 {
		t.Fatalf("a rotation of %d operations", steps)
	}
	for step := 1; step <= steps; step++ {
		for _, crash := range []bool{false, true} {
			dir, fsys, logs := t.TempDir(), newFaultyFS(), &logBuffer{}
			s := start(t, faultyOptions(dir, fsys, logs), noWall)
			s.feed(lines[:cut]...)
			fsys.set(func(f *faultyFS) { f.failAt = f.ops + step })
			s.feed(lines[cut:]...)
			s.finish()
			what := fmt.Sprintf("%s failing (step %d of %d), crash %v", fsys.failed, step, steps, crash)
			// Never half: game 1 is in the archive whole, or whole at
			// the head of the journal.
			g, err := Read(dir)
			if err != nil || g == nil || g.Header.Game != 2 {
				t.Fatalf("%s: the journal holds %+v, %v", what, g, err)
			}
			games, _ := List(dir)
			inJournal := len(g.Finished) == 1 && g.Finished[0].LastSeq+1 == g.Records[0].Seq && g.Finished[0].Records[0].Kind == KindHeader
			archived := len(games) == 1 && games[0].PGN != "" && games[0].Journal != ""
			if !inJournal && !archived {
				t.Fatalf("%s: game 1 neither archived whole nor whole in the journal: %+v", what, games)
			}
			if crash {
				// A crash: nothing more is written; boardd starts again.
				s.j.mu.Lock()
				s.j.f.Close()
				s.j.lock.Close()
				s.j.mu.Unlock()
				s = start(t, Options{Dir: dir}, noWall)
			} else {
				s.rec.Tick(s.now + RetryEvery)
				s.rec.Tick(s.now + 2*RetryEvery)
			}
			s.close()
			sameState(t, what, dir, clean)
		}
	}
}

// TestFailedSyncIsAFault: a sync that fails leaves the journal behind until
// one succeeds.
func TestFailedSyncIsAFault(t *testing.T) {
	lines, cut := twoGames(t)
	dir, fsys, logs := t.TempDir(), newFaultyFS(), &logBuffer{}
	s := start(t, faultyOptions(dir, fsys, logs), noWall)
	defer s.close()
	fsys.set(func(f *faultyFS) { f.syncFail = true })
	s.feed(lines[:cut]...)
	s.finish()
	if err := s.j.Fault(); err == nil || !strings.Contains(err.Error(), "sync") || !s.p.Snapshot().JournalFault {
		t.Errorf("fault %v after failed syncs", err)
	}
	fsys.set(func(f *faultyFS) { f.syncFail = false })
	s.rec.Tick(s.now)
	if err := s.j.Fault(); err != nil || s.p.Snapshot().JournalFault {
		t.Errorf("fault %v after a good sync", err)
	}
	if n := logs.count("level=ERROR"); n != 1 {
		t.Errorf("%d error lines, want 1:\n%s", n, logs)
	}
}

// TestTemporaryFilesRemovedAtStart: what a crash mid-write leaves behind
// goes at the next start.
func TestTemporaryFilesRemovedAtStart(t *testing.T) {
	dir := t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.close()
	left := []string{CurrentPGN + ".tmp", CurrentFEN + ".tmp", CurrentFile + ".new", CurrentFile + ".next", filepath.Join(ArchiveDir, "game-000001.pgn.tmp"), filepath.Join(ArchiveDir, "game-000001.jsonl.tmp")}
	for _, name := range left {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	logs := &logBuffer{}
	j, g, err := Open(Options{Dir: dir, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil || g == nil {
		t.Fatal(g, err)
	}
	j.Close()
	for _, name := range left {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left: %v", name, err)
		}
	}
	if n := logs.count("removed a temporary file"); n != len(left) {
		t.Errorf("%d removals logged, want %d:\n%s", n, len(left), logs)
	}
}

// TestBacklogIsBounded: past its bound (MaxBacklog) the journal stops taking records
// (the file stays a whole prefix of the game) and says why.
func TestBacklogIsBounded(t *testing.T) {
	dir, fsys, logs := t.TempDir(), newFaultyFS(), &logBuffer{}
	opts := faultyOptions(dir, fsys, logs)
	opts.maxBacklog = 64 << 10 // MaxBacklog takes longer to fill
	j, _, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.Begin(0, NewHeader(1, game.Options{Laws: "fide2023"}, time.Time{})); err != nil {
		t.Fatal(err)
	}
	fsys.set(func(f *faultyFS) { f.room = 0 })
	l := trace.Line{Kind: trace.Frame, Occupancy: 0xffff00000000ffff}
	var err2 error
	for i := 0; err2 == nil || !errors.Is(err2, ErrBacklogFull); i++ {
		l.T = time.Duration(i) * time.Millisecond
		err2 = j.AppendInput(l)
		if i > int(opts.maxBacklog) {
			t.Fatal("the backlog does not stop")
		}
	}
	seq := j.Seq()
	if err := j.AppendInput(l); !errors.Is(err, ErrBacklogFull) || j.Seq() != seq {
		t.Errorf("after the backlog filled: %v, seq %d -> %d", err, seq, j.Seq())
	}
	fsys.set(func(f *faultyFS) { f.room = -1 })
	j.Retry(time.Hour)
	if err := j.Fault(); !errors.Is(err, ErrBacklogFull) {
		t.Errorf("the fault after a full backlog is %v: it holds until restart", err)
	}
	g, err := Read(dir)
	if err != nil || g.LastSeq != seq {
		t.Errorf("on disk up to seq %d, want %d (every record given a number): %v", g.LastSeq, seq, err)
	}
}
