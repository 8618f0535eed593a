package voice

// The words of an offer made on a paired board and carried to the other
// (FIDE's Appendix D play): the other board's player offers a draw. The
// plain and the appendix-d conventions share them: they name no move.

import "github.com/boardd/boardd/board"

// DrawOffered says that the other board's player, playing side, offers
// this board's player a draw with his last move, and how to answer it:
// "White offers a draw. Accept with the check button on White's side, or
// the console's Offer a draw; decline by moving." (fide2023:9.1.2; the
// older codes say nothing of draw offers, and it is answered alike.)
func (w Words) DrawOffered(side board.Color) string {
	if w.german() {
		return w.side(side) + " bietet Remis an. Annehmen mit der Schach-Taste auf der Seite von " + w.side(side) +
			" oder mit Remis anbieten auf der Konsole; ablehnen durch einen Zug."
	}
	return w.side(side) + " offers a draw. Accept with the check button on " + w.side(side) +
		"'s side, or the console's Offer a draw; decline by moving."
}
