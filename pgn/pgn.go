// Package pgn writes a board's game in Portable Game Notation: the
// seven-tag roster and the game's own tags, the set-up position when the
// game did not start from the initial one, every move in SAN, and the
// comments (rulings, clock times) at the moves they concern.
//
// It knows nothing of how the game was decided: the game's door (package
// game) hands it a record; this package only writes it.
package pgn

import (
	"sort"
	"strconv"
	"strings"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// Move is one move of a game record.
type Move struct {
	Side     board.Color
	SAN      string
	Comments []string // in the order they were made
}

// Game is a game record to write.
type Game struct {
	// Tags are the game's tags (Event, Site, White, ..., LawSet,
	// TimeControl); the seven-tag roster's missing ones are written as
	// unknown.
	Tags map[string]string
	// Start is the position the game began from.
	Start board.Position
	// Moves are the moves that stand, in order.
	Moves []Move
	// Result is the game's result; "" or report.Unfinished while it goes on.
	Result report.Outcome
	// Termination says why the game ended ("" while it goes on).
	Termination string
}

// Write returns the game in PGN, its movetext wrapped at 79 columns.
func Write(g *Game) string {
	var b strings.Builder
	result := g.Result
	if result == "" {
		result = report.Unfinished
	}
	tags := map[string]string{
		"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "-",
		"White": "?", "Black": "?",
	}
	for k, v := range g.Tags {
		tags[k] = v
	}
	tags["Result"] = string(result)
	if fen := g.Start.FEN(); fen != board.StartFEN {
		tags["SetUp"] = "1"
		tags["FEN"] = fen
	}
	if g.Termination != "" {
		tags["Termination"] = g.Termination
	}
	// The seven-tag roster first, in its order.
	for _, k := range [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"} {
		writeTag(&b, k, tags[k])
		delete(tags, k)
	}
	rest := make([]string, 0, len(tags))
	for k := range tags {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	for _, k := range rest {
		writeTag(&b, k, tags[k])
	}
	b.WriteByte('\n')

	var tokens []string
	num := g.Start.FullMove
	white := g.Start.Turn == board.White
	first := true
	for _, m := range g.Moves {
		if m.Side == board.White {
			tokens = append(tokens, strconv.Itoa(num)+".")
		} else if first || !white {
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, m.SAN)
		for _, c := range m.Comments {
			tokens = append(tokens, "{"+strings.ReplaceAll(c, "}", ")")+"}")
		}
		white = m.Side == board.White
		if m.Side == board.Black {
			num++
		}
		first = false
		// A comment after White's move means Black's move needs its number.
		if len(m.Comments) > 0 {
			white = false
		}
	}
	tokens = append(tokens, string(result))
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
