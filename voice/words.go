// Package voice is boardd's voice: the words of every announcement it
// makes (a move as made, the opponent's move to carry out, an irregularity
// with its options and who chooses, a ruling, a flag fall and the result,
// the clocks and the position on request), in plain words or by the
// convention of FIDE's Laws of Chess, Appendix D (D.2.1), in English or
// German; the Announcer that draws them from a game's reports and
// snapshots; and the Speaker that reads them aloud through espeak-ng, a
// process it supervises so that a missing, crashing or hanging speech
// program is a fault logged and the game goes on.
//
// The words are text first: every announcement is tested as text, and the
// same lines can be spoken by any speech synthesiser (the console's page
// speaks them through the browser's).
package voice

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
)

// Language is the language boardd speaks in.
type Language string

// The languages.
const (
	English Language = "en"
	German  Language = "de"
)

// Languages lists the languages, in the order help texts name them.
var languages = [...]Language{English, German}

// ParseLanguage reads a language setting: "en" or "de".
func ParseLanguage(s string) (Language, error) {
	for _, l := range languages {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("voice: language %q: want en or de", s)
}

// Voice returns espeak-ng's voice for the language ("en", "de").
func (l Language) Voice() string { return string(l) }

// Convention is how a move is said.
type Convention string

// The conventions.
const (
	// Plain says a move in the language's plain words: "knight from g1 to
	// f3, check".
	Plain Convention = "plain"
	// AppendixD says a move by FIDE's Laws, Appendix D.2.1: the files
	// Anna to Hector, the ranks eins to acht, the pieces Koenig, Dame,
	// Turm, Laeufer, Springer, Bauer, "Kurze Rochade", "Lange Rochade",
	// the promoted piece named: "Springer Gustav eins Felix drei".
	AppendixD Convention = "appendix-d"
)

// ParseConvention reads a convention setting: "plain" or "appendix-d".
func ParseConvention(s string) (Convention, error) {
	switch Convention(s) {
	case Plain, AppendixD:
		return Convention(s), nil
	}
	return "", fmt.Errorf("voice: convention %q: want plain or appendix-d", s)
}

// Words makes the text of announcements in a language by a convention. The
// zero value speaks plain English.
type Words struct {
	Lang       Language
	Convention Convention
}

// german reports whether the words are German.
func (w Words) german() bool { return w.Lang == German }

// Move is what a move did, as an announcement names it.
type Move struct {
	Side      board.Color
	Piece     board.Kind // the man moved (the king for castling)
	From, To  board.Square
	Capture   bool       // a man is taken
	Captured  board.Kind // the man taken, NoKind where unknown
	EnPassant bool
	// Castling: +1 kingside (short), -1 queenside (long), 0 none.
	Castling int
	Promo    board.Kind // what a pawn became, NoKind for none
	Check    bool
	Mate     bool
}

// Describe returns what m does played in before. A move whose man is not
// on its square in before is an error (the position is not the one the
// move was played in).
func Describe(before board.Position, m board.Move) (Move, error) {
	man := before.Men[m.From]
	if man == board.NoMan {
		return Move{}, fmt.Errorf("voice: move %s: no man on %s in %s", m, m.From, before.FEN())
	}
	mv := Move{Side: man.Color(), Piece: man.Kind(), From: m.From, To: m.To, Promo: m.Promo}
	switch {
	case before.IsCastling(m):
		mv.Castling = 1
		if m.To.File() < m.From.File() {
			mv.Castling = -1
		}
	case before.IsEnPassant(m):
		mv.EnPassant, mv.Capture, mv.Captured = true, true, board.Pawn
	default:
		if to := before.Men[m.To]; to != board.NoMan && to.Color() != man.Color() {
			mv.Capture, mv.Captured = true, to.Kind()
		}
	}
	if mv.Piece != board.Pawn {
		mv.Promo = board.NoKind
	}
	after := before.Apply(m)
	if a, err := board.Analyse(after); err == nil {
		mv.Check, mv.Mate = a.InCheck, a.Checkmate()
	}
	return mv, nil
}

// appendixFiles and appendixRanks are D.2.1's names of the files and ranks.
var (
	appendixFiles = [8]string{"Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"}
	appendixRanks = [8]string{"eins", "zwei", "drei", "vier", "fuenf", "sechs", "sieben", "acht"}
)

// piece returns the name of kind k.
func (w Words) piece(k board.Kind) string {
	if w.Convention == AppendixD || w.german() {
		switch k {
		case board.King:
			return "Koenig"
		case board.Queen:
			return "Dame"
		case board.Rook:
			return "Turm"
		case board.Bishop:
			return "Laeufer"
		case board.Knight:
			return "Springer"
		case board.Pawn:
			return "Bauer"
		}
		return ""
	}
	return k.String()
}

// square returns the name of sq: "f3", or by D.2.1 "Felix drei".
func (w Words) square(sq board.Square) string {
	if w.Convention == AppendixD {
		return appendixFiles[sq.File()] + " " + appendixRanks[sq.Rank()]
	}
	return sq.String()
}

// side returns the name of a side.
func (w Words) side(c board.Color) string {
	switch {
	case w.german() && c == board.White:
		return "Weiß"
	case w.german():
		return "Schwarz"
	case c == board.White:
		return "White"
	}
	return "Black"
}

// Move returns the words of a move as made: "knight from g1 to f3, check",
// "bishop from b5 takes knight on c6", "castles kingside", or by Appendix
// D "Springer Gustav eins Felix drei", "Kurze Rochade".
func (w Words) Move(mv Move) string {
	var b strings.Builder
	switch {
	case mv.Castling != 0 && (w.Convention == AppendixD || w.german()):
		if mv.Castling > 0 {
			b.WriteString("Kurze Rochade")
		} else {
			b.WriteString("Lange Rochade")
		}
	case mv.Castling > 0:
		b.WriteString("castles kingside")
	case mv.Castling < 0:
		b.WriteString("castles queenside")
	case w.Convention == AppendixD:
		fmt.Fprintf(&b, "%s %s", w.piece(mv.Piece), w.square(mv.From))
		if mv.Capture {
			b.WriteString(" " + w.takes())
		}
		b.WriteString(" " + w.square(mv.To))
	default:
		from, to := "from", "to"
		if w.german() {
			from, to = "von", "nach"
		}
		fmt.Fprintf(&b, "%s %s %s ", w.piece(mv.Piece), from, w.square(mv.From))
		if mv.Capture {
			on := "on"
			if w.german() {
				on = "auf"
			}
			b.WriteString(w.takes() + " ")
			if mv.Captured != board.NoKind {
				b.WriteString(w.piece(mv.Captured) + " ")
			}
			fmt.Fprintf(&b, "%s %s", on, w.square(mv.To))
		} else {
			fmt.Fprintf(&b, "%s %s", to, w.square(mv.To))
		}
	}
	if mv.EnPassant {
		b.WriteString(", en passant")
	}
	if mv.Promo != board.NoKind {
		switch {
		case w.Convention == AppendixD:
			b.WriteString(", " + w.piece(mv.Promo))
		case w.german():
			b.WriteString(", wird " + w.piece(mv.Promo))
		default:
			b.WriteString(", becomes a " + w.piece(mv.Promo))
		}
	}
	switch {
	case mv.Mate && w.german():
		b.WriteString(", Schachmatt")
	case mv.Mate:
		b.WriteString(", checkmate")
	case mv.Check && w.german():
		b.WriteString(", Schach")
	case mv.Check:
		b.WriteString(", check")
	}
	return b.String()
}

// takes is the word of a capture.
func (w Words) takes() string {
	if w.german() {
		return "schlägt"
	}
	return "takes"
}

// Awaiting returns the words that ask the player to carry out the move of
// the side played from off the board (an engine, lichess): "Black plays
// knight from g8 to f6. Make the move on the board."
func (w Words) Awaiting(mv Move) string {
	if w.german() {
		return fmt.Sprintf("%s spielt %s. Bitte auf dem Brett ausführen.", w.side(mv.Side), w.Move(mv))
	}
	return fmt.Sprintf("%s plays %s. Make the move on the board.", w.side(mv.Side), w.Move(mv))
}

// Clocks returns the words of both clocks: "White 4 minutes 32 seconds,
// Black 3 minutes 5 seconds."
func (w Words) Clocks(white, black time.Duration) string {
	return fmt.Sprintf("%s %s, %s %s.", w.side(board.White), w.duration(white), w.side(board.Black), w.duration(black))
}

// BoardsDiffer says that two paired boards differ (FIDE's Appendix D.2.7),
// and how in English words (why: "move 1 is e2e4 here, d2d4 there"; said
// in English only).
func (w Words) BoardsDiffer(why string) string {
	if w.german() {
		return "Die Bretter stimmen nicht überein. Bitte den Schiedsrichter rufen."
	}
	return "The boards differ: " + why + ". Call the arbiter."
}

// NoClock says that no clock runs to be read.
func (w Words) NoClock() string {
	if w.german() {
		return "Keine Uhr läuft."
	}
	return "No clock runs."
}

// Position returns the words of a position, side by side and piece by
// piece, the king first: "White: king g1, queen d1, rooks a1 and f1, ...
// Black: ... White to move."
func (w Words) Position(p board.Position) string {
	var parts []string
	for _, c := range []board.Color{board.White, board.Black} {
		var men []string
		for k := board.King; k >= board.Pawn; k-- {
			var sqs []string
			for sq := board.Square(0); sq < 64; sq++ {
				if m := p.Men[sq]; m != board.NoMan && m.Color() == c && m.Kind() == k {
					sqs = append(sqs, w.square(sq))
				}
			}
			if len(sqs) == 0 {
				continue
			}
			men = append(men, w.men(k, len(sqs))+" "+w.list(sqs))
		}
		parts = append(parts, w.side(c)+": "+strings.Join(men, ", ")+".")
	}
	if w.german() {
		parts = append(parts, w.side(p.Turn)+" am Zug.")
	} else {
		parts = append(parts, w.side(p.Turn)+" to move.")
	}
	return strings.Join(parts, " ")
}

// men names n men of kind k: "rook", "rooks", "Turm", "Türme".
func (w Words) men(k board.Kind, n int) string {
	name := w.piece(k)
	if n == 1 {
		return name
	}
	if w.Convention == AppendixD || w.german() {
		plural := map[board.Kind]string{board.Queen: "Damen", board.Rook: "Türme", board.Bishop: "Laeufer", board.Knight: "Springer", board.Pawn: "Bauern"}
		if p, ok := plural[k]; ok {
			return p
		}
		return name
	}
	return name + "s"
}

// list joins names: "a1", "a1 and f1", "a2, b2 and c2".
func (w Words) list(names []string) string {
	and := " and "
	if w.german() {
		and = " und "
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + and + names[len(names)-1]
}
