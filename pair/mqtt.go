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
	reach  *reachBox

	mu        sync.Mutex
	latest    []byte // this board's last game, encoded; published on each connection
	brokerUp  bool   // connected to the broker
	boardGone bool   // the other board's health says it is offline (its will)
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
	m := &MQTT{in: make(chan Game, 16), log: log, self: self, reach: newReachBox()}
	theirs := wire.Topic(other, TopicKind)
	health := wire.Topic(other, wire.KindHealth)
	c, err := broker.Connect(ctx, broker.ClientOptions{
		Config: cfg, ClientID: self + "-pair", Logger: log,
		OnUp: func(c *broker.Client) {
			go func() {
				if _, err := c.Subscribe(ctx, theirs); err != nil && ctx.Err() == nil {
					m.log.Warn("pair: cannot follow the other board's game", "topic", theirs, "err", err)
				}
				if _, err := c.Subscribe(ctx, health); err != nil && ctx.Err() == nil {
					m.log.Warn("pair: cannot follow the other board's health; its going away goes unnoticed", "topic", health, "err", err)
				}
				m.mu.Lock()
				latest := m.latest
				m.brokerUp = true
				m.mu.Unlock()
				m.tell()
				if latest != nil {
					m.publish(ctx, latest)
				}
			}()
		},
		OnDown: func() {
			m.log.Warn("pair: the broker is out of reach; the game waits for it")
			m.mu.Lock()
			m.brokerUp = false
			m.mu.Unlock()
			m.tell()
		},
		OnMessage: func(topic string, payload []byte, _ bool) {
			if topic == health {
				var h wire.Health
				if err := json.Unmarshal(payload, &h); err != nil {
					m.log.Warn("pair: the other board's health is garbage", "topic", topic, "err", err)
					return
				}
				m.mu.Lock()
				m.boardGone = !h.Online
				m.mu.Unlock()
				if !h.Online {
					m.log.Warn("pair: the other board went away; the game waits for it", "board", other)
				}
				m.tell()
				return
			}
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

// Reach tells when the broker is out of reach (GoneBroker), when the other
// board has gone away (GoneBoard: the broker published its will), and when
// both are back.
func (m *MQTT) Reach() <-chan Reach { return m.reach.ch }

// tell hands the link's reach as it stands to Reach's reader.
func (m *MQTT) tell() {
	m.mu.Lock()
	r := Reach{Up: m.brokerUp && !m.boardGone}
	switch {
	case !m.brokerUp:
		r.Gone = GoneBroker
	case m.boardGone:
		r.Gone = GoneBoard
	}
	m.mu.Unlock()
	m.reach.tell(r)
}
