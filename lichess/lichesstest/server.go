// Package lichesstest is a local HTTP server implementing the lichess Board
// API endpoints boardd uses, as lichess's OpenAPI description defines them
// (README.md names the version): the account and its token's scopes, ongoing
// games, the event stream, seeks, challenges, the game stream with its
// keep-alive empty lines, moves, draw offers, takebacks, resignation,
// aborting and claims. It plays real chess (illegal moves are refused as
// lichess refuses them) and plays the opponent from a script. Tests inject
// the faults a real link has: dropped and stalled streams, 429 answers,
// refused and lost moves, a server going down and coming back.
package lichesstest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// Defaults of Options.
const (
	DefaultToken     = "lip_boarddTestToken0123456789"
	DefaultAccountID = "boarddplayer"
	// DefaultGameKeepAlive is lila's interval between the game stream's
	// empty lines; DefaultEventKeepAlive the event stream's (as documented).
	DefaultGameKeepAlive  = 6 * time.Second
	DefaultEventKeepAlive = 7 * time.Second
	// RateLimitMessage is the body's error of a 429.
	RateLimitMessage = "Too many requests. Try again later."
)

// Options configure a Server.
type Options struct {
	// Clock and Wait are the server's time (real if nil): clocks of the
	// games and keep-alive intervals. Tests share a *Clock with the client.
	Clock timing.Clock
	Wait  func(ctx context.Context, d time.Duration) error
	// GameKeepAlive and EventKeepAlive space the empty lines of the game
	// and event (and seek) streams (the defaults if zero).
	GameKeepAlive, EventKeepAlive time.Duration
	// AccountID and Username name the account whose token is Token
	// (defaults: DefaultAccountID, and the id capitalised).
	AccountID, Username string
	// Title is the account's title ("BOT" makes it a bot account).
	Title string
	// Token is the account's token (DefaultToken if empty) and Scopes its
	// scopes (board:play if nil).
	Token  string
	Scopes []string
	// HideScopes leaves the X-OAuth-Scopes header out of the answers, as a
	// proxy stripping headers would.
	HideScopes bool
	// Logger receives the requests and what the server does (discarded if
	// nil). The token is never logged.
	Logger *slog.Logger
}

// Server is the local lichess. Its methods are safe for concurrent use.
type Server struct {
	o      Options
	clock  timing.Clock
	wait   func(ctx context.Context, d time.Duration) error
	log    *slog.Logger
	ts     *httptest.Server
	gate   *gateListener
	closed atomic.Bool

	mu         sync.Mutex
	tokens     map[string]*tokenInfo
	users      map[string]*userInfo
	games      map[string]*game
	gameOrder  []string
	challenges map[string]*challenge
	seeks      map[string]*seek
	eventSubs  map[string]*sub // per user: one event stream at a time
	nextID     int
	limits     []rateLimit
	moveFaults []MoveFault
	posts      []MovePost
	requests   []string
	eventOpens int
}

type tokenInfo struct {
	user    string
	scopes  []string
	revoked bool
}

type userInfo struct {
	id, name, title string
	rating          int
}

type rateLimit struct {
	prefix     string
	left       int
	retryAfter int
}

// New starts a server on a free port of 127.0.0.1 with one account and its
// token. Close it when done.
func New(o Options) *Server {
	s := &Server{
		o: o, clock: o.Clock, wait: o.Wait, log: o.Logger,
		tokens: map[string]*tokenInfo{}, users: map[string]*userInfo{}, games: map[string]*game{},
		challenges: map[string]*challenge{}, seeks: map[string]*seek{}, eventSubs: map[string]*sub{},
	}
	if s.clock == nil {
		s.clock = timing.NewReal()
	}
	if s.wait == nil {
		s.wait = timing.Wait
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.o.GameKeepAlive <= 0 {
		s.o.GameKeepAlive = DefaultGameKeepAlive
	}
	if s.o.EventKeepAlive <= 0 {
		s.o.EventKeepAlive = DefaultEventKeepAlive
	}
	if s.o.AccountID == "" {
		s.o.AccountID = DefaultAccountID
	}
	if s.o.Username == "" {
		s.o.Username = strings.ToUpper(s.o.AccountID[:1]) + s.o.AccountID[1:]
	}
	if s.o.Token == "" {
		s.o.Token = DefaultToken
	}
	if s.o.Scopes == nil {
		s.o.Scopes = []string{"board:play"}
	}
	s.users[s.o.AccountID] = &userInfo{id: s.o.AccountID, name: s.o.Username, title: s.o.Title, rating: 1500}
	s.tokens[s.o.Token] = &tokenInfo{user: s.o.AccountID, scopes: s.o.Scopes}

	s.ts = httptest.NewUnstartedServer(s.routes())
	s.gate = &gateListener{Listener: s.ts.Listener}
	s.ts.Listener = s.gate
	s.ts.Start()
	return s
}

// URL returns the server's base URL, for the client's BaseURL.
func (s *Server) URL() string { return s.ts.URL }

// Token returns the account's token.
func (s *Server) Token() string { return s.o.Token }

// AccountID returns the account's user id.
func (s *Server) AccountID() string { return s.o.AccountID }

// Close stops the server, ending every stream.
func (s *Server) Close() {
	if s.closed.Swap(true) {
		return
	}
	s.mu.Lock()
	s.dropAllLocked()
	s.mu.Unlock()
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// gateListener accepts connections and, while the server is down, closes
// them at once, as a restarting server's address would.
type gateListener struct {
	net.Listener
	down atomic.Bool
}

func (l *gateListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.down.Load() {
			c.Close()
			continue
		}
		return c, nil
	}
}

// AddToken adds a token of the account with the given scopes.
func (s *Server) AddToken(token string, scopes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = &tokenInfo{user: s.o.AccountID, scopes: scopes}
}

// RevokeToken revokes a token: lichess answers 401 to it from now on.
func (s *Server) RevokeToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tokens[token]; t != nil {
		t.revoked = true
	}
}

// RateLimitNext makes the next n requests whose path starts with prefix
// ("" for any) answer 429, with a Retry-After of retryAfter seconds if
// positive.
func (s *Server) RateLimitNext(n int, prefix string, retryAfter int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = append(s.limits, rateLimit{prefix: prefix, left: n, retryAfter: retryAfter})
}

// Requests returns the requests served so far, as "METHOD /path".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// EventStreamsOpened returns how many event streams were opened.
func (s *Server) EventStreamsOpened() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eventOpens
}

// DropStreams breaks every open stream abruptly (the connection closes
// without the chunked end), as a network fault would.
func (s *Server) DropStreams() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropAllLocked()
}

func (s *Server) dropAllLocked() {
	for _, g := range s.games {
		for _, sb := range g.subs {
			sb.abort()
		}
		g.subs = nil
	}
	for u, sb := range s.eventSubs {
		sb.abort()
		delete(s.eventSubs, u)
	}
	for _, sk := range s.seeks {
		if sk.sub != nil {
			sk.sub.abort()
		}
	}
}

// StallStreams makes every open stream go silent, keep-alives included,
// with its connection left open (new streams are not affected).
func (s *Server) StallStreams() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.games {
		for _, sb := range g.subs {
			sb.stalled.Store(true)
		}
	}
	for _, sb := range s.eventSubs {
		sb.stalled.Store(true)
	}
}

// GameStreams returns how many streams of game id are open.
func (s *Server) GameStreams(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.games[id]; g != nil {
		return len(g.subs)
	}
	return 0
}

// GoDown takes the server down as a restart does: every connection drops
// and new ones are closed at once until ComeUp. Games survive; seeks and
// event streams do not.
func (s *Server) GoDown() {
	s.gate.down.Store(true)
	s.mu.Lock()
	s.dropAllLocked()
	for id, sk := range s.seeks {
		if sk.sub != nil {
			delete(s.seeks, id)
		}
	}
	s.mu.Unlock()
	s.ts.CloseClientConnections()
}

// ComeUp brings the server back after GoDown.
func (s *Server) ComeUp() { s.gate.down.Store(false) }

// Restart is GoDown then ComeUp.
func (s *Server) Restart() {
	s.GoDown()
	s.ComeUp()
}

// MoveFaultKind is what the server does with a move POST instead of
// answering it normally.
type MoveFaultKind int

// Move faults.
const (
	// RefuseMove answers 400 with the fault's Reason, playing nothing.
	RefuseMove MoveFaultKind = iota + 1
	// LoseMove breaks the connection before the move is played.
	LoseMove
	// SwallowAnswer plays the move, then breaks the connection without
	// answering.
	SwallowAnswer
	// HoldBefore keeps the request unanswered, the move not played, until
	// the client gives up on it.
	HoldBefore
	// HoldAfter plays the move and keeps the request unanswered until the
	// client gives up on it.
	HoldAfter
)

// MoveFault is a fault for one move POST.
type MoveFault struct {
	Kind   MoveFaultKind
	Reason string // for RefuseMove
}

// FaultNextMove applies f to the next move POST (faults queue up, one per
// POST).
func (s *Server) FaultNextMove(f MoveFault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moveFaults = append(s.moveFaults, f)
}

// MovePost records one move POST and what became of it.
type MovePost struct {
	Game   string
	Move   string
	Ply    int  // the game's length when it arrived
	Status int  // the HTTP status answered, 0 for none
	Played bool // the move was played
	Error  string
}

// MovePosts returns the move POSTs so far.
func (s *Server) MovePosts() []MovePost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]MovePost(nil), s.posts...)
}

// routes maps the endpoints.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	board := []string{"board:play"}
	challenge := []string{"challenge:write", "bot:play", "board:play"}
	s.handle(mux, "GET /api/account", nil, s.serveAccount)
	mux.HandleFunc("POST /api/token/test", s.limited(s.serveTokenTest))
	s.handle(mux, "GET /api/account/playing", nil, s.servePlaying)
	s.handle(mux, "GET /api/stream/event", []string{"challenge:read", "bot:play", "board:play"}, s.serveEventStream)
	s.handle(mux, "POST /api/board/seek", board, s.serveSeek)
	s.handle(mux, "GET /api/board/game/stream/{id}", board, s.serveGameStream)
	s.handle(mux, "POST /api/board/game/{id}/move/{move}", board, s.serveMove)
	s.handle(mux, "POST /api/board/game/{id}/draw/{accept}", board, s.serveDraw)
	s.handle(mux, "POST /api/board/game/{id}/takeback/{accept}", board, s.serveTakeback)
	s.handle(mux, "POST /api/board/game/{id}/resign", board, s.serveResign)
	s.handle(mux, "POST /api/board/game/{id}/abort", board, s.serveAbort)
	s.handle(mux, "POST /api/board/game/{id}/claim-victory", board, s.serveClaimVictory)
	s.handle(mux, "POST /api/board/game/{id}/claim-draw", board, s.serveClaimDraw)
	s.handle(mux, "POST /api/board/game/{id}/chat", board, s.serveChat)
	s.handle(mux, "POST /api/challenge/{id}/accept", challenge, s.serveChallengeAccept)
	s.handle(mux, "POST /api/challenge/{id}/decline", challenge, s.serveChallengeDecline)
	s.handle(mux, "POST /api/challenge/{id}/cancel", challenge, s.serveChallengeCancel)
	mux.HandleFunc("/", s.limited(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, jsonError{Error: "Not found."})
	}))
	return mux
}

// limited answers 429 while a rate-limit fault covers the request, and
// records it.
func (s *Server) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.Path)
		var hit *rateLimit
		for i := range s.limits {
			if s.limits[i].left > 0 && strings.HasPrefix(r.URL.Path, s.limits[i].prefix) {
				s.limits[i].left--
				hit = &s.limits[i]
				break
			}
		}
		retry := 0
		if hit != nil {
			retry = hit.retryAfter
		}
		s.mu.Unlock()
		if hit != nil {
			s.log.Info("lichesstest: 429", "request", r.Method+" "+r.URL.Path)
			if retry > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(retry))
			}
			writeJSON(w, http.StatusTooManyRequests, jsonError{Error: RateLimitMessage})
			return
		}
		s.log.Debug("lichesstest: request", "request", r.Method+" "+r.URL.Path)
		h(w, r)
	}
}

// handle registers an endpoint that needs a token with one of the accepted
// scopes (any token if accepted is nil), answering as lila does: 401 for a
// missing or unknown token, 403 naming the missing scope, and the
// X-OAuth-Scopes and X-Accepted-OAuth-Scopes headers.
func (s *Server) handle(mux *http.ServeMux, pattern string, accepted []string, h func(http.ResponseWriter, *http.Request, *userInfo)) {
	mux.HandleFunc(pattern, s.limited(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		var tok *tokenInfo
		const bearer = "Bearer "
		auth := r.Header.Get("Authorization")
		missing := !strings.HasPrefix(auth, bearer)
		if !missing {
			tok = s.tokens[strings.TrimPrefix(auth, bearer)]
		}
		var user *userInfo
		if tok != nil && !tok.revoked {
			user = s.users[tok.user]
		}
		s.mu.Unlock()
		if !s.o.HideScopes {
			w.Header().Set("X-Accepted-OAuth-Scopes", strings.Join(accepted, ","))
		}
		switch {
		case missing:
			s.setScopes(w, nil)
			writeJSON(w, http.StatusUnauthorized, jsonError{Error: "Missing authorization header"})
			return
		case user == nil:
			s.setScopes(w, nil)
			writeJSON(w, http.StatusUnauthorized, jsonError{Error: "No such token"})
			return
		}
		s.setScopes(w, tok.scopes)
		if accepted != nil && !intersects(accepted, tok.scopes) {
			writeJSON(w, http.StatusForbidden, jsonError{Error: "Missing scope: " + strings.Join(accepted, " || ")})
			return
		}
		h(w, r, user)
	}))
}

func (s *Server) setScopes(w http.ResponseWriter, scopes []string) {
	if !s.o.HideScopes {
		w.Header().Set("X-OAuth-Scopes", strings.Join(scopes, ","))
	}
}

func intersects(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(v)
	_, _ = w.Write(b)
}

func ok(w http.ResponseWriter) { writeJSON(w, http.StatusOK, jsonOK{OK: true}) }

func line(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}

func (s *Server) serveAccount(w http.ResponseWriter, r *http.Request, u *userInfo) {
	a := jsonAccount{ID: u.id, Username: u.name, URL: "https://lichess.org/@/" + u.name}
	if u.title != "" {
		a.Title = &u.title
	}
	writeJSON(w, http.StatusOK, a)
}

// serveTokenTest answers POST /api/token/test: for each comma-separated
// token, its user and scopes, or null.
func (s *Server) serveTokenTest(w http.ResponseWriter, r *http.Request) {
	body := make([]byte, 0, 1024)
	buf := make([]byte, 1024)
	for {
		n, err := r.Body.Read(buf)
		body = append(body, buf[:n]...)
		if err != nil || len(body) > 1<<20 {
			break
		}
	}
	type info struct {
		UserID  string `json:"userId"`
		Scopes  string `json:"scopes"`
		Expires *int64 `json:"expires"`
	}
	out := map[string]*info{}
	s.mu.Lock()
	for _, t := range strings.Split(string(body), ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if ti := s.tokens[t]; ti != nil && !ti.revoked {
			out[t] = &info{UserID: ti.user, Scopes: strings.Join(ti.scopes, ",")}
		} else {
			out[t] = nil
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// sub is one open stream: lines queue for its handler to write.
type sub struct {
	lines   chan []byte
	done    chan struct{} // closed to end the stream cleanly, after the queued lines
	drop    chan struct{} // closed to break it
	stalled atomic.Bool
	once    sync.Once
	dropped sync.Once
}

func newSub() *sub {
	return &sub{lines: make(chan []byte, 256), done: make(chan struct{}), drop: make(chan struct{})}
}

// send queues a line; a stream too slow to keep up is broken.
func (sb *sub) send(b []byte) {
	select {
	case sb.lines <- b:
	default:
		sb.abort()
	}
}

func (sb *sub) end()   { sb.once.Do(func() { close(sb.done) }) }
func (sb *sub) abort() { sb.dropped.Do(func() { close(sb.drop) }) }

// serveStream writes a stream: first, then whatever is queued, with an
// empty line every keepAlive, until the stream is ended, broken, or the
// client leaves.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, sb *sub, keepAlive time.Duration, first [][]byte) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	write := func(b []byte) {
		if sb.stalled.Load() {
			return
		}
		_, _ = w.Write(b)
		if fl != nil {
			fl.Flush()
		}
	}
	for _, b := range first {
		write(b)
	}
	if fl != nil {
		fl.Flush()
	}
	ctx := r.Context()
	ticks := make(chan struct{})
	go func() {
		for s.wait(ctx, keepAlive) == nil {
			select {
			case ticks <- struct{}{}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sb.drop:
			panic(http.ErrAbortHandler)
		case b := <-sb.lines:
			write(b)
		case <-ticks:
			write([]byte("\n"))
		case <-sb.done:
			for {
				select {
				case b := <-sb.lines:
					write(b)
				default:
					return
				}
			}
		}
	}
}

func (s *Server) newIDLocked(prefix string) string {
	s.nextID++
	return fmt.Sprintf("%s%0*d", prefix, 8-len(prefix), s.nextID)
}

// seek is a seek waiting for an opponent.
type seek struct {
	id               string
	user             string
	limit, increment time.Duration
	days             int
	rated            bool
	color, variant   string
	sub              *sub
}

// Seeks returns the ids of the seeks waiting.
func (s *Server) Seeks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id := range s.seeks {
		out = append(out, id)
	}
	return out
}

func (s *Server) serveSeek(w http.ResponseWriter, r *http.Request, u *userInfo) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, jsonError{Error: err.Error()})
		return
	}
	f := r.PostForm
	sk := &seek{user: u.id, color: f.Get("color"), variant: f.Get("variant")}
	bad := func(msg string) { writeJSON(w, http.StatusBadRequest, jsonError{Error: msg}) }
	switch f.Get("rated") {
	case "", "false":
	case "true":
		sk.rated = true
	default:
		bad("rated: expected true or false")
		return
	}
	if sk.variant == "" {
		sk.variant = "standard"
	}
	if _, ok := variants[sk.variant]; !ok {
		bad("variant: this server plays standard chess only")
		return
	}
	if d := f.Get("days"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || !strings.Contains(",1,2,3,5,7,10,14,", ","+d+",") {
			bad("days: expected 1, 2, 3, 5, 7, 10 or 14")
			return
		}
		sk.days = n
		s.mu.Lock()
		sk.id = s.newIDLocked("sk")
		s.seeks[sk.id] = sk
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]string{"id": sk.id})
		return
	}
	t, err1 := strconv.ParseFloat(f.Get("time"), 64)
	inc, err2 := strconv.Atoi(f.Get("increment"))
	if err1 != nil || err2 != nil || t < 0 || t > 180 || inc < 0 || inc > 180 {
		bad("time and increment: expected minutes (0 to 180) and seconds (0 to 180)")
		return
	}
	switch sk.color {
	case "", "random", "white", "black":
	default:
		bad("color: expected white, black or random")
		return
	}
	sk.limit = time.Duration(t * float64(time.Minute))
	sk.increment = time.Duration(inc) * time.Second
	if speedOf(sk.limit, sk.increment) != "rapid" && speedOf(sk.limit, sk.increment) != "classical" {
		bad("The Board API allows rapid and classical seeks only")
		return
	}
	sb := newSub()
	sk.sub = sb
	s.mu.Lock()
	sk.id = s.newIDLocked("sk")
	s.seeks[sk.id] = sk
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.seeks[sk.id] == sk {
			delete(s.seeks, sk.id)
		}
		s.mu.Unlock()
	}()
	s.serveStream(w, r, sb, s.o.EventKeepAlive, nil)
}

// MatchSeek pairs the seek id with an opponent: the game starts (gameStart
// in the event stream) and the seek's connection closes.
func (s *Server) MatchSeek(id string, opp Opponent) (string, error) {
	return s.matchSeek(id, nil, opp)
}

// MatchSeekAs is MatchSeek giving the account the side side in a seek for
// a random colour (the draw lichess makes); a seek for a colour gets it.
func (s *Server) MatchSeekAs(id string, side board.Color, opp Opponent) (string, error) {
	return s.matchSeek(id, &side, opp)
}

func (s *Server) matchSeek(id string, random *board.Color, opp Opponent) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sk := s.seeks[id]
	if sk == nil {
		return "", fmt.Errorf("lichesstest: no seek %s", id)
	}
	side := board.White
	switch {
	case sk.color == "black":
		side = board.Black
	case sk.color != "white" && random != nil:
		side = *random
	}
	spec := GameSpec{Side: side, Rated: sk.rated, Opponent: opp, Source: "lobby"}
	if sk.days == 0 {
		spec.Clock = &GameClock{Initial: sk.limit, Increment: sk.increment}
	} else {
		spec.DaysPerTurn = sk.days
	}
	g, err := s.createGameLocked(spec)
	if err != nil {
		return "", err
	}
	delete(s.seeks, id)
	if sk.sub != nil {
		sk.sub.end()
	}
	return g.id, nil
}

// speedOf classifies a clock as lichess does, by its estimated duration
// (initial time plus 40 increments).
func speedOf(limit, inc time.Duration) string {
	est := limit + 40*inc
	switch {
	case est < 30*time.Second:
		return "ultraBullet"
	case est < 180*time.Second:
		return "bullet"
	case est < 480*time.Second:
		return "blitz"
	case est < 1500*time.Second:
		return "rapid"
	}
	return "classical"
}
