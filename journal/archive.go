package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Archived is a finished game in the archive.
type Archived struct {
	Game    uint64
	PGN     string // path of its PGN ("" if trimmed)
	Journal string // path of its journal ("" if trimmed to save space)
	Size    int64  // bytes on disk, both files
}

func archiveName(game uint64, ext string) string {
	return fmt.Sprintf("game-%06d.%s", game, ext)
}

// List returns the archived games of the state directory dir, oldest first.
func List(dir string) ([]Archived, error) {
	adir := filepath.Join(dir, ArchiveDir)
	entries, err := os.ReadDir(adir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	byGame := map[uint64]*Archived{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "game-") || e.IsDir() {
			continue
		}
		stem, ext, ok := strings.Cut(strings.TrimPrefix(name, "game-"), ".")
		if !ok || (ext != "pgn" && ext != "jsonl") {
			continue
		}
		n, err := strconv.ParseUint(stem, 10, 64)
		if err != nil || n == 0 {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		a := byGame[n]
		if a == nil {
			a = &Archived{Game: n}
			byGame[n] = a
		}
		path := filepath.Join(adir, name)
		if ext == "pgn" {
			a.PGN = path
		} else {
			a.Journal = path
		}
		a.Size += info.Size()
	}
	out := make([]Archived, 0, len(byGame))
	for _, a := range byGame {
		out = append(out, *a)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Game < out[k].Game })
	return out, nil
}

// Tags reads the PGN tags of an archived game.
func (a Archived) Tags() (map[string]string, error) {
	if a.PGN == "" {
		return nil, fmt.Errorf("journal: game %d: its PGN was trimmed from the archive", a.Game)
	}
	data, err := os.ReadFile(a.PGN)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return PGNTags(data), nil
}

// PGNTags reads the tag pairs at the head of a PGN text.
func PGNTags(pgn []byte) map[string]string {
	tags := map[string]string{}
	for _, line := range bytes.Split(pgn, []byte{'\n'}) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			if len(tags) > 0 {
				break
			}
			continue
		}
		if line[0] != '[' || line[len(line)-1] != ']' {
			break
		}
		key, val, ok := strings.Cut(string(line[1:len(line)-1]), " ")
		if !ok {
			continue
		}
		if v, err := strconv.Unquote(strings.TrimSpace(val)); err == nil {
			tags[key] = v
		}
	}
	return tags
}

type archivedEnd struct {
	game uint64
	seq  uint64
}

// lastArchived returns the newest archived game's number and its journal's
// last sequence number.
func (j *Journal) lastArchived() (archivedEnd, error) {
	games, err := List(j.opts.Dir)
	if err != nil || len(games) == 0 {
		return archivedEnd{}, err
	}
	last := games[len(games)-1]
	end := archivedEnd{game: last.Game}
	if last.Journal != "" {
		g, err := ReadFile(last.Journal)
		if err != nil {
			return end, err
		}
		end.seq = g.LastSeq
	}
	return end, nil
}

// finishRotation clears what a rotation cut short leaves behind: a new
// journal or PGN never renamed into place.
func (j *Journal) finishRotation() error {
	for _, p := range []string{
		filepath.Join(j.opts.Dir, CurrentFile+".new"),
	} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("journal: %w", err)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(j.opts.Dir, ArchiveDir, "*.tmp"))
	for _, p := range tmps {
		os.Remove(p)
	}
	return nil
}

// Rotate archives the finished game (its journal, and pgn as its PGN) and
// begins the next one at time t with header next. Each step is durable
// before the next is taken, so a power cut mid-way leaves either the game in
// progress or the archived game and no journal (Open then reports no game,
// and the daemon begins one). The archive is then trimmed to its cap.
func (j *Journal) Rotate(t time.Duration, pgn string, next Header) (Header, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return next, errors.New("journal: no game to rotate")
	}
	if err := j.sync(); err != nil {
		return next, err
	}
	adir := filepath.Join(j.opts.Dir, ArchiveDir)
	pgnPath := filepath.Join(adir, archiveName(j.game, "pgn"))
	if err := writeFileSync(pgnPath+".tmp", []byte(pgn)); err != nil {
		return next, err
	}
	if err := os.Rename(pgnPath+".tmp", pgnPath); err != nil {
		return next, fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Close(); err != nil {
		return next, fmt.Errorf("journal: %w", err)
	}
	j.f = nil
	if err := os.Rename(filepath.Join(j.opts.Dir, CurrentFile), filepath.Join(adir, archiveName(j.game, "jsonl"))); err != nil {
		return next, fmt.Errorf("journal: archiving game %d: %w", j.game, err)
	}
	if err := syncDir(adir); err != nil {
		return next, err
	}
	if err := syncDir(j.opts.Dir); err != nil {
		return next, err
	}
	j.log.Info("game archived", "game", j.game, "pgn", pgnPath)
	j.game++
	h, err := j.begin(t, next)
	if err != nil {
		return h, err
	}
	if err := j.trim(); err != nil {
		j.log.Warn("journal: trimming the archive", "err", err)
	}
	return h, nil
}

// trim deletes the oldest archived journals, then the oldest PGNs, until the
// archive fits its cap. The newest game is always kept whole.
func (j *Journal) trim() error {
	games, err := List(j.opts.Dir)
	if err != nil {
		return err
	}
	var total int64
	for _, g := range games {
		total += g.Size
	}
	if total <= j.opts.ArchiveCap || len(games) < 2 {
		return nil
	}
	old := games[:len(games)-1]
	var errs []error
	remove := func(path string) {
		info, err := os.Stat(path)
		if err != nil {
			errs = append(errs, err)
			return
		}
		if err := os.Remove(path); err != nil {
			errs = append(errs, err)
			return
		}
		total -= info.Size()
		j.log.Info("journal: archive over its cap: removed", "file", path, "cap_bytes", j.opts.ArchiveCap)
	}
	for _, g := range old {
		if total <= j.opts.ArchiveCap {
			break
		}
		if g.Journal != "" {
			remove(g.Journal)
		}
	}
	for _, g := range old {
		if total <= j.opts.ArchiveCap {
			break
		}
		if g.PGN != "" {
			remove(g.PGN)
		}
	}
	return errors.Join(errs...)
}

// WriteCurrent replaces the state directory's current.pgn and current.fen,
// for whoever wants the game in progress without asking boardd. They are
// derived files: rewritten whole, renamed into place, never synced.
func (j *Journal) WriteCurrent(pgn, fen string) error {
	var errs []error
	for _, f := range []struct{ name, text string }{{CurrentPGN, pgn}, {CurrentFEN, fen + "\n"}} {
		path := filepath.Join(j.opts.Dir, f.name)
		if err := os.WriteFile(path+".tmp", []byte(f.text), 0o644); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// TrimmedError says the records asked for are no longer kept: the archive
// was trimmed past them.
type TrimmedError struct {
	Want   uint64 // the sequence number asked for
	Oldest uint64 // the oldest still kept
}

func (e *TrimmedError) Error() string {
	return fmt.Sprintf("journal: records from seq %d were trimmed from the archive; the oldest kept is %d", e.Want, e.Oldest)
}

// ReadFrom calls fn with every record whose sequence number is seq or more,
// in order, across the archived games' journals and the current one, up to
// the last record written when it was called (store and forward: a reader
// that has seen up to n asks for n+1). If records from seq on were trimmed
// from the archive, it calls fn with nothing and returns a *TrimmedError
// naming the oldest kept. An error from fn stops the reading and is
// returned.
func (j *Journal) ReadFrom(seq uint64, fn func(Record) error) error {
	j.mu.Lock()
	games, err := List(j.opts.Dir)
	if err != nil {
		j.mu.Unlock()
		return err
	}
	type source struct {
		f     *os.File
		limit int64
	}
	var srcs []source
	closeAll := func() {
		for _, s := range srcs {
			s.f.Close()
		}
	}
	defer closeAll()
	// Open every file while holding the lock: an open file stays readable
	// even if a rotation or a trim renames or removes it meanwhile.
	for _, g := range games {
		if g.Journal == "" {
			continue
		}
		f, err := os.Open(g.Journal)
		if err != nil {
			j.mu.Unlock()
			return fmt.Errorf("journal: %w", err)
		}
		info, err := f.Stat()
		if err != nil {
			f.Close()
			j.mu.Unlock()
			return fmt.Errorf("journal: %w", err)
		}
		srcs = append(srcs, source{f, info.Size()})
	}
	if j.f != nil {
		f, err := os.Open(filepath.Join(j.opts.Dir, CurrentFile))
		if err != nil {
			j.mu.Unlock()
			return fmt.Errorf("journal: %w", err)
		}
		srcs = append(srcs, source{f, j.size})
	}
	j.mu.Unlock()

	// Skip whole files that end before seq: a file's first record tells
	// where the next one starts.
	first := make([]uint64, len(srcs))
	for i, s := range srcs {
		first[i] = firstSeq(s.f)
	}
	start := 0
	for i := range srcs {
		if first[i] != 0 && first[i] <= seq {
			start = i
		}
	}
	// Sequence numbers start at 1 in a new state directory: an oldest
	// record past 1 means older ones were trimmed.
	if len(srcs) > 0 && seq < first[0] && first[0] > 1 {
		return &TrimmedError{Want: seq, Oldest: first[0]}
	}
	for _, s := range srcs[start:] {
		if _, err := s.f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		r := bufio.NewReaderSize(io.LimitReader(s.f, s.limit), 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && line[len(line)-1] == '\n' {
				rec, perr := ParseRecord(line[:len(line)-1])
				if perr == nil && rec.Seq >= seq {
					if ferr := fn(rec); ferr != nil {
						return ferr
					}
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("journal: %w", err)
			}
		}
	}
	return nil
}

// firstSeq returns the sequence number of a journal file's first record, or
// 0.
func firstSeq(f *os.File) uint64 {
	r := bufio.NewReader(f)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return 0
	}
	rec, err := ParseRecord(line[:len(line)-1])
	if err != nil {
		return 0
	}
	return rec.Seq
}
