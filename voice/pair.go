package voice

// The words of two paired boards' link (FIDE's Appendix D play): the
// other board, or the hall's broker between them, gone away and back. The
// plain and the appendix-d conventions share them: they name no move.

// OtherBoardGone says that the paired board cannot be heard any more: "The
// other board has gone away; the game waits for it."
func (w Words) OtherBoardGone() string {
	if w.german() {
		return "Das andere Brett ist nicht mehr verbunden; die Partie wartet darauf."
	}
	return "The other board has gone away; the game waits for it."
}

// OtherBoardBack says that the paired board is heard again: "The other
// board is back."
func (w Words) OtherBoardBack() string {
	if w.german() {
		return "Das andere Brett ist wieder da."
	}
	return "The other board is back."
}

// BrokerGone says that the hall's broker, through which the paired boards
// hear each other, is out of reach: "The broker is out of reach; the game
// waits for it."
func (w Words) BrokerGone() string {
	if w.german() {
		return "Der Server der Turnierhalle ist nicht erreichbar; die Partie wartet darauf."
	}
	return "The broker is out of reach; the game waits for it."
}

// BrokerBack says that the hall's broker is reached again: "The broker is
// back."
func (w Words) BrokerBack() string {
	if w.german() {
		return "Der Server der Turnierhalle ist wieder erreichbar."
	}
	return "The broker is back."
}
