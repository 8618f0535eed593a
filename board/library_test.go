package board

import (
	"strconv"
	"strings"

	"github.com/corentings/chess/v2"
)

// fromLibrary copies a library position into a Position.
func fromLibrary(lib *chess.Position) Position {
	var p Position
	b := lib.Board()
	for sq := 0; sq < 64; sq++ {
		p.Men[sq] = manFromLibrary(b.Piece(chess.Square(sq)))
	}
	if lib.Turn() == chess.Black {
		p.Turn = Black
	}
	cr := lib.CastleRights()
	for i, pair := range []struct {
		c    chess.Color
		side chess.Side
	}{{chess.White, chess.KingSide}, {chess.White, chess.QueenSide}, {chess.Black, chess.KingSide}, {chess.Black, chess.QueenSide}} {
		if cr.CanCastle(pair.c, pair.side) {
			p.Castling |= 1 << i
		}
	}
	p.EnPassant = NoSquare
	if ep := lib.EnPassantSquare(); ep != chess.NoSquare {
		p.EnPassant = Square(ep)
	}
	p.HalfMoves = lib.HalfMoveClock()
	// The library keeps the full-move number unexported but writes it in FEN.
	if f := strings.Fields(lib.String()); len(f) == 6 {
		p.FullMove, _ = strconv.Atoi(f[5])
	}
	if p.FullMove < 1 {
		p.FullMove = 1
	}
	return p
}

func manFromLibrary(pc chess.Piece) Man {
	if pc == chess.NoPiece {
		return NoMan
	}
	c := White
	if pc.Color() == chess.Black {
		c = Black
	}
	return NewMan(c, kindFromLibrary(pc.Type()))
}
