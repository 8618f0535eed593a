package voice

// The words of an offer made on a paired board and carried to the other
// (FIDE's Appendix D play): the other board's player offers a draw, or
// asks to take back, or refuses a take-back by playing on. The plain and
// the appendix-d conventions share them: they name no move.

import (
	"fmt"

	"github.com/boardd/boardd/board"
)

// DrawOffered says that the other board's player, playing side, offers
// this board's player a draw with his last move, and how to answer it:
// "White offers a draw. Accept with the check button on White's side, or
// the console's Offer a draw; decline by moving." (fide2023:9.1.2.1; the
// older codes say nothing of draw offers, and it is answered alike.)
func (w Words) DrawOffered(side board.Color) string {
	if w.german() {
		return w.side(side) + " bietet Remis an. Annehmen mit der Schach-Taste auf der Seite von " + w.side(side) +
			" oder mit Remis anbieten auf der Konsole; ablehnen durch einen Zug."
	}
	return w.side(side) + " offers a draw. Accept with the check button on " + w.side(side) +
		"'s side, or the console's Offer a draw; decline by moving."
}

// TakeBackAsked says that the other board's player, playing side, asks
// this board's player to take back plies moves (between paired boards only
// by agreement), and how to answer: "White asks to take back 2 moves.
// Agree with the j'adoube button on White's side, or the console's Take
// back; refuse by moving."
func (w Words) TakeBackAsked(side board.Color, plies int) string {
	if w.german() {
		what := "seinen letzten Zug"
		if plies > 1 {
			what = fmt.Sprintf("%d Züge", plies)
		}
		return fmt.Sprintf("%s bittet, %s zurückzunehmen. Zustimmen mit der J'adoube-Taste auf der Seite von %s oder mit Zurücknehmen auf der Konsole; ablehnen durch einen Zug.", w.side(side), what, w.side(side))
	}
	what := "his last move"
	if plies > 1 {
		what = fmt.Sprintf("%d moves", plies)
	}
	return fmt.Sprintf("%s asks to take back %s. Agree with the j'adoube button on %s's side, or the console's Take back; refuse by moving.", w.side(side), what, w.side(side))
}

// TakeBackRefused says that the other board's player, playing side, played
// on instead of agreeing to this board's player's take-back: "Black played
// on: no take-back."
func (w Words) TakeBackRefused(side board.Color) string {
	if w.german() {
		return w.side(side) + " hat weitergespielt: keine Zugrücknahme."
	}
	return w.side(side) + " played on: no take-back."
}
