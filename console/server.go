package console

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/lawset"
	"github.com/boardd/boardd/logrepeat"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// The arbiter's actions (POST /api/boards/{id}/arbiter). All but
// ActionChoose reach the game as a trace.Arbiter line with this Action
// (the game's Action carries them out).
const (
	ActionChoose  = "choose"            // rule on the pending choice (side "arbiter")
	ActionNewGame = trace.ActionNewGame // start a new game (value: an optional FEN to set up)
	ActionAnnul   = trace.ActionAnnul   // annul the game and begin it anew
	ActionLaws    = trace.ActionLaws    // change the law-set (value: its id)
	ActionResult  = trace.ActionResult  // declare the result (value: 1-0, 0-1 or 1/2-1/2)
)

//go:embed assets
var assets embed.FS

// Options configure a Server.
type Options struct {
	// Boards are the boards served, in the order the board list gives them.
	Boards []Board
	// Token is the arbiter token. Empty: nobody may act as the arbiter.
	Token string
	// Hosts are extra host names (without port) under which the page may
	// drive a simulated board without the token. IP addresses, "localhost"
	// and names under ".localhost" are always allowed; other names are
	// refused for tokenless inputs, so that a foreign site rebinding its
	// name to this machine cannot play on the board.
	Hosts []string
	// Ping is the keep-alive interval of the event stream; 15 s if zero.
	Ping time.Duration
	// Logger receives the server's logs; none if nil.
	Logger *slog.Logger
	// Streams bounds the event streams open at once, in all and per client
	// (a new StreamLimit with the defaults if nil): a stream past it is
	// refused with 503, so that no number of clients can exhaust the
	// daemon's memory or its game.
	Streams *StreamLimit
	// Clock paces the server's repeated warnings (real time if nil).
	Clock timing.Clock
}

// Server is the console's HTTP handler: the page, its assets and the JSON
// API over a set of boards. Close it to end the event streams.
type Server struct {
	opts   Options
	log    *slog.Logger
	hubs   map[string]*hub
	order  []string
	mux    *http.ServeMux
	cop    *http.CrossOriginProtection
	static fs.FS
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	hosts  map[string]bool
	// warnStreams says when streams are refused (once a minute);
	// warnClear says when the arbiter token came in clear from beyond this
	// machine (once every ten minutes a client).
	warnStreams, warnClear *logrepeat.Limiter
}

// New returns a server of opts.Boards, which must be at least one, with
// distinct valid ids.
func New(opts Options) (*Server, error) {
	if len(opts.Boards) == 0 {
		return nil, fmt.Errorf("console: no board to serve")
	}
	if opts.Token != "" {
		if err := checkToken(opts.Token); err != nil {
			return nil, fmt.Errorf("console: arbiter token: %w", err)
		}
	}
	if opts.Ping <= 0 {
		opts.Ping = 15 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Streams == nil {
		opts.Streams = NewStreamLimit(0, 0)
	}
	if opts.Clock == nil {
		opts.Clock = timing.NewReal()
	}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("console: assets: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{opts: opts, log: opts.Logger, hubs: map[string]*hub{}, mux: http.NewServeMux(), cop: http.NewCrossOriginProtection(), static: static, ctx: ctx, cancel: cancel, hosts: map[string]bool{},
		warnStreams: logrepeat.New(opts.Clock, time.Minute), warnClear: logrepeat.New(opts.Clock, 10*time.Minute)}
	for _, h := range opts.Hosts {
		s.hosts[strings.ToLower(h)] = true
	}
	for _, b := range opts.Boards {
		id := b.ID()
		if err := ValidBoardID(id); err != nil {
			cancel()
			return nil, err
		}
		if _, dup := s.hubs[id]; dup {
			cancel()
			return nil, fmt.Errorf("console: two boards named %q", id)
		}
		s.hubs[id] = newHub(worded{b}) // the options in plain words, whatever the board
		s.order = append(s.order, id)
	}
	for _, id := range s.order {
		h := s.hubs[id]
		h.unwatch = h.b.Watch(h.changed)
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			h.run(ctx, s.log)
		}()
	}
	s.routes()
	return s, nil
}

// Close ends every event stream and stops following the boards. It does not
// close the boards.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	for _, h := range s.hubs {
		h.unwatch()
	}
	return nil
}

// ServeHTTP serves the page and the API.
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
	m.HandleFunc("/{$}", s.get(s.index))
	m.Handle("/assets/", s.get(http.StripPrefix("/assets/", http.FileServerFS(s.static)).ServeHTTP))
	m.HandleFunc("/api/laws", s.get(s.laws))
	m.HandleFunc("/api/options", s.get(s.optionWords))
	m.HandleFunc("/api/auth", s.get(s.authInfo))
	m.HandleFunc("/api/boards", s.get(s.boards))
	m.HandleFunc("/api/boards/{id}/state", s.get(s.board(s.state)))
	m.HandleFunc("/api/boards/{id}/pgn", s.get(s.board(s.pgn)))
	m.HandleFunc("/api/boards/{id}/events", s.get(s.board(s.events)))
	m.HandleFunc("/api/boards/{id}/input", s.post(s.board(s.input)))
	m.HandleFunc("/api/boards/{id}/arbiter", s.post(s.board(s.arbiter)))
	m.HandleFunc("/api/boards/{id}/opponent", s.post(s.board(s.opponent)))
	m.HandleFunc("/api/boards/{id}/warn-only", s.post(s.board(s.warnOnly)))
	m.HandleFunc("/api/boards/{id}/players", s.post(s.board(s.players)))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: %s (docs/api.md lists them)", r.URL.Path)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) { WriteJSON(w, status, v) }

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	WriteError(w, status, format, args...)
}

// get admits GET and HEAD only.
func (s *Server) get(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "%s %s: want GET", r.Method, r.URL.Path)
			return
		}
		h(w, r)
	}
}

// post admits same-origin (or non-browser) POSTs of JSON only.
func (s *Server) post(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeError(w, http.StatusMethodNotAllowed, "%s %s: want POST", r.Method, r.URL.Path)
			return
		}
		if err := s.cop.Check(r); err != nil {
			writeError(w, http.StatusForbidden, "cross-site request refused: %v", err)
			return
		}
		ct := r.Header.Get("Content-Type")
		if mt, _, _ := strings.Cut(ct, ";"); strings.TrimSpace(strings.ToLower(mt)) != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "Content-Type %q: want application/json", ct)
			return
		}
		h(w, r)
	}
}

type boardHandler func(w http.ResponseWriter, r *http.Request, h *hub)

func (s *Server) board(fn boardHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		h, ok := s.hubs[id]
		if !ok {
			writeError(w, http.StatusNotFound, "no board %q (boards: %s)", id, strings.Join(s.order, ", "))
			return
		}
		fn(w, r, h)
	}
}

// role is who a request speaks for.
type role int

const (
	spectator role = iota
	arbiterRole
)

// authenticate reads the Authorization header: none is a spectator, the
// right bearer token the arbiter, anything else an error answer. The
// scheme's name is case-insensitive (RFC 9110, 11.1): "bearer" will do.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (role, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return spectator, true
	}
	tok, ok := bearerToken(h)
	if !ok {
		writeError(w, http.StatusUnauthorized, "Authorization: want \"Bearer\" and the arbiter token")
		return spectator, false
	}
	s.warnIfClear(r)
	if s.opts.Token == "" {
		writeError(w, http.StatusForbidden, "this console has no arbiter token: nobody may act as the arbiter")
		return spectator, false
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.opts.Token)) != 1 {
		writeError(w, http.StatusUnauthorized, "wrong arbiter token")
		return spectator, false
	}
	return arbiterRole, true
}

// bearerToken returns the token of an Authorization header of the Bearer
// scheme, whatever the case of its name.
func bearerToken(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// warnIfClear logs a warning when a token came over plain HTTP from
// another machine: whoever shares its network may have read it.
func (s *Server) warnIfClear(r *http.Request) {
	if r.TLS != nil {
		return
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsLoopback() {
		return
	}
	client := requestClient(r)
	s.warnClear.Log(s.log, slog.LevelWarn, client, "console: the arbiter token came over plain HTTP from another machine: anyone on that network may have read it; serve HTTPS (--tls-cert and --tls-key)", "client", client)
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	ServePage(w, s.static, "index.html")
}

// LawInfo describes one law-set for GET /api/laws.
type LawInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Year    int    `json:"year"`
	Summary string `json:"summary"`
}

func (s *Server) laws(w http.ResponseWriter, r *http.Request) {
	out := []LawInfo{}
	for _, ls := range lawset.All() {
		out = append(out, LawInfo{ID: ls.ID, Name: ls.Name, Year: ls.Year, Summary: ls.Summary})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) authInfo(w http.ResponseWriter, r *http.Request) {
	who, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	name := "spectator"
	if who == arbiterRole {
		name = "arbiter"
	}
	writeJSON(w, http.StatusOK, map[string]any{"role": name, "arbiter_token": s.opts.Token != ""})
}

// BoardSummary is one board in GET /api/boards.
type BoardSummary struct {
	ID        string  `json:"id"`
	Simulated bool    `json:"simulated"`
	Laws      string  `json:"laws"`
	Turn      string  `json:"turn"`
	Moves     int     `json:"moves"`
	Pending   bool    `json:"pending"`
	Syncing   bool    `json:"syncing"`
	Result    *Result `json:"result"`
	Error     string  `json:"error,omitempty"`
}

func (s *Server) boards(w http.ResponseWriter, r *http.Request) {
	out := make([]BoardSummary, 0, len(s.order))
	for _, id := range s.order {
		h := s.hubs[id]
		sum := BoardSummary{ID: id, Simulated: h.b.Simulated()}
		if st, err := s.boardState(r, h); err != nil {
			sum.Error = err.Error()
		} else {
			sum.Laws, sum.Turn, sum.Moves = st.Laws.ID, st.Turn, len(st.Moves)
			sum.Pending, sum.Syncing, sum.Result = st.Pending != nil, st.Syncing, st.Result
		}
		out = append(out, sum)
	}
	writeJSON(w, http.StatusOK, out)
}

// boardState returns the board's state taken after r came, sharing the
// query with the requests that want it at the same time.
func (s *Server) boardState(r *http.Request, h *hub) (State, error) {
	return h.states.get(r.Context(), s.ctx, h.b.State)
}

func (s *Server) state(w http.ResponseWriter, r *http.Request, h *hub) {
	st, err := s.boardState(r, h)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) pgn(w http.ResponseWriter, r *http.Request, h *hub) {
	pgn, err := h.pgns.get(r.Context(), s.ctx, h.b.PGN)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "%v", err)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="boardd-%s.pgn"`, h.b.ID()))
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, pgn)
}

// maxBody bounds request bodies: inputs are a few dozen bytes.
const maxBody = 4096

// readObject reads the body as one JSON object of string values, with only
// the keys allowed (what names them in errors).
func readObject(w http.ResponseWriter, r *http.Request, what string, allowed ...string) (map[string]string, bool) {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body over %d bytes", maxBody)
		} else {
			writeError(w, http.StatusBadRequest, "request body: want one JSON object: %v", strings.TrimPrefix(err.Error(), "json: "))
		}
		return nil, false
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "request body: more than one JSON value")
		return nil, false
	}
	if raw == nil {
		writeError(w, http.StatusBadRequest, "request body: want one JSON object, not null")
		return nil, false
	}
	for k := range raw {
		if !slices.Contains(allowed, k) {
			writeError(w, http.StatusBadRequest, "%s: unknown key %q: want %s", what, k, strings.Join(allowed, ", "))
			return nil, false
		}
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		var sv string
		if err := json.Unmarshal(v, &sv); err != nil {
			writeError(w, http.StatusBadRequest, "request body: %q: want a string", k)
			return nil, false
		}
		out[k] = sv
	}
	return out, true
}

// inputKinds are the keys of a player input, as in trace format v1.
const inputKinds = "lift, place, press, promote, choose"

func (s *Server) input(w http.ResponseWriter, r *http.Request, h *hub) {
	who, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	if !h.b.Simulated() {
		writeError(w, http.StatusForbidden, "board %s reads its sensors: its inputs come from the board, not the page", h.b.ID())
		return
	}
	if who != arbiterRole && !s.hostAllowed(r) {
		writeError(w, http.StatusForbidden, "host %q is not one this console answers to for the simulated board without the arbiter token", r.Host)
		return
	}
	obj, ok := readObject(w, r, "input", "lift", "place", "press", "promote", "choose", "side")
	if !ok {
		return
	}
	kinds := 0
	for k := range obj {
		if k != "side" {
			kinds++
		}
	}
	if kinds != 1 {
		writeError(w, http.StatusBadRequest, "input: want exactly one of %s", inputKinds)
		return
	}
	if _, ok := obj["choose"]; ok && obj["side"] == trace.SideArbiter {
		writeError(w, http.StatusForbidden, "choosing as the arbiter needs the arbiter token: POST /api/boards/%s/arbiter", h.b.ID())
		return
	}
	wire := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		wire[k] = v
	}
	wire["t"] = 0
	text, _ := json.Marshal(wire)
	l, err := trace.Parse(text)
	if err != nil {
		writeError(w, http.StatusBadRequest, "input: %v", err)
		return
	}
	s.submit(w, r, h, l)
}

var optionPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

func (s *Server) arbiter(w http.ResponseWriter, r *http.Request, h *hub) {
	who, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	if who != arbiterRole {
		if s.opts.Token == "" {
			writeError(w, http.StatusForbidden, "this console has no arbiter token: nobody may act as the arbiter")
		} else {
			// No law is cited: the codes' laws on onlookers differ, and an
			// error never cites another code's law than the board's.
			writeError(w, http.StatusUnauthorized, "arbiter token required: only the arbiter may rule, choose for a player, start a new game, annul, declare a result or change the law-set")
		}
		return
	}
	obj, ok := readObject(w, r, "arbiter", "action", "option", "value")
	if !ok {
		return
	}
	action, option, value := obj["action"], obj["option"], obj["value"]
	var l trace.Line
	switch action {
	case ActionChoose:
		if !optionPattern.MatchString(option) {
			writeError(w, http.StatusBadRequest, "arbiter choose: option %q: want an option id such as stand or move-touched", option)
			return
		}
		if value != "" {
			writeError(w, http.StatusBadRequest, "arbiter choose: takes no value")
			return
		}
		l = trace.Line{Kind: trace.Choose, Option: option, Side: trace.SideArbiter}
	case ActionNewGame, ActionAnnul, ActionLaws, ActionResult:
		if option != "" {
			writeError(w, http.StatusBadRequest, "arbiter %s: takes no option", action)
			return
		}
		switch action {
		case ActionNewGame:
			if value != "" {
				if _, err := board.ParseSetup(value); err != nil {
					writeError(w, http.StatusBadRequest, "arbiter new-game: value %q: want a legal set-up as FEN, or none: %v", value, err)
					return
				}
			}
		case ActionAnnul:
			if value != "" {
				writeError(w, http.StatusBadRequest, "arbiter annul: takes no value")
				return
			}
		case ActionLaws:
			if _, err := lawset.Lookup(value); err != nil {
				writeError(w, http.StatusBadRequest, "arbiter laws: %v", err)
				return
			}
		case ActionResult:
			if value != "1-0" && value != "0-1" && value != "1/2-1/2" {
				writeError(w, http.StatusBadRequest, "arbiter result: value %q: want 1-0, 0-1 or 1/2-1/2", value)
				return
			}
		}
		l = trace.Line{Kind: trace.Arbiter, Action: action, Value: value, Side: trace.SideArbiter}
	default:
		writeError(w, http.StatusBadRequest, "arbiter: action %q: want %s, %s, %s, %s or %s", action, ActionChoose, ActionNewGame, ActionAnnul, ActionLaws, ActionResult)
		return
	}
	s.log.Info("arbiter action", "board", h.b.ID(), "action", action, "option", option, "value", value, "from", r.RemoteAddr)
	s.submit(w, r, h, l)
}

// arbiterOrPlayerAtSimulated reports who asks and whether the request may
// go on: the
// arbiter's (the token) always; without the token only on a simulated board
// and from a host this console answers to (the player at it, a home board
// with no arbiter). Otherwise it answers 401 or 403, ending with why: what
// on a board with sensors only its arbiter (or its buttons) may do.
func (s *Server) arbiterOrPlayerAtSimulated(w http.ResponseWriter, r *http.Request, h *hub, why string) (role, bool) {
	who, ok := s.authenticate(w, r)
	if !ok || who == arbiterRole {
		return who, ok
	}
	switch {
	case !h.b.Simulated():
		writeError(w, http.StatusUnauthorized, "arbiter token required: board %s reads its sensors, and %s", h.b.ID(), why)
		return who, false
	case !s.hostAllowed(r):
		writeError(w, http.StatusForbidden, "host %q is not one this console answers to for the simulated board without the arbiter token", r.Host)
		return who, false
	}
	return who, true
}

// opponent gives the board's opponent from off the board (an engine) a
// command. Who may: the arbiter (the token), and, on a simulated board, the
// player at it: whoever may play on it from the page (a host this console
// answers to), as for its inputs. On a board with sensors the player uses
// the board's buttons, and the page needs the token.
func (s *Server) opponent(w http.ResponseWriter, r *http.Request, h *hub) {
	who, ok := s.arbiterOrPlayerAtSimulated(w, r, h, "its player commands the engine with the board's buttons")
	if !ok {
		return
	}
	obj, ok := readObject(w, r, "opponent", "command", "value")
	if !ok {
		return
	}
	command, value := obj["command"], obj["value"]
	known := OpponentCommands()
	if !slices.Contains(known, command) {
		writeError(w, http.StatusBadRequest, "opponent: command %q: want %s", command, strings.Join(known, ", "))
		return
	}
	if len(value) > 64 {
		writeError(w, http.StatusBadRequest, "opponent %s: value longer than 64 bytes", command)
		return
	}
	c, ok := h.b.(worded).Board.(Commander)
	if !ok {
		writeError(w, http.StatusNotImplemented, "board %s: no engine plays here", h.b.ID())
		return
	}
	s.log.Info("opponent command", "board", h.b.ID(), "command", command, "value", value, "as", map[role]string{arbiterRole: "arbiter", spectator: "player"}[who], "from", r.RemoteAddr)
	err := c.Command(r.Context(), command, value)
	var refused *RefusedError
	switch {
	case err == nil:
		h.poke()
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case errors.Is(err, errors.ErrUnsupported):
		writeError(w, http.StatusNotImplemented, "%v", err)
	case errors.As(err, &refused):
		writeError(w, http.StatusConflict, "%v", err)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	default:
		writeError(w, http.StatusInternalServerError, "%v", err)
	}
}

func (s *Server) submit(w http.ResponseWriter, r *http.Request, h *hub, l trace.Line) {
	err := h.b.Submit(r.Context(), l)
	if err == nil {
		h.poke()
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
		return
	}
	writeSubmitError(w, err)
}

// writeSubmitError answers an input the board did not take: 409 for one
// it refused, 501 for one it cannot take, 503 when it did not answer.
func writeSubmitError(w http.ResponseWriter, err error) {
	var refused *RefusedError
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		writeError(w, http.StatusNotImplemented, "%v", err)
	case errors.As(err, &refused):
		writeError(w, http.StatusConflict, "%v", err)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	default:
		writeError(w, http.StatusInternalServerError, "%v", err)
	}
}

// warnOnly switches warn-only for the board's games (irregularities shown
// and explained, no penalty exacted), between games: {"value":"on"} or
// "off". Who may: the arbiter (the token), and, on a simulated board, the
// player at it (a host this console answers to), as for its engine: a home
// board with no arbiter. A switch the game refuses (mid-game, in tournament
// mode) is answered 409 with the game's words.
func (s *Server) warnOnly(w http.ResponseWriter, r *http.Request, h *hub) {
	who, ok := s.arbiterOrPlayerAtSimulated(w, r, h, "only its arbiter switches warn-only")
	if !ok {
		return
	}
	obj, ok := readObject(w, r, "warn-only", "value")
	if !ok {
		return
	}
	value := obj["value"]
	if value != "on" && value != "off" {
		writeError(w, http.StatusBadRequest, "warn-only: value %q: want on or off", value)
		return
	}
	s.log.Info("warn-only switched", "board", h.b.ID(), "value", value, "as", map[role]string{arbiterRole: "arbiter", spectator: "player"}[who], "from", r.RemoteAddr)
	s.submit(w, r, h, trace.Line{Kind: trace.Arbiter, Action: trace.ActionWarnOnly, Value: value, Side: trace.SideArbiter})
}

// hostAllowed reports whether the request's Host may drive a simulated
// board without the token: an IP address, localhost, or a configured name.
func (s *Server) hostAllowed(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	return s.hosts[host]
}
