package daemon

import (
	"testing"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/game"
)

// The configuration's [hands] defaults are the game's own: a board run with
// no file reads hands as a replay does.
func TestHandsDefaultsAreTheGames(t *testing.T) {
	if config.DefaultSettle != game.DefaultSettle || config.DefaultQuickSettle != game.DefaultQuickSettle {
		t.Fatalf("config [hands] defaults settle %v, quick_settle %v; the game's %v, %v", config.DefaultSettle, config.DefaultQuickSettle, game.DefaultSettle, game.DefaultQuickSettle)
	}
}
