package lighting

import (
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
)

// Follow has d show the LEDs of the game r runs: the frame Compose draws of
// the game when r starts, and again whenever the game changes. Call it
// before r runs.
func Follow(r *game.Runner, d *led.Driver) {
	r.OnChange(func(s *game.Snapshot) { d.Show(Compose(s)) })
}
