package hall

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/report"
)

// Pairing names a board's players, and its round when it differs from the
// hall's.
type Pairing struct {
	White, Black, Round string
}

// ReadPairings reads a pairings file: one board a line, "board,white,black"
// or "board,white,black,round", as CSV (quote a name with a comma); blank
// lines and lines starting with # are skipped.
func ReadPairings(r io.Reader, name string) (map[string]Pairing, error) {
	out := map[string]Pairing{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("hall: %s line %d: %v", name, n, err)
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if len(rec) < 3 || len(rec) > 4 {
			return nil, fmt.Errorf("hall: %s line %d: %d fields: want board,white,black or board,white,black,round", name, n, len(rec))
		}
		if err := wire.CheckBoard(rec[0]); err != nil {
			return nil, fmt.Errorf("hall: %s line %d: %v", name, n, err)
		}
		if _, dup := out[rec[0]]; dup {
			return nil, fmt.Errorf("hall: %s line %d: board %s paired twice", name, n, rec[0])
		}
		p := Pairing{White: rec[1], Black: rec[2]}
		if len(rec) == 4 {
			p.Round = rec[3]
		}
		for _, v := range []string{p.White, p.Black, p.Round} {
			if strings.ContainsAny(v, "\"\\[]") {
				return nil, fmt.Errorf("hall: %s line %d: %q: a name may not hold quotes, backslashes or brackets (PGN tags)", name, n, v)
			}
		}
		out[rec[0]] = p
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("hall: %s: %w", name, err)
	}
	return out, nil
}

// retag returns pgn with the tags given set: an existing tag's value is
// replaced, a missing one is added after the seven-tag roster.
func retag(pgn string, tags map[string]string) string {
	if len(tags) == 0 {
		return pgn
	}
	lines := strings.SplitAfter(pgn, "\n")
	done := map[string]bool{}
	var b strings.Builder
	b.Grow(len(pgn) + 64*len(tags))
	i := 0
	rosterEnd := -1
	var head []string
	for ; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "[") {
			break
		}
		name, _, ok := strings.Cut(strings.TrimPrefix(t, "["), " ")
		if ok {
			if v, set := tags[name]; set {
				l = tagLine(name, v)
				done[name] = true
			}
			if name == "Result" {
				rosterEnd = len(head)
			}
		}
		head = append(head, l)
	}
	var extra []string
	for k, v := range tags {
		if !done[k] {
			extra = append(extra, tagLine(k, v))
		}
	}
	sort.Strings(extra)
	at := len(head)
	if rosterEnd >= 0 {
		at = rosterEnd + 1
	}
	for j, l := range head {
		b.WriteString(l)
		if j == at-1 {
			for _, e := range extra {
				b.WriteString(e)
			}
		}
	}
	if at == 0 {
		for _, e := range extra {
			b.WriteString(e)
		}
	}
	for ; i < len(lines); i++ {
		b.WriteString(lines[i])
	}
	return b.String()
}

func tagLine(name, value string) string {
	v := strings.ReplaceAll(value, `\`, `\\`)
	v = strings.ReplaceAll(v, `"`, `\"`)
	return "[" + name + ` "` + v + "\"]\n"
}

// eventPGN writes a game as the hall holds it from the board's events: the
// board's own tags, the set-up, the moves, the irregularities and rulings as
// comments after the move they came after, and the result. It stands in for
// the board's PGN when the board's last state of the game came before the
// game's end; its comments are the hall's words for the board's reports, not
// the board's own.
func eventPGN(h *wire.Header, moves []Move, notes []console.Note, res *console.Result) string {
	result := "*"
	if res != nil && res.Result != "" {
		result = string(res.Result)
	}
	var b strings.Builder
	names := make([]string, 0, len(h.Tags))
	for k := range h.Tags {
		if k != "Result" && k != "SetUp" && k != "FEN" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		b.WriteString(tagLine(k, h.Tags[k]))
	}
	b.WriteString(tagLine("Result", result))
	number, black := 1, false
	if h.FEN != "" {
		b.WriteString(tagLine("SetUp", "1"))
		b.WriteString(tagLine("FEN", h.FEN))
		f := strings.Fields(h.FEN)
		black = len(f) > 1 && f[1] == "b"
		if len(f) > 5 {
			if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
				number = n
			}
		}
	}
	b.WriteString("\n")
	line := 0
	word := func(w string) {
		if line > 0 && line+1+len(w) > 79 {
			b.WriteString("\n")
			line = 0
		}
		if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	comments := noteComments(notes, len(moves))
	comment := func(ply int) bool {
		c := comments[ply]
		if c == "" {
			return false
		}
		for _, w := range strings.Fields("{" + c + "}") {
			word(w)
		}
		return true
	}
	resume := comment(0)
	for i, m := range moves {
		switch {
		case !black:
			word(strconv.Itoa(number) + ". " + m.SAN)
		case i == 0 || resume:
			word(strconv.Itoa(number) + "... " + m.SAN)
		default:
			word(m.SAN)
		}
		if black {
			number++
		}
		black = !black
		resume = comment(i + 1)
	}
	word(result)
	b.WriteString("\n")
	return b.String()
}

// noteComments words the notes of a game, irregularities, rulings, claims
// held on the clock and the result's law, as PGN comment texts by the ply
// they follow (0: before the first move, plies beyond the moves kept go
// after the last). Hands at work (mismatch, synced) are not part of the
// record.
func noteComments(notes []console.Note, plies int) []string {
	out := make([]string, plies+1)
	for _, n := range notes {
		r, err := wire.DecodeReport(n.Report)
		if err != nil {
			continue
		}
		var text string
		switch r.Type {
		case report.Irregularity:
			text = fmt.Sprintf("%s by %s, %s", r.Kind, r.Offender, r.Law)
		case report.Ruling:
			text = fmt.Sprintf("%s: %s by %s", r.Law, r.Option, r.By)
		case report.Clock:
			text = fmt.Sprintf("%s: clocks held for %s", r.Law, r.Side)
		case report.Result:
			if r.Law == "" {
				continue
			}
			text = fmt.Sprintf("%s: %s", r.Law, r.Result)
		default:
			continue
		}
		if r.Reason != "" {
			text += " (" + r.Reason + ")"
		}
		ply := min(max(n.Ply, 0), plies)
		if out[ply] != "" {
			out[ply] += "; "
		}
		out[ply] += strings.NewReplacer("{", "(", "}", ")").Replace(text)
	}
	return out
}
