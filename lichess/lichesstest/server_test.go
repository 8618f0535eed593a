package lichesstest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// These tests speak raw HTTP to the server, not through the lichess client,
// so that the server is checked against the description on its own.

type rawClient struct {
	t     *testing.T
	srv   *Server
	token string
}

func (c rawClient) do(method, path, body string) (*http.Response, map[string]any) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.srv.URL()+path, strings.NewReader(body))
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return resp, out
}

// stream opens a stream and returns a function reading its next line
// ("" for a keep-alive) and the response.
func (c rawClient) stream(ctx context.Context, path string) (*http.Response, func() (string, error)) {
	c.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.srv.URL()+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	r := bufio.NewReader(resp.Body)
	return resp, func() (string, error) {
		l, err := r.ReadString('\n')
		return strings.TrimSuffix(l, "\n"), err
	}
}

// requireFields checks that a JSON object has the fields a schema of the
// description requires.
func requireFields(t *testing.T, what, line string, fields ...string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("%s: %v: %s", what, err, line)
	}
	for _, f := range fields {
		if _, ok := m[f]; !ok {
			t.Errorf("%s lacks required field %q: %s", what, f, line)
		}
	}
	return m
}

var (
	gameFullRequired  = []string{"type", "id", "variant", "speed", "perf", "rated", "createdAt", "white", "black", "initialFen", "state"}
	gameStateRequired = []string{"type", "moves", "wtime", "btime", "winc", "binc", "status"}
	challengeRequired = []string{"id", "url", "status", "challenger", "destUser", "variant", "rated", "speed", "timeControl", "color", "perf"}
	playingRequired   = []string{"gameId", "fullId", "color", "fen", "hasMoved", "isMyTurn", "lastMove", "opponent", "perf", "rated", "secondsLeft", "source", "speed", "variant"}
)

func newServer(t *testing.T, o Options) (*Server, *Clock, rawClient) {
	clock := &Clock{}
	o.Clock, o.Wait = clock, clock.Wait
	s := New(o)
	t.Cleanup(s.Close)
	return s, clock, rawClient{t: t, srv: s, token: s.Token()}
}

func TestAuth(t *testing.T) {
	s, _, c := newServer(t, Options{Scopes: []string{"board:play", "challenge:read"}})
	s.AddToken("lip_narrow", "email:read")
	cases := []struct {
		token, method, path string
		status              int
		message, scopes     string
	}{
		{"", "GET", "/api/account", 401, "Missing authorization header", ""},
		{"lip_nosuch", "GET", "/api/account", 401, "No such token", ""},
		{s.Token(), "GET", "/api/account", 200, "", "board:play,challenge:read"},
		{"lip_narrow", "GET", "/api/account", 200, "", "email:read"},
		{"lip_narrow", "POST", "/api/board/game/x/resign", 403, "Missing scope: board:play", "email:read"},
		{s.Token(), "POST", "/api/board/game/x/resign", 404, "No such game", "board:play,challenge:read"},
		{s.Token(), "GET", "/api/nothing", 404, "Not found.", ""},
	}
	for _, k := range cases {
		c.token = k.token
		resp, body := c.do(k.method, k.path, "")
		if resp.StatusCode != k.status || (k.message != "" && body["error"] != k.message) {
			t.Errorf("%s %s with %q: %d %v, want %d %q", k.method, k.path, k.token, resp.StatusCode, body, k.status, k.message)
		}
		if k.path != "/api/nothing" && resp.Header.Get("X-OAuth-Scopes") != k.scopes {
			t.Errorf("%s %s: X-OAuth-Scopes %q, want %q", k.method, k.path, resp.Header.Get("X-OAuth-Scopes"), k.scopes)
		}
	}
	c.token = s.Token()
	_, acct := c.do("GET", "/api/account", "")
	if acct["id"] != DefaultAccountID || acct["username"] != "Boarddplayer" {
		t.Errorf("account %v", acct)
	}
	s.RevokeToken(s.Token())
	if resp, _ := c.do("GET", "/api/account", ""); resp.StatusCode != 401 {
		t.Errorf("a revoked token: %d", resp.StatusCode)
	}
	// /api/token/test needs no token and tells the scopes of each.
	c.token = ""
	req, _ := http.NewRequest("POST", s.URL()+"/api/token/test", strings.NewReader("lip_narrow,lip_nosuch,"+s.Token()))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tt map[string]*struct {
		UserID string `json:"userId"`
		Scopes string `json:"scopes"`
	}
	json.NewDecoder(resp.Body).Decode(&tt)
	resp.Body.Close()
	if tt["lip_narrow"] == nil || tt["lip_narrow"].Scopes != "email:read" || tt["lip_nosuch"] != nil || tt[s.Token()] != nil {
		t.Errorf("token test %v", tt)
	}
}

func TestGameStream(t *testing.T) {
	s, clock, c := newServer(t, Options{})
	id, err := s.CreateGame(GameSpec{Side: board.White, Clock: &GameClock{Initial: 10 * time.Minute, Increment: 5 * time.Second}, Opponent: Opponent{Moves: []string{"e7e5", "b8c6"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, next := c.stream(ctx, "/api/board/game/stream/"+id)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	first, _ := next()
	full := requireFields(t, "gameFull", first, gameFullRequired...)
	st, _ := json.Marshal(full["state"])
	requireFields(t, "gameFull.state", string(st), gameStateRequired...)
	if full["initialFen"] != "startpos" || full["type"] != "gameFull" || full["speed"] != "rapid" {
		t.Errorf("gameFull %s", first)
	}
	white := full["white"].(map[string]any)
	if white["id"] != DefaultAccountID {
		t.Errorf("white %v", white)
	}
	if _, ok := white["title"]; !ok || white["title"] != nil {
		t.Errorf("white's title should be null: %v", white)
	}

	// Castling written king-to-rook, a promotion without its piece.
	if resp, body := c.do("POST", "/api/board/game/"+id+"/move/e2e4", ""); resp.StatusCode != 200 || body["ok"] != true {
		t.Fatalf("move: %d %v", resp.StatusCode, body)
	}
	for _, want := range []string{"e2e4", "e2e4 e7e5"} {
		l, _ := next()
		m := requireFields(t, "gameState", l, gameStateRequired...)
		if m["moves"] != want {
			t.Errorf("moves %v, want %s", m["moves"], want)
		}
		for _, f := range []string{"wdraw", "bdraw", "wtakeback", "btakeback", "winner"} {
			if _, ok := m[f]; ok {
				t.Errorf("%s present though unset: %s", f, l)
			}
		}
	}
	// A keep-alive is an empty line, every 6 s of the server's clock.
	if err := clock.Pass(ctx, DefaultGameKeepAlive); err != nil {
		t.Fatal(err)
	}
	if l, err := next(); l != "" || err != nil {
		t.Errorf("keep-alive %q %v", l, err)
	}
	clock.Advance(20 * time.Second)
	if _, body := c.do("POST", "/api/board/game/"+id+"/move/g1f3", ""); body["ok"] != true {
		t.Fatalf("g1f3: %v", body)
	}
	var l string
	for l == "" {
		l, _ = next()
	}
	m := requireFields(t, "gameState", l, gameStateRequired...)
	// White's clock ran 26 s (the keep-alive's 6 and 20) and gained the
	// increment; Black's has not run since its move.
	if m["wtime"].(float64) != float64((10*time.Minute-26*time.Second+5*time.Second).Milliseconds()) || m["btime"].(float64) != 600000 || m["winc"].(float64) != 5000 {
		t.Errorf("clocks after 26 s: %s", l)
	}
}

func TestChessRules(t *testing.T) {
	s, _, c := newServer(t, Options{})
	cases := []struct {
		name  string
		fen   string
		side  board.Color
		moves []string // played before
		move  string
		code  int
		error string
		after string // the move as recorded
	}{
		{name: "castling, king to g1", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", side: board.White, move: "e1g1", code: 200, after: "e1g1"},
		{name: "castling, king to rook", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", side: board.White, move: "e1h1", code: 200, after: "e1g1"},
		{name: "queenside, king to rook", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", side: board.White, move: "e1a1", code: 200, after: "e1c1"},
		{name: "castling through check", fen: "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", side: board.White, move: "e1g1", code: 400, error: "Piece on e1 cannot move to g1"},
		{name: "promotion names its piece", fen: "8/P6k/8/8/8/8/8/K7 w - - 0 1", side: board.White, move: "a7a8n", code: 200, after: "a7a8n"},
		{name: "promotion defaults to a queen", fen: "8/P6k/8/8/8/8/8/K7 w - - 0 1", side: board.White, move: "a7a8", code: 200, after: "a7a8q"},
		{name: "en passant", fen: "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", side: board.White, move: "e5d6", code: 200, after: "e5d6"},
		{name: "illegal", side: board.White, move: "e2e5", code: 400, error: "Piece on e2 cannot move to e5"},
		{name: "into check", fen: "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", side: board.White, move: "e2d3", code: 400, error: "Piece on e2 cannot move to d3"},
		{name: "not a move", side: board.White, move: "e2", code: 400, error: "Invalid UCI: e2"},
		{name: "not a square", side: board.White, move: "e2x4", code: 400, error: "Invalid UCI: e2x4"},
		{name: "not its turn", side: board.Black, move: "e7e5", code: 400, error: "Not your turn, or game already over"},
		{name: "the other side's man", side: board.White, move: "e7e5", code: 400, error: "No piece of yours on e7"},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			id, err := s.CreateGame(GameSpec{Side: k.side, InitialFEN: k.fen, Moves: k.moves})
			if err != nil {
				t.Fatal(err)
			}
			resp, body := c.do("POST", "/api/board/game/"+id+"/move/"+k.move, "")
			if resp.StatusCode != k.code || (k.error != "" && body["error"] != k.error) {
				t.Fatalf("%d %v, want %d %q", resp.StatusCode, body, k.code, k.error)
			}
			v, _ := s.Game(id)
			if k.after != "" && (len(v.Moves) != 1 || v.Moves[0] != k.after) {
				t.Errorf("recorded %v, want %s", v.Moves, k.after)
			}
			if k.after == "" && len(v.Moves) != 0 {
				t.Errorf("a refused move was played: %v", v.Moves)
			}
		})
	}
	// Mate and stalemate end the game.
	id, _ := s.CreateGame(GameSpec{Side: board.Black, Moves: []string{"f2f3", "e7e5", "g2g4"}})
	c.do("POST", "/api/board/game/"+id+"/move/d8h4", "")
	if v, _ := s.Game(id); v.Status != "mate" || v.Winner != "black" {
		t.Errorf("fool's mate: %+v", v)
	}
	id, _ = s.CreateGame(GameSpec{Side: board.White, InitialFEN: "7k/8/5Q2/8/8/8/8/K7 w - - 0 1"})
	c.do("POST", "/api/board/game/"+id+"/move/f6g6", "")
	if v, _ := s.Game(id); v.Status != "stalemate" || v.Winner != "" {
		t.Errorf("stalemate: %+v", v)
	}
	// A finished game's stream sends gameFull and closes.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, next := c.stream(ctx, "/api/board/game/stream/"+id)
	l, _ := next()
	if m := requireFields(t, "gameFull", l, gameFullRequired...); m["state"].(map[string]any)["status"] != "stalemate" {
		t.Errorf("gameFull of a finished game: %s", l)
	}
	if _, err := next(); err != io.EOF {
		t.Errorf("the stream of a finished game stays open: %v", err)
	}
}

func TestTakebackRule(t *testing.T) {
	s, _, c := newServer(t, Options{})
	cases := []struct {
		name   string
		moves  []string
		side   board.Color
		accept bool
		want   []string
	}{
		// Black to move, White (the account) asks: one ply, its own.
		{"asked after moving", []string{"e2e4", "e7e5", "g1f3"}, board.White, true, []string{"e2e4", "e7e5"}},
		// White to move, White asks: two plies.
		{"asked when to move", []string{"e2e4", "e7e5"}, board.White, true, []string{}},
		{"declined", []string{"e2e4", "e7e5", "g1f3"}, board.White, false, []string{"e2e4", "e7e5", "g1f3"}},
	}
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			id, _ := s.CreateGame(GameSpec{Side: k.side, Moves: k.moves, Opponent: Opponent{AcceptTakeback: k.accept}})
			if _, body := c.do("POST", "/api/board/game/"+id+"/takeback/yes", ""); body["ok"] != true {
				t.Fatal(body)
			}
			v, _ := s.Game(id)
			if !slices.Equal(v.Moves, k.want) && !(len(v.Moves) == 0 && len(k.want) == 0) {
				t.Errorf("moves %v, want %v", v.Moves, k.want)
			}
			if !k.accept && !v.Takebacks[k.side] {
				t.Errorf("the proposal is not shown: %+v", v)
			}
		})
	}
}

func TestEventStream(t *testing.T) {
	s, _, c := newServer(t, Options{})
	ongoing, _ := s.CreateGame(GameSpec{Side: board.White})
	ch := s.Challenge(ChallengeSpec{Clock: &GameClock{Initial: 15 * time.Minute}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, next := c.stream(ctx, "/api/stream/event")
	l, _ := next()
	m := requireFields(t, "challenge event", l, "type", "challenge")
	cj, _ := json.Marshal(m["challenge"])
	requireFields(t, "challenge", string(cj), challengeRequired...)
	l, _ = next()
	m = requireFields(t, "gameStart", l, "type", "game")
	g := m["game"].(map[string]any)
	if g["gameId"] != ongoing || g["fullId"] == nil || g["status"].(map[string]any)["name"] != "started" || g["compat"].(map[string]any)["board"] != true {
		t.Errorf("gameStart %s", l)
	}
	_ = ch
	// One event stream per token: a second one closes the first.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	_, next2 := c.stream(ctx2, "/api/stream/event")
	next2()
	next2()
	for {
		l, err := next()
		if err == io.EOF {
			break
		}
		if err != nil || l != "" {
			t.Fatalf("the first stream after the second opened: %q %v", l, err)
		}
	}
	// /api/account/playing lists the game with the schema's fields.
	_, body := c.do("GET", "/api/account/playing", "")
	games := body["nowPlaying"].([]any)
	b, _ := json.Marshal(games[0])
	requireFields(t, "nowPlaying item", string(b), playingRequired...)
	if resp, _ := c.do("GET", "/api/account/playing?nb=99", ""); resp.StatusCode != 400 {
		t.Errorf("nb=99: %d", resp.StatusCode)
	}
}

func TestSeekStream(t *testing.T) {
	s, clock, c := newServer(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL()+"/api/board/seek", strings.NewReader("rated=true&time=15&increment=10&color=white"))
	req.Header.Set("Authorization", "Bearer "+s.Token())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for len(s.Seeks()) == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := clock.Pass(ctx, DefaultEventKeepAlive); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(resp.Body)
	if l, err := r.ReadString('\n'); l != "\n" || err != nil {
		t.Errorf("seek keep-alive %q %v", l, err)
	}
	id, err := s.MatchSeek(s.Seeks()[0], Opponent{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadString('\n'); err != io.EOF {
		t.Errorf("the seek's connection stays open after the match: %v", err)
	}
	if v, _ := s.Game(id); v.Side != board.White || v.Status != "started" {
		t.Errorf("game %+v", v)
	}
	_, body := c.do("POST", "/api/board/seek", "days=3")
	if body["id"] == nil {
		t.Errorf("correspondence seek %v", body)
	}
}

func TestClock(t *testing.T) {
	var c Clock
	ctx := context.Background()
	done := make(chan time.Duration, 2)
	go func() { c.Wait(ctx, 5*time.Second); done <- c.Now() }()
	go func() { c.Wait(ctx, 2*time.Second); done <- c.Now() }()
	if err := c.AwaitWait(ctx, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.AwaitWait(ctx, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Second)
	select {
	case <-done:
		t.Fatal("a wait ended early")
	case <-time.After(5 * time.Millisecond):
	}
	c.Advance(time.Second)
	if got := <-done; got != 2*time.Second {
		t.Errorf("first wait ended at %v", got)
	}
	if w := c.Waiting(); !slices.Equal(w, []time.Duration{5 * time.Second}) {
		t.Errorf("waiting %v", w)
	}
	c.Advance(10 * time.Second)
	<-done
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.Wait(cctx, time.Second); err == nil {
		t.Error("a cancelled wait returned nil")
	}
	if len(c.Waiting()) != 0 {
		t.Errorf("a cancelled wait is still listed: %v", c.Waiting())
	}
}
