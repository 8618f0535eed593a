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

	"github.com/boardd/boardd/game"
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

// Rotate ends the finished game and begins the next one at time t with
// header next: the next game's header is journalled first (the rotation is
// then made, whatever follows), and the finished game is archived, its
// journal and pgn as its PGN, and cut off the head of the journal. If the
// archiving fails (a full disk, no file descriptors left) the game stays at
// the head of the journal, whole, and is archived when Retry or the next
// Open can: never half. The archive is then trimmed to its cap. The error
// is for a rotation that could not begin; a late archiving is logged, and a
// header that cannot be written waits in the backlog (Fault).
func (j *Journal) Rotate(t time.Duration, pgn string, next Header) (Header, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil && j.head == len(j.queue) {
		return next, errors.New("journal: no game to rotate")
	}
	if j.frozen {
		return next, j.fault
	}
	sp := &split{game: j.game, pgn: pgn, off: -1}
	j.splits = append(j.splits, sp)
	j.game++
	h, err := j.begin(t, next, sp)
	if err != nil && j.head == len(j.queue) && sp.off < 0 {
		// The header was never journalled: the rotation did not begin.
		j.splits = j.splits[:len(j.splits)-1]
		j.game--
		return h, err
	}
	j.finishSplits(t, true)
	return h, nil
}

// finishSplits archives the finished games at the head of the journal,
// oldest first, as far as it can. Unless force, a failed archiving is tried
// again only RetryEvery after the last attempt.
func (j *Journal) finishSplits(t time.Duration, force bool) {
	for len(j.splits) > 0 {
		sp := j.splits[0]
		if sp.off < 0 || j.f == nil {
			return // its end is not on disk yet
		}
		if !force && j.splitFault != nil && t < j.retryAt {
			return
		}
		if err := j.archive(sp); err != nil {
			j.retryAt = t + RetryEvery
			if j.splitFault == nil {
				j.log.Error("journal: a finished game is not archived yet; it stays whole in the journal, and archiving is retried",
					"game", sp.game, "file", filepath.Join(j.opts.Dir, CurrentFile), "err", err)
			}
			j.splitFault = err
			return
		}
		if j.splitFault != nil {
			j.log.Info("journal: the finished game is archived after all", "game", sp.game)
			j.splitFault = nil
		}
		j.splits = j.splits[1:]
		if err := j.trim(); err != nil {
			j.log.Warn("journal: trimming the archive", "err", err)
		}
	}
}

// archive moves finished game sp off the head of the current journal into
// the archive. Each step leaves a state Open completes: the PGN, then the
// game's journal (a copy of the head), each written to a temporary file,
// synced and renamed; then the rest of the journal is written to a new
// file that replaces the journal in one rename.
func (j *Journal) archive(sp *split) error {
	adir := filepath.Join(j.opts.Dir, ArchiveDir)
	pgnPath := filepath.Join(adir, archiveName(sp.game, "pgn"))
	if err := j.writeFileSync(pgnPath+".tmp", []byte(sp.pgn)); err != nil {
		return err
	}
	if err := j.fs.Rename(pgnPath+".tmp", pgnPath); err != nil {
		j.fs.Remove(pgnPath + ".tmp")
		return fmt.Errorf("journal: %w", err)
	}
	jsonlPath := filepath.Join(adir, archiveName(sp.game, "jsonl"))
	if err := j.copyTo(jsonlPath+".tmp", 0, sp.off); err != nil {
		return err
	}
	if err := j.fs.Rename(jsonlPath+".tmp", jsonlPath); err != nil {
		j.fs.Remove(jsonlPath + ".tmp")
		return fmt.Errorf("journal: archiving game %d: %w", sp.game, err)
	}
	if err := j.syncDir(adir); err != nil {
		return err
	}
	path := filepath.Join(j.opts.Dir, CurrentFile)
	rest, err := j.copyToOpen(path+".next", sp.off, j.size)
	if err != nil {
		return err
	}
	if err := j.fs.Rename(path+".next", path); err != nil {
		rest.Close()
		j.fs.Remove(path + ".next")
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.syncDir(j.opts.Dir); err != nil {
		j.log.Warn("journal: syncing the state directory", "err", err)
	}
	j.f.Close()
	j.f = rest
	j.size -= sp.off
	for _, o := range j.splits {
		if o != sp && o.off >= 0 {
			o.off -= sp.off
		}
	}
	j.log.Info("game archived", "game", sp.game, "pgn", pgnPath)
	return nil
}

// copyTo writes bytes [from, to) of the current journal to a new file at
// path, synced and closed.
func (j *Journal) copyTo(path string, from, to int64) error {
	f, err := j.copyToOpen(path, from, to)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		j.fs.Remove(path)
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// copyToOpen writes bytes [from, to) of the current journal to a new file
// at path, synced, and returns it open for reading and writing.
func (j *Journal) copyToOpen(path string, from, to int64) (file, error) {
	f, err := j.fs.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	fail := func(err error) (file, error) {
		f.Close()
		j.fs.Remove(path)
		return nil, fmt.Errorf("journal: %w", err)
	}
	if _, err := io.Copy(f, io.NewSectionReader(j.f, from, to-from)); err != nil {
		return fail(err)
	}
	if err := f.Datasync(); err != nil {
		return fail(err)
	}
	return f, nil
}

// ArchivePGN returns the PGN of a finished game read back from a journal
// (one of Game.Finished) as the archive gets it: the game as it stood when
// it ended.
func (g *Game) ArchivePGN() string { return finishedPGN(g) }

// finishedPGN is the PGN of a finished game read back from a journal: as it
// stood when the game ended.
func finishedPGN(g *Game) string {
	rp, err := Replay(g, game.Options{})
	if err != nil {
		return ""
	}
	if rp.NewGame && rp.FinishedPGN != "" {
		return rp.FinishedPGN
	}
	return rp.Game.PGN()
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
// derived files: rewritten whole, renamed into place, never synced. Their
// faults are not the journal's: the recorder logs them apart.
func (j *Journal) WriteCurrent(pgn, fen string) error {
	var errs []error
	for _, f := range []struct{ name, text string }{{CurrentPGN, pgn}, {CurrentFEN, fen + "\n"}} {
		path := filepath.Join(j.opts.Dir, f.name)
		if err := j.writeFile(path+".tmp", []byte(f.text)); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := j.fs.Rename(path+".tmp", path); err != nil {
			j.fs.Remove(path + ".tmp")
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// writeFile writes data to a new file at path, readable by all.
func (j *Journal) writeFile(path string, data []byte) error {
	f, err := j.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		j.fs.Remove(path)
	}
	return err
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
// in order, across the archived games' journals, the current one and the
// records still waiting to be written, up to the last record given a
// number when it was called (store and forward: a reader that has seen up
// to n asks for n+1). Damaged lines are repaired or passed over as the
// journal's reader does; a record met twice (a finished game both archived
// and still at the head of the journal) is given once. If records from seq
// on were trimmed from the archive, it calls fn with nothing and returns a
// *TrimmedError naming the oldest kept. An error from fn stops the reading
// and is returned.
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
	var waiting [][]byte
	for _, q := range j.queue[j.head:] {
		waiting = append(waiting, append([]byte(nil), q.data...))
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
	var given uint64 // the last sequence number given to fn
	give := func(text []byte) error {
		rec, err := parseRecord(text)
		if err != nil || rec.Seq < seq || rec.Seq <= given {
			return nil
		}
		given = rec.Seq
		return fn(rec)
	}
	for _, s := range srcs[start:] {
		data, err := io.ReadAll(io.NewSectionReader(s.f, 0, s.limit))
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		for _, r := range scanFile(data).recs {
			if r.text == nil {
				continue
			}
			if err := give(r.record()); err != nil {
				return err
			}
		}
	}
	for _, line := range waiting {
		if text, ok := verify(line[:len(line)-1]); ok {
			if err := give(text); err != nil {
				return err
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
	line = line[:len(line)-1]
	if fixed, _, ok := repair(line); ok {
		line = fixed
	}
	rec, err := ParseRecord(line)
	if err != nil {
		return 0
	}
	return rec.Seq
}
