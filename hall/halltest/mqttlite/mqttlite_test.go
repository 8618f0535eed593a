package mqttlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/halltest/mqttlite"
	"github.com/boardd/boardd/hall/mosquittotest"
)

var passwords = map[string]string{"hall": "hall-secret-1", "b1": "b1-secret-1"}

func startBroker(t *testing.T) *mosquittotest.Broker {
	t.Helper()
	b, err := mosquittotest.Start(mosquittotest.Options{Dir: t.TempDir(), Passwords: passwords,
		ACLFile: filepath.Join("..", "..", "..", "systemd", "mosquitto", "boardd.acl")})
	if errors.Is(err, mosquittotest.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Kill()
		if t.Failed() {
			t.Logf("mosquitto's log:\n%s", b.Log())
		}
	})
	return b
}

func dial(t *testing.T, b *mosquittotest.Broker, user, password string, got chan<- mqttlite.Message, will *mqttlite.Message) (*mqttlite.Conn, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	o := mqttlite.Options{Addr: b.Addr(), ClientID: "lite-" + user + "-" + t.Name() + "-" + time.Now().Format("150405.000000"), Username: user, Password: []byte(password), Will: will, KeepAlive: 2 * time.Second}
	if got != nil {
		o.OnMessage = func(m mqttlite.Message) {
			select {
			case got <- m:
			default:
			}
		}
	}
	c, err := mqttlite.Dial(ctx, o)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

func receive(t *testing.T, got <-chan mqttlite.Message, what string) mqttlite.Message {
	t.Helper()
	select {
	case m := <-got:
		return m
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: nothing received", what)
	}
	return mqttlite.Message{}
}

// Against a real Mosquitto with the shipped ACL: a board publishes its
// topics and the hall receives them (a retained one flagged so), a board
// writing another's topic is refused, a wrong password is refused at
// connection, a board that vanishes has its will published, and the
// connection outlives several keep-alive periods of silence.
func TestAgainstMosquitto(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := make(chan mqttlite.Message, 16)
	hall, err := dial(t, b, "hall", passwords["hall"], got, nil)
	if err != nil {
		t.Fatal(err)
	}
	codes, err := hall.Subscribe(ctx, "boardd/v1/+/event", "boardd/v1/+/health", "boardd/v1/+/state")
	if err != nil || len(codes) != 3 || codes[0] != 1 {
		t.Fatalf("subscribe: %v %v", codes, err)
	}
	will := &mqttlite.Message{Topic: "boardd/v1/b1/health", Payload: []byte(`{"v":1,"board":"b1","online":false}`), Retain: true}
	b1, err := dial(t, b, "b1", passwords["b1"], nil, will)
	if err != nil {
		t.Fatal(err)
	}
	if err := b1.Publish(ctx, "boardd/v1/b1/event", []byte(`{"v":1}`), false); err != nil {
		t.Fatal(err)
	}
	if m := receive(t, got, "the event"); m.Topic != "boardd/v1/b1/event" || string(m.Payload) != `{"v":1}` || m.Retain {
		t.Errorf("the hall received %+v", m)
	}
	if err := b1.Publish(ctx, "boardd/v1/b1/state", []byte(`{"v":1,"s":1}`), true); err != nil {
		t.Fatal(err)
	}
	receive(t, got, "the state")
	if err := b1.Publish(ctx, "boardd/v1/b2/event", []byte(`{"v":1}`), false); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a board writing another board's events: %v, want refused", err)
	}
	// Back to back: the broker takes them in order up to the first refused.
	n, err := b1.PublishAll(ctx, []mqttlite.Message{
		{Topic: "boardd/v1/b1/event", Payload: []byte(`{"v":1,"n":1}`)},
		{Topic: "boardd/v1/b2/event", Payload: []byte(`{"v":1,"n":2}`)},
		{Topic: "boardd/v1/b1/event", Payload: []byte(`{"v":1,"n":3}`)},
	})
	if n != 1 || err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("publishing three, the second refused: %d taken, %v", n, err)
	}
	if m := receive(t, got, "the first of three"); string(m.Payload) != `{"v":1,"n":1}` {
		t.Errorf("the hall received %s", m.Payload)
	}
	if m := receive(t, got, "the third of three"); string(m.Payload) != `{"v":1,"n":3}` {
		t.Errorf("the hall received %s", m.Payload)
	}
	// Silence for longer than the keep-alive: the pings keep it up.
	time.Sleep(3 * time.Second)
	select {
	case <-b1.Done():
		t.Fatalf("the connection ended while silent: %v", b1.Err())
	default:
	}
	// A late subscriber gets the retained state, flagged retained.
	late := make(chan mqttlite.Message, 4)
	hall2, err := dial(t, b, "hall", passwords["hall"], late, nil)
	if err != nil {
		t.Fatal(err)
	}
	hall2.Subscribe(ctx, "boardd/v1/+/state")
	if m := receive(t, late, "the retained state"); !m.Retain || string(m.Payload) != `{"v":1,"s":1}` {
		t.Errorf("the retained state: %+v", m)
	}
	// The board vanishes: the broker publishes its will.
	b1.Drop()
	if err := b1.Publish(ctx, "boardd/v1/b1/event", nil, false); !errors.Is(err, mqttlite.ErrClosed) {
		t.Errorf("publishing on a dropped connection: %v", err)
	}
	if m := receive(t, got, "the will"); m.Topic != "boardd/v1/b1/health" || !strings.Contains(string(m.Payload), `"online":false`) {
		t.Errorf("the will: %+v", m)
	}
	if _, err := dial(t, b, "b1", "not-the-password", nil, nil); err == nil || !strings.Contains(err.Error(), "refused the connection") {
		t.Errorf("a wrong password: %v", err)
	}
}
