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
	"github.com/boardd/boardd/hall/wire"
)

// Crowd is many boards' messages published over one MQTT client: what the
// hall receives from a hall full of boards, for tests of the hall's page
// and API at that size, where thousands of clients in the test's process
// would cost more than what is tested (the race detector allows 8128
// goroutines). The broker must let the one client write every board's
// topics (anonymous access). It does not answer the hall's
// acknowledgements: nothing is lost on a broker that stays up. Light
// boards, each with its own client and session, are for the load runs.
type Crowd struct {
	cm     *broker.Client
	cancel context.CancelFunc
	boards []*crowdBoard
}

type crowdBoard struct {
	id     string
	script *Script

	mu     sync.Mutex
	seq    uint64
	played int
}

// StartCrowd connects and publishes each board's game header, state and
// health: board i is ids[i] and plays scripts[i%len(scripts)].
func StartCrowd(ctx context.Context, cfg *broker.Config, ids []string, scripts []*Script, log *slog.Logger) (*Crowd, error) {
	if len(scripts) == 0 {
		return nil, errors.New("halltest: crowd: no script")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	cm, err := broker.Connect(cctx, broker.ClientOptions{Config: cfg, ClientID: "boardd-crowd", MinBackoff: 20 * time.Millisecond, MaxBackoff: time.Second, Logger: log})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("halltest: crowd: %w", err)
	}
	c := &Crowd{cm: cm, cancel: cancel}
	actx, acancel := context.WithTimeout(ctx, 30*time.Second)
	err = cm.AwaitConnection(actx)
	acancel()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("halltest: crowd: %w", err)
	}
	for i, id := range ids {
		if err := wire.CheckBoard(id); err != nil {
			c.Close()
			return nil, fmt.Errorf("halltest: crowd: %w", err)
		}
		c.boards = append(c.boards, &crowdBoard{id: id, script: scripts[i%len(scripts)]})
	}
	err = c.each(ctx, func(_ int, b *crowdBoard) error {
		if err := c.event(ctx, b, wire.EventHeader, b.script.Header); err != nil {
			return err
		}
		if err := c.state(ctx, b); err != nil {
			return err
		}
		h, err := wire.Encode(&wire.Health{Board: b.id, Online: true, At: time.Now(), Game: 1, Sensor: "crowd", LED: "none"})
		if err != nil {
			return err
		}
		return c.cm.Publish(ctx, wire.Topic(b.id, wire.KindHealth), h, true)
	})
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// each runs fn for every board, 32 boards at a time (each board's messages
// in order).
func (c *Crowd) each(ctx context.Context, fn func(int, *crowdBoard) error) error {
	errs := make([]error, len(c.boards))
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	for i, b := range c.boards {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = fn(i, b)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// event publishes the board's next event; b.mu is held by the caller or
// the board is not shared yet.
func (c *Crowd) event(ctx context.Context, b *crowdBoard, kind string, body json.RawMessage) error {
	b.seq++
	payload := appendEvent(nil, b.id, b.seq, b.seq-1, time.Now(), kind, body)
	if err := c.cm.Publish(ctx, wire.Topic(b.id, wire.KindEvent), payload, false); err != nil {
		return fmt.Errorf("halltest: crowd: board %s: %w", b.id, err)
	}
	return nil
}

func (c *Crowd) state(ctx context.Context, b *crowdBoard) error {
	st := &b.script.Start
	if b.played > 0 {
		st = &b.script.Moves[b.played-1].State
	}
	payload := appendState(nil, b.id, st, b.seq, b.seq, time.Now())
	if err := c.cm.Publish(ctx, wire.Topic(b.id, wire.KindState), payload, true); err != nil {
		return fmt.Errorf("halltest: crowd: board %s: %w", b.id, err)
	}
	return nil
}

// Move makes board i's next move: its reports, then its state.
func (c *Crowd) Move(ctx context.Context, i int) error {
	b := c.boards[i]
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.played >= len(b.script.Moves) {
		return ErrScriptEnd
	}
	for _, r := range b.script.Moves[b.played].Reports {
		if err := c.event(ctx, b, wire.EventReport, r); err != nil {
			return err
		}
	}
	b.played++
	return c.state(ctx, b)
}

// MoveAll makes every board's next move.
func (c *Crowd) MoveAll(ctx context.Context) error {
	return c.each(ctx, func(i int, _ *crowdBoard) error { return c.Move(ctx, i) })
}

// Report publishes one report of board i as its next event (an
// irregularity, say), as `boardd replay` prints it.
func (c *Crowd) Report(ctx context.Context, i int, report json.RawMessage) error {
	b := c.boards[i]
	b.mu.Lock()
	defer b.mu.Unlock()
	return c.event(ctx, b, wire.EventReport, report)
}

// Played returns how many moves board i made.
func (c *Crowd) Played(i int) int {
	b := c.boards[i]
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.played
}

// Close disconnects.
func (c *Crowd) Close() error {
	c.cancel()
	select {
	case <-c.cm.Done():
	case <-time.After(3 * time.Second):
	}
	return nil
}
