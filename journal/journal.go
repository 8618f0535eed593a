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
// a number on. docs/journal.md is the specification.
//
// Lines are written with one write(2) each, so a killed process loses
// nothing it had written; the file is fsynced at each completed move, ruling,
// irregularity and result, so a power cut loses at most the inputs since the
// last of those. A torn last line is dropped with a warning when the journal
// is opened again. Finished games are rotated into an archive (the journal
// and a PGN each) whose size is kept under a cap.
package journal

import (
	"errors"
	"fmt"
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

// Options configure a journal.
type Options struct {
	// Dir is the state directory.
	Dir string
	// ArchiveCap bounds the bytes the archive may hold: past it, the
	// journals of the oldest games are deleted first, then their PGNs. The
	// newest game is always kept. Zero means DefaultArchiveCap.
	ArchiveCap int64
	// Logger gets warnings (torn tails, archive trimming); nil discards.
	Logger *slog.Logger
}

// Journal appends to the journal of the game in progress. Appends come from
// one goroutine (the runner's loop); ReadFrom may be called from others. A
// Journal holds a lock on the state directory: one daemon per directory.
type Journal struct {
	opts Options
	log  *slog.Logger

	mu    sync.Mutex
	f     *os.File // the current journal, nil before Begin
	lock  *os.File
	seq   uint64        // the last sequence number written
	size  int64         // bytes of complete records in f
	game  uint64        // the current game's number (the next one's before Begin)
	start time.Duration // the current game's header time
	buf   []byte
	since int // records written since the last sync
}

// Open opens the journal in opts.Dir for appending, creating the directory,
// and returns the game in progress as read back (nil when there is none: call
// Begin). A torn tail is cut off the file, with a warning.
func Open(opts Options) (*Journal, *Game, error) {
	if opts.Dir == "" {
		return nil, nil, errors.New("journal: no state directory")
	}
	if opts.ArchiveCap <= 0 {
		opts.ArchiveCap = DefaultArchiveCap
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Join(opts.Dir, ArchiveDir), 0o750); err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{opts: opts, log: log}
	if err := j.takeLock(); err != nil {
		return nil, nil, err
	}
	ok := false
	defer func() {
		if !ok {
			j.lock.Close()
		}
	}()
	if err := j.finishRotation(); err != nil {
		return nil, nil, err
	}
	path := filepath.Join(opts.Dir, CurrentFile)
	g, err := ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		g = nil
	case err != nil && g != nil:
		// Records with no header cannot be replayed: keep them aside for
		// whoever wants to look, and start afresh.
		aside := fmt.Sprintf("%s.unreadable-%d", path, time.Now().Unix())
		if rerr := os.Rename(path, aside); rerr != nil {
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
			if err := os.Remove(path); err != nil {
				return nil, nil, fmt.Errorf("journal: %w", err)
			}
			g = nil
		}
	}
	if g != nil {
		if g.Torn() {
			if err := os.Truncate(path, g.Good); err != nil {
				return nil, nil, fmt.Errorf("journal: cutting the torn tail off %s: %w", path, err)
			}
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("journal: %w", err)
		}
		if g.Torn() {
			if err := fdatasync(f); err != nil {
				f.Close()
				return nil, nil, fmt.Errorf("journal: %s: %w", path, err)
			}
		}
		j.f, j.size = f, g.Good
		j.seq = max(j.seq, g.LastSeq)
		j.game = g.Header.Game
		j.start = g.Records[0].T
	}
	ok = true
	return j, g, nil
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

// Seq returns the last sequence number written.
func (j *Journal) Seq() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seq
}

// Begin starts the journal of a new game at time t with header h (whose Game
// is set to the journal's next game number) and syncs it. It is an error if a
// game is in progress.
func (j *Journal) Begin(t time.Duration, h Header) (Header, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f != nil {
		return h, errors.New("journal: a game is in progress")
	}
	return j.begin(t, h)
}

func (j *Journal) begin(t time.Duration, h Header) (Header, error) {
	h.Game = j.game
	path := filepath.Join(j.opts.Dir, CurrentFile)
	tmp := path + ".new"
	buf, err := AppendHeader(j.buf[:0], t, j.seq+1, h)
	if err != nil {
		return h, err
	}
	j.buf = buf
	// The header is written to a new file that replaces the journal only
	// once it is on disk: a journal is never seen without its header.
	if err := writeFileSync(tmp, buf); err != nil {
		return h, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return h, fmt.Errorf("journal: %w", err)
	}
	if err := syncDir(j.opts.Dir); err != nil {
		return h, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return h, fmt.Errorf("journal: %w", err)
	}
	j.f, j.size, j.start = f, int64(len(buf)), t
	j.seq++
	return h, nil
}

// Restart replaces the journal of the game in progress with a new one for
// the same game number, opened at time t with header h: for a game not yet
// begun (no move) that is to be played under other rules. The old journal
// is gone once the new one is in place.
func (j *Journal) Restart(t time.Duration, h Header) (Header, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return h, errors.New("journal: no game to restart")
	}
	if err := j.f.Close(); err != nil {
		return h, fmt.Errorf("journal: %w", err)
	}
	j.f = nil
	return j.begin(t, h)
}

// AppendInput journals an input (its Seq is assigned). It is written at
// once but not synced.
func (j *Journal) AppendInput(l trace.Line) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendInput(j.buf[:0], j.seq+1, l)
	return j.write(false)
}

// AppendReport journals a report, syncing when it is Durable.
func (j *Journal) AppendReport(r *report.Report) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendReport(j.buf[:0], j.seq+1, r)
	return j.write(report.Durable(r.Type)) // fsync at moves, rulings and results
}

// AppendTag journals a PGN tag learnt during the game, and syncs.
func (j *Journal) AppendTag(t time.Duration, tag, value string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = AppendTag(j.buf[:0], t, j.seq+1, tag, value)
	return j.write(true)
}

// write appends j.buf as one record. A failed or short write is cut back
// off so the file never holds half a record followed by more.
func (j *Journal) write(sync bool) error {
	if j.f == nil {
		return errors.New("journal: no game begun")
	}
	n, err := j.f.Write(j.buf)
	if err != nil {
		if n > 0 {
			j.f.Truncate(j.size)
		}
		return fmt.Errorf("journal: append: %w", err)
	}
	j.size += int64(n)
	j.seq++
	j.since++
	if sync {
		return j.sync()
	}
	return nil
}

// Sync flushes everything written to the disk.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sync()
}

func (j *Journal) sync() error {
	if j.f == nil || j.since == 0 {
		return nil
	}
	if err := fdatasync(j.f); err != nil {
		return fmt.Errorf("journal: sync: %w", err)
	}
	j.since = 0
	return nil
}

// Close syncs and closes the journal and releases the state directory.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	var errs []error
	if j.f != nil {
		errs = append(errs, j.sync(), j.f.Close())
		j.f = nil
	}
	if j.lock != nil {
		errs = append(errs, j.lock.Close())
		j.lock = nil
	}
	return errors.Join(errs...)
}

func fdatasync(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			return err
		}
	}
}

// writeFileSync writes data to a new file at path and syncs it.
func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("journal: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("journal: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// syncDir makes a directory's entries (a rename, a new file) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal: sync %s: %w", dir, err)
	}
	return nil
}
