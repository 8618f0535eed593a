package board

import (
	"errors"
	"fmt"
	"strings"
)

// Validate reports whether the position could stand on a board in a game of
// chess: one king a side, the kings not touching, no pawn on the first or the
// last rank, no more men of a side than a game can give it (sixteen, eight
// pawns, and no more promoted men than pawns gone), the side that has just
// moved not left in check, the side to move checked by two men at most, and
// an en passant square only behind a pawn that has just made its double step.
// Castling rights need no check: ParseFEN drops those whose king or rook has
// left home.
//
// ParseFEN reads any position with one king a side (a game under the older
// codes can leave a king in check on the other side's move, and the tests of
// the stages behind the game's door set up such positions); Validate is for
// the places where a set-up enters boardd from outside: a trace's setup line
// and the arbiter's new game from a FEN.
//
// It does not ask whether the position can be reached from the initial one
// (a retrograde analysis); it refuses what no game can show, which is what a
// set-up position must not be: a pawn on its first rank would move as no
// pawn can, a king in check on the other side's move could be taken.
func (p *Position) Validate() error {
	var problems []string
	var kings, pawns, men [2]int
	var count [2][7]int
	for sq, m := range p.Men {
		if m == NoMan {
			continue
		}
		c, k := m.Color(), m.Kind()
		men[c]++
		count[c][k]++
		switch k {
		case King:
			kings[c]++
		case Pawn:
			pawns[c]++
			if r := Square(sq).Rank(); r == 0 || r == 7 {
				problems = append(problems, fmt.Sprintf("a %s pawn on %s (pawns never stand on the first or last rank)", c, Square(sq)))
			}
		}
	}
	for _, c := range [2]Color{White, Black} {
		if kings[c] != 1 {
			problems = append(problems, fmt.Sprintf("%d %s kings (want one a side)", kings[c], c))
		}
		if men[c] > 16 {
			problems = append(problems, fmt.Sprintf("%d %s men (at most 16)", men[c], c))
		}
		if pawns[c] > 8 {
			problems = append(problems, fmt.Sprintf("%d %s pawns (at most 8)", pawns[c], c))
		}
		// Men beyond the initial array can only be promoted pawns.
		promoted := max(count[c][Queen]-1, 0) + max(count[c][Rook]-2, 0) + max(count[c][Bishop]-2, 0) + max(count[c][Knight]-2, 0)
		if promoted > 8-pawns[c] {
			problems = append(problems, fmt.Sprintf("%s has %d men beyond the initial array but only %d pawns gone to promote", c, promoted, 8-pawns[c]))
		}
	}
	if kings[White] == 1 && kings[Black] == 1 {
		wk, bk := p.KingSquare(White), p.KingSquare(Black)
		if abs(wk.File()-bk.File()) <= 1 && abs(wk.Rank()-bk.Rank()) <= 1 {
			problems = append(problems, fmt.Sprintf("the kings touch (%s and %s)", wk, bk))
		} else {
			if p.InCheck(p.Turn.Other()) {
				problems = append(problems, fmt.Sprintf("%s, not to move, is in check", p.Turn.Other()))
			}
			if n := p.checkers(p.Turn); n > 2 {
				problems = append(problems, fmt.Sprintf("%s is checked by %d men (at most two at once)", p.Turn, n))
			}
		}
	}
	if ep := p.EnPassant; ep != NoSquare {
		if err := p.enPassantFault(ep); err != "" {
			problems = append(problems, err)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New("board: illegal position: " + strings.Join(problems, "; "))
}

// checkers counts the men of the other side that give check to c's king.
func (p *Position) checkers(c Color) int {
	k := p.KingSquare(c)
	n := 0
	for sq, m := range p.Men {
		if m != NoMan && m.Color() != c && p.attacks(Square(sq), k) {
			n++
		}
	}
	return n
}

// attacks reports whether the man on from attacks square to.
func (p *Position) attacks(from, to Square) bool {
	m := p.Men[from]
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	switch m.Kind() {
	case Pawn:
		forward := 1
		if m.Color() == Black {
			forward = -1
		}
		return dr == forward && abs(df) == 1
	case Knight:
		return abs(df)*abs(dr) == 2
	case King:
		return max(abs(df), abs(dr)) == 1
	case Bishop:
		return abs(df) == abs(dr) && df != 0 && p.pathClear(from, to)
	case Rook:
		return (df == 0) != (dr == 0) && p.pathClear(from, to)
	case Queen:
		return (abs(df) == abs(dr) && df != 0 || (df == 0) != (dr == 0)) && p.pathClear(from, to)
	}
	return false
}

// enPassantFault says what is wrong with an en passant square, or "".
func (p *Position) enPassantFault(ep Square) string {
	mover := p.Turn.Other() // the side that made the double step
	wantRank, dir := 2, 1   // White's pawn passed rank 3 going up
	if mover == Black {
		wantRank, dir = 5, -1
	}
	switch {
	case ep.Rank() != wantRank:
		return fmt.Sprintf("en passant square %s with %s to move (want a square on rank %d)", ep, p.Turn, wantRank+1)
	case p.Men[ep] != NoMan:
		return fmt.Sprintf("en passant square %s is occupied", ep)
	case p.Men[NewSquare(ep.File(), ep.Rank()-dir)] != NoMan:
		return fmt.Sprintf("en passant square %s: the pawn's start square %s is occupied", ep, NewSquare(ep.File(), ep.Rank()-dir))
	case p.Men[NewSquare(ep.File(), ep.Rank()+dir)] != NewMan(mover, Pawn):
		return fmt.Sprintf("en passant square %s: no %s pawn on %s that has just made its double step", ep, mover, NewSquare(ep.File(), ep.Rank()+dir))
	}
	return ""
}

// ParseSetup reads a set-up position in FEN and refuses one no game could
// show (Validate).
func ParseSetup(fen string) (Position, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return p, err
	}
	if err := p.Validate(); err != nil {
		return Position{}, fmt.Errorf("board: FEN %q: %s", fen, strings.TrimPrefix(err.Error(), "board: "))
	}
	return p, nil
}
