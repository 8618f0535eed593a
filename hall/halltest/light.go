package halltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/halltest/mqttlite"
	"github.com/boardd/boardd/hall/wire"
)

// LightOptions configure a light board.
type LightOptions struct {
	ID     string
	Broker *broker.Config
	// Script is the game the board plays, move by move (Light.Move).
	Script *Script
	// Connection settings (broker.ClientOptions).
	MinBackoff, MaxBackoff, KeepAlive time.Duration
	Logger                            *slog.Logger
	// OnAcked is told when the broker acknowledged the event of a move:
	// the move's index (from 0), when the board made it and when the
	// acknowledgement came. It runs on the board's sending goroutine and
	// must not block.
	OnAcked func(move int, made, acked time.Time)
}

// Light is a simulated board as the hall sees it, without a game behind
// it: it publishes a Script's messages as `boardd run` publishes its game
// (the header, every report as an event in order with its sequence number,
// the retained state after each move, its health, its will), each board
// with its own MQTT client (mqttlite: one connection and one goroutine
// reading it), credentials and session, and answers the hall's
// acknowledgements as the uplink does: on every connection it sends again
// everything after the hall's last acknowledgement, and whatever the hall
// asks for again. It is what lets a load run simulate thousands of boards
// on one machine; Board is the whole board, for the smaller runs.
type Light struct {
	o      LightOptions
	mo     mqttlite.Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{}
	upCh   chan struct{} // closed at the first connection

	mu         sync.Mutex
	events     []lightEvent // every event made; the i-th has seq i+1
	played     int          // moves made
	next       uint64       // the first event not yet sent
	epoch      uint64       // bumped when next is moved by anyone but the sender
	acked      uint64
	conn       *mqttlite.Conn // nil while down
	stateDirty bool
	healthDue  bool
	reported   int // moves whose acknowledgement OnAcked was told of
	stats      LightStats
}

// LightStats count what a light board sent.
type LightStats struct {
	Connects, Events, Resent, States int
}

// lightEvent is one event of a light board.
type lightEvent struct {
	at   time.Time
	kind string
	body json.RawMessage
	move int // the move it completes, or -1
}

// maxBatch bounds the events sent in one write.
const maxBatch = 64

// ErrScriptEnd says the board has played its script's every move.
var ErrScriptEnd = errors.New("halltest: the board's script has no more moves")

// StartLight connects a light board and publishes its game's header and
// state; it plays its script's moves as Move is called.
func StartLight(ctx context.Context, o LightOptions) (*Light, error) {
	if err := wire.CheckBoard(o.ID); err != nil {
		return nil, fmt.Errorf("halltest: light board: %w", err)
	}
	if o.Broker == nil || o.Script == nil {
		return nil, errors.New("halltest: light board: broker and script are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	switch o.Broker.URL.Scheme {
	case "mqtt", "tcp", "mqtts", "ssl", "tls":
	default:
		return nil, fmt.Errorf("halltest: light board %s: %s: a light board speaks MQTT over TCP or TLS only", o.ID, o.Broker.Redacted())
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(10*time.Second, o.MinBackoff)
	}
	l := &Light{o: o, kick: make(chan struct{}, 1), upCh: make(chan struct{}), next: 1, stateDirty: true, healthDue: true}
	l.events = []lightEvent{{at: time.Now(), kind: wire.EventHeader, body: o.Script.Header, move: -1}}
	will, err := wire.Encode(&wire.Health{Board: o.ID, Online: false})
	if err != nil {
		return nil, err
	}
	l.mo = mqttlite.Options{
		Addr: o.Broker.URL.Host, TLS: o.Broker.TLS, ClientID: "boardd-" + o.ID, Username: o.Broker.Username, Password: o.Broker.Password,
		KeepAlive: o.KeepAlive, Will: &mqttlite.Message{Topic: wire.Topic(o.ID, wire.KindHealth), Payload: will, Retain: true},
		OnMessage: l.message,
	}
	l.ctx, l.cancel = context.WithCancel(context.WithoutCancel(ctx))
	l.wg.Go(l.connect)
	l.wg.Go(l.run)
	return l, nil
}

// connect keeps the board connected: it dials, subscribes, and when the
// connection ends dials again, backing off from MinBackoff to MaxBackoff.
func (l *Light) connect() {
	wait := time.Duration(0)
	first := true
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-time.After(wait):
		}
		dctx, cancel := context.WithTimeout(l.ctx, 10*time.Second)
		c, err := mqttlite.Dial(dctx, l.mo)
		if err == nil {
			_, err = c.Subscribe(dctx, wire.Topic(l.o.ID, wire.KindAck), wire.Topic(l.o.ID, wire.KindAction))
			if err != nil {
				c.Drop()
			}
		}
		cancel()
		if err != nil {
			if l.ctx.Err() == nil {
				l.o.Logger.Debug("halltest: light board: connecting", "board", l.o.ID, "err", err)
			}
			wait = min(max(2*wait, l.o.MinBackoff), l.o.MaxBackoff)
			continue
		}
		wait = 0
		l.up(c)
		if first {
			close(l.upCh)
			first = false
		}
		select {
		case <-l.ctx.Done():
			return
		case <-c.Done():
		}
		l.mu.Lock()
		l.conn = nil
		l.mu.Unlock()
	}
}

// ID returns the board's id.
func (l *Light) ID() string { return l.o.ID }

// AwaitConnection waits until the board has connected to its broker.
func (l *Light) AwaitConnection(ctx context.Context) error {
	select {
	case <-l.upCh:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("halltest: light board %s: connecting: %w", l.o.ID, ctx.Err())
	}
}

// Move makes the script's next move: its reports become events, sent in
// order, then the board's state. It returns when the move was made, not
// sent.
func (l *Light) Move() error {
	l.mu.Lock()
	if l.played >= len(l.o.Script.Moves) {
		l.mu.Unlock()
		return ErrScriptEnd
	}
	m := l.o.Script.Moves[l.played]
	now := time.Now()
	for i, r := range m.Reports {
		move := -1
		if i == len(m.Reports)-1 {
			move = l.played
		}
		l.events = append(l.events, lightEvent{at: now, kind: wire.EventReport, body: r, move: move})
	}
	l.played++
	l.stateDirty = true
	l.mu.Unlock()
	l.poke()
	return nil
}

// Moves returns the moves made, in UCI.
func (l *Light) Moves() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, l.played)
	for i := range out {
		out[i] = l.o.Script.Moves[i].UCI
	}
	return out
}

// Stats returns what the board sent.
func (l *Light) Stats() LightStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Close says goodbye (health offline) and disconnects.
func (l *Light) Close() error {
	l.cancel()
	l.wg.Wait()
	l.mu.Lock()
	c := l.conn
	l.conn = nil
	l.mu.Unlock()
	if c != nil {
		if payload, err := wire.Encode(&wire.Health{Board: l.o.ID, Online: false}); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			c.Publish(ctx, wire.Topic(l.o.ID, wire.KindHealth), payload, true)
			cancel()
		}
		c.Close()
	}
	return nil
}

func (l *Light) poke() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// up runs on each connection: send again everything after the hall's
// acknowledgement, then the state and health.
func (l *Light) up(c *mqttlite.Conn) {
	l.mu.Lock()
	l.conn = c
	l.stats.Connects++
	if l.next != l.acked+1 {
		l.next = l.acked + 1
		l.epoch++
	}
	l.stateDirty, l.healthDue = true, true
	l.mu.Unlock()
	l.poke()
}

func (l *Light) message(m mqttlite.Message) {
	topic, payload := m.Topic, m.Payload
	_, kind, err := wire.ParseTopic(topic)
	if err != nil {
		return
	}
	switch kind {
	case wire.KindAck:
		var a wire.Ack
		if wire.Decode(payload, &a, topic) != nil {
			return
		}
		l.mu.Lock()
		if a.Seq <= uint64(len(l.events)) {
			l.acked = a.Seq
			if a.Resend && l.next != a.Seq+1 {
				l.next = a.Seq + 1
				l.epoch++
				l.stats.Resent++
			}
		}
		l.mu.Unlock()
		l.poke()
	case wire.KindAction:
		var a wire.Action
		if wire.Decode(payload, &a, topic) != nil {
			return
		}
		go func() {
			r := wire.Reply{Board: l.o.ID, ID: a.ID, Refused: true, Error: "a light board takes no action"}
			if payload, err := wire.Encode(&r); err == nil {
				l.publish(wire.Topic(l.o.ID, wire.KindReply), payload, false)
			}
		}()
	}
}

func (l *Light) publish(topic string, payload []byte, retain bool) error {
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	if c == nil {
		return mqttlite.ErrClosed
	}
	ctx, cancel := context.WithTimeout(l.ctx, 15*time.Second)
	defer cancel()
	return c.Publish(ctx, topic, payload, retain)
}

// run sends the events, then the state and health, whenever there is
// something to send and the board is connected.
func (l *Light) run() {
	retry := time.NewTimer(time.Hour)
	defer retry.Stop()
	var buf []byte
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-l.kick:
		case <-retry.C:
		}
		if err := l.send(&buf); err != nil {
			if l.ctx.Err() != nil {
				return
			}
			retry.Reset(100 * time.Millisecond)
		}
	}
}

func (l *Light) send(buf *[]byte) error {
	topic := wire.Topic(l.o.ID, wire.KindEvent)
	for {
		l.mu.Lock()
		c := l.conn
		if c == nil {
			l.mu.Unlock()
			return nil
		}
		next, epoch := l.next, l.epoch
		if next > uint64(len(l.events)) {
			l.mu.Unlock()
			break
		}
		evs := l.events[next-1 : min(uint64(len(l.events)), next-1+maxBatch)]
		l.mu.Unlock()
		// The events go out back to back, in one write, as a board's
		// uplink sends its backlog; they are taken in order.
		*buf = (*buf)[:0]
		ends := make([]int, len(evs))
		for i, ev := range evs {
			seq := next + uint64(i)
			*buf = appendEvent(*buf, l.o.ID, seq, seq-1, ev.at, ev.kind, ev.body)
			ends[i] = len(*buf)
		}
		ms := make([]mqttlite.Message, len(evs))
		for i := range evs {
			from := 0
			if i > 0 {
				from = ends[i-1]
			}
			ms[i] = mqttlite.Message{Topic: topic, Payload: (*buf)[from:ends[i]]}
		}
		ctx, cancel := context.WithTimeout(l.ctx, 15*time.Second)
		n, err := c.PublishAll(ctx, ms)
		cancel()
		acked := time.Now()
		var tell []lightEvent
		l.mu.Lock()
		if l.epoch == epoch && l.next == next {
			l.next += uint64(n)
			l.stats.Events += n
			for _, ev := range evs[:n] {
				if ev.move >= l.reported {
					l.reported = ev.move + 1
					tell = append(tell, ev)
				}
			}
		}
		l.mu.Unlock()
		if l.o.OnAcked != nil {
			for _, ev := range tell {
				l.o.OnAcked(ev.move, ev.at, acked)
			}
		}
		if err != nil {
			return err
		}
	}
	l.mu.Lock()
	dirty, due := l.stateDirty, l.healthDue
	l.stateDirty, l.healthDue = false, false
	played, sent := l.played, l.next-1
	seq := uint64(len(l.events))
	acked := l.acked
	l.mu.Unlock()
	if dirty {
		st := &l.o.Script.Start
		if played > 0 {
			st = &l.o.Script.Moves[played-1].State
		}
		*buf = appendState((*buf)[:0], l.o.ID, st, seq, sent, time.Now())
		if err := l.publish(wire.Topic(l.o.ID, wire.KindState), *buf, true); err != nil {
			l.mu.Lock()
			l.stateDirty = true
			l.mu.Unlock()
			return err
		}
		l.mu.Lock()
		l.stats.States++
		l.mu.Unlock()
	}
	if due {
		h := &wire.Health{Board: l.o.ID, Online: true, At: time.Now(), Seq: seq, Acked: acked, Game: 1, Sensor: "light", LED: "none"}
		if seq > acked {
			h.Backlog = seq - acked
		}
		payload, err := wire.Encode(h)
		if err == nil {
			err = l.publish(wire.Topic(l.o.ID, wire.KindHealth), payload, true)
		}
		if err != nil {
			l.mu.Lock()
			l.healthDue = true
			l.mu.Unlock()
			return err
		}
	}
	return nil
}
