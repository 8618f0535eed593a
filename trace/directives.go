package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Directives are what a trace's leading comment lines say about how to
// replay it: `# laws: ID` names the law-set in force and `# flags: ...`
// gives replay flags (`--time-control 300+2`, `--tournament`, `--odds rook`).
// The law scenarios in testdata/laws carry them, so that a scenario replays
// under its own code without the command line repeating it.
type Directives struct {
	// Laws is the law-set id of the `# laws:` line; empty when there is none.
	// A line naming several ids gives the first.
	Laws string
	// Flags are the words of every `# flags:` line, in order.
	Flags []string
}

// maxDirectiveBytes bounds how much of a trace's head ReadDirectives reads
// looking for comment lines: a trace that is one endless comment is not read
// into memory.
const maxDirectiveBytes = 64 << 10

// ReadDirectives reads the comment and blank lines at the head of r and
// returns the directives they hold, with a reader that gives r's whole
// content again, the head included, for the trace reader. Only the lines
// before the first input count; comments further down are notes.
func ReadDirectives(r io.Reader) (Directives, io.Reader, error) {
	br := bufio.NewReader(r)
	var head bytes.Buffer
	var d Directives
	for n := 1; head.Len() < maxDirectiveBytes; n++ {
		line, err := br.ReadString('\n')
		head.WriteString(line)
		text := strings.TrimSpace(line)
		if text != "" && !strings.HasPrefix(text, "#") {
			break // the first input: the head is over
		}
		if name, value, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(text, "#")), ":"); ok {
			switch strings.TrimSpace(name) {
			case "laws":
				if ids := strings.Fields(strings.ReplaceAll(value, ",", " ")); len(ids) > 0 && d.Laws == "" {
					d.Laws = ids[0]
				}
			case "flags":
				d.Flags = append(d.Flags, strings.Fields(value)...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return d, nil, fmt.Errorf("trace line %d: %w", n, err)
		}
	}
	return d, io.MultiReader(&head, br), nil
}
