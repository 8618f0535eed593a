package hall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/hall/wire"
)

// store keeps every game the hall has followed on disk, one PGN file a
// game, so that a hall restarted mid-round serves the whole round again:
//
//	DIR/board-<id>/<epoch>-<game>.pgn
//
// The game is the board's own game number; the epoch counts the board's
// journals as the hall has seen them (a board whose state directory is
// begun anew numbers its games from 1 again: a new epoch keeps its games
// apart from the old ones). Each file is the game's PGN with the hall's
// tags, as the broadcast serves it.
//
// A board's latest game changes at every move: its text is kept in memory
// and written behind, at most every flush interval, in place and without a
// sync (the board's journal has it all). A game the board has left for a
// new one is written at once, whole (a new file renamed over the old) and
// synced, and its text then dropped from memory but for a bounded cache:
// rounds are read back from disk when asked for.
type store struct {
	dir string // "" keeps everything in memory (tests)
	log *slog.Logger

	mu      sync.Mutex
	games   map[gameKey]*storedGame
	latest  map[string]gameKey // each board's latest game
	version uint64             // bumped whenever a game's text or round changes
	rounds  map[string]uint64  // each round's version
	cold    map[gameKey]string // texts of games no longer latest, read back or just written
	coldLen int
	bodies  map[string]*pgnBody // assembled broadcasts, by what was asked
	kick    chan struct{}
}

// gameKey names one game of one board.
type gameKey struct {
	board string
	epoch uint64
	game  uint64
}

// less orders games by board (natural order), then epoch and game.
func (k gameKey) less(o gameKey) bool {
	if k.board != o.board {
		return naturalLess(k.board, o.board)
	}
	if k.epoch != o.epoch {
		return k.epoch < o.epoch
	}
	return k.game < o.game
}

func (k gameKey) file() string {
	return filepath.Join("board-"+k.board, strconv.FormatUint(k.epoch, 10)+"-"+strconv.FormatUint(k.game, 10)+".pgn")
}

// storedGame is one game in the store.
type storedGame struct {
	key    gameKey
	round  string
	text   string // in memory while the game is its board's latest ("" once dropped)
	gen    uint64 // bumped at each change
	saved  uint64 // the gen on disk
	synced bool   // written with a sync since its last change
}

// coldBudget bounds the texts of older games kept in memory.
const coldBudget = 32 << 20

// openStore reads the games kept in dir (made if missing); dir "" keeps
// them in memory only.
func openStore(dir string, log *slog.Logger) (*store, error) {
	s := &store{dir: dir, log: log, games: map[gameKey]*storedGame{}, latest: map[string]gameKey{}, rounds: map[string]uint64{},
		cold: map[gameKey]string{}, bodies: map[string]*pgnBody{}, kick: make(chan struct{}, 1)}
	if dir == "" {
		return s, nil
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("hall: games: %w", err)
	}
	boards, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("hall: games: %w", err)
	}
	for _, bd := range boards {
		id, ok := strings.CutPrefix(bd.Name(), "board-")
		if !bd.IsDir() || !ok || wire.CheckBoard(id) != nil {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, bd.Name()))
		if err != nil {
			return nil, fmt.Errorf("hall: games: %w", err)
		}
		for _, f := range files {
			name := f.Name()
			path := filepath.Join(dir, bd.Name(), name)
			if strings.HasSuffix(name, ".tmp") {
				os.Remove(path) // a write cut short: the game is in the file it was to replace, or on the board
				continue
			}
			base, ok := strings.CutSuffix(name, ".pgn")
			e, g, ok2 := strings.Cut(base, "-")
			epoch, err1 := strconv.ParseUint(e, 10, 64)
			game, err2 := strconv.ParseUint(g, 10, 64)
			if !ok || !ok2 || err1 != nil || err2 != nil {
				log.Warn("hall: games: a file that is not a game, left alone", "file", path)
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("hall: games: %w", err)
			}
			k := gameKey{board: id, epoch: epoch, game: game}
			sg := &storedGame{key: k, round: roundOf(string(data)), gen: 1, saved: 1, synced: true}
			s.games[k] = sg
			s.rounds[sg.round]++
			if l, ok := s.latest[id]; !ok || l.less(k) {
				s.latest[id] = k
			}
			s.keepCold(k, string(data))
		}
	}
	for _, k := range s.latest {
		s.games[k].text = s.cold[k]
	}
	s.version = 1
	if len(s.games) > 0 {
		log.Info("hall: games read back from disk", "games", len(s.games), "boards", len(s.latest), "dir", dir)
	}
	return s, nil
}

// roundOf reads a PGN's Round tag ("-" when unknown).
func roundOf(pgn string) string {
	if r := tagValue(pgn, "Round"); r != "" {
		return r
	}
	return "-"
}

func (s *store) keepCold(k gameKey, text string) {
	if s.coldLen+len(text) > coldBudget {
		s.cold, s.coldLen = map[gameKey]string{}, 0
	}
	if old, ok := s.cold[k]; ok {
		s.coldLen -= len(old)
	}
	s.cold[k] = text
	s.coldLen += len(text)
}

// epoch returns the epoch of board id's games now.
func (s *store) epoch(id string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest[id].epoch
}

// newEpoch says board id's journal began anew: its games from now on are
// kept apart from those before.
func (s *store) newEpoch(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.latest[id]; ok {
		s.latest[id] = gameKey{board: id, epoch: l.epoch + 1}
		if old := s.games[l]; old != nil {
			s.retire(old)
		}
	}
}

// put records the text of board id's game (the board's latest) in round.
// A game number below the board's latest means its journal began anew (the
// hall may have been away when it did): a new epoch.
func (s *store) put(id string, game uint64, round, text string) {
	s.mu.Lock()
	l, known := s.latest[id]
	k := gameKey{board: id, epoch: l.epoch, game: game}
	if known && game < l.game {
		k.epoch++
		s.log.Warn("hall: the board numbers its games from the start again; keeping its new games apart", "board", id, "game", game, "was", l.game)
	}
	sg := s.games[k]
	switch {
	case sg == nil:
		sg = &storedGame{key: k}
		s.games[k] = sg
	case sg.text == text && sg.round == round:
		s.mu.Unlock()
		return
	}
	if sg.round != round {
		s.rounds[sg.round]++
	}
	sg.round, sg.text = round, text
	sg.gen++
	sg.synced = false
	s.rounds[round]++
	s.version++
	if !known || l.less(k) {
		s.latest[id] = k
		if old := s.games[l]; known && old != nil && old.key != k {
			s.retire(old)
		}
	}
	s.mu.Unlock()
}

// retire makes g an older game: written at once with a sync, then its text
// kept only in the cold cache.
func (s *store) retire(g *storedGame) {
	if g.text != "" {
		s.keepCold(g.key, g.text)
	}
	s.poke()
}

func (s *store) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// run writes what changed every interval (older games at once), until ctx
// ends; then it writes everything with a sync.
func (s *store) run(ctx context.Context, every time.Duration) {
	if s.dir == "" {
		<-ctx.Done()
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			s.flush(true)
			return
		case <-tick.C:
			s.flush(false)
		case <-s.kick:
			s.flush(false)
		}
	}
}

// write is one file to write.
type write struct {
	g    *storedGame
	gen  uint64
	text string
	sync bool
}

// flush writes every game changed since it was written: the boards' latest
// games without a sync unless all is true, older games with one.
func (s *store) flush(all bool) {
	s.mu.Lock()
	var ws []write
	for _, g := range s.games {
		latest := s.latest[g.key.board] == g.key
		if g.saved == g.gen && (g.synced || (latest && !all)) {
			continue
		}
		text := g.text
		if text == "" {
			text = s.cold[g.key]
		}
		if text == "" {
			continue
		}
		ws = append(ws, write{g: g, gen: g.gen, text: text, sync: all || !latest})
	}
	s.mu.Unlock()
	dirs := map[string]bool{}
	for _, w := range ws {
		if err := s.writeFile(w); err != nil {
			s.log.Error("hall: keeping a game on disk", "board", w.g.key.board, "game", w.g.key.game, "err", err)
			continue
		}
		if w.sync {
			dirs[filepath.Dir(filepath.Join(s.dir, w.g.key.file()))] = true
		}
		s.mu.Lock()
		if w.g.gen == w.gen {
			w.g.saved, w.g.synced = w.gen, w.sync
			if s.latest[w.g.key.board] != w.g.key {
				w.g.text = "" // an older game: on disk, and in the cold cache while it fits
			}
		}
		s.mu.Unlock()
	}
	for d := range dirs {
		if f, err := os.Open(d); err == nil {
			f.Sync()
			f.Close()
		}
	}
}

func (s *store) writeFile(w write) error {
	path := filepath.Join(s.dir, w.g.key.file())
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	if !w.sync {
		// A game in progress is rewritten where it is, without a sync: a
		// write cut short by a crash leaves a shorter game, which the
		// board sends again in full once the hall is back. (A temporary
		// file and a rename cost twice the system calls, at two thousand
		// boards a tenth of the hall's work.)
		return os.WriteFile(path, []byte(w.text), 0o640)
	}
	f, err := os.OpenFile(path+".tmp", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	_, err = f.WriteString(w.text)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return err
	}
	return os.Rename(path+".tmp", path)
}

// gameText is one game to broadcast.
type gameText struct {
	key   gameKey
	round string
	text  string
}

// collect returns the games keep selects, in board order, with their texts
// (read from disk when not in memory), and the version they are as of.
// It holds the store's lock only to list them.
func (s *store) collect(keep func(k gameKey, round string, latest bool) bool, version func() uint64) ([]gameText, uint64, error) {
	s.mu.Lock()
	v := version()
	var out []gameText
	for k, g := range s.games {
		if !keep(k, g.round, s.latest[k.board] == k) {
			continue
		}
		text := g.text
		if text == "" {
			text = s.cold[k]
		}
		out = append(out, gameText{key: k, round: g.round, text: text})
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b gameText) int {
		switch {
		case a.key.less(b.key):
			return -1
		case b.key.less(a.key):
			return 1
		}
		return 0
	})
	var missing []gameText
	for i := range out {
		if out[i].text != "" {
			continue
		}
		if s.dir == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.dir, out[i].key.file()))
		if errors.Is(err, fs.ErrNotExist) {
			continue // not written yet: it is in memory, and was a moment ago
		}
		if err != nil {
			return nil, 0, fmt.Errorf("hall: games: %w", err)
		}
		out[i].text = string(data)
		missing = append(missing, out[i])
	}
	if len(missing) > 0 {
		s.mu.Lock()
		for _, g := range missing {
			s.keepCold(g.key, g.text)
		}
		s.mu.Unlock()
	}
	return slices.DeleteFunc(out, func(g gameText) bool { return g.text == "" }), v, nil
}

// roundGames returns round's games.
func (s *store) roundGames(round string) ([]gameText, uint64, error) {
	return s.collect(func(_ gameKey, r string, _ bool) bool { return r == round }, func() uint64 { return s.rounds[round] })
}

// currentGames returns every board's latest game.
func (s *store) currentGames() ([]gameText, uint64, error) {
	return s.collect(func(_ gameKey, _ string, latest bool) bool { return latest }, func() uint64 { return s.version })
}

// boardGames returns board id's games, and its latest game's key.
func (s *store) boardGames(id string) ([]gameText, gameKey, error) {
	games, _, err := s.collect(func(k gameKey, _ string, _ bool) bool { return k.board == id }, func() uint64 { return 0 })
	s.mu.Lock()
	l := s.latest[id]
	s.mu.Unlock()
	return games, l, err
}

// roundIndex is what the store knows of the rounds: each round's boards in
// order.
func (s *store) roundIndex() map[string][]string {
	s.mu.Lock()
	seen := map[string]map[string]bool{}
	for k, g := range s.games {
		if seen[g.round] == nil {
			seen[g.round] = map[string]bool{}
		}
		seen[g.round][k.board] = true
	}
	s.mu.Unlock()
	out := map[string][]string{}
	for r, boards := range seen {
		ids := make([]string, 0, len(boards))
		for id := range boards {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(a, b string) int {
			switch {
			case naturalLess(a, b):
				return -1
			case naturalLess(b, a):
				return 1
			}
			return 0
		})
		out[r] = ids
	}
	return out
}

// pgnBody is an assembled broadcast file.
type pgnBody struct {
	version uint64
	body    []byte
	etag    string
}

// maxBodies bounds the assembled files kept.
const maxBodies = 64

// body returns the assembled file cached under name if it is as of
// version, else nil.
func (s *store) body(name string, version uint64) *pgnBody {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.bodies[name]; b != nil && b.version == version {
		return b
	}
	return nil
}

func (s *store) keepBody(name string, b *pgnBody) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bodies) >= maxBodies {
		s.bodies = map[string]*pgnBody{}
	}
	s.bodies[name] = b
}
