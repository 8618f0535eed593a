package board

import "strconv"

var (
	knightSteps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps   = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	rookRays    = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopRays  = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func offset(sq Square, df, dr int) (Square, bool) {
	f, r := sq.File()+df, sq.Rank()+dr
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return NoSquare, false
	}
	return NewSquare(f, r), true
}

// Attacked reports whether a man of colour by attacks square sq.
func (p *Position) Attacked(sq Square, by Color) bool {
	for _, d := range knightSteps {
		if t, ok := offset(sq, d[0], d[1]); ok && p.Men[t] == NewMan(by, Knight) {
			return true
		}
	}
	for _, d := range kingSteps {
		if t, ok := offset(sq, d[0], d[1]); ok && p.Men[t] == NewMan(by, King) {
			return true
		}
	}
	pawnRank := -1 // a white pawn attacks upwards, so it stands a rank below
	if by == Black {
		pawnRank = 1
	}
	for _, df := range [2]int{-1, 1} {
		if t, ok := offset(sq, df, pawnRank); ok && p.Men[t] == NewMan(by, Pawn) {
			return true
		}
	}
	if p.rayHits(sq, rookRays[:], NewMan(by, Rook), NewMan(by, Queen)) {
		return true
	}
	return p.rayHits(sq, bishopRays[:], NewMan(by, Bishop), NewMan(by, Queen))
}

func (p *Position) rayHits(sq Square, rays [][2]int, a, b Man) bool {
	for _, d := range rays {
		t := sq
		for {
			var ok bool
			if t, ok = offset(t, d[0], d[1]); !ok {
				break
			}
			if m := p.Men[t]; m != NoMan {
				if m == a || m == b {
					return true
				}
				break
			}
		}
	}
	return false
}

// InCheck reports whether colour c's king stands attacked.
func (p *Position) InCheck(c Color) bool {
	k := p.KingSquare(c)
	return k != NoSquare && p.Attacked(k, c.Other())
}

// pathClear reports whether every square strictly between from and to, on a
// line, is empty.
func (p *Position) pathClear(from, to Square) bool {
	df, dr := sign(to.File()-from.File()), sign(to.Rank()-from.Rank())
	t := from
	for {
		t, _ = offset(t, df, dr)
		if t == to {
			return true
		}
		if p.Men[t] != NoMan {
			return false
		}
	}
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Geometric reports whether the man on m.From could make m by the way it moves
// (ignoring whose turn it is, what stands on the target and whether its own
// king would be in check). Castling counts as geometric when the king and rook
// stand on their squares with the right alive and the squares between empty.
func (p *Position) Geometric(m Move) bool {
	man := p.Men[m.From]
	if man == NoMan || m.From == m.To {
		return false
	}
	df, dr := m.To.File()-m.From.File(), m.To.Rank()-m.From.Rank()
	switch man.Kind() {
	case Knight:
		return abs(df)*abs(dr) == 2
	case King:
		if abs(df) <= 1 && abs(dr) <= 1 {
			return true
		}
		if p.IsCastling(m) {
			kingside := df > 0
			rf, _ := CastlingRook(m.From, m.To)
			return p.Castling&Right(man.Color(), kingside) != 0 && p.Men[rf] == NewMan(man.Color(), Rook) && p.pathClear(m.From, rf)
		}
		return false
	case Rook:
		return (df == 0 || dr == 0) && p.pathClear(m.From, m.To)
	case Bishop:
		return abs(df) == abs(dr) && p.pathClear(m.From, m.To)
	case Queen:
		return (df == 0 || dr == 0 || abs(df) == abs(dr)) && p.pathClear(m.From, m.To)
	case Pawn:
		fwd := 1
		home := 1
		if man.Color() == Black {
			fwd, home = -1, 6
		}
		if df == 0 && dr == fwd {
			return p.Men[m.To] == NoMan
		}
		if df == 0 && dr == 2*fwd && m.From.Rank() == home {
			return p.Men[m.To] == NoMan && p.pathClear(m.From, m.To)
		}
		if abs(df) == 1 && dr == fwd {
			return p.Men[m.To] != NoMan || m.To == p.EnPassant
		}
	}
	return false
}

// Fault says why a man-move of the side to move is not a legal move.
type Fault uint8

// Why a move is not legal.
const (
	NoFault         Fault = iota // the move is legal
	FaultOwnCapture              // it lands on a man of its own side
	FaultCastling                // a castling the position does not allow
	FaultGeometry                // the man does not move that way, or its path is blocked
	FaultIntoCheck               // it leaves the mover's king in check
	FaultPromotion               // a promotion to a piece that may not be chosen
	FaultOther                   // none of these, yet not among the legal moves
)

var faultNames = [...]string{NoFault: "legal", FaultOwnCapture: "own capture", FaultCastling: "false castling",
	FaultGeometry: "false move", FaultIntoCheck: "moved into check", FaultPromotion: "bad promotion", FaultOther: "not legal"}

// String names the fault in a few words.
func (f Fault) String() string {
	if int(f) < len(faultNames) {
		return faultNames[f]
	}
	return "fault(" + strconv.Itoa(int(f)) + ")"
}

// MoveFault says why m, made by the side to move with its own man, is not
// legal; NoFault for a legal move. a holds the position's legal moves; with
// a nil a only the rules of movement are checked.
func (p *Position) MoveFault(m Move, a *Analysis) Fault {
	if a != nil && a.IsLegal(m) {
		return NoFault
	}
	man := p.Men[m.From]
	if t := p.Men[m.To]; t != NoMan && t.Color() == man.Color() {
		return FaultOwnCapture
	}
	if p.IsCastling(m) {
		return FaultCastling
	}
	if !p.Geometric(m) {
		return FaultGeometry
	}
	q := p.Apply(m)
	if q.InCheck(man.Color()) {
		return FaultIntoCheck
	}
	if p.IsPromotion(m) {
		return FaultPromotion
	}
	if a == nil {
		return NoFault
	}
	return FaultOther
}

// KingMoves lists the squares colour c's king may legally step to by an
// ordinary king move (never castling) in p, whoever is to move.
func (p *Position) KingMoves(c Color) []Square {
	k := p.KingSquare(c)
	if k == NoSquare {
		return nil
	}
	var out []Square
	for _, d := range kingSteps {
		t, ok := offset(k, d[0], d[1])
		if !ok {
			continue
		}
		if m := p.Men[t]; m != NoMan && m.Color() == c {
			continue
		}
		q := *p
		q.Men[t] = q.Men[k]
		q.Men[k] = NoMan
		if !q.InCheck(c) {
			out = append(out, t)
		}
	}
	return out
}

// CanMate reports whether colour c has, in principle, the men to give mate by
// some series of legal moves: false for a bare king, for a king with a single
// knight or bishop against a bare king, and for bishops all on one colour of
// square against a king with, at most, bishops on that same colour.
func (p *Position) CanMate(c Color) bool {
	var own, other [7]int
	var ownBishopColours, otherBishopColours [2]int
	for sq, m := range p.Men {
		if m == NoMan {
			continue
		}
		shade := (Square(sq).File() + Square(sq).Rank()) & 1
		if m.Color() == c {
			own[m.Kind()]++
			if m.Kind() == Bishop {
				ownBishopColours[shade]++
			}
		} else {
			other[m.Kind()]++
			if m.Kind() == Bishop {
				otherBishopColours[shade]++
			}
		}
	}
	if own[Pawn]+own[Rook]+own[Queen] > 0 {
		return true
	}
	minors := own[Knight] + own[Bishop]
	if minors == 0 {
		return false
	}
	otherMen := other[Pawn] + other[Knight] + other[Bishop] + other[Rook] + other[Queen]
	if minors == 1 && otherMen == 0 {
		return false
	}
	if own[Knight] == 0 && other[Pawn]+other[Knight]+other[Rook]+other[Queen] == 0 {
		// Only bishops on the board: mate needs bishops on both shades.
		if (ownBishopColours[0]+otherBishopColours[0] == 0) || (ownBishopColours[1]+otherBishopColours[1] == 0) {
			return false
		}
	}
	return true
}

// Dead reports a dead position in the sense of fide2023:5.2.2 for the cases a
// board can decide at once: neither side can mate by any series of legal
// moves.
func (p *Position) Dead() bool { return !p.CanMate(White) && !p.CanMate(Black) }
