package daemon

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
)

// TestConfigurationChangeBetweenGames: a game with no move yet takes a
// changed law-set when boardd starts; a game under way keeps its own when
// the configuration file changes, is refused when --laws asks for another,
// and is archived for a new game under --laws with --new-game.
func TestConfigurationChangeBetweenGames(t *testing.T) {
	// open starts the journal's part as boardd run would with o, and
	// returns the daemon, its log, and the start's error.
	open := func(t *testing.T, dir string, o Options) (*daemon, *bytes.Buffer, error) {
		t.Helper()
		d, logs := testDaemon(t, o)
		if err := d.configure(); err != nil {
			t.Fatal(err)
		}
		d.stateDir = dir
		if err := d.openJournal(); err != nil {
			d.close()
			return nil, logs, err
		}
		d.runner = game.NewRunner(d.game, d.clock)
		d.attachJournal()
		t.Cleanup(func() { d.close() })
		return d, logs, nil
	}
	mustOpen := func(t *testing.T, dir string, o Options) (*daemon, *bytes.Buffer) {
		t.Helper()
		d, logs, err := open(t, dir, o)
		if err != nil {
			t.Fatal(err)
		}
		return d, logs
	}
	dir := t.TempDir()
	d, _ := mustOpen(t, dir, Options{Laws: "fide2023"})
	d.close()
	d, _ = mustOpen(t, dir, Options{Laws: "nycc"})
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
	d, _ = mustOpen(t, dir, Options{Laws: "nycc"})
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

	fide := writeFile(t, "boardd.toml", "laws = \"fide2023\"\n")
	cases := []struct {
		name     string
		o        Options
		refused  string // the start's error ("" for none)
		laws     string // the law-set in force
		moves    int    // the moves of the game in force
		game     uint64 // its number
		logs     string // in the log
		archived bool   // game 1 archived
	}{
		{name: "a configuration file for other rules", o: Options{Config: fide}, laws: "nycc", moves: 1, game: 1,
			logs: `level=WARN msg="the game in progress keeps its rules, not the configuration's: they apply from the next game (or now with boardd run --new-game)" game=1 laws=nycc configured_laws=fide2023`},
		{name: "--laws for another law-set", o: Options{Laws: "fide2023"},
			refused: "the saved game 1 in " + dir + " (1 move) is not played under the rules asked for: --laws fide2023, and it is under nycc. Run without those flags to go on with it, or add --new-game"},
		{name: "--laws, --odds and --tournament for other rules", o: Options{Laws: "sarratt1808", Odds: "rook", Tournament: true},
			refused: "--laws sarratt1808, and it is under nycc; --odds rook, and it is played at no odds; --tournament, and it is not in tournament mode."},
		{name: "--visually-impaired for a game with none", o: Options{VisuallyImpaired: "white"},
			refused: "--visually-impaired white, and its visually impaired side is neither."},
		{name: "--warn-only on a game that exacts its penalties", o: Options{Laws: "nycc", WarnOnly: true},
			refused: "is not played under the rules asked for: --warn-only, and it exacts its penalties. Run without those flags to go on with it, or add --new-game"},
		{name: "--laws for its own law-set", o: Options{Laws: "nycc"}, laws: "nycc", moves: 1, game: 1},
		// The last: the game is archived.
		{name: "--new-game with --laws", o: Options{Laws: "fide2023", NewGame: true}, laws: "fide2023", moves: 0, game: 2, archived: true,
			logs: `level=WARN msg="--new-game: the game in progress was archived unfinished; a new game begins" archived_game=1 archived_laws=nycc moves=1 game=2 laws=fide2023`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, logs, err := open(t, dir, c.o)
			if c.refused != "" {
				var usage UsageError
				if err == nil || !errors.As(err, &usage) || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("start: %v, want a usage error saying %q", err, c.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.close()
			if id := d.game.Laws().ID; id != c.laws || d.journal.laws != c.laws {
				t.Errorf("law-set in force %s (said %s), want %s", id, d.journal.laws, c.laws)
			}
			if n := d.game.Snapshot().Moves; n != c.moves || d.journal.header.Game != c.game {
				t.Errorf("game %d with %d moves, want game %d with %d", d.journal.header.Game, n, c.game, c.moves)
			}
			if !strings.Contains(logs.String(), c.logs) {
				t.Errorf("the log lacks %q:\n%s", c.logs, logs)
			}
			_, err = os.Stat(filepath.Join(dir, "archive", "game-000001.pgn"))
			if archived := err == nil; archived != c.archived {
				t.Errorf("game 1 archived: %v, want %v", archived, c.archived)
			}
		})
	}
}

// TestTrustClockDatesTheGame: --trust-clock (or BOARDD_TRUST_CLOCK=1) dates
// a new game by the wall clock on a machine whose clock nothing says is
// synchronised; without it the log says why a game is undated, if it is.
func TestTrustClockDatesTheGame(t *testing.T) {
	cases := []struct {
		name  string
		trust bool
		env   string // BOARDD_TRUST_CLOCK
		dated bool   // dated whatever this machine's clock status
	}{
		{name: "--trust-clock", trust: true, dated: true},
		{name: "BOARDD_TRUST_CLOCK=1", env: "1", dated: true},
		{name: "neither"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, logs := testDaemon(t, Options{TrustClock: c.trust})
			d.o.Getenv = func(k string) string {
				if k == envTrustClock {
					return c.env
				}
				return ""
			}
			if err := d.configure(); err != nil {
				t.Fatal(err)
			}
			d.stateDir = t.TempDir()
			before := time.Now()
			if err := d.openJournal(); err != nil {
				t.Fatal(err)
			}
			defer d.close()
			date := d.journal.header.Tags["Date"]
			undated := strings.Contains(logs.String(), `msg="games are dated ????.??.?? until the wall clock is known to be right`)
			switch {
			case c.dated && date != before.Format("2006.01.02") && date != time.Now().Format("2006.01.02"):
				t.Errorf("the new game is dated %q, want today", date)
			case c.dated && undated:
				t.Errorf("the log says games are undated though the clock is trusted:\n%s", logs)
			case !c.dated && (date == journal.UnknownDate) != undated:
				t.Errorf("the new game is dated %q, and the log says it is undated: %v\n%s", date, undated, logs)
			}
		})
	}
}

// TestVisuallyImpairedSideIsKept: --visually-impaired reaches the game's
// journal header (a restart replays the game by Appendix D), and a side
// with no voice is warned of at the start.
func TestVisuallyImpairedSideIsKept(t *testing.T) {
	for _, c := range []struct {
		name, side, voice string
		warned            bool
	}{
		{"with no voice", "black", "", true},
		{"with a voice", "white", "en", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, logs := testDaemon(t, Options{VisuallyImpaired: c.side, Voice: c.voice})
			if err := d.configure(); err != nil {
				t.Fatal(err)
			}
			d.stateDir = t.TempDir()
			if err := d.openJournal(); err != nil {
				t.Fatal(err)
			}
			defer d.close()
			if got := d.journal.header.VisuallyImpaired; got != c.side {
				t.Errorf("the journal's header keeps visually impaired side %q, want %q", got, c.side)
			}
			if warned := strings.Contains(logs.String(), "a visually impaired player with no voice"); warned != c.warned {
				t.Errorf("warned of no voice: %v, want %v:\n%s", warned, c.warned, logs)
			}
		})
	}
}
