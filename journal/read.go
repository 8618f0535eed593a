package journal

import (
	"bytes"
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
	// Good is the length of the file up to the end of the last good record;
	// Size the length of the whole file. A power cut mid-write leaves a
	// torn tail between them, which is dropped (and cut off by Open).
	Good, Size int64
	// Warnings say what was dropped or skipped, and why, one a line.
	Warnings []string
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

// ReadFile reads one game's journal. A torn or garbled tail (what a power
// cut mid-write leaves: a partial line, a line without its newline, zero
// bytes) is dropped with a warning, as is a garbled line in the middle; every
// good record before it is kept. The error is for a file that cannot be read
// at all, or whose first good record is not a header.
func ReadFile(path string) (*Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return parse(path, data)
}

func parse(path string, data []byte) (*Game, error) {
	g := &Game{Path: path, Size: int64(len(data))}
	type bad struct {
		line int
		err  error
	}
	var skipped []bad
	orphans := 0
	off := 0
	lineNo := 0
	for off < len(data) {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			break // no newline: the write was torn
		}
		lineNo++
		text := data[off : off+nl]
		end := off + nl + 1
		off = end
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		rec, err := ParseRecord(text)
		if err == nil && rec.Seq <= g.LastSeq {
			err = fmt.Errorf("seq %d does not follow %d", rec.Seq, g.LastSeq)
		}
		if err == nil && len(g.Records) == 0 && rec.Kind != KindHeader {
			err = errors.New("the journal does not start with a header")
			orphans++
		}
		if err != nil {
			skipped = append(skipped, bad{lineNo, err})
			continue
		}
		// Lines skipped before a good one were garbled in the middle: say so.
		for _, b := range skipped {
			g.Warnings = append(g.Warnings, fmt.Sprintf("%s: line %d skipped: %v", path, b.line, b.err))
		}
		skipped = skipped[:0]
		switch rec.Kind {
		case KindHeader:
			if len(g.Records) > 0 {
				g.Warnings = append(g.Warnings, fmt.Sprintf("%s: line %d: a second header (game %d) ignored", path, lineNo, rec.Header.Game))
				continue
			}
			g.Header = *rec.Header
		case KindTag:
			g.Header.Tags[rec.Tag] = rec.Value
		}
		g.Records = append(g.Records, rec)
		g.LastSeq = rec.Seq
		g.LastT = max(g.LastT, rec.T)
		g.Good = int64(end)
	}
	if g.Good < g.Size {
		tail := g.Size - g.Good
		what := fmt.Sprintf("%d bytes", tail)
		if len(skipped) > 0 {
			what = fmt.Sprintf("%d bytes (%d garbled lines, the first at line %d: %v)", tail, len(skipped), skipped[0].line, skipped[0].err)
		}
		g.Warnings = append(g.Warnings, fmt.Sprintf("%s: torn tail dropped after seq %d: %s", path, g.LastSeq, what))
	}
	if orphans > 0 {
		return g, fmt.Errorf("journal: %s: %d records but no header to replay them with", path, orphans)
	}
	return g, nil
}

// Read reads the journal of the game in progress in the state directory dir,
// without changing anything (a running daemon may be writing it). It returns
// nil and no error when there is no game in progress.
func Read(dir string) (*Game, error) {
	g, err := ReadFile(filepath.Join(dir, CurrentFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(g.Records) == 0 {
		return nil, nil
	}
	return g, nil
}
