package pair

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/hall/wire"
)

// brokerFor starts a real Mosquitto with the shipped ACL and two boards'
// passwords, and returns a function giving each board's broker settings.
func brokerFor(t *testing.T) func(user string) *broker.Config {
	cfg, _ := brokerAndConfigs(t)
	return cfg
}

// brokerAndConfigs is brokerFor, with the broker.
func brokerAndConfigs(t *testing.T) (func(user string) *broker.Config, *mosquittotest.Broker) {
	t.Helper()
	if _, err := mosquittotest.Path(); err != nil {
		t.Skipf("mosquitto is not installed (apt-get install mosquitto): %v", err)
	}
	passwords := map[string]string{"b1": "b1-secret-1", "b2": "b2-secret-1"}
	b, err := mosquittotest.Start(mosquittotest.Options{Dir: t.TempDir(), Passwords: passwords,
		ACLFile: filepath.Join("..", "systemd", "mosquitto", "boardd.acl")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Stop() })
	return func(user string) *broker.Config {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, broker.PasswordFile), []byte(passwords[user]+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := broker.Load(broker.Options{URL: b.URL(), Username: user, Dirs: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}, b
}

// Two boards paired through a real Mosquitto with the shipped ACL: each
// board's game reaches the other; a game published while the other board
// is away reaches it when it is back (the broker keeps it).
func TestMQTTLink(t *testing.T) {
	cfg := brokerFor(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b1, err := DialMQTT(ctx, cfg("b1"), "b1", "b2", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(ctx)
	b2, err := DialMQTT(ctx2, cfg("b2"), "b2", "b1", nil)
	if err != nil {
		t.Fatal(err)
	}
	g1 := Game{Start: board.StartFEN, Moves: []string{"e2e4"}}
	g2 := Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5"}, Side: "black", Offer: OfferDraw} // a draw offered goes with its move
	g3 := Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5", "g1f3"}}
	if err := b1.client.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b2.client.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	b1.Send(ctx, g1)
	if got := receive(t, ctx, b2); !sameGame(got, g1) {
		t.Fatalf("b2 got %+v, want %+v", got, g1)
	}
	b2.Send(ctx, g2)
	if got := receive(t, ctx, b1); !sameGame(got, g2) {
		t.Fatalf("b1 got %+v, want %+v", got, g2)
	}
	cancel2()
	<-b2.client.Done()
	b1.Send(ctx, g3)
	b2again, err := DialMQTT(ctx, cfg("b2"), "b2", "b1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := receive(t, ctx, b2again); !sameGame(got, g3) {
		t.Fatalf("b2 back got %+v, want %+v", got, g3)
	}
}

func TestDialMQTTRefuses(t *testing.T) {
	ctx := context.Background()
	if _, err := DialMQTT(ctx, &broker.Config{}, "b1", "b1", nil); err == nil {
		t.Error("a board paired with itself")
	}
	if _, err := DialMQTT(ctx, &broker.Config{}, "b1", "no/such", nil); err == nil {
		t.Error("a board id with a slash")
	}
}

// What the broker link says of its reach, through a real Mosquitto with
// the shipped ACL: up once connected; the other board gone when the broker
// publishes its will (its health offline) and back with its health; the
// broker out of reach while it is down, and back after its restart.
func TestMQTTReach(t *testing.T) {
	cfg, mq := brokerAndConfigs(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b1, err := DialMQTT(ctx, cfg("b1"), "b1", "b2", nil)
	if err != nil {
		t.Fatal(err)
	}
	waitReach(t, ctx, b1, Reach{Up: true})
	// b2's health, as its hall client publishes it; its will (online
	// false, published by the broker when b2 vanishes) is published here
	// as the broker would.
	h2, err := broker.Connect(ctx, broker.ClientOptions{Config: cfg("b2"), ClientID: "b2"})
	if err != nil {
		t.Fatal(err)
	}
	if err := h2.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	health := func(online bool) func() error {
		return func() error {
			b, _ := json.Marshal(wire.Health{V: 1, Board: "b2", Online: online})
			return h2.Publish(ctx, wire.Topic("b2", wire.KindHealth), b, true)
		}
	}
	for _, c := range []struct {
		name string
		do   func() error
		want Reach
	}{
		{"the other board says it is up", health(true), Reach{Up: true}},
		{"the other board's will", health(false), Reach{Gone: GoneBoard}},
		{"the other board back", health(true), Reach{Up: true}},
		{"the broker down", mq.Stop, Reach{Gone: GoneBroker}},
		{"the broker back", mq.Restart, Reach{Up: true}},
	} {
		if err := c.do(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		waitReach(t, ctx, b1, c.want)
	}
}
