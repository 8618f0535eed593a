package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
)

func runPGN(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "pgn",
		usage: []string{"pgn [--state-dir DIR] [--game N | --list]"},
		about: "Prints the game in progress as PGN, replayed from the journal in the state directory (no running boardd is needed, and the journal is only read), or a finished game from the archive, or the list of games.",
		groups: []flagGroup{
			{"Which game", []string{"game", "list"}},
			{"Where", []string{"state-dir"}},
		},
		examples: []string{
			"sudo boardd pgn --state-dir /var/lib/boardd            # the game in progress",
			"sudo boardd pgn --state-dir /var/lib/boardd --list     # finished games",
			"sudo boardd pgn --state-dir /var/lib/boardd --game 3   # one of them",
		},
		exit: "Exit status: 0 when printed; 1 when there is no such game or the journal cannot be read; 2 for a bad command line.",
	}
	fs := h.flags()
	dirFlag := fs.String("state-dir", "", "state directory (default $STATE_DIRECTORY, else $XDG_STATE_HOME/boardd, else ~/.local/state/boardd, as for boardd run)")
	number := fs.Uint64("game", 0, "print archived game number `N` instead of the game in progress")
	list := fs.Bool("list", false, "list the archived games and the game in progress")
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	if *list && *number != 0 {
		return h.fail(env, "--list or --game, not both")
	}
	dir, err := stateDir(*dirFlag, env.getenv)
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 2
	}
	switch {
	case *list:
		err = listGames(env.stdout, dir)
	case *number != 0:
		err = printArchived(env.stdout, dir, *number)
	default:
		var g *game.Game
		if g, err = currentGame(env, dir); err == nil {
			_, err = io.WriteString(env.stdout, g.PGN())
		}
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "boardd: %v\n", err)
		return 1
	}
	return 0
}

// currentGame replays the journal of the game in progress in dir, read
// only, and returns the game. Warnings about the journal go to stderr.
func currentGame(env *environment, dir string) (*game.Game, error) {
	g, err := journal.Read(dir)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, fmt.Errorf("no game in progress in %s", dir)
	}
	warnings := g.Warnings
	inUse := journal.InUse(dir)
	if g.Torn() && inUse {
		// The torn tail is the line the running daemon is writing: no
		// news. With no daemon it is what a power cut left, and boardd
		// run will say so too.
		warnings = warnings[:len(warnings)-1]
	}
	for _, w := range warnings {
		fmt.Fprintf(env.stderr, "boardd: warning: %s\n", w)
	}
	rp, err := journal.Replay(g, game.Options{})
	if err != nil {
		return nil, err
	}
	if !inUse {
		// No daemon: a man set down whose move report was torn off is
		// the move boardd run will make once its settle time passes.
		rp.SettleHands(g)
	}
	return rp.Game, nil
}

func printArchived(w io.Writer, dir string, n uint64) error {
	games, err := journal.List(dir)
	if err != nil {
		return err
	}
	for _, a := range games {
		if a.Game != n {
			continue
		}
		if a.PGN == "" {
			return fmt.Errorf("game %d: its PGN was trimmed from the archive", n)
		}
		data, err := os.ReadFile(a.PGN)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	// A finished game whose archiving has not finished is still at the
	// head of the journal.
	if g, err := journal.Read(dir); err == nil && g != nil {
		for _, f := range g.Finished {
			if f.Header.Game == n {
				_, err := io.WriteString(w, f.ArchivePGN())
				return err
			}
		}
	}
	return fmt.Errorf("no game %d in the archive of %s (boardd pgn --list shows what there is)", n, dir)
}

func listGames(w io.Writer, dir string) error {
	games, err := journal.List(dir)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tDATE\tWHITE\tBLACK\tRESULT\tLAWS\tJOURNAL")
	for _, a := range games {
		tags, err := a.Tags()
		if err != nil {
			tags = map[string]string{}
		}
		kept := "kept"
		if a.Journal == "" {
			kept = "trimmed"
		}
		if a.PGN == "" {
			kept += ", PGN trimmed"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Game, or(tags["Date"]), or(tags["White"]), or(tags["Black"]), or(tags["Result"]), or(tags["LawSet"]), kept)
	}
	g, err := journal.Read(dir)
	if err == nil && g != nil {
		for _, f := range g.Finished {
			if len(games) > 0 && games[len(games)-1].Game >= f.Header.Game {
				continue // archived already, not yet cut off the journal
			}
			tags := journal.PGNTags([]byte(f.ArchivePGN()))
			laws := tags["LawSet"] // the law-set in force at the end (an arbiter may have changed it)
			if laws == "" {
				laws = f.Header.Laws
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Header.Game, or(tags["Date"]), or(tags["White"]), or(tags["Black"]), or(tags["Result"]), laws, "being archived (in "+journal.CurrentFile+")")
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(tw, "-\t\t\t\t\t\tunreadable: %v\n", err)
	case g != nil:
		result, laws := "*", g.Header.Laws
		if rp, err := journal.Replay(g, game.Options{}); err == nil {
			snap := rp.Game.Snapshot()
			if r := snap.Result; r != nil {
				result = string(r.Result)
			}
			if snap.Laws != nil {
				laws = snap.Laws.ID // the law-set in force now (an arbiter may have changed it)
			}
		}
		t := g.Header.Tags
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", strconv.FormatUint(g.Header.Game, 10)+" (in progress)", or(t["Date"]), or(t["White"]), or(t["Black"]), result, laws, "current")
	}
	return tw.Flush()
}

func or(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
