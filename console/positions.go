package console

import (
	"strings"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/pgn"
)

// positions remembers the position after each ply of the move list, so
// that the page can show any earlier position without a chess library of
// its own. A state is built at every change of the board (every lift), so
// the positions are computed once a ply: a new state replays only the plies
// past the longest prefix it shares with the last one (a take-back, a
// ruling that undid a move or a new game replays from where the games part).
//
// It is used on the runner's goroutine only (Local.snapshot), and is not
// safe for concurrent use.
type positions struct {
	start string           // FEN the cached plies begin from
	from  board.Position   // the position of start
	sans  []string         // the cached plies' SAN, as recorded
	fens  []string         // the position after each cached ply, as FEN
	after []board.Position // the position after each cached ply
	// stuck is the SAN of the ply after the cached ones when it could not
	// be read (no legal move is written so): none past it has a position,
	// and it is not tried again while the record still has it there.
	stuck string
}

// movetextStart is the position the record's movetext begins from: the
// position play went on from after the last move with one (a false move
// let stand, a man set in its place), else the game's start; pgn.Write
// begins the movetext there, and the move list is read from it.
func movetextStart(rec *pgn.Game) board.Position {
	for i := len(rec.Moves) - 1; i >= 0; i-- {
		if r := rec.Moves[i].Resume; r != nil {
			return *r
		}
	}
	return rec.Start
}

// fill sets the FEN of each move (the position after it) from start, and
// returns start's FEN. A move whose SAN no legal move of its position has
// (a record it cannot read) is left without a FEN, as is every move after
// it; it never fails.
func (c *positions) fill(start board.Position, moves []Move) string {
	if c.start == "" || start != c.from {
		*c = positions{start: start.FEN(), from: start}
	}
	keep := 0
	for keep < len(moves) && keep < len(c.sans) && moves[keep].SAN == c.sans[keep] {
		keep++
	}
	if keep < len(c.sans) {
		c.sans, c.fens, c.after, c.stuck = c.sans[:keep], c.fens[:keep], c.after[:keep], ""
	}
	if keep < len(moves) && moves[keep].SAN != c.stuck {
		c.stuck = ""
	}
	for i := len(c.sans); i < len(moves) && c.stuck == ""; i++ {
		p := c.from
		if i > 0 {
			p = c.after[i-1]
		}
		next, ok := playSAN(p, moves[i].SAN)
		if !ok {
			c.stuck = moves[i].SAN
			break
		}
		c.sans = append(c.sans, moves[i].SAN)
		c.fens = append(c.fens, next.FEN())
		c.after = append(c.after, next)
	}
	for i := range moves {
		if i < len(c.fens) {
			moves[i].FEN = c.fens[i]
		}
	}
	return c.start
}

// playSAN plays the legal move of p written san (check, mate and
// annotation signs aside) and returns the position after it; false when
// no legal move of p is written so.
func playSAN(p board.Position, san string) (board.Position, bool) {
	want := strings.TrimRight(san, "+#!?")
	if want == "0-0" {
		want = "O-O"
	} else if want == "0-0-0" {
		want = "O-O-O"
	}
	a, err := board.Analyse(p)
	if err != nil {
		return p, false
	}
	for _, m := range a.Moves {
		if a.SANAfter(m, nil) == want {
			return p.Apply(m), true
		}
	}
	return p, false
}
