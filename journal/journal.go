// Package journal keeps the game in progress safe on disk: every input the
// board takes and every ruling boardd makes is appended to a journal in the
// state directory, so that after a power cut, a pulled plug or a crash the
// daemon rebuilds the game by replaying it and carries on.
//
// A journal is a JSON Lines file. Inputs are trace format v1 lines (package
// trace) and the rest are lines of kinds the trace format does not have: a
// header opening each game (key "journal"), the reports boardd made (key
// "type", as `boardd replay` prints them) and PGN tags learnt later (key
// "tag"). Every line carries "seq", a sequence number that increases across
// restarts and games, so a reader (the club hall) can ask for everything from
// a number on, and ends in a CRC-32C of itself, so that a damaged byte is
// found and repaired. docs/journal.md is the specification.
//
// Lines are written with one write(2) each, so a killed process loses
// nothing it had written; the file is fsynced at each completed move, ruling,
// irregularity and result, so a power cut loses at most the inputs since the
// last of those. A torn last line is dropped with a warning when the journal
// is opened again. A write that fails (a full disk) keeps its record, and
// those after it, in memory in order and writes them when it can: the file
// is always a whole prefix of the game, never a game with holes. Finished
// games are rotated into an archive (the journal and a PGN each) whose size
// is kept under a cap; a rotation is journalled first (the next game's
// header), so it is finished later if the archiving fails.
package journal

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Files in the state directory.
const (
	CurrentFile = "journal.jsonl" // the game in progress
	LockFile    = "journal.lock"  // held by the daemon that writes the journal
	ArchiveDir  = "archive"       // finished games: game-NNNNNN.jsonl and .pgn
	CurrentPGN  = "current.pgn"   // the game in progress as PGN, refreshed at each move
	CurrentFEN  = "current.fen"   // its position
)

// DefaultArchiveCap bounds the archive's size on disk when Options leave it
// zero.
const DefaultArchiveCap = 64 << 20

// MaxBacklog bounds the bytes of records kept in memory while the journal
// cannot be written (some hundred games' worth). Past it the journal stops
// taking records until boardd restarts: what is on disk stays a whole prefix
// of the game.
const MaxBacklog = 16 << 20

// RetryEvery spaces the attempts to finish an archiving that failed, in
// game time.
const RetryEvery = 5 * time.Second

// Options configure a journal.
type Options struct {
	// Dir is the state directory.
	Dir string
	// ArchiveCap bounds the bytes the archive may hold: past it, the
	// journals of the oldest games are deleted first, then their PGNs. The
	// newest game is always kept. Zero means DefaultArchiveCap.
	ArchiveCap int64
	// Logger gets warnings (torn tails, repairs, archive trimming) and
	// write faults, once per episode; nil discards.
	Logger *slog.Logger

	fs         fileSystem // nil: the operating system's
	maxBacklog int64      // zero: MaxBacklog
}

// Journal appends to the journal of the game in progress. Appends come from
// one goroutine (the runner's loop); ReadFrom, Seq, Game and Fault may be
// called from others. A Journal holds a lock on the state directory: one
// daemon per directory.
type Journal struct {
	opts Options
	log  *slog.Logger
	fs   fileSystem

	mu    sync.Mutex
	f     file // the current journal, nil before its first header is on disk
	lock  *os.File
	seq   uint64        // the last sequence number given out
	size  int64         // bytes of complete records in f
	game  uint64        // the current game's number (the next one's before Begin)
	start time.Duration // the current game's header time
	buf   []byte
	since int // records written since the last sync

	// Records given a sequence number but not yet on disk, oldest first
	// (from head on): the backlog of a full disk.
	queue    []queued
	head     int
	backlog  int64 // their bytes
	syncOwed bool  // a durable record written, its sync not yet done
	frozen   bool  // the backlog overflowed: records are refused until restart
	fault    error // why the journal is behind; nil when all is on disk
	late     int   // records written late in this fault's episode

	splits     []*split      // finished games at the head of the file, not yet archived
	splitFault error         // why the oldest of them is not archived yet
	retryAt    time.Duration // when a failed archiving is tried again
}

// queued is a record waiting to be written.
type queued struct {
	seq   uint64
	data  []byte
	sync  bool   // a durable record: synced once written
	split *split // the header that ends a finished game in the file
}

// split is a finished game still at the head of the current journal: the
// next game's header was journalled, the game not yet archived.
type split struct {
	game uint64
	pgn  string
	off  int64 // where the next game's header begins in the file; -1 until it is written
}

// ErrBacklogFull says the journal has stopped taking records: it could not
// write for so long that the backlog passed MaxBacklog.
var ErrBacklogFull = errors.New("journal: not written for too long: the backlog is full, nothing more is journalled until boardd restarts")

// Open opens the journal in opts.Dir for appending, creating the directory,
// and returns the game in progress as read back (nil when there is none: call
// Begin). A torn tail is cut off the file and damaged bytes are repaired in
// place, with warnings; finished games still at the head of the file (an
// archiving that did not finish) are archived, or left for a retry.
// Temporary files a crash left are removed.
func Open(opts Options) (*Journal, *Game, error) {
	if opts.Dir == "" {
		return nil, nil, errors.New("journal: no state directory")
	}
	if opts.ArchiveCap <= 0 {
		opts.ArchiveCap = DefaultArchiveCap
	}
	if opts.maxBacklog <= 0 {
		opts.maxBacklog = MaxBacklog
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	fsys := opts.fs
	if fsys == nil {
		fsys = osFS{}
	}
	if err := os.MkdirAll(filepath.Join(opts.Dir, ArchiveDir), 0o750); err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{opts: opts, log: log, fs: fsys}
	if err := j.takeLock(); err != nil {
		return nil, nil, err
	}
	ok := false
	defer func() {
		if !ok {
			if j.f != nil {
				j.f.Close()
			}
			j.lock.Close()
		}
	}()
	j.removeTemporaries()
	path := filepath.Join(opts.Dir, CurrentFile)
	g, err := ReadFile(path)
	if err != nil && g != nil {
		// Records with no header: its line may be damaged beyond repair.
		// Rebuilt, the game goes on; the damaged file is kept beside it.
		if last, lerr := j.lastArchived(); lerr == nil {
			if rg := rebuilt(path, last.game+1); rg != nil {
				aside := fmt.Sprintf("%s.damaged-%d", path, time.Now().Unix())
				data, rerr := os.ReadFile(path)
				if rerr == nil {
					rerr = j.writeFileSync(aside, data)
				}
				if rerr == nil {
					rerr = j.writeFileSync(path+".new", rg.rebuilt)
				}
				if rerr == nil {
					rerr = j.fs.Rename(path+".new", path)
				}
				if rerr == nil {
					log.Warn("journal: the header was rebuilt; the damaged journal is kept", "file", path, "damaged_copy", aside)
					g, err = ReadFile(path)
					if err == nil {
						g.Warnings = append(rg.Warnings[:1:1], g.Warnings...)
					}
				} else {
					log.Warn("journal: the header could be rebuilt but not written", "file", path, "err", rerr)
				}
			}
		}
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		g = nil
	case err != nil && g != nil:
		// Records with no header cannot be replayed: keep them aside for
		// whoever wants to look, and start afresh.
		aside := fmt.Sprintf("%s.unreadable-%d", path, time.Now().Unix())
		if rerr := j.fs.Rename(path, aside); rerr != nil {
			return nil, nil, fmt.Errorf("journal: %w (and moving it aside: %v)", err, rerr)
		}
		log.Error("journal unreadable: moved aside, starting a new game", "err", err, "moved_to", aside)
		g = nil
	case err != nil:
		return nil, nil, err
	}
	last, err := j.lastArchived()
	if err != nil {
		return nil, nil, err
	}
	j.seq, j.game = last.seq, last.game+1
	if g != nil {
		for _, w := range g.Warnings {
			log.Warn("journal: " + w)
		}
		if len(g.Records) == 0 {
			// Nothing but a torn header: as if there were no journal.
			if err := j.fs.Remove(path); err != nil {
				return nil, nil, fmt.Errorf("journal: %w", err)
			}
			g = nil
		}
	}
	if g != nil {
		if err := j.adopt(path, g); err != nil {
			return nil, nil, err
		}
	}
	ok = true
	return j, g, nil
}

// adopt opens the journal g was read from for appending: repairs are made
// on disk, the torn tail is cut off, and the finished games at its head are
// archived (or left to retry).
func (j *Journal) adopt(path string, g *Game) error {
	f, err := j.fs.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.f = f
	changed := false
	for _, fx := range g.fixes {
		if _, err := f.WriteAt(fx.data, int64(fx.off)); err != nil {
			// The records are whole in memory; the file keeps its damage.
			j.log.Warn("journal: repairing a damaged line on disk", "file", path, "line", fx.line, "err", err)
			continue
		}
		changed = true
	}
	if g.Torn() {
		if err := f.Truncate(g.Good); err != nil {
			return fmt.Errorf("journal: cutting the torn tail off %s: %w", path, err)
		}
		changed = true
	}
	if changed {
		if err := f.Datasync(); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	j.size = g.Good
	j.seq = max(j.seq, g.LastSeq)
	j.game = g.Header.Game
	j.start = g.Records[0].T
	for i, fg := range g.Finished {
		next := g.Offset
		if i+1 < len(g.Finished) {
			next = g.Finished[i+1].Offset
		}
		j.splits = append(j.splits, &split{game: fg.Header.Game, pgn: finishedPGN(fg), off: next})
	}
	if len(j.splits) > 0 {
		j.log.Info("journal: finished games not yet archived; archiving them now", "games", len(j.splits), "file", path)
		j.finishSplits(g.LastT, true)
	}
	return nil
}

// removeTemporaries removes what a write cut short leaves: a new journal
// never renamed into place, temporary archive and derived files.
func (j *Journal) removeTemporaries() {
	var paths []string
	for _, name := range []string{CurrentFile + ".new", CurrentFile + ".next", CurrentPGN + ".tmp", CurrentFEN + ".tmp"} {
		paths = append(paths, filepath.Join(j.opts.Dir, name))
	}
	tmps, _ := filepath.Glob(filepath.Join(j.opts.Dir, ArchiveDir, "*.tmp"))
	paths = append(paths, tmps...)
	for _, p := range paths {
		err := j.fs.Remove(p)
		switch {
		case err == nil:
			j.log.Info("journal: removed a temporary file a crash left", "file", p)
		case !errors.Is(err, os.ErrNotExist):
			j.log.Warn("journal: removing a temporary file", "file", p, "err", err)
		}
	}
}

func (j *Journal) takeLock() error {
	path := filepath.Join(j.opts.Dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return fmt.Errorf("journal: %s is in use by another boardd", j.opts.Dir)
		}
		return fmt.Errorf("journal: lock %s: %w", path, err)
	}
	f.Truncate(0)
	fmt.Fprintf(f, "%d\n", os.Getpid())
	j.lock = f
	return nil
}

// InUse reports whether a boardd holds the journal of the state directory
// dir (its lock), so that a last line cut short may be one it is writing.
func InUse(dir string) bool {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return errors.Is(err, unix.EWOULDBLOCK)
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}

// Game returns the current game's number (the next game's before Begin).
func (j *Journal) Game() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.game
}

func (j *Journal) headerT() time.Duration {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.start
}

// Seq returns the last sequence number given out (written, or waiting to
// be while the journal cannot be written).
func (j *Journal) Seq() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seq
}

// Fault returns why the journal is behind the game (records waiting in
// memory, a sync that failed, a full backlog), or nil when everything is on
// disk. The recorder shows it on the LEDs.
func (j *Journal) Fault() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.fault
}

// Pending reports whether the journal has work left for Retry: records to
// write, a sync to make, finished games to archive.
func (j *Journal) Pending() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.head < len(j.queue) || j.syncOwed || len(j.splits) > 0
}

// Retry writes what waits (records, a sync), and at most every RetryEvery
// of game time t tries again to archive the finished games whose archiving
// failed. The daemon calls it every second or so while Pending.
func (j *Journal) Retry(t time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flush()
	j.finishSplits(t, false)
}

// Begin starts the journal of a new game at time t with header h (whose Game
// is set to the journal's next game number) and syncs it. It is an error if a
// game is in progress. If the file cannot be made, the header waits in the
// backlog (see Fault).
func (j *Journal) Begin(t time.Duration, h Header) (Header, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f != nil || j.head < len(j.queue) {
		return h, errors.New("journal: a game is in progress")
	}
	return j.begin(t, h, nil)
}

func (j *Journal) begin(t time.Duration, h Header, sp *split) (Header, error) {
	h.Game = j.game
	buf, err := AppendHeader(j.buf[:0], t, j.seq+1, h)
	if err != nil {
		return h, err
	}
	j.buf = buf
	j.start = t
	if err := j.append(true, sp); errors.Is(err, ErrBacklogFull) {
		return h, err
	}
	return h, nil // a write that failed waits in the backlog (Fault)
}

// Restart replaces the journal of the game in progress with a new one for
// the same game number, opened at time t with header h: for a game not yet
// begun (no move) that is to be played under other rules. The old journal
// is gone once the new one is in place. It is refused while finished games
// wait at the head of the journal to be archived, or records to be written.
func (j *Journal) Restart(t time.Duration, h Header) (Header, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil && j.head == len(j.queue) {
		return h, errors.New("journal: no game to restart")
	}
	if len(j.splits) > 0 || j.head < len(j.queue) {
		return h, errors.New("journal: the journal is behind (finished games not archived, or records not written): the game keeps its rules")
	}
	if err := j.f.Close(); err != nil {
		return h, fmt.Errorf("journal: %w", err)
	}
	j.f, j.size = nil, 0
	return j.begin(t, h, nil)
}

// AppendInput journals an input (its Seq is assigned). It is written at
// once but not synced. The error is the journal's Fault.
func (j *Journal) AppendInput(l trace.Line) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendInput(j.buf[:0], j.seq+1, l)
	return j.append(false, nil)
}

// AppendReport journals a report, syncing when it is Durable.
func (j *Journal) AppendReport(r *report.Report) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendReport(j.buf[:0], j.seq+1, r)
	return j.append(report.Durable(r.Type), nil) // fsync at moves, rulings and results
}

// AppendTag journals a PGN tag learnt during the game, and syncs.
func (j *Journal) AppendTag(t time.Duration, tag, value string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendTag(j.buf[:0], t, j.seq+1, tag, value)
	return j.append(true, nil)
}

// AppendComment journals a comment at the move at ply (an engine's
// evaluation).
func (j *Journal) AppendComment(t time.Duration, ply int, comment string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendComment(j.buf[:0], t, j.seq+1, ply, comment)
	return j.append(false, nil)
}

// append gives j.buf, one record, the next sequence number and writes it
// after whatever waits; if it cannot be written it waits too (a copy).
func (j *Journal) append(sync bool, sp *split) error {
	if j.frozen {
		return j.fault
	}
	j.seq++
	j.queue = append(j.queue, queued{seq: j.seq, data: j.buf, sync: sync, split: sp})
	j.backlog += int64(len(j.buf))
	j.flush()
	if n := len(j.queue); j.head < n && &j.queue[n-1].data[0] == &j.buf[0] {
		j.queue[n-1].data = append([]byte(nil), j.buf...)
	}
	if j.backlog > j.opts.maxBacklog {
		j.frozen = true
		j.setFault(ErrBacklogFull)
	}
	return j.fault
}

// flush writes the records waiting, in order, stopping at the first that
// fails, then syncs if a durable record was written.
func (j *Journal) flush() {
	for j.head < len(j.queue) {
		q := &j.queue[j.head]
		var err error
		if j.f == nil {
			err = j.create(filepath.Join(j.opts.Dir, CurrentFile), q.data)
		} else {
			err = j.writeAt(q.data)
		}
		if err != nil {
			j.setFault(err)
			return
		}
		if q.split != nil {
			q.split.off = j.size - int64(len(q.data))
		}
		if q.sync {
			j.syncOwed = true
		}
		j.since++
		j.backlog -= int64(len(q.data))
		if j.fault != nil {
			j.late++
		}
		*q = queued{}
		j.head++
	}
	j.queue, j.head = j.queue[:0], 0
	if j.syncOwed {
		if err := j.f.Datasync(); err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			j.setFault(fmt.Errorf("journal: sync %s: %w", filepath.Join(j.opts.Dir, CurrentFile), err))
			return
		}
		j.syncOwed, j.since = false, 0
	}
	if !j.frozen {
		j.clearFault()
	}
}

// writeAt writes one record after the last complete one. A write that
// fails part-way leaves bytes past j.size that the next attempt (the same
// record) writes over; a crash meanwhile leaves them as a torn tail.
func (j *Journal) writeAt(data []byte) error {
	n, err := j.f.WriteAt(data, j.size)
	if err == nil && n < len(data) {
		err = io.ErrShortWrite
	}
	if err != nil {
		// The file was opened under a temporary name and renamed: name
		// it as it is now.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("journal: append to %s: %w", filepath.Join(j.opts.Dir, CurrentFile), err)
	}
	j.size += int64(n)
	return nil
}

// create makes the current journal from its header: written to a new file
// that replaces the journal only once it is on disk, so that a journal is
// never seen without its header.
func (j *Journal) create(path string, header []byte) error {
	tmp := path + ".new"
	if err := j.writeFileSync(tmp, header); err != nil {
		return err
	}
	f, err := j.fs.OpenFile(tmp, os.O_RDWR, 0)
	if err != nil {
		j.fs.Remove(tmp)
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.fs.Rename(tmp, path); err != nil {
		f.Close()
		j.fs.Remove(tmp)
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.syncDir(j.opts.Dir); err != nil {
		j.log.Warn("journal: syncing the state directory", "err", err)
	}
	j.f, j.size = f, int64(len(header))
	return nil
}

// setFault notes why the journal is behind; a new episode is logged once,
// naming the file and the error.
func (j *Journal) setFault(err error) {
	if j.fault == nil {
		j.late = 0
		j.log.Error("journal: the game is not being saved; retrying", "file", filepath.Join(j.opts.Dir, CurrentFile),
			"err", err, "records_waiting", len(j.queue)-j.head)
	}
	j.fault = err
}

func (j *Journal) clearFault() {
	if j.fault != nil {
		j.log.Info("journal: writing again; the game is saved", "file", filepath.Join(j.opts.Dir, CurrentFile), "records_written_late", j.late)
	}
	j.fault = nil
}

// Sync flushes everything written to the disk.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.since > 0 {
		j.syncOwed = true
	}
	j.flush()
	return j.fault
}

// Close syncs and closes the journal and releases the state directory.
// Records still waiting to be written are lost; the error says how many.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	var errs []error
	if j.f != nil {
		if j.since > 0 {
			j.syncOwed = true
		}
		j.flush()
		if n := len(j.queue) - j.head; n > 0 {
			errs = append(errs, fmt.Errorf("journal: %d records could not be written: %w", n, j.fault))
		} else if j.fault != nil {
			errs = append(errs, j.fault)
		}
		errs = append(errs, j.f.Close())
		j.f = nil
	}
	if j.lock != nil {
		errs = append(errs, j.lock.Close())
		j.lock = nil
	}
	return errors.Join(errs...)
}

// writeFileSync writes data to a new file at path and syncs it.
func (j *Journal) writeFileSync(path string, data []byte) error {
	f, err := j.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		j.fs.Remove(path)
		return fmt.Errorf("journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		j.fs.Remove(path)
		return fmt.Errorf("journal: %w", err)
	}
	if err := f.Close(); err != nil {
		j.fs.Remove(path)
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// syncDir makes a directory's entries (a rename, a new file) durable.
func (j *Journal) syncDir(dir string) error {
	d, err := j.fs.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal: sync %s: %w", dir, err)
	}
	return nil
}
