package lichess

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// MaxLineLength bounds one line of a stream. A gameFull of a very long game
// is a few kilobytes; a line longer than this is a fault of the stream.
const MaxLineLength = 1 << 20

// LineReader reads newline-delimited JSON as lichess streams it: each
// non-blank line is one JSON value, and blank lines (an empty line every few
// seconds) only keep the connection alive. It tolerates "\r\n" endings and a
// last line without its newline.
type LineReader struct {
	r    *bufio.Reader
	long []byte
	max  int
}

// NewLineReader returns a LineReader on r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 16<<10), max: MaxLineLength}
}

// Next returns the next line: the line without its end, or keepAlive true for
// a blank line. The line is valid until the next call. At the end of the
// stream it returns io.EOF.
func (l *LineReader) Next() (line []byte, keepAlive bool, err error) {
	l.long = l.long[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(l.long)+len(chunk) > l.max {
			return nil, false, fmt.Errorf("lichess: stream line longer than %d bytes", l.max)
		}
		if err == bufio.ErrBufferFull {
			l.long = append(l.long, chunk...)
			continue
		}
		if len(l.long) > 0 {
			l.long = append(l.long, chunk...)
			chunk = l.long
		}
		if err != nil && !(err == io.EOF && len(chunk) > 0) {
			return nil, false, err
		}
		chunk = bytes.TrimRight(chunk, "\r\n")
		if len(bytes.TrimSpace(chunk)) == 0 {
			if err == io.EOF {
				return nil, false, io.EOF
			}
			return nil, true, nil
		}
		return chunk, false, nil
	}
}
