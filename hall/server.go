package hall

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/console"
)

//go:embed assets
var assets embed.FS

// ServerOptions configure the hall's web server.
type ServerOptions struct {
	// Hosts are passed to the console (console.Options.Hosts).
	Hosts []string
	// Ping is the keep-alive interval of the event streams (15 s if zero).
	Ping time.Duration
	// Streams bounds the event streams open at once, the grid's
	// (/api/hall/events) and every board page's together, in all and per
	// client address (console.NewStreamLimit's defaults if nil): a stream
	// past it is refused with 503 and Retry-After, as the console does.
	Streams *console.StreamLimit
	// Settle is how long the server waits after a new board is heard of
	// before serving it in the console's pages, so that boards heard of
	// together are added together (250 ms if zero).
	Settle time.Duration
	Logger *slog.Logger
}

// Server serves the hall: the grid page and its API, every board through
// the console's page and API, and the broadcast PGN. Close it to end the
// event streams.
type Server struct {
	h      *Hall
	o      ServerOptions
	log    *slog.Logger
	mux    *http.ServeMux
	static fs.FS
	grid   *grid
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	added  chan struct{}

	mu  sync.RWMutex
	con *console.Server
	ids []string
}

// NewServer returns the hall's web server over h.
func NewServer(h *Hall, o ServerOptions) (*Server, error) {
	if o.Ping <= 0 {
		o.Ping = 15 * time.Second
	}
	if o.Settle <= 0 {
		o.Settle = 250 * time.Millisecond
	}
	if o.Streams == nil {
		o.Streams = console.NewStreamLimit(0, 0)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("hall: assets: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{h: h, o: o, log: o.Logger, mux: http.NewServeMux(), static: static, ctx: ctx, cancel: cancel, added: make(chan struct{}, 1)}
	s.grid = newGrid(h, o.Ping, o.Streams, o.Logger, ctx.Done())
	h.OnChange(s.grid.changed)
	h.OnAdd(func() {
		select {
		case s.added <- struct{}{}:
		default:
		}
	})
	s.rebuild()
	s.wg.Go(func() { s.grid.run(ctx) })
	s.wg.Go(s.rebuilds)
	s.routes()
	return s, nil
}

// Close ends the event streams.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	s.mu.Lock()
	con := s.con
	s.con = nil
	s.mu.Unlock()
	if con != nil {
		con.Close()
	}
	return nil
}

// rebuilds serves boards heard of for the first time in the console: the
// console's server is built for a set of boards, so a new set makes a new
// server (its pages reconnect their event streams within a second).
func (s *Server) rebuilds() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.added:
		}
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(s.o.Settle):
		}
		s.rebuild()
	}
}

func (s *Server) rebuild() {
	boards := s.h.Boards()
	ids := make([]string, len(boards))
	cb := make([]console.Board, len(boards))
	for i, b := range boards {
		ids[i], cb[i] = b.id, b
	}
	s.mu.RLock()
	same := strings.Join(ids, "\x00") == strings.Join(s.ids, "\x00")
	s.mu.RUnlock()
	if same || len(cb) == 0 {
		return
	}
	con, err := console.New(console.Options{Boards: cb, Token: s.h.o.Token, Hosts: s.o.Hosts, Ping: s.o.Ping, Streams: s.o.Streams, Logger: s.log})
	if err != nil {
		s.log.Error("hall: console", "err", err)
		return
	}
	s.mu.Lock()
	old := s.con
	s.con, s.ids = con, ids
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
	s.log.Info("hall: serving boards", "boards", len(ids))
}

// ServeHTTP serves the hall.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("board") != "" {
			s.console(w, r) // a board's page is the console's
			return
		}
		get(s.index)(w, r)
	})
	m.Handle("/hall/assets/", get(http.StripPrefix("/hall/assets/", http.FileServerFS(s.static)).ServeHTTP))
	m.HandleFunc("/api/hall", get(s.summaries))
	m.HandleFunc("/api/hall/events", get(s.grid.serve))
	m.HandleFunc("/api/hall/boards/{id}/moves", get(s.moves))
	m.HandleFunc("/broadcast/{$}", get(s.broadcastIndex))
	m.HandleFunc("/broadcast/current.pgn", get(s.broadcastCurrent))
	m.HandleFunc("/broadcast/rounds/{file}", get(s.broadcastRound))
	m.HandleFunc("/broadcast/rounds/{round}/{$}", get(s.broadcastRoundIndex))
	m.HandleFunc("/broadcast/rounds/{round}/boards/{file}", get(s.broadcastRoundBoard))
	m.HandleFunc("/broadcast/boards/{file}", get(s.broadcastBoard))
	m.HandleFunc("/", s.console)
}

// console hands the request to the console's server.
func (s *Server) console(w http.ResponseWriter, r *http.Request) {
	s.mu.RLock()
	con := s.con
	s.mu.RUnlock()
	if con == nil {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			writeError(w, http.StatusServiceUnavailable, "no board heard of yet")
			return
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	con.ServeHTTP(w, r)
}

// get admits GET and HEAD only.
func get(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "%s %s: want GET", r.Method, r.URL.Path)
			return
		}
		h(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) { console.WriteJSON(w, status, v) }

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	console.WriteError(w, status, format, args...)
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	console.ServePage(w, s.static, "index.html")
}

// Overview is GET /api/hall: the hall and every board.
type Overview struct {
	Event     string    `json:"event"`
	Site      string    `json:"site"`
	Round     string    `json:"round"`
	Connected bool      `json:"connected"` // the hall is connected to the broker
	Stats     Stats     `json:"stats"`
	Boards    []Summary `json:"boards"`
}

func overview(h *Hall) Overview {
	o := Overview{Event: h.o.Event, Site: h.o.Site, Round: h.o.Round, Connected: h.Connected(), Stats: h.Stats(), Boards: []Summary{}}
	for _, b := range h.Boards() {
		o.Boards = append(o.Boards, b.Summary())
	}
	return o
}

func (s *Server) summaries(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, overview(s.h))
}

func (s *Server) moves(w http.ResponseWriter, r *http.Request) {
	b := s.h.Board(r.PathValue("id"))
	if b == nil {
		writeError(w, http.StatusNotFound, "no board %q", r.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, b.Moves())
}

// --- broadcast ------------------------------------------------------------

// The broadcast is served from the hall's store (store.go): every request
// lists the games under the store's lock only, reads what is not in memory
// from disk without it, and keeps the file it assembled until a game in it
// changes. Nothing a poller does waits for the boards' messages, or makes
// them wait.

// sliceSize is how many games a slice of a round holds in the round's
// index: what one lichess broadcast round shows (lichess shows at most 100
// games a round and reads at most 256 from one source).
const sliceSize = 64

// serveGames serves games as one PGN file with an ETag, so that pollers ask
// cheaply whether it changed; the file assembled is kept under name while
// the games are as of version.
func (s *Server) serveGames(w http.ResponseWriter, r *http.Request, name, file string, version uint64, games []gameText) {
	b := s.h.store.body(name, version)
	if b == nil {
		var sb strings.Builder
		n := 0
		for _, g := range games {
			n += len(g.text) + 1
		}
		sb.Grow(n)
		for i, g := range games {
			if i > 0 {
				sb.WriteString("\n")
			}
			sb.WriteString(strings.TrimRight(g.text, "\n"))
			sb.WriteString("\n")
		}
		body := []byte(sb.String())
		sum := sha256.Sum256(body)
		b = &pgnBody{version: version, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		s.h.store.keepBody(name, b)
	}
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Content-Disposition", `inline; filename="`+file+`"`)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", b.etag)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, b.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(b.body)
}

func (s *Server) broadcastCurrent(w http.ResponseWriter, r *http.Request) {
	games, v, err := s.h.store.currentGames()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	s.serveGames(w, r, "current", "current.pgn", v, games)
}

// parseSlice reads a slice of a round: "A-B" (games A to B, counted from 1,
// both included), "A-" (from A on) or "A" (game A alone).
func parseSlice(v string) (from, to int, err error) {
	a, b, dash := strings.Cut(v, "-")
	from, err = strconv.Atoi(a)
	if err != nil || from < 1 {
		return 0, 0, fmt.Errorf("slice %q: want A-B, A- or A (games counted from 1)", v)
	}
	switch {
	case !dash:
		return from, from, nil
	case b == "":
		return from, math.MaxInt, nil
	}
	to, err = strconv.Atoi(b)
	if err != nil || to < from {
		return 0, 0, fmt.Errorf("slice %q: want A-B with A <= B (games counted from 1)", v)
	}
	return from, to, nil
}

func (s *Server) broadcastRound(w http.ResponseWriter, r *http.Request) {
	round, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	if !ok || round == "" {
		writeError(w, http.StatusNotFound, "want /broadcast/rounds/ROUND.pgn")
		return
	}
	games, v, ok := s.round(w, round)
	if !ok {
		return
	}
	name, file := "round\x00"+round, "round-"+round+".pgn"
	if sl := r.URL.Query().Get("slice"); sl != "" {
		from, to, err := parseSlice(sl)
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		games = games[min(from-1, len(games)):min(to, len(games))]
		name += "\x00" + sl
		file = "round-" + round + "-" + sl + ".pgn"
	}
	s.serveGames(w, r, name, file, v, games)
}

func (s *Server) broadcastRoundBoard(w http.ResponseWriter, r *http.Request) {
	round := r.PathValue("round")
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	if !ok {
		writeError(w, http.StatusNotFound, "want /broadcast/rounds/ROUND/boards/ID.pgn")
		return
	}
	games, v, err := s.h.store.roundGames(round)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	games = slices.DeleteFunc(games, func(g gameText) bool { return g.key.board != id })
	if len(games) == 0 {
		writeError(w, http.StatusNotFound, "no game of board %q in round %q (GET /broadcast/rounds/%s/ lists them)", id, round, url.PathEscape(round))
		return
	}
	s.serveGames(w, r, "round\x00"+round+"\x00board\x00"+id, id+"-round-"+round+".pgn", v, games)
}

func (s *Server) broadcastBoard(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	if !ok || s.h.Board(id) == nil {
		writeError(w, http.StatusNotFound, "no board %q: want /broadcast/boards/ID.pgn", id)
		return
	}
	games, latest, err := s.h.store.boardGames(id)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	games = slices.DeleteFunc(games, func(g gameText) bool { return g.key != latest })
	if len(games) == 0 {
		writeError(w, http.StatusServiceUnavailable, "hall: board %s: %v", id, errNoState)
		return
	}
	// A board's latest game changes with every move: no cache worth keeping.
	sum := sha256.Sum256([]byte(games[0].text))
	s.serveGames(w, r, "board\x00"+id+"\x00"+hex.EncodeToString(sum[:8]), id+".pgn", 0, games)
}

// BroadcastIndex is GET /broadcast/: where the PGNs are.
type BroadcastIndex struct {
	Current string            `json:"current"`
	Rounds  map[string]string `json:"rounds"`
	Boards  map[string]string `json:"boards"`
	// RoundIndexes are each round's own index (RoundIndex).
	RoundIndexes map[string]string `json:"round_indexes"`
}

func (s *Server) broadcastIndex(w http.ResponseWriter, r *http.Request) {
	idx := BroadcastIndex{Current: "/broadcast/current.pgn", Rounds: map[string]string{}, Boards: map[string]string{}, RoundIndexes: map[string]string{}}
	for round, boards := range s.h.store.roundIndex() {
		esc := url.PathEscape(round)
		idx.Rounds[round] = "/broadcast/rounds/" + esc + ".pgn"
		idx.RoundIndexes[round] = "/broadcast/rounds/" + esc + "/"
		for _, id := range boards {
			idx.Boards[id] = "/broadcast/boards/" + url.PathEscape(id) + ".pgn"
		}
	}
	writeJSON(w, http.StatusOK, idx)
}

// RoundIndex is GET /broadcast/rounds/R/: one round's games, for a
// broadcast that takes the round in slices (a lichess round shows at most
// 100 games) or one URL a board.
type RoundIndex struct {
	Round string `json:"round"`
	Games int    `json:"games"`
	// PGN is every game of the round; Slices the same in files of
	// SliceSize games, in board order.
	PGN       string   `json:"pgn"`
	SliceSize int      `json:"slice_size"`
	Slices    []string `json:"slices"`
	// Boards are the round's boards in order, each with its games' URL.
	Boards []RoundBoard `json:"boards"`
}

// RoundBoard is one board of a round.
type RoundBoard struct {
	Board string `json:"board"`
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	PGN   string `json:"pgn"`
}

// round returns the games of round and their version; with none (or the
// store failing) it has answered w, and ok is false.
func (s *Server) round(w http.ResponseWriter, round string) (games []gameText, version uint64, ok bool) {
	games, version, err := s.h.store.roundGames(round)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return nil, 0, false
	}
	if len(games) == 0 {
		writeError(w, http.StatusNotFound, "no game of round %q (GET /broadcast/ lists the rounds)", round)
		return nil, 0, false
	}
	return games, version, true
}

func (s *Server) broadcastRoundIndex(w http.ResponseWriter, r *http.Request) {
	round := r.PathValue("round")
	games, _, ok := s.round(w, round)
	if !ok {
		return
	}
	esc := url.PathEscape(round)
	idx := RoundIndex{Round: round, Games: len(games), PGN: "/broadcast/rounds/" + esc + ".pgn", SliceSize: sliceSize, Slices: []string{}, Boards: []RoundBoard{}}
	for from := 1; from <= len(games); from += sliceSize {
		idx.Slices = append(idx.Slices, fmt.Sprintf("/broadcast/rounds/%s.pgn?slice=%d-%d", esc, from, min(from+sliceSize-1, len(games))))
	}
	for i, g := range games {
		if i > 0 && games[i-1].key.board == g.key.board {
			continue
		}
		rb := RoundBoard{Board: g.key.board, PGN: "/broadcast/rounds/" + esc + "/boards/" + url.PathEscape(g.key.board) + ".pgn"}
		rb.White, rb.Black = tagValue(g.text, "White"), tagValue(g.text, "Black")
		idx.Boards = append(idx.Boards, rb)
	}
	writeJSON(w, http.StatusOK, idx)
}

// tagValue reads tag name of a PGN ("" when unknown).
func tagValue(pgn, name string) string {
	for line := range strings.Lines(pgn) {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "[") {
			break
		}
		if v, ok := strings.CutPrefix(t, "["+name+` "`); ok {
			v = strings.TrimSuffix(v, `"]`)
			v = strings.ReplaceAll(strings.ReplaceAll(v, `\"`, `"`), `\\`, `\`)
			if v == "?" {
				return ""
			}
			return v
		}
	}
	return ""
}
