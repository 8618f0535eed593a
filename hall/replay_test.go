package hall_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/trace"
)

// TestReplayedActionRefusedAfterRestart: on a broker without the ACL, a
// board's own signed action from the hall, captured and replayed after the
// board restarts, is refused: actions carry the hall's number (signed),
// and the board keeps the last it took in its state directory. The hall's
// next action, numbered past it, is taken.
func TestReplayedActionRefusedAfterRestart(t *testing.T) {
	ctx := ctxTimeout(t, 60*time.Second)
	opts := gameOptions("fide2023")
	open := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, _ := startHall(t, config(t, open.URL(), "hall"))
	dir := boardDir(t, "b1")
	b1 := startBoard(t, "b1", dir, config(t, open.URL(), "b1"), opts)
	waitFor(t, "b1 in the hall", 10*time.Second, func() bool { return len(h.Boards()) == 1 })

	var mu sync.Mutex
	var actions []wire.Action
	var replies []wire.Reply
	sctx, scancel := context.WithCancel(context.Background())
	spy, err := broker.Connect(sctx, broker.ClientOptions{Config: config(t, open.URL(), "spy"), ClientID: "spy", OnMessage: func(topic string, p []byte, _ bool) {
		mu.Lock()
		defer mu.Unlock()
		switch topic {
		case wire.Topic("b1", wire.KindAction):
			var a wire.Action
			if wire.Decode(p, &a, topic) == nil {
				actions = append(actions, a)
			}
		case wire.Topic("b1", wire.KindReply):
			var r wire.Reply
			if wire.Decode(p, &r, topic) == nil {
				replies = append(replies, r)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { scancel(); <-spy.Done() })
	if err := spy.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := spy.Subscribe(ctx, wire.Topic("b1", wire.KindAction), wire.Topic("b1", wire.KindReply)); err != nil {
		t.Fatal(err)
	}

	laws := trace.Line{Kind: trace.Arbiter, Action: wire.ActionLaws, Value: "nycc"}
	if err := h.Board("b1").Submit(ctx, laws); err != nil {
		t.Fatalf("the hall's action on b1: %v", err)
	}
	waitFor(t, "b1's action seen", 5*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(actions) == 1 })
	mu.Lock()
	captured := actions[0]
	mu.Unlock()
	if captured.Seq == 0 {
		t.Fatalf("the hall's action carries no number: %+v", captured)
	}

	// b1 restarts on its state directory; the attacker replays the action.
	b1.Close()
	b1 = startBoard(t, "b1", dir, config(t, open.URL(), "b1"), opts)
	t.Cleanup(func() { b1.Close() })
	waitFor(t, "b1 back", 10*time.Second, func() bool { return b1.Uplink.Stats().Acked > 0 || len(h.Boards()) == 1 })
	time.Sleep(300 * time.Millisecond) // b1 subscribed again
	attacker := client(t, open.URL(), "attacker", nil)
	payload, err := wire.Encode(&captured)
	if err != nil {
		t.Fatal(err)
	}
	before := b1.Uplink.Stats()
	if err := attacker.Publish(ctx, wire.Topic("b1", wire.KindAction), payload, false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b1's reply to the replay", 5*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(replies) >= 2 && replies[len(replies)-1].ID == captured.ID
	})
	mu.Lock()
	last := replies[len(replies)-1]
	mu.Unlock()
	if last.OK || !strings.Contains(last.Error, "a replay") {
		t.Errorf("the replayed action after b1's restart: reply %+v, want refused as a replay", last)
	}
	if s := b1.Uplink.Stats(); s.Actions != before.Actions {
		t.Errorf("b1 carried out %d replayed actions", s.Actions-before.Actions)
	}
	// The hall's next action is taken.
	if err := h.Board("b1").Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: wire.ActionLaws, Value: "fide2023"}); err != nil {
		t.Errorf("the hall's next action on b1: %v", err)
	}
}
