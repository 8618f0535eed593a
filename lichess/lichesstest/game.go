package lichesstest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
)

// noClockMillis is what lichess writes as the remaining time of a game
// without a clock.
const noClockMillis = 2147483647

// GameClock is a real-time game's clock.
type GameClock struct {
	Initial, Increment time.Duration
}

// Opponent plays the other side of a game.
type Opponent struct {
	// ID, Name and Rating name the opponent (defaults: "opponent",
	// "Opponent", 1500).
	ID, Name string
	Rating   int
	// Moves are played in turn, one each time the opponent is to move,
	// right after the account's move (or at the start if the opponent
	// moves first). When they run out the opponent waits for
	// PlayOpponent.
	Moves []string
	// AcceptDraw and AcceptTakeback answer the account's offers at once.
	AcceptDraw, AcceptTakeback bool
}

// GameSpec describes a game to create.
type GameSpec struct {
	// ID is the game's id (made up if empty).
	ID string
	// Side is the account's side.
	Side board.Color
	// InitialFEN is the starting position ("" for the usual one).
	InitialFEN string
	// Clock is the game's clock; nil, with DaysPerTurn, for
	// correspondence, and with neither for an unlimited game.
	Clock       *GameClock
	DaysPerTurn int
	Rated       bool
	// Moves were played before the game is handed over (a game in
	// progress).
	Moves    []string
	Opponent Opponent
	// Source is lichess's source of the game (lobby, friend, ...; "friend"
	// if empty).
	Source string
}

// game is one game on the server.
type game struct {
	id, fullID  string
	spec        GameSpec
	me          *userInfo
	opp         Opponent
	side        board.Color // the account's
	initialFEN  string      // "startpos" or a FEN
	positions   []board.Position
	moves       []string
	wtime       time.Duration
	btime       time.Duration
	lastMoveAt  time.Duration
	createdAt   time.Time
	status      string
	winner      string
	drawOffer   [2]bool
	takeback    [2]bool
	gone        bool
	claimAt     time.Duration
	subs        []*sub
	nextOppMove int
}

func (g *game) pos() *board.Position { return &g.positions[len(g.positions)-1] }
func (g *game) finished() bool       { return g.status != "created" && g.status != "started" }
func (g *game) turn() board.Color    { return g.pos().Turn }

func sideName(c board.Color) string {
	if c == board.White {
		return "white"
	}
	return "black"
}

// CreateGame starts a game of the account's: gameStart goes to the event
// stream, and the opponent makes its first move if it is to move.
func (s *Server) CreateGame(spec GameSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.createGameLocked(spec)
	if err != nil {
		return "", err
	}
	return g.id, nil
}

func (s *Server) createGameLocked(spec GameSpec) (*game, error) {
	if spec.ID == "" {
		spec.ID = s.newIDLocked("g")
	}
	if s.games[spec.ID] != nil {
		return nil, fmt.Errorf("lichesstest: game %s exists", spec.ID)
	}
	if spec.Opponent.ID == "" {
		spec.Opponent.ID = "opponent"
	}
	if spec.Opponent.Name == "" {
		spec.Opponent.Name = strings.ToUpper(spec.Opponent.ID[:1]) + spec.Opponent.ID[1:]
	}
	if spec.Opponent.Rating == 0 {
		spec.Opponent.Rating = 1500
	}
	if spec.Source == "" {
		spec.Source = "friend"
	}
	fen, initial := board.StartFEN, "startpos"
	if spec.InitialFEN != "" {
		fen, initial = spec.InitialFEN, spec.InitialFEN
	}
	start, err := board.ParseFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("lichesstest: game %s: %w", spec.ID, err)
	}
	g := &game{
		id: spec.ID, fullID: spec.ID + "abcd", spec: spec, me: s.users[s.o.AccountID], opp: spec.Opponent,
		side: spec.Side, initialFEN: initial, positions: []board.Position{start}, status: "started",
		createdAt: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).Add(s.clock.Now()),
	}
	if spec.Clock != nil {
		g.wtime, g.btime = spec.Clock.Initial, spec.Clock.Initial
	}
	for i, m := range spec.Moves {
		if msg := s.applyLocked(g, g.turn(), m, false); msg != "" {
			return nil, fmt.Errorf("lichesstest: game %s: move %d %s: %s", spec.ID, i+1, m, msg)
		}
	}
	g.lastMoveAt = s.clock.Now()
	s.games[g.id] = g
	s.gameOrder = append(s.gameOrder, g.id)
	s.publishEventLocked(g.me.id, line(jsonGameEvent{Type: "gameStart", Game: s.gameInfoLocked(g, true)}))
	s.opponentRepliesLocked(g)
	return g, nil
}

// applyLocked plays uci for side by in g, as lichess checks a move: whose
// turn, the UCI, the legality; it returns lichess's error message, or ""
// when played. A king taking its own rook is castling; a promotion without
// its piece makes a queen.
func (s *Server) applyLocked(g *game, by board.Color, uci string, offeringDraw bool) string {
	if g.finished() || g.turn() != by {
		return "Not your turn, or game already over"
	}
	if len(uci) != 4 && len(uci) != 5 {
		return "Invalid UCI: " + uci
	}
	m, err := board.ParseUCI(uci)
	if err != nil {
		return "Invalid UCI: " + uci
	}
	pos := g.pos()
	man := pos.Men[m.From]
	if man.Kind() == board.King && pos.Men[m.To] == board.NewMan(man.Color(), board.Rook) && m.From.Rank() == m.To.Rank() {
		f := 6
		if m.To.File() < m.From.File() {
			f = 2
		}
		m.To = board.NewSquare(f, m.From.Rank())
	}
	if pos.IsPromotion(m) && m.Promo == board.NoKind {
		m.Promo = board.Queen
	}
	a, err := board.Analyse(*pos)
	if err != nil {
		return "Invalid position: " + err.Error()
	}
	if !a.IsLegal(m) {
		if man == board.NoMan || man.Color() != by {
			return "No piece of yours on " + m.From.String()
		}
		return fmt.Sprintf("Piece on %s cannot move to %s", m.From, m.To)
	}
	now := s.clock.Now()
	if g.spec.Clock != nil && len(g.moves) >= 2 {
		t := g.clockOf(by) - (now - g.lastMoveAt)
		if t <= 0 {
			g.setClock(by, 0)
			s.finishLocked(g, "outoftime", sideName(by.Other()))
			return "Not your turn, or game already over"
		}
		g.setClock(by, t+g.spec.Clock.Increment)
	}
	g.lastMoveAt = now
	g.positions = append(g.positions, pos.Apply(m))
	g.moves = append(g.moves, m.UCI())
	g.drawOffer[by.Other()] = false
	g.takeback = [2]bool{}
	if offeringDraw {
		g.drawOffer[by] = true
	}
	next, _ := board.Analyse(*g.pos())
	switch {
	case next != nil && next.Checkmate():
		g.status, g.winner = "mate", sideName(by)
	case next != nil && next.Stalemate():
		g.status = "stalemate"
	case g.pos().Dead():
		g.status = "draw"
	case g.drawOffer[0] && g.drawOffer[1]:
		g.status = "draw"
	}
	return ""
}

func (g *game) clockOf(c board.Color) time.Duration {
	if c == board.White {
		return g.wtime
	}
	return g.btime
}

func (g *game) setClock(c board.Color, t time.Duration) {
	if c == board.White {
		g.wtime = t
	} else {
		g.btime = t
	}
}

// times returns both sides' remaining times now, in milliseconds.
func (s *Server) timesLocked(g *game) (int64, int64) {
	if g.spec.Clock == nil {
		return noClockMillis, noClockMillis
	}
	w, b := g.wtime, g.btime
	if !g.finished() && len(g.moves) >= 2 {
		spent := s.clock.Now() - g.lastMoveAt
		if g.turn() == board.White {
			w -= spent
		} else {
			b -= spent
		}
	}
	return max(w, 0).Milliseconds(), max(b, 0).Milliseconds()
}

func (s *Server) stateLocked(g *game) jsonGameState {
	w, b := s.timesLocked(g)
	st := jsonGameState{
		Type: "gameState", Moves: strings.Join(g.moves, " "), WTime: w, BTime: b, Status: g.status, Winner: g.winner,
		WDraw: g.drawOffer[board.White], BDraw: g.drawOffer[board.Black],
		WTakeback: g.takeback[board.White], BTakeback: g.takeback[board.Black],
	}
	if g.spec.Clock != nil {
		st.WInc, st.BInc = g.spec.Clock.Increment.Milliseconds(), g.spec.Clock.Increment.Milliseconds()
	}
	return st
}

func (s *Server) playerLocked(g *game, c board.Color) jsonPlayer {
	if c == g.side {
		p := jsonPlayer{ID: g.me.id, Name: g.me.name, Rating: g.me.rating}
		if g.me.title != "" {
			p.Title = &g.me.title
		}
		return p
	}
	return jsonPlayer{ID: g.opp.ID, Name: g.opp.Name, Rating: g.opp.Rating}
}

func (s *Server) fullLocked(g *game) jsonGameFull {
	v := variants["standard"]
	if g.initialFEN != "startpos" {
		v = variants["fromPosition"]
	}
	f := jsonGameFull{
		ID: g.id, Variant: v, Speed: s.speedLocked(g), Perf: jsonPerfName{Name: perfName(s.speedLocked(g))}, Rated: g.spec.Rated,
		CreatedAt: g.createdAt.UnixMilli(), White: s.playerLocked(g, board.White), Black: s.playerLocked(g, board.Black),
		InitialFen: g.initialFEN, DaysPer: g.spec.DaysPerTurn, Type: "gameFull", State: s.stateLocked(g),
	}
	if c := g.spec.Clock; c != nil {
		f.Clock = &jsonClock{Initial: c.Initial.Milliseconds(), Increment: c.Increment.Milliseconds()}
	}
	return f
}

func (s *Server) speedLocked(g *game) string {
	if g.spec.Clock == nil {
		return "correspondence"
	}
	return speedOf(g.spec.Clock.Initial, g.spec.Clock.Increment)
}

func perfName(speed string) string {
	return strings.ToUpper(speed[:1]) + speed[1:]
}

// gameInfoLocked is the game as the event stream (event true: status as
// {id,name}) or /api/account/playing (a status name) describe it.
func (s *Server) gameInfoLocked(g *game, event bool) jsonGameInfo {
	v := variants["standard"]
	if g.initialFEN != "startpos" {
		v = variants["fromPosition"]
	}
	last := ""
	if len(g.moves) > 0 {
		last = g.moves[len(g.moves)-1]
	}
	w, b := s.timesLocked(g)
	left := int(w / 1000)
	if g.side == board.Black {
		left = int(b / 1000)
	}
	info := jsonGameInfo{
		FullID: g.fullID, GameID: g.id, FEN: g.pos().FEN(), Color: sideName(g.side), LastMove: last,
		Source: g.spec.Source, Variant: v, Speed: s.speedLocked(g), Perf: s.speedLocked(g), Rated: g.spec.Rated,
		HasMoved: s.movedLocked(g), Opponent: &jsonOpponent{ID: g.opp.ID, Username: g.opp.Name, Rating: g.opp.Rating},
		IsMyTurn: !g.finished() && g.turn() == g.side, SecondsLeft: &left, Winner: g.winner,
	}
	if event {
		info.Status = jsonStatus{ID: statusIDs[g.status], Name: g.status}
		info.Compat = &jsonCompat{Bot: false, Board: true}
		info.ID = g.id
	} else {
		info.Status = g.status
	}
	return info
}

// movedLocked reports whether the account has made a move in g.
func (s *Server) movedLocked(g *game) bool {
	for i := range g.moves {
		if g.positions[i].Turn == g.side {
			return true
		}
	}
	return false
}

// publishLocked sends a line to every stream of g.
func (s *Server) publishLocked(g *game, b []byte) {
	for _, sb := range g.subs {
		sb.send(b)
	}
}

func (s *Server) publishStateLocked(g *game) {
	s.publishLocked(g, line(s.stateLocked(g)))
	if g.finished() {
		s.endGameLocked(g)
	}
}

// finishLocked ends g with status and winner and tells its streams.
func (s *Server) finishLocked(g *game, status, winner string) {
	if g.finished() {
		return
	}
	g.status, g.winner = status, winner
	g.drawOffer, g.takeback = [2]bool{}, [2]bool{}
	s.publishStateLocked(g)
}

// endGameLocked closes g's streams once the final state is queued and
// announces gameFinish.
func (s *Server) endGameLocked(g *game) {
	for _, sb := range g.subs {
		sb.end()
	}
	g.subs = nil
	s.publishEventLocked(g.me.id, line(jsonGameEvent{Type: "gameFinish", Game: s.gameInfoLocked(g, true)}))
}

// publishEventLocked sends a line to the user's event stream, if open.
func (s *Server) publishEventLocked(user string, b []byte) {
	if sb := s.eventSubs[user]; sb != nil {
		sb.send(b)
	}
}

// opponentRepliesLocked plays the opponent's scripted moves while it is to
// move.
func (s *Server) opponentRepliesLocked(g *game) {
	for !g.finished() && g.turn() != g.side && g.nextOppMove < len(g.opp.Moves) {
		m := g.opp.Moves[g.nextOppMove]
		g.nextOppMove++
		if msg := s.applyLocked(g, g.turn(), m, false); msg != "" {
			s.log.Error("lichesstest: the opponent's scripted move is refused", "game", g.id, "move", m, "err", msg)
			return
		}
		s.publishStateLocked(g)
	}
}

// PlayOpponent makes the opponent play uci in game id.
func (s *Server) PlayOpponent(id, uci string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[id]
	if g == nil {
		return fmt.Errorf("lichesstest: no game %s", id)
	}
	if msg := s.applyLocked(g, g.side.Other(), uci, false); msg != "" {
		return fmt.Errorf("lichesstest: game %s: opponent's move %s: %s", id, uci, msg)
	}
	s.publishStateLocked(g)
	return nil
}

// OpponentOffersDraw has the opponent offer a draw (or accept the
// account's).
func (s *Server) OpponentOffersDraw(id string) error {
	return s.asOpponent(id, func(g *game) {
		s.drawLocked(g, g.side.Other(), true)
	})
}

// OpponentProposesTakeback has the opponent propose a takeback (or accept
// the account's).
func (s *Server) OpponentProposesTakeback(id string) error {
	return s.asOpponent(id, func(g *game) {
		s.takebackLocked(g, g.side.Other(), true)
	})
}

// OpponentResigns has the opponent resign.
func (s *Server) OpponentResigns(id string) error {
	return s.asOpponent(id, func(g *game) {
		s.finishLocked(g, "resign", sideName(g.side))
	})
}

// OpponentGone tells the account's streams the opponent left (gone) or
// came back; the account may claim victory claimIn after leaving.
func (s *Server) OpponentGone(id string, gone bool, claimIn time.Duration) error {
	return s.asOpponent(id, func(g *game) {
		g.gone = gone
		ev := jsonOpponentGone{Type: "opponentGone", Gone: gone}
		if gone {
			secs := int(claimIn / time.Second)
			ev.ClaimWinInSeconds = &secs
			g.claimAt = s.clock.Now() + claimIn
		}
		s.publishLocked(g, line(ev))
	})
}

// Say writes a chat line in game id from the opponent.
func (s *Server) Say(id, room, text string) error {
	return s.asOpponent(id, func(g *game) {
		s.publishLocked(g, line(jsonChatLine{Type: "chatLine", Room: room, Username: g.opp.Name, Text: text}))
	})
}

func (s *Server) asOpponent(id string, f func(*game)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[id]
	if g == nil {
		return fmt.Errorf("lichesstest: no game %s", id)
	}
	if g.finished() {
		return fmt.Errorf("lichesstest: game %s is over", id)
	}
	f(g)
	return nil
}

// drawLocked handles side by offering (yes) or declining a draw.
func (s *Server) drawLocked(g *game, by board.Color, yes bool) {
	if g.finished() {
		return
	}
	if !yes {
		g.drawOffer[by.Other()] = false
		s.publishStateLocked(g)
		return
	}
	if g.drawOffer[by.Other()] {
		s.finishLocked(g, "draw", "")
		return
	}
	g.drawOffer[by] = true
	s.publishStateLocked(g)
	if by == g.side && g.opp.AcceptDraw {
		s.finishLocked(g, "draw", "")
	}
}

// takebackLocked handles side by proposing or accepting (yes) or declining
// a takeback. A takeback asked by the side to move takes back two plies,
// else one, and must take back a move of the asker's.
func (s *Server) takebackLocked(g *game, by board.Color, yes bool) {
	if g.finished() {
		return
	}
	if !yes {
		g.takeback[by.Other()] = false
		s.publishStateLocked(g)
		return
	}
	if g.takeback[by.Other()] {
		s.applyTakebackLocked(g, by.Other())
		return
	}
	g.takeback[by] = true
	s.publishStateLocked(g)
	if by == g.side && g.opp.AcceptTakeback {
		s.applyTakebackLocked(g, by)
	}
}

func (s *Server) applyTakebackLocked(g *game, asker board.Color) {
	n := 1
	if g.turn() == asker {
		n = 2
	}
	g.takeback = [2]bool{}
	if len(g.moves) < n || g.positions[len(g.moves)-n].Turn != asker && n == 1 {
		s.publishStateLocked(g)
		return
	}
	g.moves = g.moves[:len(g.moves)-n]
	g.positions = g.positions[:len(g.positions)-n]
	g.drawOffer = [2]bool{}
	g.lastMoveAt = s.clock.Now()
	s.publishStateLocked(g)
}

// GameView is a game as the server has it.
type GameView struct {
	ID         string
	Side       board.Color
	Moves      []string
	Status     string
	Winner     string
	FEN        string
	DrawOffers [2]bool
	Takebacks  [2]bool
}

// Game returns game id as the server has it.
func (s *Server) Game(id string) (GameView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[id]
	if g == nil {
		return GameView{}, false
	}
	return GameView{
		ID: g.id, Side: g.side, Moves: append([]string(nil), g.moves...), Status: g.status, Winner: g.winner,
		FEN: g.pos().FEN(), DrawOffers: g.drawOffer, Takebacks: g.takeback,
	}, true
}

func (s *Server) servePlaying(w http.ResponseWriter, r *http.Request, u *userInfo) {
	nb := 9
	if v := r.URL.Query().Get("nb"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 50 {
			writeJSON(w, http.StatusBadRequest, jsonError{Error: "nb: expected 1 to 50"})
			return
		}
		nb = n
	}
	s.mu.Lock()
	out := struct {
		NowPlaying []jsonGameInfo `json:"nowPlaying"`
		NbMyTurn   int            `json:"nbMyTurn"`
	}{NowPlaying: []jsonGameInfo{}}
	for _, id := range s.gameOrder {
		g := s.games[id]
		if g.me.id != u.id || g.finished() || len(out.NowPlaying) == nb {
			continue
		}
		info := s.gameInfoLocked(g, false)
		if info.IsMyTurn {
			out.NbMyTurn++
		}
		out.NowPlaying = append(out.NowPlaying, info)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) serveEventStream(w http.ResponseWriter, r *http.Request, u *userInfo) {
	sb := newSub()
	s.mu.Lock()
	s.eventOpens++
	if old := s.eventSubs[u.id]; old != nil {
		old.end() // one event stream per account: the older closes
	}
	s.eventSubs[u.id] = sb
	var first [][]byte
	for _, id := range s.challengeOrderLocked() {
		c := s.challenges[id]
		first = append(first, line(jsonChallengeEvent{Type: "challenge", Challenge: s.challengeJSONLocked(c), Compat: &jsonCompat{Board: true}}))
	}
	for _, id := range s.gameOrder {
		if g := s.games[id]; g.me.id == u.id && !g.finished() {
			first = append(first, line(jsonGameEvent{Type: "gameStart", Game: s.gameInfoLocked(g, true)}))
		}
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.eventSubs[u.id] == sb {
			delete(s.eventSubs, u.id)
		}
		s.mu.Unlock()
	}()
	s.serveStream(w, r, sb, s.o.EventKeepAlive, first)
}

// gameFor finds the account's game named in the path, answering 404 as
// lila does when there is none.
func (s *Server) gameForLocked(w http.ResponseWriter, r *http.Request, u *userInfo) *game {
	g := s.games[r.PathValue("id")]
	if g == nil {
		writeJSON(w, http.StatusNotFound, jsonError{Error: "No such game"})
		return nil
	}
	if g.me.id != u.id {
		writeJSON(w, http.StatusNotFound, jsonError{Error: "Not your game"})
		return nil
	}
	return g
}

func (s *Server) serveGameStream(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.mu.Lock()
	g := s.gameForLocked(w, r, u)
	if g == nil {
		s.mu.Unlock()
		return
	}
	sb := newSub()
	first := [][]byte{line(s.fullLocked(g))}
	if g.finished() {
		sb.end() // the stream closes at once on a finished game
	} else {
		g.subs = append(g.subs, sb)
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		for i, x := range g.subs {
			if x == sb {
				g.subs = append(g.subs[:i], g.subs[i+1:]...)
				break
			}
		}
		s.mu.Unlock()
	}()
	s.serveStream(w, r, sb, s.o.GameKeepAlive, first)
}

func (s *Server) serveMove(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.mu.Lock()
	g := s.gameForLocked(w, r, u)
	if g == nil {
		s.mu.Unlock()
		return
	}
	uci := r.PathValue("move")
	post := MovePost{Game: g.id, Move: uci, Ply: len(g.moves)}
	var fault MoveFault
	if len(s.moveFaults) > 0 {
		fault, s.moveFaults = s.moveFaults[0], s.moveFaults[1:]
	}
	record := func() { s.posts = append(s.posts, post) }
	switch fault.Kind {
	case RefuseMove:
		post.Status, post.Error = http.StatusBadRequest, fault.Reason
		record()
		s.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, jsonError{Error: fault.Reason})
		return
	case LoseMove:
		post.Error = "lost before playing"
		record()
		s.mu.Unlock()
		panic(http.ErrAbortHandler)
	case HoldBefore:
		post.Error = "held unplayed"
		record()
		s.mu.Unlock()
		<-r.Context().Done()
		return
	}
	offering := r.URL.Query().Get("offeringDraw") == "true"
	msg := s.applyLocked(g, g.side, uci, offering)
	if msg != "" {
		post.Status, post.Error = http.StatusBadRequest, msg
		record()
		s.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, jsonError{Error: msg})
		return
	}
	post.Played = true
	s.publishStateLocked(g)
	if offering && g.opp.AcceptDraw {
		s.finishLocked(g, "draw", "")
	}
	s.opponentRepliesLocked(g)
	switch fault.Kind {
	case SwallowAnswer:
		post.Error = "answer swallowed"
		record()
		s.mu.Unlock()
		panic(http.ErrAbortHandler)
	case HoldAfter:
		post.Error = "answer held"
		record()
		s.mu.Unlock()
		<-r.Context().Done()
		return
	}
	post.Status = http.StatusOK
	record()
	s.mu.Unlock()
	ok(w)
}

// trueish reads a yes/no path parameter as lila does.
func trueish(v string) bool {
	switch strings.ToLower(v) {
	case "yes", "true", "1", "on":
		return true
	}
	return false
}

func (s *Server) serveDraw(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.command(w, r, u, func(g *game) string {
		s.drawLocked(g, g.side, trueish(r.PathValue("accept")))
		return ""
	})
}

func (s *Server) serveTakeback(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.command(w, r, u, func(g *game) string {
		s.takebackLocked(g, g.side, trueish(r.PathValue("accept")))
		return ""
	})
}

// abortable: lichess lets a game be aborted until both sides have moved.
func abortable(g *game) bool { return !g.finished() && len(g.moves) < 2 }

func (s *Server) serveResign(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.command(w, r, u, func(g *game) string {
		switch {
		case abortable(g):
			s.finishLocked(g, "aborted", "")
		case !g.finished():
			s.finishLocked(g, "resign", sideName(g.side.Other()))
		default:
			return "This game cannot be resigned"
		}
		return ""
	})
}

func (s *Server) serveAbort(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.command(w, r, u, func(g *game) string {
		if !abortable(g) {
			return "This game can no longer be aborted"
		}
		s.finishLocked(g, "aborted", "")
		return ""
	})
}

// serveClaimVictory ends the game in the account's favour once the
// opponent has been gone long enough; otherwise, like lila, it answers ok
// and does nothing.
func (s *Server) serveClaimVictory(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.command(w, r, u, func(g *game) string {
		if !g.finished() && g.gone && s.clock.Now() >= g.claimAt {
			s.finishLocked(g, "timeout", sideName(g.side))
		}
		return ""
	})
}

func (s *Server) serveClaimDraw(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.command(w, r, u, func(g *game) string {
		if !g.finished() && g.gone && s.clock.Now() >= g.claimAt {
			s.finishLocked(g, "draw", "")
		}
		return ""
	})
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, u *userInfo) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, jsonError{Error: err.Error()})
		return
	}
	room, text := r.PostForm.Get("room"), r.PostForm.Get("text")
	if (room != "player" && room != "spectator") || text == "" {
		writeJSON(w, http.StatusBadRequest, jsonError{Error: "room (player or spectator) and text are required"})
		return
	}
	s.command(w, r, u, func(g *game) string {
		s.publishLocked(g, line(jsonChatLine{Type: "chatLine", Room: room, Username: u.name, Text: text}))
		return ""
	})
}

// command runs a game command for the account, answering ok or 400 with
// the message f returns.
func (s *Server) command(w http.ResponseWriter, r *http.Request, u *userInfo, f func(*game) string) {
	s.mu.Lock()
	g := s.gameForLocked(w, r, u)
	if g == nil {
		s.mu.Unlock()
		return
	}
	msg := f(g)
	s.mu.Unlock()
	if msg != "" {
		writeJSON(w, http.StatusBadRequest, jsonError{Error: msg})
		return
	}
	ok(w)
}

// challenge is a challenge to the account.
type challenge struct {
	id    string
	spec  ChallengeSpec
	order int
}

// ChallengeSpec describes a challenge to the account.
type ChallengeSpec struct {
	// Color is the challenger's choice: white, black or random (white).
	Color       string
	Clock       *GameClock
	DaysPerTurn int
	Rated       bool
	// Opponent is the challenger, who plays the game once accepted.
	Opponent Opponent
}

// Challenge sends the account a challenge; it shows in the event stream.
func (s *Server) Challenge(spec ChallengeSpec) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if spec.Opponent.ID == "" {
		spec.Opponent.ID = "challenger"
	}
	if spec.Opponent.Name == "" {
		spec.Opponent.Name = strings.ToUpper(spec.Opponent.ID[:1]) + spec.Opponent.ID[1:]
	}
	if spec.Opponent.Rating == 0 {
		spec.Opponent.Rating = 1500
	}
	if spec.Color == "" {
		spec.Color = "random"
	}
	c := &challenge{id: s.newIDLocked("c"), spec: spec, order: s.nextID}
	s.challenges[c.id] = c
	s.publishEventLocked(s.o.AccountID, line(jsonChallengeEvent{Type: "challenge", Challenge: s.challengeJSONLocked(c), Compat: &jsonCompat{Board: true}}))
	return c.id
}

func (s *Server) challengeOrderLocked() []string {
	ids := make([]string, 0, len(s.challenges))
	for id := range s.challenges {
		ids = append(ids, id)
	}
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && s.challenges[ids[j]].order < s.challenges[ids[j-1]].order; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}

func (s *Server) challengeJSONLocked(c *challenge) jsonChallenge {
	me := s.users[s.o.AccountID]
	final := "white"
	if c.spec.Color == "black" {
		final = "black"
	}
	j := jsonChallenge{
		ID: c.id, URL: "https://lichess.org/" + c.id, Status: "created",
		Challenger: jsonChallengeUser{ID: c.spec.Opponent.ID, Name: c.spec.Opponent.Name, Rating: c.spec.Opponent.Rating, Online: true},
		DestUser:   &jsonChallengeUser{ID: me.id, Name: me.name, Rating: me.rating, Online: true},
		Variant:    variants["standard"], Rated: c.spec.Rated, Color: c.spec.Color, FinalColor: final, Direction: "in",
	}
	switch {
	case c.spec.Clock != nil:
		l, i := int(c.spec.Clock.Initial/time.Second), int(c.spec.Clock.Increment/time.Second)
		j.TimeControl = jsonTimeControl{Type: "clock", Limit: l, Increment: i, Show: fmt.Sprintf("%d+%d", l/60, i)}
		j.Speed = speedOf(c.spec.Clock.Initial, c.spec.Clock.Increment)
	case c.spec.DaysPerTurn > 0:
		j.TimeControl = jsonTimeControl{Type: "correspondence", DaysPerTurn: c.spec.DaysPerTurn}
		j.Speed = "correspondence"
	default:
		j.TimeControl = jsonTimeControl{Type: "unlimited"}
		j.Speed = "correspondence"
	}
	j.Perf = jsonPerf{Icon: "", Name: perfName(j.Speed)}
	return j
}

func (s *Server) serveChallengeAccept(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.mu.Lock()
	c := s.challenges[r.PathValue("id")]
	if c == nil {
		s.mu.Unlock()
		writeJSON(w, http.StatusNotFound, jsonError{Error: "Challenge not found"})
		return
	}
	delete(s.challenges, c.id)
	side := board.Black // the challenger takes white unless it chose black
	if c.spec.Color == "black" {
		side = board.White
	}
	_, err := s.createGameLocked(GameSpec{ID: c.id, Side: side, Clock: c.spec.Clock, DaysPerTurn: c.spec.DaysPerTurn, Rated: c.spec.Rated, Opponent: c.spec.Opponent, Source: "friend"})
	s.mu.Unlock()
	if err != nil {
		writeJSON(w, http.StatusBadRequest, jsonError{Error: err.Error()})
		return
	}
	ok(w)
}

func (s *Server) serveChallengeDecline(w http.ResponseWriter, r *http.Request, u *userInfo) {
	s.mu.Lock()
	c := s.challenges[r.PathValue("id")]
	if c != nil {
		delete(s.challenges, c.id)
	}
	s.mu.Unlock()
	if c == nil {
		writeJSON(w, http.StatusNotFound, jsonError{Error: "Challenge not found"})
		return
	}
	ok(w)
}

// serveChallengeCancel cancels a challenge the account made; this server
// holds none, so it answers 404 as lichess does for an unknown one.
func (s *Server) serveChallengeCancel(w http.ResponseWriter, r *http.Request, u *userInfo) {
	writeJSON(w, http.StatusNotFound, jsonError{Error: "Challenge not found"})
}

// Challenges returns the ids of the challenges waiting.
func (s *Server) Challenges() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.challengeOrderLocked()
}
