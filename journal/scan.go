package journal

import (
	"bytes"
	"errors"
	"fmt"
)

// scanned is one record of a journal file as read back: checked against its
// checksum, repaired when one byte was damaged, or found damaged beyond
// repair.
type scanned struct {
	line       int // its line number in the file, from 1
	start, end int // its bytes in the file (end past its newline)
	// text is the record's checksummed part (its JSON object but for the
	// closing brace), or a line without a checksum whole (legacy); nil
	// when damaged.
	text   []byte
	legacy bool  // a line without a checksum, from before boardd wrote them
	err    error // why it could not be read, when text is nil
}

// record returns the record's JSON object.
func (s *scanned) record() []byte {
	if s.legacy {
		return s.text
	}
	return record(s.text)
}

// fix is a repair to make on disk: data written at off puts back what was
// written there.
type fix struct {
	off  int
	data []byte
	line int
	what string
}

// scan is a journal file read line by line.
type scan struct {
	recs   []scanned
	fixes  []fix
	legacy int // lines read without a checksum
	// tail is the offset where a last line without its newline begins, a
	// write cut short, or -1.
	tail int
}

// scanFile splits a journal file into its records, checking each line's
// checksum. A line that fails it is repaired if one damaged byte explains
// it: a byte in the line, the newline that ended it (two lines run
// together) or a newline where there was none (a line cut in two). A line
// with no checksum is read as before (a journal written by an older
// boardd) until the first line that has one. A last line with no newline is
// a write cut short (a power cut): it is the tail, unless it is whole.
func scanFile(data []byte) *scan {
	sc := &scan{tail: -1, recs: make([]scanned, 0, bytes.Count(data, []byte{'\n'})+1)}
	sealedSeen := false
	no := 0
	for off := 0; off < len(data); {
		no++
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			// The last line, without its newline.
			seg := data[off:]
			if text, ok := checked(seg); ok {
				// Whole but for its newline.
				sc.recs = append(sc.recs, scanned{line: no, start: off, end: len(data) + 1, text: text})
				sc.fixes = append(sc.fixes, fix{off: len(data), data: []byte{'\n'}, line: no, what: "its newline was missing"})
			} else if text, ok := checked(seg[:len(seg)-1]); ok {
				// Its newline damaged.
				sc.recs = append(sc.recs, scanned{line: no, start: off, end: len(data), text: text})
				sc.fixes = append(sc.fixes, fix{off: len(data) - 1, data: []byte{'\n'}, line: no, what: "its newline read " + byteName(seg[len(seg)-1])})
			} else {
				sc.tail = off
			}
			break
		}
		seg := data[off : off+nl]
		end := off + nl + 1
		if len(bytes.TrimSpace(seg)) == 0 {
			// A blank line may be a line's first byte damaged into a
			// newline.
			if n, ok := sc.join(data, off, end, no); ok {
				sealedSeen = true
				no++
				off = n
				continue
			}
			off = end
			continue
		}
		if text, ok := checked(seg); ok {
			sealedSeen = true
			sc.recs = append(sc.recs, scanned{line: no, start: off, end: end, text: text})
			off = end
			continue
		}
		// One byte of the line damaged.
		if fixed, what, ok := repair(seg); ok {
			sealedSeen = true
			text, _ := checked(fixed)
			sc.recs = append(sc.recs, scanned{line: no, start: off, end: end, text: text})
			sc.fixes = append(sc.fixes, fix{off: off, data: fixed, line: no, what: what})
			off = end
			continue
		}
		// A newline where there was none: the line and the next are one.
		if n, ok := sc.join(data, off, end, no); ok {
			sealedSeen = true
			no++
			off = n
			continue
		}
		// Two lines run together: the newline between them damaged.
		if a, b, at, ok := splitRunTogether(seg); ok {
			sealedSeen = true
			sc.recs = append(sc.recs,
				scanned{line: no, start: off, end: off + at + 1, text: a},
				scanned{line: no, start: off + at + 1, end: end, text: b})
			sc.fixes = append(sc.fixes, fix{off: off + at, data: []byte{'\n'}, line: no, what: fmt.Sprintf("byte %d of the line read %s, written a newline (two records ran together)", at+1, byteName(seg[at]))})
			off = end
			continue
		}
		if !sealedSeen {
			if _, err := ParseRecord(seg); err == nil {
				sc.legacy++
				sc.recs = append(sc.recs, scanned{line: no, start: off, end: end, text: bytes.TrimSpace(seg), legacy: true})
				off = end
				continue
			}
		}
		sc.recs = append(sc.recs, scanned{line: no, start: off, end: end, err: damagedError(seg, sealedSeen)})
		off = end
	}
	return sc
}

// join reads the line at data[off:end] and the next as one line whose
// newline between them was one damaged byte. It returns where the next
// line ends.
func (sc *scan) join(data []byte, off, end, no int) (int, bool) {
	next := bytes.IndexByte(data[end:], '\n')
	if next < 0 {
		return 0, false
	}
	if _, ok := checked(data[end : end+next]); ok {
		return 0, false // the next line stands on its own
	}
	fixed, what, ok := repair(data[off : end+next])
	if !ok || bytes.IndexByte(fixed, '\n') >= 0 {
		return 0, false
	}
	text, _ := checked(fixed)
	sc.recs = append(sc.recs, scanned{line: no, start: off, end: end + next + 1, text: text})
	sc.fixes = append(sc.fixes, fix{off: off, data: fixed, line: no, what: what + " (a newline that cut the line in two)"})
	return end + next + 1, true
}

// splitRunTogether finds the byte that was a newline in a line made of two
// sealed lines run together.
func splitRunTogether(seg []byte) (a, b []byte, at int, ok bool) {
	for at = minSealed; at < len(seg)-minSealed; at++ {
		if seg[at-1] != '}' || seg[at-2] != '"' {
			continue
		}
		ta, oka := checked(seg[:at])
		if !oka {
			continue
		}
		if tb, okb := checked(seg[at+1:]); okb {
			return ta, tb, at, true
		}
	}
	return nil, nil, 0, false
}

// damagedError says why a line could not be read.
func damagedError(seg []byte, sealedSeen bool) error {
	if _, _, ok := unseal(seg); ok {
		return errors.New("its checksum does not hold, and no one damaged byte explains it")
	}
	if _, err := ParseRecord(seg); err != nil {
		return err
	}
	if sealedSeen {
		return errors.New("no checksum, among lines that have one")
	}
	return errors.New("unreadable")
}
