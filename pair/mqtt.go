package pair

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/wire"
)

// TopicKind is the last segment of the topic a paired board publishes its
// game on through the hall's broker: boardd/v1/<board>/pair.
const TopicKind = "pair"

// MQTT is a Link through the club hall's MQTT broker: this board publishes
// its game, retained, on boardd/v1/<this board>/pair, and reads the other
// board's from boardd/v1/<other board>/pair. The broker keeps each board's
// last game, so a board that went away and came back (or a broker
// restarted) hears where the game stands; a game sent while the broker is
// out of reach is published on the next connection.
type MQTT struct {
	in     chan Game
	log    *slog.Logger
	self   string
	client *broker.Client

	mu     sync.Mutex
	latest []byte // this board's last game, encoded; published on each connection
}

// DialMQTT connects to the broker cfg names as board self (the user name
// cfg carries), paired with board other, until ctx ends.
func DialMQTT(ctx context.Context, cfg *broker.Config, self, other string, log *slog.Logger) (*MQTT, error) {
	if err := wire.CheckBoard(other); err != nil {
		return nil, fmt.Errorf("pair: the other board: %w", err)
	}
	if other == self {
		return nil, fmt.Errorf("pair: board %q cannot be paired with itself", self)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &MQTT{in: make(chan Game, 16), log: log, self: self}
	theirs := wire.Topic(other, TopicKind)
	c, err := broker.Connect(ctx, broker.ClientOptions{
		Config: cfg, ClientID: self + "-pair", Logger: log,
		OnUp: func(c *broker.Client) {
			go func() {
				if _, err := c.Subscribe(ctx, theirs); err != nil && ctx.Err() == nil {
					m.log.Warn("pair: cannot follow the other board's game", "topic", theirs, "err", err)
				}
				m.mu.Lock()
				latest := m.latest
				m.mu.Unlock()
				if latest != nil {
					m.publish(ctx, latest)
				}
			}()
		},
		OnDown: func() { m.log.Warn("pair: the broker is out of reach; the game waits for it") },
		OnMessage: func(topic string, payload []byte, _ bool) {
			if topic != theirs {
				return
			}
			var w onWire
			if err := json.Unmarshal(payload, &w); err != nil {
				m.log.Warn("pair: the other board's game is garbage", "topic", topic, "err", err)
				return
			}
			select {
			case m.in <- Game(w):
			default:
				m.log.Warn("pair: the other board's games come faster than they are taken; one dropped")
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("pair: connecting to the broker: %w", err)
	}
	m.client = c
	return m, nil
}

// publish sends an encoded game, retained, on this board's topic.
func (m *MQTT) publish(ctx context.Context, payload []byte) {
	if err := m.client.Publish(ctx, wire.Topic(m.self, TopicKind), payload, true); err != nil && ctx.Err() == nil {
		m.log.Warn("pair: the game did not reach the broker; it goes on the next connection", "err", err)
	}
}

// Send publishes g for the other board (or keeps it for the next
// connection while the broker is out of reach).
func (m *MQTT) Send(ctx context.Context, g Game) error {
	b, err := json.Marshal(onWire(g))
	if err != nil {
		return fmt.Errorf("pair: encoding the game: %w", err)
	}
	m.mu.Lock()
	m.latest = b
	m.mu.Unlock()
	m.publish(ctx, b)
	return nil
}

// Receive delivers the other board's games.
func (m *MQTT) Receive() <-chan Game { return m.in }
