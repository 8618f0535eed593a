package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/boardd/boardd/trace"
)

// Game is one game's journal as read back.
type Game struct {
	Path    string
	Header  Header   // the header, with every tag record applied to its Tags
	Records []Record // every good record, the header first
	LastSeq uint64   // the last record's sequence number
	LastT   time.Duration
	// Good is the length of the file up to the end of the last good record
	// (one more than Size when the last record lacked only its newline);
	// Size the length of the whole file. A power cut mid-write leaves a
	// torn tail between them, which is dropped (and cut off by Open).
	Good, Size int64
	// Warnings say what was dropped, skipped or repaired, and why, one a
	// line.
	Warnings []string
	// rebuilt is the journal's bytes with its header rebuilt
	// (rebuildHeader), when it was: what the file should hold.
	rebuilt []byte
	// Offset is where the game's header begins in the file: 0, unless
	// finished games come before it.
	Offset int64
	// Finished are the games whose records head the file before this one,
	// oldest first: games that ended (the next game's header was
	// journalled) but whose archiving did not finish (a full disk, no file
	// descriptors left). Open archives them.
	Finished []*Game
	// Damaged are the records of this game damaged beyond repair, in
	// order: each was skipped, and the replay carries on from the reports.
	Damaged []Damage
	// Repaired counts the records read back whole after repairing one
	// damaged byte, and Unsealed the records read without a checksum (a
	// journal written before boardd wrote them).
	Repaired, Unsealed int

	fixes []fix // the repairs to make on disk
}

// Damage is a record damaged beyond repair.
type Damage struct {
	Line   int    // its line number in the file
	Offset int64  // where it begins in the file
	Before int    // how many of the game's good records come before it
	Text   []byte // what is left of it
	Err    error  // why it could not be read
}

// Inputs returns the game's inputs in order.
func (g *Game) Inputs() []trace.Line {
	var out []trace.Line
	for _, r := range g.Records {
		if r.Kind == KindInput {
			out = append(out, r.Input)
		}
	}
	return out
}

// Torn reports whether the file ended in a torn record that was dropped.
func (g *Game) Torn() bool { return g.Good < g.Size }

// ReadFile reads one game's journal: the game in progress, the last in the
// file. A torn or garbled tail (what a power cut mid-write leaves: a partial
// line, a line without its newline, zero bytes) is dropped with a warning; a
// line damaged in the middle is repaired when one byte explains the damage,
// else skipped, with a warning naming it; every good record is kept. Games
// before the last (finished, not yet archived) are in Finished. The error
// is for a file that cannot be read at all, or whose first good record is
// not a header.
func ReadFile(path string) (*Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return parse(path, data)
}

func parse(path string, data []byte) (*Game, error) {
	sc := scanFile(data)
	g := &Game{Path: path, Size: int64(len(data))}
	var finished []*Game
	var lastSeq uint64
	var good int64
	var warnings []string
	var skipped []scanned // damaged lines not yet followed by a good one
	orphans := 0
	fixAt := map[int]fix{}
	for _, f := range sc.fixes {
		fixAt[f.off] = f
	}
	for _, s := range sc.recs {
		var rec Record
		err := s.err
		if err == nil {
			rec, err = parseRecord(s.record())
		}
		if err == nil && rec.Seq <= lastSeq {
			err = fmt.Errorf("seq %d does not follow %d", rec.Seq, lastSeq)
		}
		if err == nil && len(g.Records) == 0 && len(finished) == 0 && rec.Kind != KindHeader {
			err = errors.New("the journal does not start with a header")
			orphans++
		}
		if err != nil {
			s.err = err
			skipped = append(skipped, s)
			continue
		}
		// Lines skipped before a good one were damaged in the middle.
		for _, b := range skipped {
			seq := "a record"
			if rec.Seq == lastSeq+2 {
				seq = fmt.Sprintf("seq %d", lastSeq+1)
			}
			warnings = append(warnings, fmt.Sprintf("%s: line %d (%s, bytes %d-%d) damaged beyond repair, skipped: %v", path, b.line, seq, b.start, b.end, b.err))
			if len(g.Records) > 0 {
				g.Damaged = append(g.Damaged, Damage{Line: b.line, Offset: int64(b.start), Before: len(g.Records), Text: data[b.start:min(b.end, len(data))], Err: b.err})
			}
		}
		skipped = skipped[:0]
		for off := s.start; off < s.end; off++ {
			if f, ok := fixAt[off]; ok {
				warnings = append(warnings, fmt.Sprintf("%s: line %d (seq %d) repaired: %s", path, f.line, rec.Seq, f.what))
				g.fixes = append(g.fixes, f)
				delete(fixAt, off)
				g.Repaired++
			}
		}
		if s.legacy {
			g.Unsealed++
		}
		if rec.Kind == KindHeader && len(g.Records) > 0 {
			// The next game's header: the game before it is finished.
			done := *g
			done.Warnings, done.fixes = nil, nil
			finished = append(finished, &done)
			g = &Game{Path: path, Size: int64(len(data)), Offset: int64(s.start)}
		}
		switch rec.Kind {
		case KindHeader:
			g.Header = *rec.Header
		case KindTag:
			g.Header.Tags[rec.Tag] = rec.Value
		}
		g.Records = append(g.Records, rec)
		g.LastSeq, lastSeq = rec.Seq, rec.Seq
		g.LastT = max(g.LastT, rec.T)
		good = int64(s.end)
	}
	if sc.legacy > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %d lines have no checksum (written by a boardd from before checksums): read as before, without the check", path, sc.legacy))
	}
	g.Finished = finished
	g.Good = good
	if g.Good < g.Size {
		tail := g.Size - g.Good
		what := fmt.Sprintf("%d bytes", tail)
		if len(skipped) > 0 {
			what = fmt.Sprintf("%d bytes (%d garbled lines, the first at line %d: %v)", tail, len(skipped), skipped[0].line, skipped[0].err)
		}
		warnings = append(warnings, fmt.Sprintf("%s: torn tail dropped after seq %d: %s", path, g.LastSeq, what))
	}
	g.Warnings = warnings
	if orphans > 0 {
		return g, fmt.Errorf("journal: %s: %d records but no header to replay them with", path, orphans)
	}
	return g, nil
}

// Read reads the journal of the game in progress in the state directory dir,
// without changing anything (a running daemon may be writing it). It returns
// nil and no error when there is no game in progress.
func Read(dir string) (*Game, error) {
	path := filepath.Join(dir, CurrentFile)
	g, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil && g != nil {
		// Records with no header: the header's line may be damaged, and
		// rebuilt (in memory; boardd run rebuilds it on disk).
		var number uint64 = 1
		if games, lerr := List(dir); lerr == nil && len(games) > 0 {
			number = games[len(games)-1].Game + 1
		}
		if rg := rebuilt(path, number); rg != nil {
			g, err = rg, nil
		}
	}
	if err != nil {
		return nil, err
	}
	if len(g.Records) == 0 {
		return nil, nil
	}
	return g, nil
}
