package hall

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func pgnOf(board, round, moves string) string {
	return "[Event \"E\"]\n[Round \"" + round + "\"]\n[Board \"" + board + "\"]\n\n" + moves + "\n"
}

func texts(gs []gameText) string {
	var out []string
	for _, g := range gs {
		out = append(out, g.key.board+":"+strings.TrimSpace(g.text[strings.LastIndex(g.text, "]\n\n")+3:]))
	}
	return strings.Join(out, " | ")
}

// The store keeps each board's games on disk: the latest written behind,
// an older one synced as soon as the board leaves it; a store opened again
// on the directory has them all, in board order, by round.
func TestStoreKeepsGames(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	s, err := openStore(dir, log)
	if err != nil {
		t.Fatal(err)
	}
	s.put("b10", 1, "1", pgnOf("b10", "1", "1. d4 *"))
	s.put("b2", 1, "1", pgnOf("b2", "1", "1. e4 *"))
	s.put("b2", 1, "1", pgnOf("b2", "1", "1. e4 e5 1-0"))
	s.put("b2", 2, "2", pgnOf("b2", "2", "1. c4 *"))
	// b2's first game was left: it is written (with a sync), its text
	// dropped from the game once it is.
	s.flush(false)
	if data, err := os.ReadFile(filepath.Join(dir, "board-b2", "0-1.pgn")); err != nil || !strings.Contains(string(data), "1. e4 e5 1-0") {
		t.Errorf("b2's finished game on disk: %q, %v", data, err)
	}
	s.mu.Lock()
	old := s.games[gameKey{board: "b2", epoch: 0, game: 1}]
	if old.text != "" || !old.synced {
		t.Errorf("b2's finished game after the flush: text kept %v, synced %v", old.text != "", old.synced)
	}
	s.mu.Unlock()
	s.flush(true)
	round1, _, err := s.roundGames("1")
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(round1); got != "b2:1. e4 e5 1-0 | b10:1. d4 *" {
		t.Errorf("round 1: %s", got)
	}

	// A board begun anew numbers its games from 1 again: a new epoch, the
	// old game 1 kept.
	s.put("b10", 1, "2", pgnOf("b10", "2", "1. Nf3 *"))
	if s.epoch("b10") != 0 {
		t.Fatal("the same game number began a new epoch")
	}
	s.newEpoch("b10")
	s.put("b10", 1, "2", pgnOf("b10", "2", "1. g3 *"))
	s.put("b2", 1, "2", pgnOf("b2", "2", "1. b3 *")) // below b2's latest: a new epoch too
	s.flush(true)
	os.WriteFile(filepath.Join(dir, "board-b2", "0-9.pgn.tmp"), []byte("half"), 0o640)
	os.WriteFile(filepath.Join(dir, "board-b2", "notes.txt"), []byte("arbiter's"), 0o640)

	s2, err := openStore(dir, log)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "board-b2", "0-9.pgn.tmp")); err == nil {
		t.Error("a write cut short was left behind")
	}
	for _, c := range []struct{ round, want string }{
		{"1", "b2:1. e4 e5 1-0"},
		{"2", "b2:1. c4 * | b2:1. b3 * | b10:1. Nf3 * | b10:1. g3 *"},
	} {
		gs, _, err := s2.roundGames(c.round)
		if err != nil {
			t.Fatal(err)
		}
		if got := texts(gs); got != c.want {
			t.Errorf("round %s read back: %s, want %s", c.round, got, c.want)
		}
	}
	cur, _, err := s2.currentGames()
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(cur); got != "b2:1. b3 * | b10:1. g3 *" {
		t.Errorf("the boards' latest games read back: %s", got)
	}
	if s2.epoch("b10") != 1 || s2.epoch("b2") != 1 {
		t.Errorf("epochs read back: b10 %d, b2 %d; want 1 and 1", s2.epoch("b10"), s2.epoch("b2"))
	}
	idx := s2.roundIndex()
	if strings.Join(idx["2"], ",") != "b2,b10" || strings.Join(idx["1"], ",") != "b2" {
		t.Errorf("round index %v", idx)
	}
	// The game in progress carries on where it was.
	s2.put("b10", 1, "2", pgnOf("b10", "2", "1. g3 d5 *"))
	cur, _, _ = s2.currentGames()
	if got := texts(cur); got != "b2:1. b3 * | b10:1. g3 d5 *" {
		t.Errorf("after a move: %s", got)
	}
	// Older games' texts are read back from disk when not in memory.
	s2.mu.Lock()
	s2.cold, s2.coldLen = map[gameKey]string{}, 0
	s2.mu.Unlock()
	gs, _, err := s2.roundGames("1")
	if err != nil || texts(gs) != "b2:1. e4 e5 1-0" {
		t.Errorf("round 1 from disk: %s, %v", texts(gs), err)
	}
}

func TestRoundOf(t *testing.T) {
	for _, c := range []struct{ pgn, want string }{
		{"[Event \"x\"]\n[Round \"3.1\"]\n\n1. e4 *\n", "3.1"},
		{"[Round \"?\"]\n\n*\n", "-"},
		{"[Round \"a \\\"b\\\"\"]\n\n*\n", `a "b"`},
		{"1. e4 *\n[Round \"9\"]\n", "-"},
	} {
		if got := roundOf(c.pgn); got != c.want {
			t.Errorf("%q: %q, want %q", c.pgn, got, c.want)
		}
	}
}

func TestParseSlice(t *testing.T) {
	for _, c := range []struct {
		in       string
		from, to int
		err      bool
	}{
		{"1-64", 1, 64, false},
		{"65-", 65, int(^uint(0) >> 1), false},
		{"3", 3, 3, false},
		{"0-4", 0, 0, true},
		{"5-4", 0, 0, true},
		{"a-b", 0, 0, true},
		{"", 0, 0, true},
	} {
		from, to, err := parseSlice(c.in)
		if (err != nil) != c.err || (!c.err && (from != c.from || to != c.to)) {
			t.Errorf("%q: %d-%d %v", c.in, from, to, err)
		}
	}
}
