package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/lichess/lichesstest"
)

func TestReadToken(t *testing.T) {
	const tok = "lip_AbC123_xyz"
	type file struct {
		dir, content string
		mode         os.FileMode
	}
	cases := []struct {
		name     string
		files    []file
		noCreds  bool
		want     string // "creds" or "state": where the token comes from
		wantErr  string
		notInErr string
	}{
		{name: "credentials directory", files: []file{{"creds", tok + "\n", 0o400}}, want: "creds"},
		{name: "state directory", files: []file{{"state", tok + "\n", 0o600}}, want: "state"},
		{name: "credentials first", files: []file{{"creds", tok, 0o400}, {"state", "lip_other", 0o600}}, want: "creds"},
		{name: "no credentials directory", noCreds: true, files: []file{{"state", tok, 0o600}}, want: "state"},
		{name: "CRLF and spaces", files: []file{{"state", "  " + tok + " \r\n", 0o600}}, want: "state"},
		{name: "missing", wantErr: "does not exist; create a personal token with the board:play scope at https://lichess.org/account/oauth/token"},
		{name: "readable by others", files: []file{{"state", tok, 0o644}}, wantErr: "has mode 0644: others may read it", notInErr: tok},
		{name: "readable by the group", files: []file{{"state", tok, 0o640}}, wantErr: "chmod 600"},
		{name: "readable by others in the credentials directory", files: []file{{"creds", tok, 0o644}}, wantErr: "has mode 0644: others may read it", notInErr: tok},
		{name: "readable by others in the credentials directory, a good one in the state directory", files: []file{{"creds", tok, 0o644}, {"state", "lip_other", 0o600}}, wantErr: "chmod 600"},
		{name: "empty", files: []file{{"state", "\n", 0o600}}, wantErr: "the token is empty"},
		{name: "two lines", files: []file{{"state", tok + "\nsecond\n", 0o600}}, wantErr: "want the token alone on one line", notInErr: tok},
		{name: "not a token", files: []file{{"state", "lip_abc-def", 0o600}}, wantErr: "other than letters, digits and _ at position 8", notInErr: "lip_abc-def"},
		{name: "a directory", files: []file{{"state", "", os.ModeDir | 0o700}}, wantErr: "is not a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dirs := map[string]string{"creds": filepath.Join(root, "creds"), "state": filepath.Join(root, "state")}
			for _, d := range dirs {
				if err := os.MkdirAll(d, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				p := filepath.Join(dirs[f.dir], TokenFile)
				if f.mode.IsDir() {
					if err := os.Mkdir(p, 0o700); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.WriteFile(p, []byte(f.content), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, f.mode); err != nil {
					t.Fatal(err)
				}
			}
			creds := dirs["creds"]
			if c.noCreds {
				creds = ""
			}
			got, path, err := ReadToken(creds, dirs["state"])
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				if c.notInErr != "" && strings.Contains(err.Error(), c.notInErr) {
					t.Errorf("the error shows the file's content: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Reveal() != tok || path != filepath.Join(dirs[c.want], TokenFile) {
				t.Errorf("token from %s, want %s", path, c.want)
			}
		})
	}
}

// TestTokenRedacted: a token printed, logged or marshalled by mistake shows
// nothing.
func TestTokenRedacted(t *testing.T) {
	tok, err := NewToken("lip_secret123")
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "token", tok, "opts", Options{Token: tok})
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "token", tok)
	js, _ := json.Marshal(struct{ T Token }{tok})
	for _, s := range []string{
		fmt.Sprint(tok), fmt.Sprintf("%v %+v %#v %s %q %x", tok, tok, tok, tok, tok, tok),
		fmt.Sprintf("%+v", Options{Token: tok}), logs.String(), string(js),
	} {
		if strings.Contains(s, "secret") {
			t.Errorf("the token shows: %s", s)
		}
	}
	if _, err := NewToken("has space"); err == nil || strings.Contains(err.Error(), "has space") {
		t.Errorf("NewToken of a bad token: %v", err)
	}
}

func TestNewOptions(t *testing.T) {
	tok, _ := NewToken("lip_x")
	cases := []struct {
		o    Options
		want string
	}{
		{Options{}, "no token"},
		{Options{Token: tok, BaseURL: "ftp://lichess.org"}, "want http(s)://host"},
		{Options{Token: tok, BaseURL: "lichess.org"}, "want http(s)://host"},
		{Options{Token: tok, HTTPClient: &http.Client{Timeout: time.Second}}, "overall Timeout"},
	}
	for _, c := range cases {
		if _, err := New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v): %v, want %q", c.o, err, c.want)
		}
	}
	if c, err := New(Options{Token: tok}); err != nil || c.base.String() != DefaultBaseURL {
		t.Errorf("defaults: %v", err)
	}
}

func TestCheckToken(t *testing.T) {
	cases := []struct {
		name     string
		opts     lichesstest.Options
		token    string // "" for the server's own
		scopes   []string
		revoke   bool
		wantErr  error
		wantText string
	}{
		{name: "good"},
		{name: "good, lichess hides the scopes header (token/test instead)", opts: lichesstest.Options{HideScopes: true}},
		{name: "revoked", revoke: true, wantErr: ErrTokenRejected, wantText: "create a new personal token"},
		{name: "unknown", token: "lip_unknown", wantErr: ErrTokenRejected},
		{name: "wrong scope", opts: lichesstest.Options{Scopes: []string{"challenge:read", "puzzle:read"}}, wantErr: ErrMissingScope, wantText: "has only challenge:read, puzzle:read"},
		{name: "no scope", opts: lichesstest.Options{Scopes: []string{}}, wantErr: ErrMissingScope, wantText: "has no scope"},
		{name: "wrong scope, header hidden", opts: lichesstest.Options{Scopes: []string{"email:read"}, HideScopes: true}, wantErr: ErrMissingScope},
		{name: "a bot account", opts: lichesstest.Options{Title: "BOT"}, wantText: "is a bot account"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.opts)
			client := h.client
			if c.token != "" {
				client = h.newClient(c.token)
			}
			if c.revoke {
				h.srv.RevokeToken(h.srv.Token())
			}
			a, err := client.CheckToken(h.ctx)
			if c.wantErr == nil && c.wantText == "" {
				if err != nil || a.ID != lichesstest.DefaultAccountID || !a.HasScope(ScopeBoardPlay) {
					t.Fatalf("account %+v, %v", a, err)
				}
				return
			}
			if err == nil || (c.wantErr != nil && !errors.Is(err, c.wantErr)) || !strings.Contains(err.Error(), c.wantText) {
				t.Fatalf("error %v, want %v %q", err, c.wantErr, c.wantText)
			}
			if strings.Contains(err.Error(), h.srv.Token()) {
				t.Errorf("the error shows the token")
			}
		})
	}
	// A token without board:play is refused by the Board API itself (403).
	h := newHarness(t, lichesstest.Options{Scopes: []string{"challenge:read"}})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	if _, err := h.client.PostMove(h.ctx, id, "e2e4", false); !errors.Is(err, ErrMissingScope) {
		t.Errorf("a move with the wrong scope: %v", err)
	}
}

// TestSeek: with the event stream open, a seek waits until lichess pairs
// it; the game then starts in the event stream. A seek cancelled is
// withdrawn.
func TestSeek(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	events := make(chan Event, 16)
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- h.client.FollowEvents(ctx, func(e Event) error { events <- e; return nil }, nil)
	}()
	h.eventually("the event stream", func() bool { return h.client.Stats().StreamsOpened == 1 })

	seekDone := make(chan error, 1)
	go func() {
		_, err := h.client.Seek(h.ctx, Seek{Time: 10 * time.Minute, Increment: 5 * time.Second, Rated: true, Color: "black"})
		seekDone <- err
	}()
	h.eventually("the seek", func() bool { return len(h.srv.Seeks()) == 1 })
	id, err := h.srv.MatchSeek(h.srv.Seeks()[0], lichesstest.Opponent{Moves: []string{"e2e4"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-seekDone; err != nil {
		t.Fatalf("Seek: %v", err)
	}
	var start *GameStart
	for start == nil {
		select {
		case e := <-events:
			start, _ = e.(*GameStart)
		case <-time.After(realDeadline):
			t.Fatal("no gameStart")
		}
	}
	if side, _ := start.Game.Side(); start.Game.GameID != id || side != board.Black || !start.Game.Rated || start.Game.Speed != "rapid" {
		t.Errorf("gameStart %+v", start.Game)
	}

	// Cancelling withdraws the seek.
	sctx, scancel := context.WithCancel(h.ctx)
	go func() {
		_, err := h.client.Seek(sctx, Seek{Time: 30 * time.Minute})
		seekDone <- err
	}()
	h.eventually("the second seek", func() bool { return len(h.srv.Seeks()) == 1 })
	scancel()
	if err := <-seekDone; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled seek: %v", err)
	}
	h.eventually("the seek withdrawn", func() bool { return len(h.srv.Seeks()) == 0 })

	// A correspondence seek answers at once with its id.
	sid, err := h.client.Seek(h.ctx, Seek{Days: 3})
	if err != nil || sid == "" {
		t.Errorf("correspondence seek: %q %v", sid, err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("FollowEvents: %v", err)
	}
}

func TestSeekChecks(t *testing.T) {
	tok, _ := NewToken("lip_x")
	c, _ := New(Options{Token: tok, BaseURL: "http://127.0.0.1:1"})
	cases := []struct {
		s    Seek
		want string
	}{
		{Seek{Time: 3 * time.Minute, Increment: 2 * time.Second}, "blitz or faster"},
		{Seek{Time: 181 * time.Minute}, "up to 180 minutes"},
		{Seek{Time: 10 * time.Minute, Increment: 1500 * time.Millisecond}, "whole seconds"},
		{Seek{Time: 10 * time.Minute, Color: "green"}, `color "green"`},
		{Seek{Days: 4}, "days 4"},
		{Seek{Days: 3, Time: time.Minute}, "has no clock"},
	}
	for _, k := range cases {
		if _, err := c.Seek(context.Background(), k.s); err == nil || !strings.Contains(err.Error(), k.want) {
			t.Errorf("Seek(%+v): %v, want %q", k.s, err, k.want)
		}
	}
	f, err := Seek{Time: 90 * time.Second * 10, Increment: 0, Color: "white", Rated: true}.form()
	if err != nil || f.Get("time") != "15" || f.Get("increment") != "0" || f.Get("color") != "white" || f.Get("rated") != "true" {
		t.Errorf("form %v %v", f, err)
	}
	// The server refuses what the client would not send.
	h := newHarness(t, lichesstest.Options{})
	for _, body := range []string{"time=3&increment=0", "time=x&increment=0", "days=4", "time=10&increment=0&color=green"} {
		err := h.client.okCall(h.ctx, request{method: "POST", path: "/api/board/seek", body: body, auth: true})
		if !errors.Is(err, ErrRefused) {
			t.Errorf("seek %s: %v", body, err)
		}
	}
}

// TestChallenges: a challenge reaches the event stream; accepting it starts
// the game, declining removes it.
func TestChallenges(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	var mu sync.Mutex
	var got []Event
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	go h.client.FollowEvents(ctx, func(e Event) error { mu.Lock(); got = append(got, e); mu.Unlock(); return nil }, nil)
	h.eventually("the event stream", func() bool { return h.client.Stats().StreamsOpened == 1 })
	c1 := h.srv.Challenge(lichesstest.ChallengeSpec{Color: "white", Clock: &lichesstest.GameClock{Initial: 15 * time.Minute, Increment: 10 * time.Second}})
	c2 := h.srv.Challenge(lichesstest.ChallengeSpec{DaysPerTurn: 2})
	events := func() []Event { mu.Lock(); defer mu.Unlock(); return append([]Event(nil), got...) }
	h.eventually("two challenges", func() bool { return len(events()) == 2 })
	ch := events()[0].(*ChallengeEvent)
	if ch.Challenge.ID != c1 || ch.Challenge.Direction != "in" || ch.Challenge.TimeControl.Show != "15+10" || !ch.BoardCompatible {
		t.Errorf("challenge %+v", ch)
	}
	if err := h.client.AcceptChallenge(h.ctx, c1); err != nil {
		t.Fatal(err)
	}
	h.eventually("the game", func() bool { return len(events()) == 3 })
	start := events()[2].(*GameStart)
	if side, _ := start.Game.Side(); start.Game.GameID != c1 || side != board.Black {
		t.Errorf("gameStart %+v", start.Game)
	}
	if err := h.client.DeclineChallenge(h.ctx, c2, "later"); err != nil {
		t.Fatal(err)
	}
	if len(h.srv.Challenges()) != 0 {
		t.Errorf("challenges left: %v", h.srv.Challenges())
	}
	if err := h.client.AcceptChallenge(h.ctx, c2); !errors.Is(err, ErrNotFound) {
		t.Errorf("accepting a declined challenge: %v", err)
	}
	if err := h.client.CancelChallenge(h.ctx, "nosuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("cancel: %v", err)
	}
}

// TestFollowEventsReconnects: the event stream drops; FollowEvents
// reconnects after the backoff and lichess lists the game in progress
// again. A revoked token ends it with ErrTokenRejected.
func TestFollowEventsReconnects(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	var mu sync.Mutex
	starts := 0
	var links []Link
	done := make(chan error, 1)
	go func() {
		done <- h.client.FollowEvents(h.ctx, func(e Event) error {
			if s, ok := e.(*GameStart); ok && s.Game.GameID == id {
				mu.Lock()
				starts++
				mu.Unlock()
			}
			return nil
		}, func(l Link) { mu.Lock(); links = append(links, l); mu.Unlock() })
	}()
	count := func() int { mu.Lock(); defer mu.Unlock(); return starts }
	h.eventually("the game listed", func() bool { return count() == 1 })
	h.srv.DropStreams()
	h.pass(testMinBackoff)
	h.eventually("the game listed again", func() bool { return count() == 2 })
	// A second event stream for the token closes the first (one per
	// token): FollowEvents reconnects.
	other := h.newClient(h.srv.Token())
	octx, ocancel := context.WithCancel(h.ctx)
	go other.StreamEvents(octx, func(Event) error { return nil })
	h.eventually("the other stream", func() bool { return h.srv.EventStreamsOpened() == 3 })
	ocancel()
	h.pass(testMinBackoff)
	h.eventually("listed a third time", func() bool { return count() == 3 })
	h.srv.RevokeToken(h.srv.Token())
	h.srv.DropStreams()
	h.pass(testMinBackoff)
	select {
	case err := <-done:
		if !errors.Is(err, ErrTokenRejected) {
			t.Errorf("FollowEvents: %v", err)
		}
	case <-time.After(realDeadline):
		t.Fatal("FollowEvents went on with a revoked token")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(links) < 4 || !links[0].Up || links[1].Up || links[1].Retry != testMinBackoff || !errors.Is(links[len(links)-1].Err, ErrTokenRejected) {
		t.Errorf("links %+v", links)
	}
}

// TestRequestTimeout: a request lichess does not answer is abandoned after
// the request timeout, as a transport error.
func TestRequestTimeout(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	id, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	h.srv.FaultNextMove(lichesstest.MoveFault{Kind: lichesstest.HoldBefore})
	res := make(chan error, 1)
	go func() {
		out, err := h.client.PostMove(h.ctx, id, "e2e4", false)
		if out != MoveUnknown {
			err = fmt.Errorf("outcome %v: %w", out, err)
		}
		res <- err
	}()
	h.pass(testTimeout)
	err := <-res
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "request timeout") {
		t.Errorf("a request unanswered: %v", err)
	}
}

func TestPlaying(t *testing.T) {
	h := newHarness(t, lichesstest.Options{})
	a, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White, Moves: []string{"e2e4"}, Clock: &lichesstest.GameClock{Initial: 10 * time.Minute}})
	b, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.Black, Moves: []string{"e2e4"}, DaysPerTurn: 3})
	done, _ := h.srv.CreateGame(lichesstest.GameSpec{Side: board.White})
	if err := h.client.Abort(h.ctx, done); err != nil {
		t.Fatal(err)
	}
	games, err := h.client.Playing(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].GameID != a || games[1].GameID != b {
		t.Fatalf("playing %+v", games)
	}
	if games[0].IsMyTurn || !games[1].IsMyTurn || games[0].LastMove != "e2e4" || games[0].Speed != "rapid" || games[1].Speed != "correspondence" || games[0].Status != StatusStarted {
		t.Errorf("playing %+v", games)
	}
}
