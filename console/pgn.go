package console

import (
	"strconv"
	"strings"
)

// pgnMoves reads the movetext of a PGN game (as arbiter.Game.PGN writes it)
// into plies, each with the comments that follow it. It reads the game's own
// record, so a move taken back by a ruling or an annulled game is gone from
// it as it is gone from the PGN. It never fails: what it cannot read it skips.
func pgnMoves(pgn string) []Move {
	text := pgn
	if i := strings.Index(text, "\n\n"); i >= 0 && strings.HasPrefix(strings.TrimSpace(text), "[") {
		text = text[i+2:]
	}
	moves := []Move{}
	number, side := 1, "white"
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			i++
			continue
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				end = len(text) - i
			}
			comment := strings.TrimSpace(text[i+1 : i+end])
			if n := len(moves); n > 0 && comment != "" {
				moves[n-1].Comments = append(moves[n-1].Comments, comment)
			}
			i += end + 1
			continue
		case c == '(': // a variation: not the game as played
			depth := 0
			for ; i < len(text); i++ {
				if text[i] == '(' {
					depth++
				} else if text[i] == ')' {
					if depth--; depth == 0 {
						i++
						break
					}
				}
			}
			continue
		case c == ')':
			i++
			continue
		case c == ';': // a comment to the end of the line
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			i += end
			continue
		}
		j := i
		for j < len(text) && !strings.ContainsRune(" \n\r\t{;()", rune(text[j])) {
			j++
		}
		tok := text[i:j]
		i = j
		// A move number: "12." for White, "12..." for Black; a move may be
		// written against it ("12.e4").
		digits := 0
		for digits < len(tok) && tok[digits] >= '0' && tok[digits] <= '9' {
			digits++
		}
		if digits > 0 && digits < len(tok) && tok[digits] == '.' {
			if n, err := strconv.Atoi(tok[:digits]); err == nil && n > 0 && n < 1<<20 {
				number = n
			}
			rest := strings.TrimLeft(tok[digits:], ".")
			if len(tok)-digits-len(rest) >= 3 {
				side = "black"
			} else {
				side = "white"
			}
			tok = rest
			if tok == "" {
				continue
			}
		}
		switch tok {
		case "1-0", "0-1", "1/2-1/2", "*":
			continue
		}
		if tok[0] == '$' { // a numeric annotation
			continue
		}
		moves = append(moves, Move{Ply: len(moves) + 1, Number: number, Side: side, SAN: tok})
		if side == "white" {
			side = "black"
		} else {
			side = "white"
			number++
		}
	}
	return moves
}
