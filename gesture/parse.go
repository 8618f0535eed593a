package gesture

import (
	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/sensor"
)

// The recogniser reads a turn's events under hypotheses about identity: each
// square holds the man that stood on some origin square when the episode
// began (or a man from off the board), and the hand holds the men lifted and
// not yet set down. A placement with several men in hand branches, one
// hypothesis for each man it could be.

const (
	emptyOrigin   int8 = -1 // nothing on the square
	foreignOrigin int8 = -2 // a man brought from off the board
	maxHand            = 16
	maxHypotheses      = 32
	maxEpisode         = 48 // events in one turn before the board is called irregular
	maxSegmented       = 32 // longest episode read as several moves
)

type hypothesis struct {
	at      [64]int8
	hand    [maxHand]int8
	n       int8
	penalty int16 // how far from last-lifted-first-placed this reading is
}

// class is how a hypothesis reads, best first.
type class uint8

const (
	classLegal        class = iota // a legal move, complete
	classPromoUnnamed              // a legal promotion waiting for its piece
	classUnchanged                 // every man is back where it stood
	classOpen                      // could still grow into a longer legal move
	classDisplaced                 // a legal move, with other men still off the board
	classFalse                     // a completed man-move no legal move explains
	classInProgress                // men in hand, no completed man-move
	classIrregular                 // neither: the board needs fixing
)

// completable reports whether a reading of this class ends as a move when the
// hand leaves the board.
func (c class) completable() bool {
	switch c {
	case classLegal, classPromoUnnamed, classOpen, classDisplaced, classFalse:
		return true
	}
	return false
}

// openKind says what an open reading becomes when the wait runs out.
type openKind uint8

const (
	openNone      openKind = iota
	openRookFirst          // a legal rook move that may still become castling
	openKingFirst          // a king two squares over, its rook not yet moved
	openEnPassant          // a pawn on the en passant square, the taken pawn still there
)

// reading is the best interpretation of an episode's events.
type reading struct {
	cls        class
	open       openKind
	move       board.Move
	mover      board.Color
	falseKind  report.Kind
	taken      board.Square // a false capture's man taken off another square than the landing one
	hasTaken   bool         // taken is meant
	adverseMan bool
	unnamed    bool
	after      [64]board.Man
	displaced  board.Occupancy
	penalty    int
}

func (r *reading) better(o *reading) bool {
	if r.cls != o.cls {
		return r.cls < o.cls
	}
	return r.penalty < o.penalty
}

// startHypothesis sets up identities for a turn that begins with the board
// reading `physical` while the game says pos.
func startHypothesis(pos *board.Position, physical board.Occupancy) hypothesis {
	var h hypothesis
	for sq := 0; sq < 64; sq++ {
		switch {
		case physical.Has(board.Square(sq)) && pos.Men[sq] != board.NoMan:
			h.at[sq] = int8(sq)
		case physical.Has(board.Square(sq)):
			h.at[sq] = foreignOrigin
		default:
			h.at[sq] = emptyOrigin
			if pos.Men[sq] != board.NoMan && h.n < maxHand {
				h.hand[h.n] = int8(sq)
				h.n++
			}
		}
	}
	return h
}

// hypotheses runs the events over the starting identities.
func hypotheses(start hypothesis, events []sensor.Event, buf []hypothesis) []hypothesis {
	hs := append(buf[:0], start)
	var next []hypothesis
	for _, e := range events {
		sq := e.Square
		next = next[:0]
		for i := range hs {
			h := hs[i]
			if e.Kind == sensor.Lift {
				o := h.at[sq]
				if o == emptyOrigin || h.n >= maxHand {
					continue // inconsistent with this reading
				}
				h.at[sq] = emptyOrigin
				h.hand[h.n] = o
				h.n++
				next = appendUnique(next, h)
				continue
			}
			if h.at[sq] != emptyOrigin {
				continue
			}
			if h.n == 0 {
				h.at[sq] = foreignOrigin
				next = appendUnique(next, h)
				continue
			}
			for j := int(h.n) - 1; j >= 0; j-- {
				g := h
				g.at[sq] = h.hand[j]
				copy(g.hand[j:], h.hand[j+1:h.n])
				g.n--
				g.penalty += int16(int(h.n) - 1 - j)
				next = appendUnique(next, g)
			}
		}
		if len(next) > maxHypotheses {
			next = next[:maxHypotheses]
		}
		hs, next = next, hs
	}
	return hs
}

func appendUnique(hs []hypothesis, h hypothesis) []hypothesis {
	for i := range hs {
		if hs[i].at == h.at && sameHand(&hs[i], &h) {
			if h.penalty < hs[i].penalty {
				hs[i].penalty = h.penalty
			}
			return hs
		}
	}
	return append(hs, h)
}

func sameHand(a, b *hypothesis) bool {
	if a.n != b.n {
		return false
	}
	var count [66]int
	for i := int8(0); i < a.n; i++ {
		count[int(a.hand[i])+2]++
		count[int(b.hand[i])+2]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}

// readEpisode interprets the events of a turn that began with the board
// reading `physical` in the position analysed by a.
func readEpisode(a *board.Analysis, physical board.Occupancy, events []sensor.Event, opts *Options, promo *[2]board.Kind, buf []hypothesis) (reading, []hypothesis, int) {
	hs := hypotheses(startHypothesis(&a.Position, physical), events, buf)
	best := reading{cls: classIrregular, penalty: 1 << 30}
	bestIdx := -1
	for i := range hs {
		r := classify(&hs[i], a, opts, promo)
		if r.better(&best) {
			best, bestIdx = r, i
		}
	}
	return best, hs, bestIdx
}

type step struct{ from, to board.Square }

// classify reads one hypothesis against the position.
func classify(h *hypothesis, a *board.Analysis, opts *Options, promo *[2]board.Kind) reading {
	pos := &a.Position
	r := reading{cls: classIrregular, penalty: int(h.penalty)}
	var moved [3]step
	nMoved, nForeign := 0, 0
	var foreignSq board.Square
	for sq := 0; sq < 64; sq++ {
		o := h.at[sq]
		switch {
		case o == foreignOrigin:
			nForeign++
			foreignSq = board.Square(sq)
		case o >= 0 && int(o) != sq:
			if nMoved < len(moved) {
				moved[nMoved] = step{board.Square(o), board.Square(sq)}
			}
			nMoved++
		}
	}
	var inHand board.Occupancy
	for i := int8(0); i < h.n; i++ {
		if o := h.hand[i]; o >= 0 {
			inHand = inHand.With(board.Square(o))
		}
	}
	var from, to board.Square
	castleShape := false
	switch {
	case nMoved == 0 && nForeign == 0:
		if inHand == 0 {
			r.cls = classUnchanged
			return r
		}
		r.cls = classInProgress
		r.displaced = inHand
		return r
	case nMoved == 1 && nForeign == 0:
		from, to = moved[0].from, moved[0].to
	case nMoved == 0 && nForeign == 1:
		// A promotion made by taking the pawn off and setting the new piece
		// straight down.
		found := false
		for _, sq := range inHand.Squares() {
			m := board.Move{From: sq, To: foreignSq}
			if pos.IsPromotion(m) && pawnReach(pos, m) {
				from, to, found = sq, foreignSq, true
				inHand = inHand.Without(sq)
				break
			}
		}
		if !found {
			return r
		}
	case nMoved == 2 && nForeign == 0:
		k, rk := moved[0], moved[1]
		if pos.Men[k.from].Kind() != board.King {
			k, rk = rk, k
		}
		if !pos.IsCastling(board.Move{From: k.from, To: k.to}) {
			return r
		}
		rf, rt := board.CastlingRook(k.from, k.to)
		if rk.from != rf || rk.to != rt || pos.Men[rf] != board.NewMan(pos.Men[k.from].Color(), board.Rook) {
			return r
		}
		from, to, castleShape = k.from, k.to, true
	default:
		return r
	}
	return judgeStep(r, a, from, to, inHand, castleShape, h, opts, promo)
}

// pawnReach reports whether the pawn of m could reach m.To in one step.
func pawnReach(pos *board.Position, m board.Move) bool {
	df := m.To.File() - m.From.File()
	if df < -1 || df > 1 {
		return false
	}
	dr := m.To.Rank() - m.From.Rank()
	if pos.Men[m.From].Color() == board.White {
		return dr == 1
	}
	return dr == -1
}

func judgeStep(r reading, a *board.Analysis, from, to board.Square, inHand board.Occupancy, castleShape bool, h *hypothesis, opts *Options, promo *[2]board.Kind) reading {
	pos := &a.Position
	man := pos.Men[from]
	if man == board.NoMan {
		return r
	}
	r.mover = man.Color()
	m := board.Move{From: from, To: to}
	if pos.IsPromotion(m) {
		m.Promo = promo[r.mover]
		r.unnamed = m.Promo == board.NoKind
	}
	r.move = m
	var want board.Occupancy
	if pos.IsEnPassant(m) {
		want = want.With(board.EnPassantVictim(m))
	} else if pos.Men[to] != board.NoMan {
		want = want.With(to)
	}
	extra := inHand &^ want
	missing := want &^ inHand
	onMove := r.mover == pos.Turn
	kingTwo := pos.IsCastling(m)
	legal := onMove && legalAnyPromotion(a, m)
	r.after = physicalAfter(h, pos, m)

	if kingTwo && !castleShape {
		// The king stands two squares over and its rook has not moved.
		if legal && extra == 0 {
			r.cls, r.open = classOpen, openKingFirst
			r.falseKind = report.KindFalseCastling
			return r
		}
		legal = false
	}
	if legal {
		switch {
		case missing != 0:
			r.cls, r.open = classOpen, openEnPassant
			r.falseKind = report.KindFalseMove
		case extra != 0:
			r.cls = classDisplaced
			r.displaced = extra
		case r.unnamed:
			r.cls = classPromoUnnamed
		case opts.RookFirstCastling && rookMayCastle(a, m):
			r.cls, r.open = classOpen, openRookFirst
		default:
			r.cls = classLegal
		}
		if r.cls != classOpen && r.cls != classDisplaced {
			r.after = applied(pos, m)
		}
		return r
	}
	if extra != 0 && onMove && falseEnPassant(pos, m, extra) {
		// A pawn set diagonally forward on an empty square, the adverse man
		// beside it taken off, where no en passant capture is open: a false
		// capture whatever the order of the hands (en passant is the only
		// capture whose victim stands off the landing square).
		r.cls, r.falseKind, r.taken, r.hasTaken = classFalse, report.KindFalseMove, extra.Squares()[0], true
		return r
	}
	if extra != 0 {
		r.cls = classInProgress
		r.displaced = extra
		return r
	}
	r.cls = classFalse
	switch {
	case onMove:
		r.falseKind = faultKind(pos.MoveFault(m, a))
	case lawfulForItsSide(pos, m):
		r.falseKind = report.KindSuccessive
	default:
		r.falseKind = report.KindMovedAdverse
		r.adverseMan = true
		r.mover = pos.Turn
	}
	return r
}

// falseEnPassant reports whether m, not a legal move, is a pawn of the side
// to move set diagonally forward on an empty square with exactly the man
// an en passant capture would take lifted (extra): the shape of an en
// passant capture where none is open.
func falseEnPassant(pos *board.Position, m board.Move, extra board.Occupancy) bool {
	man := pos.Men[m.From]
	if man.Kind() != board.Pawn || man.Color() != pos.Turn || pos.Men[m.To] != board.NoMan {
		return false
	}
	if m.To.File()-m.From.File() != 1 && m.From.File()-m.To.File() != 1 || !pawnReach(pos, m) {
		return false
	}
	victim := board.EnPassantVictim(m)
	v := pos.Men[victim]
	return extra == board.Occupancy(0).With(victim) && v != board.NoMan && v.Color() != man.Color()
}

// faultKind names the irregularity of a move by the side to move that is
// not legal for the reason f.
func faultKind(f board.Fault) report.Kind {
	switch f {
	case board.FaultOwnCapture:
		return report.KindOwnCapture
	case board.FaultCastling:
		return report.KindFalseCastling
	case board.FaultIntoCheck:
		return report.KindMovedIntoCheck
	case board.FaultPromotion:
		return report.KindBadPromotion
	}
	return report.KindFalseMove
}

// applied is the position after a legal move, an unnamed promotion shown as
// a queen.
func applied(pos *board.Position, m board.Move) [64]board.Man {
	if pos.IsPromotion(m) && m.Promo == board.NoKind {
		m.Promo = board.Queen
	}
	return pos.Apply(m).Men
}

// physicalAfter is how the men stand under hypothesis h: each square holds the
// man from its origin; a pawn on its last rank shows as the named piece.
func physicalAfter(h *hypothesis, pos *board.Position, m board.Move) [64]board.Man {
	var out [64]board.Man
	for sq := 0; sq < 64; sq++ {
		o := h.at[sq]
		if o >= 0 {
			out[sq] = pos.Men[o]
		}
	}
	if pos.IsPromotion(m) {
		k := m.Promo
		if k == board.NoKind {
			k = board.Queen
		}
		out[m.To] = board.NewMan(pos.Men[m.From].Color(), k)
	}
	return out
}

func legalAnyPromotion(a *board.Analysis, m board.Move) bool {
	for _, lm := range a.Moves {
		if lm.From == m.From && lm.To == m.To && (m.Promo == board.NoKind || lm.Promo == m.Promo) {
			return true
		}
	}
	return false
}

// rookMayCastle reports whether m puts a rook on its castling square while
// its king could still castle on that side.
func rookMayCastle(a *board.Analysis, m board.Move) bool {
	pos := &a.Position
	man := pos.Men[m.From]
	if man.Kind() != board.Rook {
		return false
	}
	home := 0
	if man.Color() == board.Black {
		home = 7
	}
	king := board.NewSquare(4, home)
	if pos.Men[king] != board.NewMan(man.Color(), board.King) {
		return false
	}
	for _, side := range [2]int{6, 2} {
		kto := board.NewSquare(side, home)
		rf, rt := board.CastlingRook(king, kto)
		if m.From == rf && m.To == rt && a.IsLegal(board.Move{From: king, To: kto}) {
			return true
		}
	}
	return false
}

// lawfulForItsSide reports whether m, a move of a man of the side not on
// move, is one its own side could lawfully make were it on move: only such
// a move is read as that side moving again (successive moves). A move its
// own side could not make (a black pawn from d5 to d3 while White is to
// move) is the mover's handling of an adverse man (moved-adverse-man:
// sarratt1808:10, philidor1825:VI, nycc:XII, hastings1895:IV,
// fide2023:7.5.1), never a move to be recorded. Where the position with
// that side on move cannot be analysed (its adversary's king in check), the
// man's way of moving alone decides (shapeOf). A king's two steps along its
// rank read as that side's castling completed after its rook moved first,
// where the law makes that rook move a move of its own.
func lawfulForItsSide(pos *board.Position, m board.Move) bool {
	man := pos.Men[m.From]
	if man == board.NoMan {
		return false
	}
	if man.Kind() == board.King && m.From.Rank() == m.To.Rank() && (m.To.File()-m.From.File() == 2 || m.From.File()-m.To.File() == 2) {
		return true
	}
	if own := pos.Men[m.To]; own != board.NoMan && own.Color() == man.Color() {
		return false
	}
	p := *pos
	p.Turn = man.Color()
	p.EnPassant = board.NoSquare
	if p.InCheck(man.Color().Other()) {
		return shapeOf(pos, m) && pos.Geometric(m)
	}
	a, err := board.Analyse(p)
	if err != nil {
		return shapeOf(pos, m) && pos.Geometric(m)
	}
	for _, lm := range a.MovesFrom(m.From) {
		if lm.To == m.To {
			return true
		}
	}
	return false
}

// shapeOf reports whether m is shaped like a move of its man for its own side
// (ignoring what stands in the way).
func shapeOf(pos *board.Position, m board.Move) bool {
	man := pos.Men[m.From]
	df, dr := m.To.File()-m.From.File(), m.To.Rank()-m.From.Rank()
	adf, adr := df, dr
	if adf < 0 {
		adf = -adf
	}
	if adr < 0 {
		adr = -adr
	}
	switch man.Kind() {
	case board.Knight:
		return adf*adr == 2
	case board.King:
		return (adf <= 1 && adr <= 1) || (adr == 0 && adf == 2)
	case board.Rook:
		return df == 0 || dr == 0
	case board.Bishop:
		return adf == adr
	case board.Queen:
		return df == 0 || dr == 0 || adf == adr
	case board.Pawn:
		fwd := 1
		if man.Color() == board.Black {
			fwd = -1
		}
		return (df == 0 && (dr == fwd || dr == 2*fwd)) || (adf == 1 && dr == fwd)
	}
	return false
}
