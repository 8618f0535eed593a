// Package hall is the club hall: it follows every board of a club night or a
// tournament through the hall's MQTT broker (protocol hall/wire), serves
// them all on one page (a grid of boards, and each board in the console's
// page and API), sends the arbiter's actions to the board they concern, and
// broadcasts the games as PGN for live broadcast sites to poll.
//
// Each board's events are taken in order by sequence number: an event the
// hall already holds is dropped, and one that does not follow the last it
// holds means some went missing, so the hall asks the board to send again
// from there (wire.Ack with Resend). What it holds it acknowledges, and the
// board sends everything after the last acknowledgement again whenever it
// reconnects; together nothing is lost and nothing is shown twice.
package hall

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"
	"unicode"

	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/wire"
)

// Options configure a hall.
type Options struct {
	// Broker is the broker connection (broker.Load).
	Broker *broker.Config
	// ClientID is the hall's MQTT client id ("boardd-hall" if empty).
	ClientID string
	// Token is the arbiter token: the console's pages need it to act as
	// the arbiter. It stays in the hall: no board holds it.
	Token string
	// Signer signs every action sent to a board, for that board
	// (actionsig.LoadOrCreate); the boards hold its public key. If nil,
	// the hall makes a key for this run only (VerifyKey gives its public
	// half).
	Signer *actionsig.Signer
	// Event, Site and Round fill the broadcast PGN's tags of those names
	// where the boards leave them unknown; Pairings names the players (and
	// the round) board by board.
	Event, Site, Round string
	Pairings           map[string]Pairing
	// AckEvery is how often the hall acknowledges what it holds (1 s if
	// zero): what a board sends again after it reconnects. A hall of many
	// boards acknowledges each less often, so as to send about
	// ackRate acknowledgements a second in all (every 4 s at 2000 boards).
	AckEvery time.Duration
	// ActionTimeout bounds the wait for a board's reply to an action (5 s
	// if zero).
	ActionTimeout time.Duration
	// Dir keeps every game the hall follows, one file a game, so that a
	// restarted hall serves every game of the round again (store.go). ""
	// keeps them in memory only.
	Dir string
	// FlushEvery is how often the boards' games in progress are written to
	// Dir (5 s if zero: at two thousand boards a second's writes were a
	// fifth of the hall's work); a game a board leaves for the next is
	// written at once. A game in progress is on its board too, which sends
	// the hall whatever it lacks.
	FlushEvery time.Duration
	// Connection settings (broker.ClientOptions).
	MinBackoff, MaxBackoff, KeepAlive time.Duration
	Logger                            *slog.Logger
	// Now is the wall clock (time.Now if nil).
	Now func() time.Time
}

// Hall follows the boards.
type Hall struct {
	o       Options
	log     *slog.Logger
	store   *store
	inbox   []chan inMessage // one a worker: a board's messages go to one
	cm      *broker.Client
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	ackKick chan struct{}

	mu        sync.Mutex
	boards    map[string]*Board
	order     []string
	connected bool
	resends   map[string]uint64 // boards to ask to send again, from seq+1
	waiters   map[string]chan wire.Reply
	onChange  []func(id string) // told of every board change (the page's stream)
	onAdd     []func()          // told of a new board (the console's rebuild)
	stats     Stats
}

// Stats count what the hall received.
type Stats struct {
	Messages   uint64 `json:"messages"`   // every message received
	Events     uint64 `json:"events"`     // events applied
	Duplicates uint64 `json:"duplicates"` // events dropped as already held
	Gaps       uint64 `json:"gaps"`       // events dropped as not following: a resend was asked
	States     uint64 `json:"states"`     // state messages
	Bad        uint64 `json:"bad"`        // messages that could not be read
}

// New connects the hall to the broker and begins following the boards. The
// boards named in the pairings are listed from the start; the games kept in
// Options.Dir are read back.
func New(ctx context.Context, o Options) (*Hall, error) {
	if o.Broker == nil {
		return nil, errors.New("hall: no broker")
	}
	h, err := newHall(o)
	if err != nil {
		return nil, err
	}
	h.ctx, h.cancel = context.WithCancel(ctx)
	h.wg.Go(func() { h.store.run(h.ctx, h.o.FlushEvery) })
	h.inbox = make([]chan inMessage, max(1, runtime.GOMAXPROCS(0)))
	for i := range h.inbox {
		h.inbox[i] = make(chan inMessage, inboxSize)
		h.wg.Go(func() { h.work(h.inbox[i]) })
	}
	h.cm, err = broker.Connect(h.ctx, broker.ClientOptions{
		Config:     o.Broker,
		ClientID:   h.o.ClientID,
		OnUp:       h.up,
		OnDown:     h.down,
		OnMessage:  h.message,
		MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, KeepAlive: o.KeepAlive,
		Logger: o.Logger,
	})
	if err != nil {
		h.cancel()
		h.wg.Wait()
		return nil, fmt.Errorf("hall: %w", err)
	}
	h.wg.Go(h.acks)
	return h, nil
}

// newHall makes a hall that is not connected yet: its options defaulted,
// its store read, the paired boards listed.
func newHall(o Options) (*Hall, error) {
	if o.ClientID == "" {
		o.ClientID = "boardd-hall"
	}
	if o.AckEvery <= 0 {
		o.AckEvery = time.Second
	}
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = 5 * time.Second
	}
	if o.Signer == nil {
		var err error
		if o.Signer, err = actionsig.Generate(); err != nil {
			return nil, fmt.Errorf("hall: %w", err)
		}
	}
	st, err := openStore(o.Dir, o.Logger)
	if err != nil {
		return nil, err
	}
	h := &Hall{o: o, log: o.Logger, store: st, boards: map[string]*Board{}, resends: map[string]uint64{}, waiters: map[string]chan wire.Reply{}, ackKick: make(chan struct{}, 1)}
	for id := range o.Pairings {
		if err := wire.CheckBoard(id); err != nil {
			return nil, fmt.Errorf("hall: pairings: %w", err)
		}
		h.board(id)
	}
	return h, nil
}

// Close disconnects from the broker and writes the games to disk.
func (h *Hall) Close() error {
	h.cancel()
	h.wg.Wait()
	select {
	case <-h.cm.Done():
	case <-time.After(3 * time.Second):
	}
	return nil
}

// VerifyKey returns the public key the boards check the hall's actions with.
func (h *Hall) VerifyKey() ed25519.PublicKey { return h.o.Signer.Public() }

// AwaitConnection waits until the hall is connected to the broker.
func (h *Hall) AwaitConnection(ctx context.Context) error { return h.cm.AwaitConnection(ctx) }

// Connected reports whether the hall is connected to the broker now.
func (h *Hall) Connected() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.connected
}

// Stats returns the hall's counters.
func (h *Hall) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stats
}

// Boards returns the boards heard of, in natural order of their ids (b2
// before b10).
func (h *Hall) Boards() []*Board {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Board, len(h.order))
	for i, id := range h.order {
		out[i] = h.boards[id]
	}
	return out
}

// Board returns the board id, or nil.
func (h *Hall) Board(id string) *Board {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.boards[id]
}

// OnChange registers fn to be told, with its id, of every change to a board
// (and of a new board). fn must not block.
func (h *Hall) OnChange(fn func(id string)) {
	h.mu.Lock()
	h.onChange = append(h.onChange, fn)
	h.mu.Unlock()
}

// OnAdd registers fn to be told that a board was heard of for the first
// time. fn must not block.
func (h *Hall) OnAdd(fn func()) {
	h.mu.Lock()
	h.onAdd = append(h.onAdd, fn)
	h.mu.Unlock()
}

// board returns board id, making it when new.
func (h *Hall) board(id string) *Board {
	h.mu.Lock()
	b := h.boards[id]
	var added []func()
	if b == nil {
		b = newBoard(h, id)
		h.boards[id] = b
		i := sort.Search(len(h.order), func(i int) bool { return !naturalLess(h.order[i], id) })
		h.order = slices.Insert(h.order, i, id)
		added = h.onAdd
	}
	h.mu.Unlock()
	for _, fn := range added {
		fn()
	}
	return b
}

func (h *Hall) changed(id string) {
	h.mu.Lock()
	fns := h.onChange
	h.mu.Unlock()
	for _, fn := range fns {
		fn(id)
	}
}

func (h *Hall) up(cm *broker.Client) {
	h.mu.Lock()
	h.connected = true
	h.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
		defer cancel()
		var topics []string
		for _, k := range []string{wire.KindState, wire.KindEvent, wire.KindHealth, wire.KindReply} {
			topics = append(topics, wire.Every(k))
		}
		codes, err := cm.Subscribe(ctx, topics...)
		if err == nil {
			for i, c := range codes {
				if c >= 0x80 && i < len(topics) {
					err = fmt.Errorf("the broker refused %s (reason code %#x): is the hall's user name %q allowed to read it by the ACL?", topics[i], c, h.o.Broker.Username)
				}
			}
		}
		if err != nil && h.ctx.Err() == nil {
			h.log.Error("hall: subscribing to the boards", "err", err)
		}
		// Events sent while the hall was away are not queued for it (its
		// sessions start clean): ask every board for what it missed.
		for _, b := range h.Boards() {
			b.resendAll()
		}
		h.changedAll()
	}()
}

// changedAll marks every board changed (the broker's connection changed).
func (h *Hall) changedAll() {
	for _, b := range h.Boards() {
		h.changed(b.id)
	}
}

func (h *Hall) down() {
	h.mu.Lock()
	h.connected = false
	h.mu.Unlock()
	h.changedAll()
}

// inMessage is a message from a board, as received.
type inMessage struct {
	id, kind, topic string
	payload         []byte
	received        time.Time
}

// message takes one message from a board. It runs on the client's goroutine
// in the order the broker delivers: it hands the message to the worker of
// its board (h.inbox), so that the boards' messages are read on every core
// while each board's stay in order. It waits only when that worker is
// inboxSize messages behind.
func (h *Hall) message(topic string, payload []byte, _ bool) {
	received := h.o.Now()
	h.mu.Lock()
	h.stats.Messages++
	h.mu.Unlock()
	id, kind, err := wire.ParseTopic(topic)
	if err != nil {
		h.bad("hall: message on an unknown topic", err)
		return
	}
	m := inMessage{id: id, kind: kind, topic: topic, payload: payload, received: received}
	if len(h.inbox) == 0 {
		h.handle(&m)
		return
	}
	select {
	case h.inbox[shard(id, len(h.inbox))] <- m:
	case <-h.ctx.Done():
	}
}

// inboxSize is how many messages a worker may have waiting.
const inboxSize = 4096

// shard picks board id's worker (FNV-1a).
func shard(id string, n int) int {
	x := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		x ^= uint32(id[i])
		x *= 16777619
	}
	return int(x % uint32(n))
}

// work takes the messages of its boards, in order, until the hall closes.
func (h *Hall) work(in <-chan inMessage) {
	for {
		select {
		case <-h.ctx.Done():
			return
		case m := <-in:
			h.handle(&m)
		}
	}
}

// handle applies one message from a board.
func (h *Hall) handle(m *inMessage) {
	id, kind, topic, payload, received := m.id, m.kind, m.topic, m.payload, m.received
	switch kind {
	case wire.KindEvent:
		e, err := wire.DecodeEvent(payload, id)
		if err != nil {
			h.bad("hall: event dropped", err)
			return
		}
		h.board(id).event(&e, received)
	case wire.KindState:
		st, err := decodeState(payload, topic)
		if err != nil {
			h.bad("hall: state dropped", err)
			return
		}
		if st.Board != id {
			h.bad("hall: state dropped", fmt.Errorf("state on %s names board %q", topic, st.Board))
			return
		}
		h.mu.Lock()
		h.stats.States++
		h.mu.Unlock()
		h.board(id).setState(st)
	case wire.KindHealth:
		var hl wire.Health
		if err := wire.Decode(payload, &hl, topic); err != nil {
			h.bad("hall: health dropped", err)
			return
		}
		h.board(id).setHealth(&hl)
	case wire.KindReply:
		var r wire.Reply
		if err := wire.Decode(payload, &r, topic); err != nil {
			h.bad("hall: reply dropped", err)
			return
		}
		h.mu.Lock()
		ch := h.waiters[id+"/"+r.ID]
		h.mu.Unlock()
		if ch != nil {
			select {
			case ch <- r:
			default:
			}
		}
	}
}

func (h *Hall) bad(msg string, err error) {
	h.mu.Lock()
	h.stats.Bad++
	n := h.stats.Bad
	h.mu.Unlock()
	if n <= 20 || n%1000 == 0 {
		h.log.Warn(msg, "err", err, "bad_messages", n)
	}
}

func (h *Hall) count(f func(*Stats)) {
	h.mu.Lock()
	f(&h.stats)
	h.mu.Unlock()
}

// resend asks board id to send its events again from seq+1 (at most once
// an acknowledgement round).
func (h *Hall) resend(id string, seq uint64) {
	h.mu.Lock()
	h.resends[id] = seq
	h.mu.Unlock()
	select {
	case h.ackKick <- struct{}{}:
	default:
	}
}

// acks sends the acknowledgements: resend requests at once, and every
// AckEvery what each board's events the hall holds.
func (h *Hall) acks() {
	tick := time.NewTicker(h.o.AckEvery)
	defer tick.Stop()
	for {
		plain := false
		select {
		case <-h.ctx.Done():
			return
		case <-h.ackKick:
		case <-tick.C:
			plain = true
		}
		if !h.Connected() {
			continue
		}
		h.mu.Lock()
		resends := h.resends
		h.resends = map[string]uint64{}
		boards := make([]*Board, 0, len(h.order))
		for _, id := range h.order {
			boards = append(boards, h.boards[id])
		}
		h.mu.Unlock()
		var sends []func()
		for id, seq := range resends {
			h.log.Debug("hall: asking a board to send again", "board", id, "from", seq+1)
			sends = append(sends, func() { h.publishAck(id, wire.Ack{Seq: seq, Resend: true}) })
		}
		if plain {
			now := time.Now()
			every := max(h.o.AckEvery, time.Duration(len(boards))*time.Second/ackRate)
			for _, b := range boards {
				if from, ok := b.gapDue(now); ok {
					h.count(func(s *Stats) { s.Gaps++ })
					h.log.Debug("hall: a board's state shows events the hall never had; asking again", "board", b.id, "from", from+1)
					sends = append(sends, func() { h.publishAck(b.id, wire.Ack{Seq: from, Resend: true}) })
				}
				if seq, ok := b.ackDue(now, every); ok {
					sends = append(sends, func() {
						if !h.publishAck(b.id, wire.Ack{Seq: seq}) {
							b.ackFailed()
						}
					})
				}
			}
		}
		h.publishAll(sends)
	}
}

// ackRate bounds the plain acknowledgements the hall sends a second: each
// is a retained message the broker keeps and hands to its board, which
// counts at two thousand boards; a board that reconnects sends again what
// the hall holds already at worst, and the hall drops it.
const ackRate = 500

// ackWorkers is how many acknowledgements are published at once: each waits
// for the broker's, and two thousand boards in turn would take longer than
// the second between rounds.
const ackWorkers = 32

// publishAll runs the publications, ackWorkers at a time, and waits for
// them all.
func (h *Hall) publishAll(sends []func()) {
	if len(sends) == 0 {
		return
	}
	next := make(chan func())
	var wg sync.WaitGroup
	for range min(ackWorkers, len(sends)) {
		wg.Go(func() {
			for f := range next {
				f()
			}
		})
	}
	for _, f := range sends {
		next <- f
	}
	close(next)
	wg.Wait()
}

func (h *Hall) publishAck(id string, a wire.Ack) bool {
	payload, err := wire.Encode(&a)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
	defer cancel()
	err = h.cm.Publish(ctx, wire.Topic(id, wire.KindAck), payload, !a.Resend)
	if err != nil && h.ctx.Err() == nil {
		h.log.Warn("hall: acknowledging", "board", id, "err", err)
		return false
	}
	return err == nil
}

// act sends an action to board id and waits for its reply.
func (h *Hall) act(ctx context.Context, id string, a wire.Action) (wire.Reply, error) {
	raw := make([]byte, 9)
	if _, err := rand.Read(raw); err != nil {
		return wire.Reply{}, fmt.Errorf("hall: %w", err)
	}
	a.ID = hex.EncodeToString(raw)
	if err := h.o.Signer.Sign(&a, id); err != nil {
		h.log.Warn("hall: the action number is not kept in the state directory (the clock numbers the next)", "board", id, "err", err)
	}
	payload, err := wire.Encode(&a)
	if err != nil {
		return wire.Reply{}, err
	}
	ch := make(chan wire.Reply, 1)
	key := id + "/" + a.ID
	h.mu.Lock()
	h.waiters[key] = ch
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.waiters, key)
		h.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(ctx, h.o.ActionTimeout)
	defer cancel()
	if err := h.cm.Publish(ctx, wire.Topic(id, wire.KindAction), payload, false); err != nil {
		return wire.Reply{}, fmt.Errorf("hall: sending the action to board %s: %w", id, err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return wire.Reply{}, fmt.Errorf("hall: board %s did not answer in %v (is it online?): %w", id, h.o.ActionTimeout, ctx.Err())
	}
}

// naturalLess orders ids with their numbers by value: b2 before b10.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		ca, cb := rune(a[0]), rune(b[0])
		if unicode.IsDigit(ca) && unicode.IsDigit(cb) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if ca != cb {
			return ca < cb
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func leadingNumber(s string) (uint64, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.ParseUint(s[:min(i, 18)], 10, 64)
	return n, s[i:]
}
