package daemon

import (
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
)

// TestConfigurationChangeBetweenGames: a game with no move yet takes a
// changed law-set when boardd starts; a game under way keeps its own.
func TestConfigurationChangeBetweenGames(t *testing.T) {
	open := func(t *testing.T, dir, laws string) *daemon {
		t.Helper()
		d, _ := testDaemon(t, Options{Laws: laws})
		if err := d.configure(); err != nil {
			t.Fatal(err)
		}
		d.stateDir = dir
		if err := d.openJournal(); err != nil {
			t.Fatal(err)
		}
		d.runner = game.NewRunner(d.game, d.clock)
		d.attachJournal()
		t.Cleanup(func() { d.close() })
		return d
	}
	dir := t.TempDir()
	d := open(t, dir, "fide2023")
	d.close()
	d = open(t, dir, "nycc")
	if id := d.game.Laws().ID; id != "nycc" {
		t.Errorf("a game with no move kept law-set %s, want nycc", id)
	}
	d.close()
	g, err := journal.Read(dir)
	if err != nil || g.Header.Game != 1 || g.Header.Laws != "nycc" || g.Records[0].Seq != 2 {
		t.Fatalf("journal after the change: %+v, %v", g, err)
	}

	// A move played: the game keeps its law-set.
	pl := journaltest.NewPlayer(g.LastT+time.Second, journaltest.Timing{Step: 100 * time.Millisecond, Pause: time.Second})
	if err := pl.Move("e2e4"); err != nil {
		t.Fatal(err)
	}
	d = open(t, dir, "nycc")
	for _, l := range pl.Lines {
		d.game.Advance(l.T)
		d.journal.rec.Input(l)
		d.game.Input(l)
	}
	d.game.Advance(pl.T + time.Second)
	if n := d.game.Snapshot().Moves; n != 1 {
		t.Fatalf("%d moves played, want 1", n)
	}
	d.close()
	d = open(t, dir, "fide2023")
	if id := d.game.Laws().ID; id != "nycc" {
		t.Errorf("a game under way took law-set %s, want its own nycc", id)
	}
	if n := d.game.Snapshot().Moves; n != 1 {
		t.Errorf("%d moves restored, want 1", n)
	}
}
