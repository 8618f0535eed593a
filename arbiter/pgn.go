package arbiter

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
)

// PGN writes the game as played in Portable Game Notation: the seven-tag
// roster, the law-set, the set-up position when the game did not start from
// the initial one, every move in SAN, and every ruling as a comment at the
// move it concerns.
func (g *Game) PGN() string {
	var b strings.Builder
	result := "*"
	if g.result != nil {
		result = g.result.Result
	}
	tags := map[string]string{
		"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "-",
		"White": "?", "Black": "?",
	}
	for k, v := range g.opts.Tags {
		tags[k] = v
	}
	tags["Result"] = result
	tags["LawSet"] = g.laws.ID
	if g.startAt.Position.FEN() != board.StartFEN {
		tags["SetUp"] = "1"
		tags["FEN"] = g.startAt.Position.FEN()
	}
	if g.result != nil && g.result.Reason != "" {
		tags["Termination"] = g.result.Reason
	}
	roster := []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}
	for _, k := range roster {
		writeTag(&b, k, tags[k])
		delete(tags, k)
	}
	var rest []string
	for k := range tags {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	for _, k := range rest {
		writeTag(&b, k, tags[k])
	}
	b.WriteByte('\n')

	var tokens []string
	num := g.startAt.Position.FullMove
	white := g.startAt.Position.Turn == board.White
	first := true
	for _, m := range g.moves {
		if m.side == board.White {
			tokens = append(tokens, strconv.Itoa(num)+".")
		} else if first || !white {
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, m.san)
		for _, c := range m.comments {
			tokens = append(tokens, "{"+strings.ReplaceAll(c, "}", ")")+"}")
		}
		white = m.side == board.White
		if m.side == board.Black {
			num++
		}
		first = false
		// A comment after White's move means Black's move needs its number.
		if len(m.comments) > 0 {
			white = false
		}
	}
	tokens = append(tokens, result)
	line := 0
	for i, tok := range tokens {
		if i > 0 {
			if line+1+len(tok) > 79 {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(tok)
		line += len(tok)
	}
	b.WriteByte('\n')
	return b.String()
}

func writeTag(b *strings.Builder, k, v string) {
	b.WriteString("[" + k + " ")
	b.WriteString(strconv.Quote(v))
	b.WriteString("]\n")
}

// MoveRecord is one move of the game record, for the console and tools.
type MoveRecord struct {
	Side     string   `json:"side"`
	UCI      string   `json:"uci"`
	SAN      string   `json:"san"`
	FEN      string   `json:"fen"`
	Legal    bool     `json:"legal"`
	Comments []string `json:"comments,omitempty"`
}

// Moves returns the game record as played: every move that stands, with the
// rulings and clock times noted on it.
func (g *Game) Moves() []MoveRecord {
	out := make([]MoveRecord, len(g.moves))
	for i, m := range g.moves {
		out[i] = MoveRecord{Side: m.side.String(), UCI: m.uci, SAN: m.san, FEN: m.fen, Legal: m.legal, Comments: append([]string(nil), m.comments...)}
	}
	return out
}

// End returns the last line of a replay: the position and the PGN.
func (g *Game) End(t time.Duration) Report {
	return Report{Type: "end", T: t, FEN: g.cur.Position.FEN(), PGN: g.PGN()}
}
