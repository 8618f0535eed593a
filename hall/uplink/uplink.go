// Package uplink is a board's link to the club hall: it publishes the
// board's game to the hall's MQTT broker (protocol hall/wire), keeps the
// board's state and health there as retained messages, and carries out the
// arbiter actions the hall sends back when they bear the hall's signature
// for this board (package hall/actionsig): the board holds the hall's public
// key only, never a secret that could act as the arbiter elsewhere.
//
// Events are published from the journal, store and forward: each journal
// record the hall wants (a game's header, every report, a tag) goes out in
// order with its sequence number, and is taken as delivered only when the
// hall acknowledges it (an Ack on the board's ack topic, recorded in the
// state directory). With the broker down, the Wi-Fi lost or the Pi
// rebooted, the board plays on; on every connection the uplink sends again
// everything after the hall's last acknowledgement, in order, from the
// journal. The hall drops what it already holds, by sequence number.
//
// Live records are not read back from disk: the uplink's hooks on the
// game runner see each input and report just after the journal wrote
// it, and keep it in memory until it is sent. Whatever they could not
// account for (a rotation's header, a tag, records written before the
// uplink started) is read from the journal.
package uplink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// AckFile, in the state directory, holds the hall's last acknowledgement:
// the sequence number up to which the hall holds the board's events.
const AckFile = "hall-acked"

// ActionSeqFile, in the state directory, holds the number of the last
// action from the hall the board took (wire.Action.Seq): an action with that
// number or a lower one is a replay and is refused, after a restart too.
const ActionSeqFile = "hall-action-taken"

// FaultNoKey is the health fault of a board without the hall's verify key:
// it refuses every action.
const FaultNoKey = "hall-key"

// Journal is what the uplink reads the board's game from (*journal.Journal).
type Journal interface {
	Seq() uint64
	Game() uint64
	ReadFrom(seq uint64, fn func(journal.Record) error) error
}

// Options configure an uplink.
type Options struct {
	// Board is the board's id: its topics' second segment and, by default,
	// its user name at the broker.
	Board string
	// Broker is the broker connection (broker.Load).
	Broker *broker.Config
	// Journal is the board's journal; Runner, when given, has the uplink's
	// hooks registered on it by Start. They must come after the journal's
	// recorder's (attach the journal first); without a Runner, call Input
	// and Report from the loop that journals.
	Journal Journal
	Runner  *game.Runner
	// Console gives the board's state and PGN for the state message, and
	// carries out the hall's actions (console.Local over the runner).
	Console console.Board
	// StateDir holds AckFile, and the journal (for the current game's
	// header when the state message needs it).
	StateDir string
	// Verifier checks that an action was signed by the hall for this
	// board (the hall's actionsig.VerifyKeyFile); nil: every action is
	// refused.
	Verifier *actionsig.Verifier
	// Sensor and LED name the board's drivers in its health.
	Sensor, LED string
	Logger      *slog.Logger
	// Connection settings (broker.ClientOptions).
	MinBackoff, MaxBackoff, KeepAlive time.Duration
	// StateEvery is the least time between two state messages (100 ms if
	// zero): a burst of changes makes one message with the last of them.
	StateEvery time.Duration
	// HealthEvery is how often health is published (30 s if zero).
	HealthEvery time.Duration
	// ActionTimeout bounds carrying out an action (5 s if zero).
	ActionTimeout time.Duration
	// Now is the wall clock stamped on messages (time.Now if nil).
	Now func() time.Time
}

// Stats count what the uplink did.
type Stats struct {
	Connected  bool
	Connects   int    // connections made
	Events     int    // events published (sent again after a reconnection counts again)
	FromDisk   int    // of which read back from the journal
	States     int    // state messages published
	Next       uint64 // the first journal record not yet sent
	Acked      uint64 // the hall's last acknowledgement
	Actions    int    // actions carried out
	Refused    int    // actions refused (not the hall's signature, a choice not offered...)
	Duplicates int    // actions received again and not carried out twice
}

// span is a run of journal records the hooks saw: one event to publish
// (from == to), records not published (inputs), or a hole whose content the
// hooks do not know (read from the journal).
type span struct {
	from, to uint64
	ev       *wire.Event
	hole     bool
}

// maxQueue bounds the spans kept in memory; past it they are dropped and the
// journal read instead.
const maxQueue = 4096

// Uplink is a board's link to the hall.
type Uplink struct {
	o      Options
	log    *slog.Logger
	cm     *broker.Client
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{}
	acts   chan wire.Action
	start  time.Time
	stop   func() // stops watching the console

	mu         sync.Mutex
	seen       uint64 // the last journal record the hooks accounted for
	queue      []span
	connected  bool
	next       uint64 // the first record not yet sent
	prev       uint64 // the last event sent (or the acknowledgement resumed from)
	epoch      uint64 // bumped whenever next is moved by anyone but the sender
	acked      uint64
	ackSaved   uint64
	ackWarned  bool
	stateDirty bool
	healthDue  bool
	faults     []string
	recent     []string // ids of the last actions carried out
	actionSeq  uint64   // the number of the last action taken (ActionSeqFile)
	gameSeq    struct{ game, seq uint64 }
	said       []saidLine // the lines said lately, for the state (wire.State.Said)
	saidN      uint64     // the number of the last line said
	stats      Stats
}

// saidLine is a line the board's voice said, and when (Options.Now).
type saidLine struct {
	wire.Said
	at time.Time
}

// Start connects to the broker and begins publishing, until Close (ctx's
// values are kept, not its end: Close says goodbye to the hall, which needs
// the connection).
func Start(ctx context.Context, o Options) (*Uplink, error) {
	if err := wire.CheckBoard(o.Board); err != nil {
		return nil, fmt.Errorf("uplink: %w", err)
	}
	if o.Broker == nil || o.Journal == nil || o.Console == nil {
		return nil, errors.New("uplink: broker, journal and console are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.StateEvery <= 0 {
		o.StateEvery = 100 * time.Millisecond
	}
	if o.HealthEvery <= 0 {
		o.HealthEvery = 30 * time.Second
	}
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	u := &Uplink{o: o, log: o.Logger.With("hall_board", o.Board), kick: make(chan struct{}, 1), acts: make(chan wire.Action, 16)}
	u.start = o.Now()
	u.seen = o.Journal.Seq()
	acked, err := readAck(o.StateDir)
	if err != nil {
		u.log.Warn("hall: the acknowledgement file is unreadable; sending the whole journal again", "err", err)
	}
	if acked > u.seen {
		u.log.Warn("hall: the acknowledgement is past the journal (a new state directory?); sending the whole journal", "acked", acked, "seq", u.seen)
		acked = 0
	}
	u.acked, u.ackSaved, u.next, u.prev = acked, acked, acked+1, acked
	if o.StateDir != "" {
		path := filepath.Join(o.StateDir, ActionSeqFile)
		if u.actionSeq, err = actionsig.ReadSeq(path); err != nil {
			// Unreadable: take no action until the file is mended, rather
			// than carry out a replayed one.
			u.actionSeq = math.MaxUint64
			u.log.Error("hall: the file of the last action taken is unreadable: every action from the hall is refused until it is mended or deleted", "file", path, "err", err)
		}
	}
	u.stats.Acked = acked
	u.stateDirty, u.healthDue = true, true
	if o.Verifier == nil {
		u.faults = []string{FaultNoKey}
		u.log.Warn("hall: no hall verify key (" + actionsig.VerifyKeyFile + "): the board refuses every arbiter action from the hall")
	}

	will, err := wire.Encode(&wire.Health{Board: o.Board, Online: false})
	if err != nil {
		return nil, err
	}
	u.log.Info("hall: publishing", "broker", o.Broker.Redacted(), "from_seq", u.next, "journal_seq", u.seen)
	u.ctx, u.cancel = context.WithCancel(context.WithoutCancel(ctx))
	u.cm, err = broker.Connect(u.ctx, broker.ClientOptions{
		Config:     o.Broker,
		ClientID:   "boardd-" + o.Board,
		Will:       &paho.WillMessage{Topic: wire.Topic(o.Board, wire.KindHealth), Payload: will, QoS: 1, Retain: true},
		OnUp:       u.up,
		OnDown:     u.down,
		OnMessage:  u.message,
		MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, KeepAlive: o.KeepAlive,
		Logger: u.log,
	})
	if err != nil {
		u.cancel()
		return nil, fmt.Errorf("uplink: %w", err)
	}
	u.stop = o.Console.Watch(func(c console.Change) {
		u.mu.Lock()
		u.stateDirty = true
		if c.Say != nil {
			u.addSaidLocked(c.Say)
		}
		u.mu.Unlock()
		u.poke()
	})
	if o.Runner != nil {
		o.Runner.OnInput(u.Input)
		o.Runner.OnReport(u.Report)
	}
	u.wg.Go(u.run)
	u.wg.Go(u.actions)
	u.wg.Go(u.saveAcks)
	return u, nil
}

// Close says goodbye to the hall (health offline), disconnects and stops.
// Records not yet acknowledged stay in the journal for the next start.
func (u *Uplink) Close() error {
	if u.stop != nil {
		u.stop()
	}
	u.mu.Lock()
	connected := u.connected
	u.mu.Unlock()
	if connected {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		u.publishHealth(ctx, false)
		cancel()
	}
	u.cancel()
	u.wg.Wait()
	select {
	case <-u.cm.Done():
	case <-time.After(3 * time.Second):
	}
	return u.saveAck()
}

// Stats returns the uplink's counters.
func (u *Uplink) Stats() Stats {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.stats
	s.Connected, s.Next, s.Acked = u.connected, u.next, u.acked
	return s
}

func (u *Uplink) poke() {
	select {
	case u.kick <- struct{}{}:
	default:
	}
}

// Input is the runner's input hook: the journal has just written l.
func (u *Uplink) Input(trace.Line) { u.push(u.o.Journal.Seq(), nil) }

// Report is the runner's report hook: the journal has just written rep.
func (u *Uplink) Report(rep report.Report) {
	at := u.o.Now()
	ev := &wire.Event{Board: u.o.Board, Kind: wire.EventReport, Report: rep.AppendJSON(nil), At: &at}
	u.push(u.o.Journal.Seq(), ev)
}

// push accounts for the journal's records up to seq, the last of them being
// ev (nil: an input, not published).
func (u *Uplink) push(seq uint64, ev *wire.Event) {
	u.mu.Lock()
	wake := false
	switch {
	case seq == u.seen+1 && ev != nil:
		ev.Seq = seq
		u.queue = append(u.queue, span{from: seq, to: seq, ev: ev})
		wake = true
	case seq == u.seen+1:
		if n := len(u.queue); n > 0 && u.queue[n-1].ev == nil && !u.queue[n-1].hole && u.queue[n-1].to+1 == seq {
			u.queue[n-1].to = seq
		} else {
			u.queue = append(u.queue, span{from: seq, to: seq})
		}
	case seq > u.seen+1:
		// More was written than the hooks saw (a rotation's header, a
		// tag): the journal has it.
		u.queue = append(u.queue, span{from: u.seen + 1, to: seq, hole: true})
		wake = true
	}
	if seq > u.seen {
		u.seen = seq
	}
	if len(u.queue) > maxQueue {
		u.queue = nil // the journal has them all
	}
	u.mu.Unlock()
	if wake {
		u.poke()
	}
}

// up runs on each connection: subscribe, and send again everything after
// the hall's acknowledgement.
func (u *Uplink) up(cm *broker.Client) {
	u.mu.Lock()
	u.connected = true
	u.stats.Connects++
	u.next, u.prev = u.acked+1, u.acked
	u.epoch++
	u.stateDirty, u.healthDue = true, true
	u.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(u.ctx, 10*time.Second)
		defer cancel()
		codes, err := cm.Subscribe(ctx, wire.Topic(u.o.Board, wire.KindAck), wire.Topic(u.o.Board, wire.KindAction))
		if err == nil {
			for _, c := range codes {
				if c >= 0x80 {
					err = fmt.Errorf("the broker refused (reason code %#x): is the board's user name %q allowed by its ACL?", c, u.o.Broker.Username)
				}
			}
		}
		if err != nil && u.ctx.Err() == nil {
			u.log.Error("hall: subscribing to the hall's acknowledgements and actions", "err", err)
		}
	}()
	u.poke()
}

func (u *Uplink) down() {
	u.mu.Lock()
	u.connected = false
	u.mu.Unlock()
}

// message takes the hall's acknowledgements and actions; it runs on the
// client's goroutine and must not block.
func (u *Uplink) message(topic string, payload []byte, _ bool) {
	_, kind, err := wire.ParseTopic(topic)
	if err != nil {
		u.log.Warn("hall: message on an unexpected topic", "topic", topic)
		return
	}
	switch kind {
	case wire.KindAck:
		var a wire.Ack
		if err := wire.Decode(payload, &a, topic); err != nil {
			u.log.Warn("hall: acknowledgement dropped", "err", err)
			return
		}
		u.ack(a)
	case wire.KindAction:
		var a wire.Action
		if err := wire.Decode(payload, &a, topic); err != nil {
			u.log.Warn("hall: action dropped", "err", err)
			return
		}
		select {
		case u.acts <- a:
		default:
			u.log.Warn("hall: too many actions at once; one dropped", "id", a.ID)
		}
	}
}

func (u *Uplink) ack(a wire.Ack) {
	seq := u.o.Journal.Seq()
	u.mu.Lock()
	defer u.mu.Unlock()
	if a.Seq > seq {
		if !u.ackWarned {
			u.log.Warn("hall: the hall acknowledges more than this journal holds (the board's state directory is new?); ignored", "ack", a.Seq, "seq", seq)
			u.ackWarned = true
		}
		return
	}
	u.acked = a.Seq
	if a.Resend && u.next != a.Seq+1 {
		u.log.Info("hall: the hall asks for events from seq", "seq", a.Seq+1, "was_at", u.next)
		u.next, u.prev = a.Seq+1, a.Seq
		u.epoch++
	}
	select {
	case u.kick <- struct{}{}:
	default:
	}
}

// run sends events, state and health while connected.
func (u *Uplink) run() {
	health := time.NewTicker(u.o.HealthEvery)
	defer health.Stop()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var lastState time.Time
	retry := time.Duration(0)
	for {
		select {
		case <-u.ctx.Done():
			return
		case <-u.kick:
		case <-health.C:
			u.mu.Lock()
			u.healthDue = true
			u.mu.Unlock()
		case <-timer.C:
		}
		u.mu.Lock()
		connected := u.connected
		u.mu.Unlock()
		if !connected {
			continue
		}
		if err := u.flush(); err != nil {
			if u.ctx.Err() != nil {
				return
			}
			retry = min(max(2*retry, 100*time.Millisecond), 5*time.Second)
			u.log.Warn("hall: publishing events; retrying", "err", err, "in", retry)
			timer.Reset(retry)
			continue
		}
		retry = 0
		u.mu.Lock()
		dirty := u.stateDirty
		u.mu.Unlock()
		if dirty {
			if wait := u.o.StateEvery - u.o.Now().Sub(lastState); wait > 0 {
				timer.Reset(wait)
			} else {
				lastState = u.o.Now()
				if err := u.publishState(); err != nil && u.ctx.Err() == nil {
					u.log.Warn("hall: publishing the state", "err", err)
					timer.Reset(time.Second)
				}
			}
		}
		// Read after the state: a fault the state showed first (the
		// voice's, the sensors') goes out in the health at once.
		u.mu.Lock()
		due := u.healthDue
		u.mu.Unlock()
		if due {
			ctx, cancel := context.WithTimeout(u.ctx, 10*time.Second)
			if err := u.publishHealth(ctx, true); err == nil {
				u.mu.Lock()
				u.healthDue = false
				u.mu.Unlock()
			}
			cancel()
		}
	}
}

// errRewound stops a pass over the journal: the place to send from moved.
var errRewound = errors.New("uplink: rewound")

// flush publishes every record from next up to the last the hooks saw.
func (u *Uplink) flush() error {
	for {
		u.mu.Lock()
		next, hi, epoch := u.next, u.seen, u.epoch
		for len(u.queue) > 0 && u.queue[0].to < next {
			u.queue = u.queue[1:]
		}
		var sp span
		inMemory := len(u.queue) > 0 && u.queue[0].from <= next && !u.queue[0].hole
		if inMemory {
			sp = u.queue[0]
		}
		u.mu.Unlock()
		if next > hi {
			return nil
		}
		if inMemory {
			if sp.ev == nil {
				u.advance(epoch, next, sp.to+1, 0, false)
				continue
			}
			if err := u.publishEvent(epoch, sp.ev, false); err != nil {
				return err
			}
			continue
		}
		err := u.o.Journal.ReadFrom(next, func(rec journal.Record) error {
			if rec.Seq > hi {
				return errStop
			}
			ev, ok := eventFor(u.o.Board, rec)
			if !ok {
				if !u.advance(epoch, 0, rec.Seq+1, 0, false) {
					return errRewound
				}
				return nil
			}
			return u.publishEvent(epoch, &ev, true)
		})
		var trimmed *journal.TrimmedError
		switch {
		case errors.Is(err, errStop) || err == nil:
			// Records missing from the journal (a torn tail cut off) are
			// passed over.
			u.advance(epoch, 0, hi+1, 0, false)
		case errors.Is(err, errRewound):
		case errors.As(err, &trimmed):
			u.log.Warn("hall: records the hall has not acknowledged were trimmed from the archive; they are lost to it", "from", trimmed.Want, "oldest_kept", trimmed.Oldest)
			u.advance(epoch, 0, trimmed.Oldest, 0, true)
		default:
			return err
		}
	}
}

var errStop = errors.New("uplink: stop")

// advance moves next to to (and prev to prev when set, or resets it when
// reset), unless someone moved next since the pass began (epoch) or, when
// from is not 0, next is no longer from. It reports whether it moved.
func (u *Uplink) advance(epoch, from, to, prev uint64, reset bool) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.epoch != epoch || (from != 0 && u.next != from) {
		return false
	}
	if to > u.next {
		u.next = to
	}
	if prev != 0 {
		u.prev = prev
	}
	if reset {
		u.prev = 0
	}
	return true
}

// publishEvent sends ev (whose Seq is set) as the event after prev.
func (u *Uplink) publishEvent(epoch uint64, ev *wire.Event, fromDisk bool) error {
	u.mu.Lock()
	if u.epoch != epoch {
		u.mu.Unlock()
		return errRewound
	}
	e := *ev
	e.Prev = u.prev
	u.mu.Unlock()
	payload, err := wire.Encode(&e)
	if err != nil {
		return err
	}
	if err := u.publish(wire.Topic(u.o.Board, wire.KindEvent), payload, false); err != nil {
		return err
	}
	u.mu.Lock()
	if u.epoch == epoch {
		u.next, u.prev = e.Seq+1, e.Seq
		u.stats.Events++
		if fromDisk {
			u.stats.FromDisk++
		}
	}
	u.mu.Unlock()
	return nil
}

func (u *Uplink) publish(topic string, payload []byte, retain bool) error {
	ctx, cancel := context.WithTimeout(u.ctx, 15*time.Second)
	defer cancel()
	return u.cm.Publish(ctx, topic, payload, retain)
}

// eventFor returns the event of a journal record, if it is one the hall
// wants (inputs are not).
func eventFor(board string, rec journal.Record) (wire.Event, bool) {
	ev := wire.Event{Board: board, Seq: rec.Seq}
	switch rec.Kind {
	case journal.KindHeader:
		h := rec.Header
		ev.Kind = wire.EventHeader
		ev.Header = &wire.Header{Game: h.Game, Laws: h.Laws, FEN: h.Setup, Odds: h.Odds, Tournament: h.Tournament, Clocked: h.TimeControl != "", Tags: h.Tags}
	case journal.KindReport:
		ev.Kind = wire.EventReport
		ev.Report = rec.Report.AppendJSON(nil)
	case journal.KindTag:
		ev.Kind = wire.EventTag
		ev.Tag = &wire.Tag{Name: rec.Tag, Value: rec.Value}
	default:
		return ev, false
	}
	return ev, true
}

// addSaidLocked keeps a line the board's voice said (a console say event,
// {"text": ..., "lang": ...}) for the next state messages, numbered; the
// oldest go past wire.MaxSaid.
func (u *Uplink) addSaidLocked(js []byte) {
	var line struct {
		Text string `json:"text"`
		Lang string `json:"lang"`
	}
	if err := json.Unmarshal(js, &line); err != nil || line.Text == "" {
		u.log.Debug("hall: a line said that the state cannot carry", "say", string(js), "err", err)
		return
	}
	u.saidN++
	u.said = append(u.said, saidLine{Said: wire.Said{N: u.saidN, Text: line.Text, Lang: line.Lang}, at: u.o.Now()})
	if over := len(u.said) - wire.MaxSaid; over > 0 {
		u.said = append(u.said[:0], u.said[over:]...)
	}
}

// saidLocked returns the lines said within wire.SaidFor of now, oldest
// first, and forgets the older ones.
func (u *Uplink) saidLocked(now time.Time) []wire.Said {
	i := 0
	for i < len(u.said) && now.Sub(u.said[i].at) > wire.SaidFor {
		i++
	}
	u.said = append(u.said[:0], u.said[i:]...)
	if len(u.said) == 0 {
		return nil
	}
	out := make([]wire.Said, len(u.said))
	for k, l := range u.said {
		out[k] = l.Said
	}
	return out
}

// publishState sends the board's state, retained.
func (u *Uplink) publishState() error {
	u.mu.Lock()
	u.stateDirty = false
	events := u.prev
	said := u.saidLocked(u.o.Now())
	u.mu.Unlock()
	seq, game := u.o.Journal.Seq(), u.o.Journal.Game()
	ctx, cancel := context.WithTimeout(u.ctx, 10*time.Second)
	defer cancel()
	st, err := u.o.Console.State(ctx)
	if err != nil {
		return err
	}
	pgn, err := u.o.Console.PGN(ctx)
	if err != nil {
		return err
	}
	if u.o.Journal.Game() != game {
		// A new game began while the state was read: the state and PGN
		// may be the new game's, not game's. Read them again.
		u.mu.Lock()
		u.stateDirty = true
		u.mu.Unlock()
		u.poke()
		return nil
	}
	msg := &wire.State{Board: u.o.Board, Seq: seq, Game: game, GameSeq: u.currentGameSeq(game), Events: events, At: u.o.Now(), State: st, PGN: pgn,
		Said: said, SaidSince: u.start}
	payload, err := wire.Encode(msg)
	if err != nil {
		return err
	}
	faults := faultsOf(&st, u.o.Verifier == nil)
	if err := u.publish(wire.Topic(u.o.Board, wire.KindState), payload, true); err != nil {
		u.mu.Lock()
		u.stateDirty = true
		u.mu.Unlock()
		return err
	}
	u.mu.Lock()
	u.stats.States++
	if !slices.Equal(faults, u.faults) {
		u.faults = faults
		u.healthDue = true
	}
	u.mu.Unlock()
	return nil
}

// faultsOf names the faults the board shows: the console's own (State.Faults:
// "sensor", "journal", and "voice" while the speech program fails), and
// FaultNoKey when noKey. The LEDs cannot tell sensor and journal faults
// apart: both light the fault corners.
func faultsOf(st *console.State, noKey bool) []string {
	var out []string
	out = append(out, st.Faults...)
	if noKey {
		out = append(out, FaultNoKey)
	}
	return out
}

// currentGameSeq returns the sequence number of game's header, read from the
// journal once a game.
func (u *Uplink) currentGameSeq(game uint64) uint64 {
	u.mu.Lock()
	if u.gameSeq.game == game {
		s := u.gameSeq.seq
		u.mu.Unlock()
		return s
	}
	u.mu.Unlock()
	g, err := journal.Read(u.o.StateDir)
	if err != nil || g == nil || len(g.Records) == 0 || g.Header.Game != game {
		return 0
	}
	u.mu.Lock()
	u.gameSeq.game, u.gameSeq.seq = game, g.Records[0].Seq
	u.mu.Unlock()
	return g.Records[0].Seq
}

func (u *Uplink) publishHealth(ctx context.Context, online bool) error {
	u.mu.Lock()
	h := &wire.Health{Board: u.o.Board, Online: online, At: u.o.Now(), Acked: u.acked, Faults: u.faults, Sensor: u.o.Sensor, LED: u.o.LED}
	u.mu.Unlock()
	h.Seq, h.Game = u.o.Journal.Seq(), u.o.Journal.Game()
	if h.Seq > h.Acked {
		h.Backlog = h.Seq - h.Acked
	}
	h.Uptime = u.o.Now().Sub(u.start).Seconds()
	payload, err := wire.Encode(h)
	if err != nil {
		return err
	}
	return u.cm.Publish(ctx, wire.Topic(u.o.Board, wire.KindHealth), payload, true)
}

// actions carries out the hall's actions, one at a time.
func (u *Uplink) actions() {
	for {
		select {
		case <-u.ctx.Done():
			return
		case a := <-u.acts:
			u.act(a)
		}
	}
}

func (u *Uplink) act(a wire.Action) {
	reply := wire.Reply{Board: u.o.Board, ID: a.ID}
	u.mu.Lock()
	dup := slices.Contains(u.recent, a.ID)
	if dup {
		u.stats.Duplicates++
	}
	u.mu.Unlock()
	if dup {
		return // carried out already: the broker delivered it twice
	}
	if u.o.Verifier == nil {
		reply.Error = "this board has not the hall's verify key (" + actionsig.VerifyKeyFile + "): it takes no action from the hall"
	} else if err := u.o.Verifier.Verify(&a, u.o.Board); err != nil {
		reply.Error = "action ignored: " + err.Error()
	} else if taken := u.takenSeq(); a.Seq <= taken {
		// Signed by the hall, but taken already, or older than one taken:
		// a replay (a client without the ACL), after a restart too.
		if a.Seq == 0 {
			reply.Error = "action ignored: it has no action number (a hall older than this board), so a replay could not be told from it"
		} else {
			reply.Error = fmt.Sprintf("action ignored: a replay: its number %d is not past %d, the last action this board took", a.Seq, taken)
		}
	} else if err := u.takeSeq(a.Seq); err != nil {
		u.log.Warn("hall: the number of the action taken is not saved: after a restart the action could be replayed", "id", a.ID, "err", err)
	}
	if reply.Error != "" {
		u.log.Warn("hall: action ignored", "id", a.ID, "action", a.Action, "why", reply.Error)
		u.mu.Lock()
		u.stats.Refused++
		u.mu.Unlock()
		u.reply(reply)
		return
	}
	line, err := a.Line()
	if err == nil {
		ctx, cancel := context.WithTimeout(u.ctx, u.o.ActionTimeout)
		err = u.o.Console.Submit(ctx, line)
		cancel()
		var refused *console.RefusedError
		if errors.As(err, &refused) {
			reply.Refused = true
		}
	} else {
		reply.Refused = true
	}
	u.mu.Lock()
	u.recent = append(u.recent, a.ID)
	if len(u.recent) > 64 {
		u.recent = u.recent[len(u.recent)-64:]
	}
	if err != nil {
		u.stats.Refused++
	} else {
		u.stats.Actions++
	}
	u.mu.Unlock()
	if err != nil {
		reply.Error = err.Error()
		u.log.Info("hall: arbiter action refused", "id", a.ID, "action", a.Action, "option", a.Option, "value", a.Value, "err", err)
	} else {
		reply.OK = true
		u.log.Info("hall: arbiter action", "id", a.ID, "action", a.Action, "option", a.Option, "value", a.Value)
	}
	u.reply(reply)
}

func (u *Uplink) reply(r wire.Reply) {
	payload, err := wire.Encode(&r)
	if err != nil {
		return
	}
	if err := u.publish(wire.Topic(u.o.Board, wire.KindReply), payload, false); err != nil && u.ctx.Err() == nil {
		u.log.Warn("hall: replying to an action", "id", r.ID, "err", err)
	}
}

// takenSeq returns the number of the last action taken.
func (u *Uplink) takenSeq() uint64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.actionSeq
}

// takeSeq records seq as the last action taken, in memory and (synced)
// in ActionSeqFile, before the action is carried out.
func (u *Uplink) takeSeq(seq uint64) error {
	u.mu.Lock()
	u.actionSeq = seq
	u.mu.Unlock()
	if u.o.StateDir == "" {
		return nil
	}
	path := filepath.Join(u.o.StateDir, ActionSeqFile)
	f, err := os.OpenFile(path+".tmp", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("hall: %w", err)
	}
	_, err = f.WriteString(strconv.FormatUint(seq, 10) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(path+".tmp", path)
	}
	if err != nil {
		return fmt.Errorf("hall: %s: %w", path, err)
	}
	return nil
}

// readAck reads the hall's last acknowledgement from dir (0 when none).
func readAck(dir string) (uint64, error) {
	if dir == "" {
		return 0, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, AckFile))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: want a sequence number: %w", filepath.Join(dir, AckFile), err)
	}
	return n, nil
}

// saveAcks records the hall's acknowledgement every two seconds, off the
// path that publishes: a rename waits on the file system's journal, which a
// board's own journal keeps busy syncing at every move.
func (u *Uplink) saveAcks() {
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-u.ctx.Done():
			return
		case <-tick.C:
			if err := u.saveAck(); err != nil {
				u.log.Warn("hall: saving the acknowledgement", "err", err)
			}
		}
	}
}

// saveAck records the hall's acknowledgement in the state directory when it
// changed. It is not synced: one lost at a power cut only makes the board
// send some events again, which the hall drops.
func (u *Uplink) saveAck() error {
	u.mu.Lock()
	acked, saved := u.acked, u.ackSaved
	u.stats.Acked = acked
	u.mu.Unlock()
	if acked == saved || u.o.StateDir == "" {
		return nil
	}
	path := filepath.Join(u.o.StateDir, AckFile)
	if err := os.WriteFile(path+".tmp", []byte(strconv.FormatUint(acked, 10)+"\n"), 0o640); err != nil {
		return err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return err
	}
	u.mu.Lock()
	u.ackSaved = acked
	u.mu.Unlock()
	return nil
}
