package hall

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
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
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("hall: assets: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{h: h, o: o, log: o.Logger, mux: http.NewServeMux(), static: static, ctx: ctx, cancel: cancel, added: make(chan struct{}, 1)}
	s.grid = newGrid(h, o.Ping, ctx.Done())
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
	con, err := console.New(console.Options{Boards: cb, Token: s.h.o.Token, Hosts: s.o.Hosts, Ping: s.o.Ping, Logger: s.log})
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

// broadcastGame is one game in a broadcast.
type broadcastGame struct {
	board, round string
	pgn          string
}

// games returns the games in progress (current) and those finished while the
// hall watched, board by board.
func (s *Server) games(finished bool) []broadcastGame {
	var out []broadcastGame
	for _, b := range s.h.Boards() {
		if finished {
			for _, f := range b.Finished() {
				out = append(out, broadcastGame{board: f.Board, round: f.Round, pgn: f.PGN})
			}
		}
		b.mu.Lock()
		if b.pgn != "" {
			out = append(out, broadcastGame{board: b.id, round: b.round, pgn: retag(b.pgn, b.tagsLocked())})
		}
		b.mu.Unlock()
	}
	return out
}

// writePGN serves games as one PGN file, with an ETag so that pollers ask
// cheaply whether it changed.
func writePGN(w http.ResponseWriter, r *http.Request, name string, games []broadcastGame) {
	var b strings.Builder
	for i, g := range games {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(strings.TrimRight(g.pgn, "\n"))
		b.WriteString("\n")
	}
	body := b.String()
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Content-Disposition", `inline; filename="`+name+`"`)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write([]byte(body))
}

func (s *Server) broadcastCurrent(w http.ResponseWriter, r *http.Request) {
	writePGN(w, r, "current.pgn", s.games(false))
}

func (s *Server) broadcastRound(w http.ResponseWriter, r *http.Request) {
	round, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	if !ok || round == "" {
		writeError(w, http.StatusNotFound, "want /broadcast/rounds/ROUND.pgn")
		return
	}
	var out []broadcastGame
	for _, g := range s.games(true) {
		if g.round == round {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		writeError(w, http.StatusNotFound, "no game of round %q (GET /broadcast/ lists the rounds)", round)
		return
	}
	writePGN(w, r, "round-"+round+".pgn", out)
}

func (s *Server) broadcastBoard(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	b := s.h.Board(id)
	if !ok || b == nil {
		writeError(w, http.StatusNotFound, "no board %q: want /broadcast/boards/ID.pgn", id)
		return
	}
	pgn, err := b.PGN(r.Context())
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "%v", err)
		return
	}
	writePGN(w, r, id+".pgn", []broadcastGame{{board: id, pgn: pgn}})
}

// BroadcastIndex is GET /broadcast/: where the PGNs are.
type BroadcastIndex struct {
	Current string            `json:"current"`
	Rounds  map[string]string `json:"rounds"`
	Boards  map[string]string `json:"boards"`
}

func (s *Server) broadcastIndex(w http.ResponseWriter, r *http.Request) {
	idx := BroadcastIndex{Current: "/broadcast/current.pgn", Rounds: map[string]string{}, Boards: map[string]string{}}
	rounds := map[string]bool{}
	for _, g := range s.games(true) {
		rounds[g.round] = true
		idx.Boards[g.board] = "/broadcast/boards/" + url.PathEscape(g.board) + ".pgn"
	}
	keys := make([]string, 0, len(rounds))
	for k := range rounds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		idx.Rounds[k] = "/broadcast/rounds/" + url.PathEscape(k) + ".pgn"
	}
	writeJSON(w, http.StatusOK, idx)
}
