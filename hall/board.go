package hall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Board is one board as the hall follows it. It is a console.Board, so the
// console's page and API serve it: its state is the board's last state
// message with the notes the hall gathered from its events; the arbiter's
// actions go to the board over the broker.
type Board struct {
	h  *Hall
	id string

	mu      sync.Mutex
	last    uint64 // the last event held
	started bool   // the hall knows where this board's events start
	asked   time.Time
	acked   uint64    // the last acknowledgement sent
	ackedAt time.Time // when
	dups    uint64
	gaps    uint64
	applied uint64

	game    uint64
	header  *wire.Header
	round   string
	moves   []Move
	notes   []console.Note
	ply     int
	pending *console.Pending
	result  *console.Result
	clock   *console.Clock
	fen     string
	asOf    uint64 // the seq the fields above are as of
	pgn     string // the current game's PGN (from its last state)
	pgnGame uint64 // the game pgn is of
	pgnSeq  uint64 // the journal's seq when the board read pgn
	played  uint64 // the seq of the game's last report (pgn lags if pgnSeq is less)
	stored  string // the text last handed to the hall's store
	restore bool   // pgn or round changed since: hand it again

	state  *stateMessage
	health wire.Health
	// saidSince and saidN are the run of the board's spoken lines and the
	// last line of it handed to the watchers (wire.State.Said).
	saidSince time.Time
	saidN     uint64
	heard     time.Time

	watchers map[int]func(console.Change)
	nextW    int
}

// Move is a move as the hall received it.
type Move struct {
	Seq  uint64 `json:"seq"`
	Ply  int    `json:"ply"`
	Side string `json:"side"`
	UCI  string `json:"uci"`
	SAN  string `json:"san"`
	FEN  string `json:"fen"`
	// At is when the board made the move (its clock), when it said;
	// Received when the hall took the event from the broker, and Applied
	// when the hall's state held it: where the time went (docs/hall.md).
	At       time.Time `json:"at,omitzero"`
	Received time.Time `json:"received,omitzero"`
	Applied  time.Time `json:"applied,omitzero"`
}

// Finished is a game a board has finished (or left for a new one).
type Finished struct {
	Board string
	Game  uint64
	Round string
	PGN   string
}

// maxNotes bounds the notes kept a board.
const maxNotes = 500

func newBoard(h *Hall, id string) *Board {
	return &Board{h: h, id: id, watchers: map[int]func(console.Change){}}
}

// ID returns the board's id.
func (b *Board) ID() string { return b.id }

// Simulated is false: the hall does not play on a board, it watches and
// rules.
func (b *Board) Simulated() bool { return false }

// errNoState says the board has not sent its state yet.
var errNoState = errors.New("no state from the board yet")

// State returns the board's last state with the hall's notes.
func (b *Board) State(context.Context) (console.State, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == nil {
		return console.State{}, fmt.Errorf("hall: board %s: %w", b.id, errNoState)
	}
	st, err := b.state.console()
	if err != nil {
		return st, err
	}
	st.Board, st.Simulated = b.id, false
	st.Notes = make([]console.Note, len(b.notes))
	copy(st.Notes, b.notes)
	for i := range st.Notes {
		st.Notes[i].Ply = min(st.Notes[i].Ply, len(st.Moves))
	}
	return st, nil
}

// PGN returns the board's game with the hall's tags.
func (b *Board) PGN(context.Context) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pgn == "" {
		return "", fmt.Errorf("hall: board %s: %w", b.id, errNoState)
	}
	return retag(b.pgn, b.tagsLocked()), nil
}

// Submit sends an arbiter's action to the board and waits for its reply.
// Player inputs are refused: the hall rules, it does not play.
func (b *Board) Submit(ctx context.Context, l trace.Line) error {
	a, err := wire.ActionFor("x", l)
	if err != nil {
		return &console.RefusedError{Err: err}
	}
	r, err := b.h.act(ctx, b.id, a)
	if err != nil {
		return err
	}
	if !r.OK {
		return &console.RefusedError{Err: fmt.Errorf("board %s: %s", b.id, r.Error)}
	}
	return nil
}

// Watch registers fn; see console.Board.
func (b *Board) Watch(fn func(console.Change)) (stop func()) {
	b.mu.Lock()
	id := b.nextW
	b.nextW++
	b.watchers[id] = fn
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.watchers, id)
		b.mu.Unlock()
	}
}

// notify tells the watchers and the hall; called without b.mu.
func (b *Board) notify(c console.Change) {
	b.mu.Lock()
	fns := make([]func(console.Change), 0, len(b.watchers))
	for _, fn := range b.watchers {
		fns = append(fns, fn)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn(c)
	}
	b.h.changed(b.id)
}

// Moves returns the moves of the current game as received, in order.
func (b *Board) Moves() []Move {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Move, len(b.moves))
	copy(out, b.moves)
	return out
}

// Counts returns how many events the hall applied, dropped as duplicates,
// and dropped as not following (a resend asked), and the last seq held.
func (b *Board) Counts() (applied, duplicates, gaps, last uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.applied, b.dups, b.gaps, b.last
}

// Finished returns the board's games before its latest, as the hall keeps
// them (on disk, across the hall's restarts), oldest first.
func (b *Board) Finished() []Finished {
	games, latest, err := b.h.store.boardGames(b.id)
	if err != nil {
		b.h.log.Warn("hall: reading a board's games", "board", b.id, "err", err)
	}
	var out []Finished
	for _, g := range games {
		if g.key != latest {
			out = append(out, Finished{Board: b.id, Game: g.key.game, Round: g.round, PGN: g.text})
		}
	}
	return out
}

// event takes one event in the board's order; received is when the hall
// took it from the broker.
func (b *Board) event(e *wire.Event, received time.Time) {
	b.mu.Lock()
	switch {
	case e.Seq <= b.last && b.started:
		b.dups++
		b.mu.Unlock()
		b.h.count(func(s *Stats) { s.Duplicates++ })
		return
	case !b.started && e.Prev != 0:
		// The hall does not know where this board's events begin: the
		// next state says (its game's header), and the hall asks from
		// there.
		b.gaps++
		b.mu.Unlock()
		b.h.count(func(s *Stats) { s.Gaps++ })
		return
	case b.started && e.Prev != b.last && e.Prev != 0:
		// Events between are missing: ask for them again (once a second
		// at most), and drop this one meanwhile.
		b.gaps++
		ask := time.Since(b.asked) > time.Second
		if ask {
			b.asked = time.Now()
		}
		last := b.last
		b.mu.Unlock()
		b.h.count(func(s *Stats) { s.Gaps++ })
		if ask {
			b.h.resend(b.id, last)
		}
		return
	}
	// Prev is the last held, or 0: the board's chain starts here.
	b.started = true
	b.last = e.Seq
	b.applied++
	b.asked = time.Time{}
	var report []byte
	switch e.Kind {
	case wire.EventHeader:
		b.newGame(e.Header, e.Seq)
	case wire.EventTag:
		if b.header != nil {
			if b.header.Tags == nil {
				b.header.Tags = map[string]string{}
			}
			b.header.Tags[e.Tag.Name] = e.Tag.Value
		}
	case wire.EventReport:
		rep, _ := wire.DecodeReport(e.Report) // checked by DecodeEvent
		b.report(e, &rep, received)
		report = e.Report
	}
	b.storeLocked()
	b.mu.Unlock()
	b.h.count(func(s *Stats) { s.Events++ })
	b.notify(console.Change{Report: report})
}

// newGame begins the board's next game at seq; the store keeps the last
// one.
func (b *Board) newGame(h *wire.Header, seq uint64) {
	if b.header != nil && h.Game != b.game && b.game != 0 && (b.pgnGame != b.game || b.pgnSeq < b.played) {
		// The last state the board sent of the game it leaves is older
		// than the game's last report: the board sends its state at most
		// every StateEvery, and a result followed at once by a new game
		// leaves no state between them. The game's moves and result are
		// the hall's own, from the events.
		b.h.log.Debug("hall: a board's game kept from its events: its last state came before its end", "board", b.id, "game", b.game, "state_seq", b.pgnSeq, "last_report", b.played, "header", seq)
		b.h.store.put(b.id, b.game, b.round, retag(eventPGN(b.header, b.moves, b.notes, b.result), b.tagsLocked()))
	}
	b.played = 0
	if h.Game != b.game && b.pgnGame != h.Game {
		b.pgn, b.stored = "", ""
	}
	b.game, b.header = h.Game, h
	b.round, b.restore = b.roundFor(h.Tags), true
	b.moves, b.notes, b.ply = nil, nil, 0
	b.pending, b.result, b.clock = nil, nil, nil
	b.fen = h.FEN
	if b.fen == "" {
		b.fen = board.StartFEN
	}
}

// roundFor is the round a game belongs to: the pairing's, else the hall's,
// else the game's own Round tag.
func (b *Board) roundFor(tags map[string]string) string {
	if p, ok := b.h.o.Pairings[b.id]; ok && p.Round != "" {
		return p.Round
	}
	if b.h.o.Round != "" {
		return b.h.o.Round
	}
	if r := tags["Round"]; r != "" && r != "?" {
		return r
	}
	return "-"
}

// report applies one report of the board's game.
func (b *Board) report(e *wire.Event, r *report.Report, received time.Time) {
	seq, raw := e.Seq, e.Report
	b.asOf, b.played = seq, seq
	switch r.Type {
	case report.Move:
		m := Move{Seq: seq, Side: r.Side, UCI: r.UCI, SAN: r.SAN, FEN: r.FEN, Received: received, Applied: b.h.o.Now()}
		if e.At != nil {
			m.At = *e.At
		}
		b.addMove(m)
		b.fen = r.FEN
		b.ply = len(b.moves)
		if r.WhiteClock != "" {
			b.clock = &console.Clock{White: r.WhiteClock, Black: r.BlackClock}
		}
	case report.Clock:
		if r.WhiteClock != "" {
			b.clock = &console.Clock{White: r.WhiteClock, Black: r.BlackClock}
		}
	case report.Irregularity:
		b.pending = &console.Pending{Kind: r.Kind, Law: r.Law, Offender: r.Offender, Chooser: r.Chooser, Options: r.Options}
	case report.Ruling:
		b.pending = nil
		if n, ok := r.TakenBack(); ok && n <= len(b.moves) {
			// Moves taken back by a player (against an engine): the
			// take-back's note, and the notes after the moves taken back,
			// go after the last move kept.
			b.keepMoves(len(b.moves) - n)
		}
		if r.Option == report.OptAnnul {
			// The game begins anew: the annulment is its first note.
			b.moves, b.notes, b.ply, b.result = nil, nil, 0, nil
			if b.header != nil && b.header.FEN != "" {
				b.fen = b.header.FEN
			} else {
				b.fen = board.StartFEN
			}
		}
	case report.Result:
		b.pending = nil
		b.result = &console.Result{Result: r.Result, Reason: r.Reason, Law: r.Law}
	}
	if console.IsNote(r) {
		note := make([]byte, len(raw))
		copy(note, raw)
		b.notes = append(b.notes, console.Note{Ply: b.ply, Report: note})
		if over := len(b.notes) - maxNotes; over > 0 {
			b.notes = append(b.notes[:0], b.notes[over:]...)
		}
	}
}

// addMove appends m after the move it follows: a ruling may have taken
// moves back, so it is placed after the last position from which it leads
// to its FEN.
func (b *Board) addMove(m Move) {
	want, wantTurn, ok := parsePlacement(m.FEN)
	if ok {
		for k := len(b.moves) - 1; k >= -1; k-- {
			var before string
			if k >= 0 {
				before = b.moves[k].FEN
			} else if b.header != nil && b.header.FEN != "" {
				before = b.header.FEN
			} else {
				before = board.StartFEN
			}
			pos, turn, ok := parsePlacement(before)
			if !ok {
				break
			}
			if !pos.apply(m.UCI) {
				continue // the man is not there: it follows an earlier position
			}
			if pos == want && turn != wantTurn {
				b.keepMoves(k + 1)
				break
			}
		}
	}
	m.Ply = len(b.moves) + 1
	b.moves = append(b.moves, m)
}

// keepMoves keeps the first n moves of the game and drops the rest (taken
// back): every note after a move dropped is kept after the last move kept,
// where it happened in the game as it now goes, as the board's console keeps
// it, so that a note never slides after a later move that takes a dropped
// move's number. The notes and the moves go together into the state, the
// grid and a game kept from its events.
func (b *Board) keepMoves(n int) {
	if n >= len(b.moves) {
		return
	}
	b.moves = b.moves[:n]
	for i := range b.notes {
		b.notes[i].Ply = min(b.notes[i].Ply, n)
	}
	b.ply = n
	switch {
	case n > 0:
		b.fen = b.moves[n-1].FEN
	case b.header != nil && b.header.FEN != "":
		b.fen = b.header.FEN
	default:
		b.fen = board.StartFEN
	}
}

// placement is where the men stand, a1 first, as FEN letters (0 for an
// empty square). The hall reads FENs itself rather than through package
// board: it only needs where the men stand, and this runs on the broker's
// goroutine beside everything else.
type placement [64]byte

// parsePlacement reads a FEN's first two fields.
func parsePlacement(fen string) (placement, byte, bool) {
	var p placement
	f := strings.Fields(fen)
	if len(f) < 2 || (f[1] != "w" && f[1] != "b") {
		return p, 0, false
	}
	rank, file := 7, 0
	for i := 0; i < len(f[0]); i++ {
		c := f[0][i]
		switch {
		case c == '/':
			if file != 8 || rank == 0 {
				return p, 0, false
			}
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		case strings.IndexByte("KQRBNPkqrbnp", c) >= 0:
			if file > 7 {
				return p, 0, false
			}
			p[rank*8+file] = c
			file++
		default:
			return p, 0, false
		}
		if file > 8 {
			return p, 0, false
		}
	}
	if rank != 0 || file != 8 {
		return p, 0, false
	}
	return p, f[1][0], true
}

// apply makes a move given in UCI: castling moves the rook too, en passant
// takes the pawn passed, a promotion sets the piece named.
func (p *placement) apply(uci string) bool {
	if len(uci) != 4 && len(uci) != 5 {
		return false
	}
	sq := func(s string) (int, bool) {
		if s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
			return 0, false
		}
		return int(s[1]-'1')*8 + int(s[0]-'a'), true
	}
	from, ok1 := sq(uci[0:2])
	to, ok2 := sq(uci[2:4])
	man := p[from]
	if !ok1 || !ok2 || man == 0 {
		return false
	}
	white := man >= 'A' && man <= 'Z'
	switch {
	case (man == 'K' || man == 'k') && (to%8-from%8 == 2 || from%8-to%8 == 2):
		rf, rt := from-from%8+7, from+1
		if to < from {
			rf, rt = from-from%8, from-1
		}
		p[rt], p[rf] = p[rf], 0
	case (man == 'P' || man == 'p') && from%8 != to%8 && p[to] == 0:
		p[from-from%8+to%8] = 0 // en passant
	}
	p[to], p[from] = man, 0
	if len(uci) == 5 {
		c := uci[4]
		if strings.IndexByte("qrbn", c) < 0 {
			return false
		}
		if white {
			c -= 'a' - 'A'
		}
		p[to] = c
	}
	return true
}

// setState takes the board's state message.
func (b *Board) setState(st *stateMessage) {
	b.mu.Lock()
	b.heard = b.h.o.Now()
	if b.state != nil && st.Seq < b.state.Seq && st.Seq < b.last {
		// The board's journal is behind what the hall holds: its state
		// directory was begun anew. Start this board afresh.
		b.h.log.Warn("hall: the board's journal began anew; following it from its game in progress", "board", b.id, "held", b.last, "board_seq", st.Seq)
		b.started, b.last, b.acked = false, 0, 0
		b.header, b.game = nil, 0
		b.pgn, b.pgnGame, b.pgnSeq, b.played, b.stored = "", 0, 0, 0, ""
		b.h.store.newEpoch(b.id)
	}
	said := b.saidLocked(st, b.state == nil)
	b.state = st
	if st.Game == b.game || b.header == nil {
		b.pgn, b.pgnGame, b.pgnSeq, b.restore = st.PGN, st.Game, st.Seq, true
	}
	if b.header == nil && b.round == "" {
		b.round, b.restore = b.roundFor(nil), true // until the game's header says
	}
	ask, from := false, uint64(0)
	switch {
	case !b.started:
		// Follow the board from its game in progress.
		if st.GameSeq > 0 {
			from = st.GameSeq - 1
		}
		b.started, b.last = true, from
		b.asked, ask = time.Now(), true
	case st.Events > b.last && time.Since(b.asked) > time.Second:
		// The board sent events the hall never had (while the hall was
		// not yet subscribed, say), and none has followed to show it.
		b.gaps++
		from, ask, b.asked = b.last, true, time.Now()
	}
	// A state of the board's next game may come before that game's header
	// (the header reaches the board's uplink from its journal): the game
	// the hall follows is not that game's until the header comes.
	if st.Seq >= b.asOf && (st.Game == b.game || b.header == nil) {
		s := &st.head
		b.asOf = st.Seq
		b.fen, b.pending, b.result = s.FEN, s.Pending, s.Result
		if s.Clock != nil {
			c := *s.Clock
			b.clock = &c
		}
	}
	b.storeLocked()
	b.mu.Unlock()
	if ask {
		b.h.resend(b.id, from)
	}
	for _, js := range said {
		b.notify(console.Change{Say: js})
	}
	b.notify(console.Change{})
}

// saidLocked returns the lines of the board's voice in st that the hall has
// not handed on yet, as the console's say events ({"text": ..., "lang":
// ...}), and notes them as handed on: those numbered past the last taken in
// the same run, or every one of a new run (the board restarted). The lines
// in the first state the hall hears from a board (a retained one, from
// before the hall was there) are not spoken late: they are only noted.
func (b *Board) saidLocked(st *stateMessage, first bool) [][]byte {
	if len(st.Said) == 0 {
		return nil
	}
	same := st.SaidSince.Equal(b.saidSince)
	var out [][]byte
	for _, l := range st.Said {
		if l.N == 0 || l.Text == "" || (same && l.N <= b.saidN) {
			continue
		}
		b.saidSince, b.saidN, same = st.SaidSince, l.N, true
		if first {
			continue
		}
		js, err := json.Marshal(struct {
			Text string `json:"text"`
			Lang string `json:"lang"`
		}{l.Text, l.Lang})
		if err != nil {
			continue // two strings always marshal
		}
		out = append(out, js)
	}
	return out
}

func (b *Board) setHealth(hl *wire.Health) {
	b.mu.Lock()
	b.health = *hl
	b.heard = b.h.o.Now()
	b.mu.Unlock()
	b.notify(console.Change{})
}

// resendAll asks the board for everything after what the hall holds: the
// hall has just subscribed again and may have missed events meanwhile.
func (b *Board) resendAll() {
	b.mu.Lock()
	started, last := b.started, b.last
	if started {
		b.asked = time.Now()
	}
	b.mu.Unlock()
	if started {
		b.h.resend(b.id, last)
	}
}

// ackDue returns the seq to acknowledge, if it moved since the last
// acknowledgement and that was every ago or more.
func (b *Board) ackDue(now time.Time, every time.Duration) (uint64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.started || b.last == b.acked || now.Sub(b.ackedAt) < every-every/10 {
		return 0, false
	}
	b.acked, b.ackedAt = b.last, now
	return b.last, true
}

// gapDue reports whether the board's last state shows events the hall
// never had, with no request for them in the last second, and if so from
// where to ask (the request is noted as made). A state follows the events
// sent before it, so a state past what the hall holds means events were
// lost: sent while the hall was not subscribed, or a request for them lost
// with a broker that restarted. Without this a board that has stopped
// sending would never be asked again.
func (b *Board) gapDue(now time.Time) (uint64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.started || b.state == nil || b.state.Events <= b.last || now.Sub(b.asked) <= time.Second {
		return 0, false
	}
	b.asked = now
	b.gaps++
	return b.last, true
}

func (b *Board) ackFailed() {
	b.mu.Lock()
	b.acked, b.ackedAt = 0, time.Time{}
	b.mu.Unlock()
}

// storeLocked hands the board's game to the hall's store when its text
// changed (a state, the round learnt from its header).
func (b *Board) storeLocked() {
	if !b.restore || b.pgn == "" || b.pgnGame == 0 {
		return
	}
	b.restore = false
	if b.round == "" {
		b.round = b.roundFor(nil)
	}
	text := retag(b.pgn, b.tagsLocked())
	if text == b.stored {
		return
	}
	b.stored = text
	b.h.store.put(b.id, b.pgnGame, b.round, text)
}

// tagsLocked returns the broadcast's tags for the current game.
func (b *Board) tagsLocked() map[string]string {
	t := map[string]string{}
	o := b.h.o
	if o.Event != "" {
		t["Event"] = o.Event
	}
	if o.Site != "" {
		t["Site"] = o.Site
	}
	if b.round != "" && b.round != "-" {
		t["Round"] = b.round
	}
	if p, ok := o.Pairings[b.id]; ok {
		if p.White != "" {
			t["White"] = p.White
		}
		if p.Black != "" {
			t["Black"] = p.Black
		}
	}
	t["Board"] = b.id
	return t
}
