package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/lichess/lichesstest"
)

// The --lichess flags: a seek's clock, colour and rating, the players whose
// challenges are accepted; faults named by the flag.
func TestLichessFlags(t *testing.T) {
	tests := []struct {
		o       Options
		want    string // the fault, "" for none
		seek    time.Duration
		inc     time.Duration
		color   string
		accepts []string
	}{
		{o: Options{}},
		{o: Options{Lichess: true}},
		{o: Options{Lichess: true, LichessSeek: "15+10", LichessRated: true, LichessColor: "White"}, seek: 15 * time.Minute, inc: 10 * time.Second, color: "white"},
		{o: Options{Lichess: true, LichessSeek: "7.5+3"}, seek: 7*time.Minute + 30*time.Second, inc: 3 * time.Second},
		{o: Options{Lichess: true, LichessAccept: "Alice, bob,anyone"}, accepts: []string{"alice", "bob", "*"}},
		{o: Options{Lichess: true, LichessSeek: "3+2"}, want: "rapid and classical games only"},
		{o: Options{Lichess: true, LichessSeek: "fifteen"}, want: `--lichess-seek "fifteen": want MINUTES+SECONDS`},
		{o: Options{Lichess: true, LichessSeek: "15+10", LichessColor: "green"}, want: `--lichess-color "green"`},
		{o: Options{Lichess: true, LichessRated: true}, want: "give --lichess-seek too"},
		{o: Options{LichessSeek: "15+10"}, want: "go with --lichess"},
		{o: Options{Lichess: true, Engine: "/usr/games/stockfish"}, want: "--lichess and --engine"},
	}
	for _, tc := range tests {
		p, err := parseLichessFlags(&tc.o)
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.o, err)
			continue
		}
		if tc.seek != 0 {
			if p.seek == nil || p.seek.Time != tc.seek || p.seek.Increment != tc.inc || p.seek.Color != tc.color || p.seek.Rated != tc.o.LichessRated {
				t.Errorf("%+v: seek %+v", tc.o, p.seek)
			}
		} else if p.seek != nil {
			t.Errorf("%+v: a seek %+v", tc.o, p.seek)
		}
		for _, a := range tc.accepts {
			if !p.accept[a] {
				t.Errorf("%+v: %q not accepted (%v)", tc.o, a, p.accept)
			}
		}
	}
}

// A token that will not do stops the start with what to do, and never
// shows the token: none in either place, readable by others, revoked,
// without board:play.
func TestLichessTokenFaults(t *testing.T) {
	srv := lichesstest.New(lichesstest.Options{})
	t.Cleanup(srv.Close)
	srv.AddToken("lip_noBoardScope0123456789", "challenge:read")
	tests := []struct {
		name, token string
		mode        os.FileMode
		revoke      bool
		usage       bool
		want        string
	}{
		{name: "none", want: "create a personal token with the board:play scope", usage: true},
		{name: "readable by others", token: srv.Token(), mode: 0o644, want: "chmod 600", usage: true},
		{name: "revoked", token: srv.Token(), mode: 0o600, revoke: true, want: "create a new personal token"},
		{name: "wrong scope", token: "lip_noBoardScope0123456789", mode: 0o600, want: "Play games with the board API"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.token != "" {
				path := filepath.Join(dir, "lichess-token")
				if err := os.WriteFile(path, []byte(tc.token+"\n"), tc.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			if tc.revoke {
				srv.RevokeToken(srv.Token())
			}
			d, logs := testDaemon(t, Options{Lichess: true})
			d.stateDir = dir
			d.o.Getenv = func(k string) string {
				if k == LichessURLEnv {
					return srv.URL()
				}
				return ""
			}
			err := d.startOnline()
			var ue UsageError
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &ue) != tc.usage {
				t.Errorf("%v (usage error: %v), want %q", err, errors.As(err, &ue), tc.want)
			}
			if tc.token != "" && (strings.Contains(err.Error(), tc.token) || strings.Contains(logs.String(), tc.token)) {
				t.Error("the token is shown")
			}
			if d.online != nil {
				t.Error("online play started")
			}
		})
	}
}

// newOnlinePlay is the daemon's online part on a local lichess, before it
// has found a game.
func newOnlinePlay(t *testing.T, srv *lichesstest.Server, play lichessPlay) *onlinePlay {
	t.Helper()
	d, _ := testDaemon(t, Options{Lichess: true})
	tok, err := lichess.NewToken(srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	c, err := lichess.New(lichess.Options{BaseURL: srv.URL(), Token: tok, MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &onlinePlay{d: d, client: c, play: play, watchers: map[int]func(){}}
}

// The game to play: the account's game in progress first; else the game a
// seek starts; else the game a challenge from a player --lichess-accept
// names starts (others are left alone).
func TestLichessFindsTheGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	find := func(op *onlinePlay, seek *lichess.Seek) <-chan lichess.GameInfo {
		ch := make(chan lichess.GameInfo, 1)
		go func() {
			g, err := op.find(ctx, seek)
			if err != nil {
				t.Errorf("find: %v", err)
			}
			ch <- g
		}()
		return ch
	}

	t.Run("in progress", func(t *testing.T) {
		srv := lichesstest.New(lichesstest.Options{})
		t.Cleanup(srv.Close)
		id, err := srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Moves: []string{"e2e4"}})
		if err != nil {
			t.Fatal(err)
		}
		g := <-find(newOnlinePlay(t, srv, lichessPlay{}), &lichess.Seek{Time: 15 * time.Minute})
		if side, _ := g.Side(); g.GameID != id || side != board.Black {
			t.Errorf("found %+v, want %s as Black", g, id)
		}
		if len(srv.Seeks()) != 0 {
			t.Error("a seek was made with a game in progress")
		}
	})

	t.Run("seek", func(t *testing.T) {
		srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond})
		t.Cleanup(srv.Close)
		found := find(newOnlinePlay(t, srv, lichessPlay{}), &lichess.Seek{Time: 15 * time.Minute, Increment: 10 * time.Second, Rated: true, Color: "white"})
		deadline := time.Now().Add(10 * time.Second)
		for len(srv.Seeks()) == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if len(srv.Seeks()) != 1 {
			t.Fatalf("seeks: %v", srv.Seeks())
		}
		id, err := srv.MatchSeek(srv.Seeks()[0], lichesstest.Opponent{Name: "Stranger"})
		if err != nil {
			t.Fatal(err)
		}
		if g := <-found; g.GameID != id {
			t.Errorf("found %+v, want %s", g, id)
		}
	})

	t.Run("challenge", func(t *testing.T) {
		srv := lichesstest.New(lichesstest.Options{EventKeepAlive: 100 * time.Millisecond})
		t.Cleanup(srv.Close)
		srv.Challenge(lichesstest.ChallengeSpec{Opponent: lichesstest.Opponent{ID: "mallory"}})
		alice := srv.Challenge(lichesstest.ChallengeSpec{Color: "black", Opponent: lichesstest.Opponent{ID: "alice"}})
		g := <-find(newOnlinePlay(t, srv, lichessPlay{accept: map[string]bool{"alice": true}}), nil)
		if side, _ := g.Side(); g.GameID == "" || side != board.White || !strings.EqualFold(g.Opponent.ID, "alice") {
			t.Errorf("found %+v, want alice's game as White", g)
		}
		if left := srv.Challenges(); len(left) != 1 || left[0] == alice {
			t.Errorf("challenges left: %v, want mallory's", left)
		}
	})
}
