package led

// A layer is a frame another party asks boardd's LEDs to show over the
// game's own: an app driving the board through the ChessLink emulation
// lights the squares of a move it suggests or wants carried out. The game
// keeps the last word (Overlay): what boardd must say for the game to go on
// is never hidden or muddled by a layer.

// AtRest reports whether the frame says nothing a player must act on: no
// square lit but the last move, men in hand and a hint. A mismatch or a
// take-back, a ruling's options, a man that must move, a move to carry out,
// a result and a fault are not at rest.
func (f *Frame) AtRest() bool {
	for _, r := range f.Role {
		switch r {
		case Off, LastMove, Touched, Hint:
		default:
			return false
		}
	}
	return true
}

// Overlay lays layer over the game's frame: while the game's frame is at
// rest (AtRest), each square the layer lights shows the layer's role and
// blink, except a man in hand (the game's answer to the player's own hand
// stays); otherwise the game's frame shows alone, and the layer comes back
// as it was once the game's frame is at rest again.
func Overlay(game, layer *Frame) Frame {
	out := *game
	if !game.AtRest() {
		return out
	}
	for sq, r := range layer.Role {
		if r != Off && out.Role[sq] != Touched {
			out.Role[sq], out.Blink[sq] = r, layer.Blink[sq]
		}
	}
	return out
}
