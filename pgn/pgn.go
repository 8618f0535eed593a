// Package pgn writes a board's game in Portable Game Notation: the
// seven-tag roster and the game's own tags, the set-up position when the
// game did not start from the initial one, every move in SAN, and the
// comments (rulings, clock times) at the moves they concern.
//
// It knows nothing of how the game was decided: the game's door (package
// game) hands it a record; this package only writes it, in a form the
// common PGN readers accept (docs/pgn.md):
//
//   - every comment of a move in one brace comment, the clock command
//     first: {[%clk 0:04:58] touch-move, nycc:X: stand by lapse};
//   - rulings made before any move stands in a comment before the first
//     move;
//   - a game that went on from a position the rules of movement do not
//     lead to (a false move let stand, a man set in its place) written from
//     that position, with SetUp and FEN, the moves before it kept in the
//     opening comment;
//   - Termination with the standard values, the law's words in
//     TerminationDetails; a TimeControl with delays written without them,
//     the delays in TimeDelay.
package pgn

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// The standard values of the Termination tag (PGN standard, 9.8.1).
const (
	Normal          = "normal"           // mate, stalemate, a draw by repetition, count or dead position
	TimeForfeit     = "time forfeit"     // a flag fell
	RulesInfraction = "rules infraction" // lost (or drawn) for breaking a law: fide2023:7.5.5
	Adjudication    = "adjudication"     // a result declared by the arbiter
	Abandoned       = "abandoned"
	Unterminated    = "unterminated" // the game goes on
)

// Move is one move of a game record.
type Move struct {
	Side board.Color
	// SAN is the move in Standard Algebraic Notation; a false move let
	// stand is written as boardd reads it (Ng1g3, Ra1xb3), with Resume set.
	SAN string
	// Comments are the notes made at the move, in the order they were
	// made: rulings, and commands such as [%clk 0:04:58].
	Comments []string
	// Resume, when set, is the position play went on from after this move,
	// one the rules of movement do not lead to from the moves before: the
	// position after a false move let stand, or after a man set in its
	// place. No reader can replay across it, so Write begins the movetext
	// after the last such move, from Resume (SetUp, FEN), and keeps the
	// moves before it in the opening comment.
	Resume *board.Position
}

// Game is a game record to write.
type Game struct {
	// Tags are the game's tags (Event, Site, White, ..., LawSet,
	// TimeControl); the seven-tag roster's missing ones are written as
	// unknown.
	Tags map[string]string
	// Start is the position the game began from.
	Start board.Position
	// Notes are rulings made before any move of the game stood (a false
	// first move taken back, a game annulled and begun anew); they are
	// written in a comment before the first move.
	Notes []string
	// Moves are the moves that stand, in order.
	Moves []Move
	// Result is the game's result; "" or report.Unfinished while it goes on.
	Result report.Outcome
	// Termination is one of the standard values (Normal, TimeForfeit,
	// ...); "" while the game goes on, written as Unterminated.
	Termination string
	// TerminationDetails says why the game ended in the law's words, with
	// the law's id: "threefold repetition (hastings1895:VII)".
	TerminationDetails string
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
	if tc, ok := tags["TimeControl"]; ok {
		if plain, delay, split := SplitDelay(tc); split {
			tags["TimeControl"], tags["TimeDelay"] = plain, delay
		}
	}

	// Where the movetext begins: after the last move no reader can replay
	// across.
	start, moves, opening := g.Start, g.Moves, g.Notes
	if i := lastResume(g.Moves); i >= 0 {
		start, moves = *g.Moves[i].Resume, g.Moves[i+1:]
		opening = []string{before(g, i)}
	}
	delete(tags, "SetUp")
	delete(tags, "FEN")
	if fen := start.FEN(); fen != board.StartFEN {
		tags["SetUp"] = "1"
		tags["FEN"] = fen
	}
	switch {
	case g.Termination != "":
		tags["Termination"] = g.Termination
	case result == report.Unfinished:
		tags["Termination"] = Unterminated
	}
	if g.TerminationDetails != "" {
		tags["TerminationDetails"] = g.TerminationDetails
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
	commented := false
	if c := comment(opening); c != "" {
		tokens = appendComment(tokens, c)
		commented = true
	}
	num := start.FullMove
	for i, m := range moves {
		switch {
		case m.Side == board.White:
			tokens = append(tokens, strconv.Itoa(num)+".")
		case i == 0 || commented:
			// Black's move needs its number at the start and after a
			// comment.
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, m.SAN)
		c := comment(m.Comments)
		commented = c != ""
		if commented {
			tokens = appendComment(tokens, c)
		}
		if m.Side == board.Black {
			num++
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

// lastResume returns the index of the last move with a Resume position, or
// -1.
func lastResume(moves []Move) int {
	for i := len(moves) - 1; i >= 0; i-- {
		if moves[i].Resume != nil {
			return i
		}
	}
	return -1
}

// before is the opening comment of a game written from the Resume position
// of move i: where the game began, its notes, and moves 0..i as text, each
// with its comments in parentheses.
func before(g *Game, i int) string {
	var b strings.Builder
	b.WriteString("Play went on from the position below (SetUp), which the rules of movement do not reach from the moves before it. The game began from ")
	if fen := g.Start.FEN(); fen == board.StartFEN {
		b.WriteString("the initial position")
	} else {
		b.WriteString(fen)
	}
	if c := comment(g.Notes); c != "" {
		b.WriteString(" (" + c + ")")
	}
	b.WriteString(":")
	num := g.Start.FullMove
	for j, m := range g.Moves[:i+1] {
		switch {
		case m.Side == board.White:
			b.WriteString(" " + strconv.Itoa(num) + ".")
		case j == 0 || len(g.Moves[j-1].Comments) > 0 || g.Moves[j-1].Side == board.Black:
			b.WriteString(" " + strconv.Itoa(num) + "...")
		}
		b.WriteString(" " + m.SAN)
		if len(m.Comments) > 0 {
			texts := make([]string, len(m.Comments))
			for k, c := range m.Comments {
				// A command belongs to a move of the movetext; here it is
				// kept as words: "[%clk 0:04:58]" becomes "clk 0:04:58".
				if strings.HasPrefix(c, "[%") {
					c = strings.TrimSuffix(strings.TrimPrefix(c, "[%"), "]")
				}
				texts[k] = c
			}
			b.WriteString(" (" + strings.Join(texts, "; ") + ")")
		}
		if m.Side == board.Black {
			num++
		}
	}
	b.WriteString(".")
	return b.String()
}

// comment merges a move's notes into the text of one brace comment: the
// commands ([%clk ...]) first, as readers expect them, then the rest in
// order, separated by semicolons. A closing brace cannot stand in a
// comment: it becomes a parenthesis.
func comment(notes []string) string {
	var commands, texts []string
	for _, c := range notes {
		c = strings.TrimSpace(strings.ReplaceAll(c, "}", ")"))
		switch {
		case c == "":
		case strings.HasPrefix(c, "[%"):
			commands = append(commands, c)
		default:
			texts = append(texts, c)
		}
	}
	out := strings.Join(commands, " ")
	if len(texts) > 0 {
		if out != "" {
			out += " "
		}
		out += strings.Join(texts, "; ")
	}
	return out
}

// appendComment adds the brace comment c as tokens the wrapper may break
// between: one per word, a command kept whole.
func appendComment(tokens []string, c string) []string {
	var words []string
	for rest := c; rest != ""; {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		end := strings.IndexByte(rest, ' ')
		if strings.HasPrefix(rest, "[%") {
			if close := strings.IndexByte(rest, ']'); close >= 0 {
				end = close + 1
			}
		}
		if end < 0 {
			end = len(rest)
		}
		words = append(words, rest[:end])
		rest = rest[end:]
	}
	if len(words) == 0 {
		return tokens
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	return append(tokens, words...)
}

// stage is one stage of a TimeControl value: [moves/]seconds[(+|d|b)bonus].
var stage = regexp.MustCompile(`^((?:\d+/)?\d+)(?:([+db])(\d+(?:\.\d+)?))?$`)

// SplitDelay splits a TimeControl value written with boardd's delays
// ("300d5", "40/5400b30:1800b30") into one the PGN standard knows, with the
// delays left off ("300", "40/5400:1800"), and the value of the TimeDelay
// tag: each stage's delay, "d" for a simple delay and "b" for Bronstein's,
// in seconds, or "-" for a stage without one ("d5", "b30:b30"). It
// reports false, and leaves the value alone, when there is no delay.
func SplitDelay(tc string) (plain, delay string, split bool) {
	stages := strings.Split(tc, ":")
	plains := make([]string, len(stages))
	delays := make([]string, len(stages))
	for i, s := range stages {
		m := stage.FindStringSubmatch(s)
		if m == nil {
			return tc, "", false
		}
		switch m[2] {
		case "d", "b":
			plains[i], delays[i] = m[1], m[2]+m[3]
			split = true
		default:
			plains[i], delays[i] = s, "-"
		}
	}
	if !split {
		return tc, "", false
	}
	return strings.Join(plains, ":"), strings.Join(delays, ":"), true
}

func writeTag(b *strings.Builder, k, v string) {
	b.WriteString("[" + k + " ")
	b.WriteString(strconv.Quote(v))
	b.WriteString("]\n")
}
