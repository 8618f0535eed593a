package chesslink

import (
	"fmt"

	"github.com/boardd/boardd/board"
)

// Orientation says which corner of the board the protocol counts from: the
// square of the status's first character, and the corner of LED 1.
type Orientation uint8

// The two orientations. The board is square and can be turned round, so the
// protocol's order is only known up to a half turn; apps that care find out
// which way round it stands from the initial position.
const (
	// FromH1 counts from h1: the status runs h1, g1, ..., a1, h2, ..., a8,
	// and LED 1 is at the outer corner of h1, LED 9 of h8, LED 73 of a1, LED
	// 81 of a8. It is what the open drivers and board emulations that apps
	// are known to work with send (python-mchess and picochess, the
	// chesslinkdriver Flutter package, Open Mephisto, DGT Centaur mods), and
	// the default.
	FromH1 Orientation = iota
	// FromA8 counts from a8, as the 2017 protocol description words it: the
	// status runs a8, b8, ..., h8, a7, ..., h1, and LED 1 is at the outer
	// corner of a8, LED 9 of a1, LED 73 of h8, LED 81 of h1. It is FromH1
	// turned half round.
	FromA8
)

// String returns "h1" or "a8".
func (o Orientation) String() string {
	if o == FromA8 {
		return "a8"
	}
	return "h1"
}

// ParseOrientation reads "h1" or "a8".
func ParseOrientation(text string) (Orientation, error) {
	switch text {
	case "h1":
		return FromH1, nil
	case "a8":
		return FromA8, nil
	}
	return FromH1, fmt.Errorf("chesslink: orientation %q: want h1 or a8", text)
}

// Square returns the square of the status's i-th character (0 to 63).
func (o Orientation) Square(i int) board.Square {
	if o == FromA8 {
		return board.NewSquare(i%8, 7-i/8)
	}
	return board.NewSquare(7-i%8, i/8)
}

// Empty is the status character of an empty square.
const Empty = '.'

// isPieceCode reports whether c may stand in a status: a FEN piece letter or
// the empty square's dot.
func isPieceCode(c byte) bool {
	if c == Empty {
		return true
	}
	_, ok := board.ManFromFEN(c)
	return ok
}

// pieceCode returns the status character of a man: its FEN letter, or '.'
// for an empty square (and anything that is not a man).
func pieceCode(m board.Man) byte {
	if m == board.NoMan || m.Kind() < board.Pawn || m.Kind() > board.King {
		return Empty
	}
	return m.FEN()
}

// ValidPlacement returns an error naming the first square of men that holds
// something other than a man or NoMan.
func ValidPlacement(men *[64]board.Man) error {
	for sq, m := range men {
		if m != board.NoMan && (m.Kind() < board.Pawn || m.Kind() > board.King || m > board.NewMan(board.Black, board.King)) {
			return fmt.Errorf("chesslink: placement: %s holds %d, which is no man", board.Square(sq), uint8(m))
		}
	}
	return nil
}

// AppendStatus appends the body of a status reply to dst: 's' and the 64
// squares' piece codes (K Q R B N P for White, k q r b n p for Black, '.'
// empty) in the order o gives.
func AppendStatus(dst []byte, men *[64]board.Man, o Orientation) []byte {
	dst = append(dst, 's')
	for i := range 64 {
		dst = append(dst, pieceCode(men[o.Square(i)]))
	}
	return dst
}

// ParseStatus reads the body of a status reply ('s' and 64 piece codes) as
// the placement it shows.
func ParseStatus(body []byte, o Orientation) ([64]board.Man, error) {
	var men [64]board.Man
	if len(body) != 65 || body[0] != 's' {
		return men, fmt.Errorf("chesslink: status %q: want 's' and 64 piece codes", body)
	}
	for i, c := range body[1:] {
		if c == Empty {
			continue
		}
		m, ok := board.ManFromFEN(c)
		if !ok {
			return men, fmt.Errorf("chesslink: status %q: %q at character %d (%s) is no piece code", body, c, i+1, o.Square(i))
		}
		men[o.Square(i)] = m
	}
	return men, nil
}
