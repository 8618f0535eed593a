package journal

import (
	"fmt"
	"os"
	"regexp"
	"slices"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lawset"
)

// legibleLaws finds a law-set's id in what is left of a damaged header.
var legibleLaws = regexp.MustCompile(`"laws":"([a-z0-9]+)"`)

// rebuildHeader makes up the header of a journal whose first line, its
// header, was damaged beyond repair while the records after it are whole
// (a bad sector): without it they could not be replayed, and the game
// would be lost. The header is given the sequence number before the first
// record's, the time of that record, the game number game, and the law-set
// with which the replay makes the journalled reports (what is legible of
// the damaged line first, then every law-set); the other options are the
// defaults. It returns the journal with the rebuilt header in place of the
// damaged line, and says what it made; ok is false when the journal is not
// such a journal (its first line whole, or nothing whole after it).
func rebuildHeader(path string, data []byte, number uint64) (rebuilt []byte, what string, ok bool) {
	sc := scanFile(data)
	if len(sc.recs) < 2 || sc.recs[0].err == nil || sc.recs[0].line != 1 || sc.recs[1].err != nil {
		return nil, "", false
	}
	first, err := parseRecord(sc.recs[1].record())
	if err != nil || first.Kind == KindHeader || first.Seq < 2 {
		return nil, "", false
	}
	var ids []string
	if m := legibleLaws.FindSubmatch(data[sc.recs[0].start:sc.recs[0].end]); m != nil {
		if _, err := lawset.Lookup(string(m[1])); err == nil {
			ids = append(ids, string(m[1]))
		}
	}
	for _, id := range append([]string{"fide2023"}, lawset.IDs()...) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	rest := data[sc.recs[1].start:]
	best, bestScore, bestLaws := []byte(nil), -1, ""
	for _, id := range ids {
		line, err := AppendHeader(nil, first.T, first.Seq-1, Header{Game: number, Laws: id, Tags: map[string]string{}})
		if err != nil {
			continue
		}
		cand := append(line, rest...)
		g, err := parse(path, cand)
		if err != nil {
			continue
		}
		rp, err := Replay(g, game.Options{})
		if err != nil {
			continue
		}
		if score := rp.Diverged + rp.Missing + rp.Unrecovered; bestScore < 0 || score < bestScore {
			best, bestScore, bestLaws = cand, score, id
			if score == 0 {
				break
			}
		}
	}
	if best == nil {
		return nil, "", false
	}
	return best, fmt.Sprintf("%s: line 1 (the header, bytes %d-%d) damaged beyond repair: rebuilt as game %d, seq %d, laws %s (the law-set with which the replay makes the journalled reports; %d reports differ), the other options the defaults",
		path, sc.recs[0].start, sc.recs[0].end, number, first.Seq-1, bestLaws, bestScore), true
}

// rebuilt reads the journal at path again with its header rebuilt
// (rebuildHeader), in memory: nil when it cannot be.
func rebuilt(path string, number uint64) *Game {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	fixed, what, ok := rebuildHeader(path, data, number)
	if !ok {
		return nil
	}
	g, err := parse(path, fixed)
	if err != nil {
		return nil
	}
	g.Warnings = append([]string{what}, g.Warnings...)
	g.rebuilt = fixed
	return g
}
