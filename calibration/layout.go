package calibration

import (
	"fmt"

	"github.com/boardd/boardd/board"
)

// layout is a regular order in which a builder may have wired 64 sensors or
// LEDs: rank by rank or file by file, straight or as a snake, from one of
// the four corners.
type layout struct {
	name  string
	order [64]board.Square // position -> square
}

// layouts lists the 16 regular orders.
func layouts() []layout {
	corners := []struct {
		name       string
		file, rank int // the corner
	}{{"a1", 0, 0}, {"h1", 7, 0}, {"a8", 0, 7}, {"h8", 7, 7}}
	var out []layout
	for _, c := range corners {
		df, dr := 1, 1
		if c.file == 7 {
			df = -1
		}
		if c.rank == 7 {
			dr = -1
		}
		for _, byFile := range []bool{false, true} {
			for _, snake := range []bool{false, true} {
				var l layout
				for p := range 64 {
					major, minor := p/8, p%8
					if snake && major%2 == 1 {
						minor = 7 - minor
					}
					var f, r int
					if byFile {
						f, r = c.file+df*major, c.rank+dr*minor
					} else {
						f, r = c.file+df*minor, c.rank+dr*major
					}
					l.order[p] = board.NewSquare(f, r)
				}
				dir := "rank by rank"
				if byFile {
					dir = "file by file"
				}
				if snake {
					dir = "snaking " + dir
				}
				l.name = fmt.Sprintf("%s from %s", dir, c.name)
				out = append(out, l)
			}
		}
	}
	return out
}

// matchLayout returns the regular layout that agrees with every known
// position in idx (square -> position, -1 unknown), if exactly one does and
// at least 32 positions are known.
func matchLayout(idx *[64]int) (layout, bool) {
	known := 0
	for _, p := range idx {
		if p >= 0 {
			known++
		}
	}
	if known < 32 {
		return layout{}, false
	}
	var found []layout
	for _, l := range layouts() {
		ok := true
		for p, sq := range l.order {
			if idx[sq] >= 0 && idx[sq] != p {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		return layout{}, false
	}
	return found[0], true
}

// describeOrder says in words how positions idx (square -> position) are
// laid out on the board; noun names a position ("channel", "LED").
func describeOrder(idx *[64]int, noun string) string {
	a1 := "unknown"
	if idx[0] >= 0 {
		a1 = fmt.Sprint(noun, " ", idx[0])
	}
	if l, ok := matchLayout(idx); ok {
		full := true
		for _, p := range idx {
			full = full && p >= 0
		}
		if full {
			return fmt.Sprintf("%s (a1 is %s)", l.name, a1)
		}
	}
	return fmt.Sprintf("no regular order (a1 is %s)", a1)
}
