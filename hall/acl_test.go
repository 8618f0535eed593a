package hall_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/trace"
)

// shippedACL is the ACL shipped for operators; the tests use it as it is.
var shippedACL = filepath.Join("..", "systemd", "mosquitto", "boardd.acl")

var passwords = map[string]string{"hall": "hall-secret-1", "b1": "b1-secret-1", "b2": "b2-secret-1"}

// credDir writes user's password file into a credential directory.
func credDir(t testing.TB, user string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cred-"+user)
	writeCred(t, dir, passwords[user])
	return dir
}

// writeCred writes a password file into the credential directory dir.
func writeCred(t testing.TB, dir, password string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, broker.PasswordFile), []byte(password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// client connects as user (with its password from a credential directory)
// and waits for the connection. Messages it receives go to got, if not nil.
func client(t testing.TB, url, user string, got chan<- string, dirs ...string) *broker.Client {
	t.Helper()
	c := config(t, url, user, dirs...)
	ctx, cancel := context.WithCancel(context.Background())
	var onMessage func(string, []byte, bool)
	if got != nil {
		onMessage = func(topic string, _ []byte, _ bool) {
			select {
			case got <- topic:
			default:
			}
		}
	}
	cl, err := broker.Connect(ctx, broker.ClientOptions{Config: c, ClientID: "probe-" + user, OnMessage: onMessage, MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		<-cl.Done()
	})
	actx, acancel := context.WithTimeout(ctx, 5*time.Second)
	defer acancel()
	if err := cl.AwaitConnection(actx); err != nil {
		t.Fatalf("%s: connecting: %v", user, err)
	}
	return cl
}

// connectOnce makes one MQTT connection attempt and returns the broker's
// answer.
func connectOnce(t testing.TB, addr, user, password string, tc *tls.Config) error {
	t.Helper()
	var conn net.Conn
	var err error
	if tc != nil {
		conn, err = tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, tc)
	} else {
		conn, err = net.DialTimeout("tcp", addr, 5*time.Second)
	}
	if err != nil {
		return err
	}
	defer conn.Close()
	c := paho.NewClient(paho.ClientConfig{Conn: conn, ClientID: "once"})
	cp := &paho.Connect{ClientID: "once", CleanStart: true, KeepAlive: 5}
	if user != "" {
		cp.UsernameFlag, cp.Username = true, user
	}
	if password != "" {
		cp.PasswordFlag, cp.Password = true, []byte(password)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ca, err := c.Connect(ctx, cp)
	if err == nil {
		c.Disconnect(&paho.Disconnect{})
		return nil
	}
	if ca != nil {
		return fmt.Errorf("CONNACK reason code %#x", ca.ReasonCode)
	}
	return err
}

// The shipped ACL with per-board passwords: a board writes only its own
// topics and reads only its own acknowledgements and actions; the hall reads
// every board and writes only acknowledgements and actions; a client without
// credentials, or with a wrong password, is refused; boards and hall with
// their credentials play a game through it.
func TestACL(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{Passwords: passwords, ACLFile: shippedACL})
	url := br.URL()
	ctx := ctxTimeout(t, 30*time.Second)
	b1got, b2got := make(chan string, 16), make(chan string, 16)
	b1 := client(t, url, "b1", b1got, credDir(t, "b1"))
	b2 := client(t, url, "b2", b2got, credDir(t, "b2"))
	hl := client(t, url, "hall", nil, credDir(t, "hall"))

	refused := []struct {
		name  string
		c     *broker.Client
		topic string
	}{
		{"b1 writes b2's state", b1, wire.Topic("b2", wire.KindState)},
		{"b1 writes b2's events", b1, wire.Topic("b2", wire.KindEvent)},
		{"b1 forges an action for itself", b1, wire.Topic("b1", wire.KindAction)},
		{"b1 acknowledges itself", b1, wire.Topic("b1", wire.KindAck)},
		{"b1 writes outside the hall's topics", b1, "elsewhere/b1"},
		{"the hall poses as board b1", hl, wire.Topic("b1", wire.KindEvent)},
		{"the hall writes b1's state", hl, wire.Topic("b1", wire.KindState)},
	}
	for _, r := range refused {
		err := r.c.Publish(ctx, r.topic, []byte(`{"v":1}`), false)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), "not authorized") {
			t.Errorf("%s (%s): %v, want refused as not authorized", r.name, r.topic, err)
		}
	}
	allowed := []struct {
		name  string
		c     *broker.Client
		topic string
	}{
		{"b1 writes its state", b1, wire.Topic("b1", wire.KindState)},
		{"b1 writes its events", b1, wire.Topic("b1", wire.KindEvent)},
		{"the hall sends b2 an action", hl, wire.Topic("b2", wire.KindAction)},
		{"the hall acknowledges b2", hl, wire.Topic("b2", wire.KindAck)},
	}
	for _, a := range allowed {
		if err := a.c.Publish(ctx, a.topic, []byte(`{"v":1}`), false); err != nil {
			t.Errorf("%s (%s): %v", a.name, a.topic, err)
		}
	}
	// Reading: b1 and b2 both subscribe to b2's actions and to every
	// board's events; the hall sends b2 an action and b2 an event is
	// published. Only b2 receives its action, and neither board another's
	// events (Mosquitto grants the subscriptions and filters what it
	// delivers).
	for _, c := range []*broker.Client{b1, b2} {
		if _, err := c.Subscribe(ctx, wire.Topic("b2", wire.KindAction), wire.Every(wire.KindEvent)); err != nil {
			t.Fatal(err)
		}
	}
	if err := hl.Publish(ctx, wire.Topic("b2", wire.KindAction), []byte(`{"v":1}`), false); err != nil {
		t.Fatal(err)
	}
	if err := b2.Publish(ctx, wire.Topic("b2", wire.KindEvent), []byte(`{"v":1}`), false); err != nil {
		t.Fatal(err)
	}
	select {
	case topic := <-b2got:
		if topic != wire.Topic("b2", wire.KindAction) {
			t.Errorf("b2 received %s, want its action only", topic)
		}
	case <-time.After(5 * time.Second):
		t.Error("b2 did not receive the hall's action")
	}
	// The action and the event were delivered to whoever may read them
	// before the next round trip ends.
	if err := b1.Publish(ctx, wire.Topic("b1", wire.KindState), []byte(`{"v":1}`), false); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	for name, ch := range map[string]chan string{"b1": b1got, "b2": b2got} {
		select {
		case topic := <-ch:
			t.Errorf("%s received %s: the ACL let it read another board's topic", name, topic)
		default:
		}
	}

	for _, c := range []struct{ name, user, password string }{
		{"no credentials", "", ""},
		{"a board's name without its password", "b1", ""},
		{"a wrong password", "b1", "guess"},
		{"another board's password", "b1", passwords["b2"]},
		{"an unknown user", "b9", "b9-secret"},
	} {
		err := connectOnce(t, br.Addr(), c.user, c.password, nil)
		switch {
		case err == nil:
			t.Errorf("%s: connected, want refused", c.name)
		case !strings.Contains(err.Error(), "CONNACK reason code 0x8"):
			t.Errorf("%s: %v, want the broker's refusal", c.name, err)
		default:
			t.Logf("%s: refused: %v", c.name, err)
		}
	}
	if err := connectOnce(t, br.Addr(), "b2", passwords["b2"], nil); err != nil {
		t.Errorf("b2 with its password: %v", err)
	}

	// A game through the locked-down broker.
	h, _ := startHall(t, config(t, url, "hall", credDir(t, "hall")))
	opts := gameOptions("fide2023")
	g := makeGame(t, testGames[0][:8])
	b := startBoard(t, "b2", boardDir(t, "b2"), config(t, url, "b2", credDir(t, "b2")), opts)
	t.Cleanup(func() { b.Close() })
	if err := b.PlayMoves(ctx, g.lines, g.ends, 0, len(g.ends)); err != nil {
		t.Fatal(err)
	}
	want := replayMoves(t, g, opts)
	waitFor(t, "b2's moves in the hall", 10*time.Second, func() bool { return slices.Equal(hallMoves(h, "b2"), want) })
	// The hall's actions reach the board.
	if err := h.Board("b2").Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: wire.ActionResult, Value: "1/2-1/2"}); err != nil {
		t.Fatalf("the hall's result action: %v", err)
	}
	waitFor(t, "the result in the hall", 5*time.Second, func() bool {
		s := h.Board("b2").Summary()
		return s.Result != nil && s.Result.Result == "1/2-1/2"
	})
}

// TLS with a test CA made here: boards and hall with client certificates
// (their common names are their user names, for the shipped ACL) play
// through the broker; a client that trusts another CA refuses the broker,
// and the broker refuses a client certificate from another CA, and a client
// with none.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, err := mosquittotest.NewCA(dir, "hall")
	if err != nil {
		t.Fatal(err)
	}
	other, err := mosquittotest.NewCA(dir, "other")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ca.Server("broker")
	if err != nil {
		t.Fatal(err)
	}
	br := startBroker(t, mosquittotest.Options{Dir: dir, ACLFile: shippedACL, TLS: &mosquittotest.TLS{
		CAFile: ca.File, CertFile: srv.CertFile, KeyFile: srv.KeyFile, RequireCertificate: true, UseIdentityAsUsername: true,
	}})
	// urlFor names the credential files in the URL's query.
	urlFor := func(caFile string, p mosquittotest.Pair) string {
		return br.URL() + "?ca=" + caFile + "&cert=" + p.CertFile + "&key=" + p.KeyFile
	}
	pair := func(ca *mosquittotest.CA, cn string) mosquittotest.Pair {
		p, err := ca.Client(cn)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	hallPair, b1Pair, strangerPair := pair(ca, "hall"), pair(ca, "b1"), pair(other, "b1")

	h, _ := startHall(t, config(t, urlFor(ca.File, hallPair), "hall"))
	opts := gameOptions("nycc")
	g := makeGame(t, testGames[1][:10])
	b := startBoard(t, "b1", boardDir(t, "b1"), config(t, urlFor(ca.File, b1Pair), "b1"), opts)
	t.Cleanup(func() { b.Close() })
	ctx := ctxTimeout(t, 30*time.Second)
	if err := b.PlayMoves(ctx, g.lines, g.ends, 0, len(g.ends)); err != nil {
		t.Fatal(err)
	}
	want := replayMoves(t, g, opts)
	waitFor(t, "b1's moves in the hall over TLS", 10*time.Second, func() bool { return slices.Equal(hallMoves(h, "b1"), want) })

	for _, c := range []struct {
		name string
		url  string
		want string
	}{
		{"a client trusting another CA", urlFor(other.File, b1Pair), "certificate signed by unknown authority"},
		{"a client certificate from another CA", urlFor(ca.File, strangerPair), ""},
		{"no client certificate", br.URL() + "?ca=" + ca.File, ""},
	} {
		cfg := config(t, c.url, "b1")
		err := connectOnce(t, br.Addr(), "", "", cfg.TLS)
		switch {
		case err == nil:
			t.Errorf("%s: connected, want refused", c.name)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		default:
			t.Logf("%s: refused: %v", c.name, err)
		}
	}
	// A plain connection to the TLS listener gets nowhere either.
	if err := connectOnce(t, br.Addr(), "b1", "", nil); err == nil {
		t.Error("plain MQTT to the TLS listener: connected")
	}
}

// The hall signs its actions for each board: a board carries out those
// signed with the hall's key for it, refuses those signed with another
// hall's key, refuses all when it has no verify key, and carries out an
// action delivered twice once.
func TestActionSignature(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	ctx := ctxTimeout(t, 30*time.Second)
	h, _ := startHall(t, config(t, br.URL(), "hall"))
	opts := gameOptions("sarratt1808")
	good := startBoard(t, "good", boardDir(t, "good"), config(t, br.URL(), "good"), opts)
	t.Cleanup(func() { good.Close() })
	otherHall, err := actionsig.Generate()
	if err != nil {
		t.Fatal(err)
	}
	other, err := halltestStart(t, "other", br.URL(), otherHall.Verifier(), opts)
	if err != nil {
		t.Fatal(err)
	}
	none, err := halltestStart(t, "none", br.URL(), nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "three boards in the hall", 10*time.Second, func() bool { return len(h.Boards()) == 3 })
	result := trace.Line{Kind: trace.Arbiter, Action: wire.ActionResult, Value: "0-1"}
	if err := h.Board("good").Submit(ctx, result); err != nil {
		t.Fatalf("good: %v", err)
	}
	if st, _ := good.Local.State(ctx); st.Result == nil || st.Result.Result != "0-1" {
		t.Errorf("good: result %+v, want 0-1 declared", st.Result)
	}
	for _, c := range []struct {
		b    interface{ ID() string }
		want string
	}{{other, "signature is not the hall's"}, {none, "not the hall's verify key"}} {
		err := h.Board(c.b.ID()).Submit(ctx, result)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want refused: %s", c.b.ID(), err, c.want)
		}
	}
	if st, _ := other.Local.State(ctx); st.Result != nil {
		t.Errorf("other: a result was declared by a hall whose key it does not hold: %+v", st.Result)
	}
	if st, _ := none.Local.State(ctx); st.Result != nil {
		t.Errorf("none: a result was declared without a verify key: %+v", st.Result)
	}
	if hl := none.Uplink.Stats(); hl.Refused != 1 {
		t.Errorf("none: %d actions refused, want 1", hl.Refused)
	}
	// A refusal as things stand: no choice is pending.
	err = h.Board("good").Submit(ctx, trace.Line{Kind: trace.Choose, Option: "stand", Side: trace.SideArbiter})
	if err == nil {
		t.Error("good: a ruling with no choice pending was carried out")
	}

	// An action delivered twice is carried out once.
	pub := client(t, br.URL(), "hall", nil)
	a := wire.Action{ID: "twice", Action: wire.ActionNewGame}
	testSigner.Sign(&a, "good")
	payload, err := wire.Encode(&a)
	if err != nil {
		t.Fatal(err)
	}
	before := good.Uplink.Stats()
	for range 2 {
		if err := pub.Publish(ctx, wire.Topic("good", wire.KindAction), payload, false); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the action twice", 5*time.Second, func() bool {
		s := good.Uplink.Stats()
		return s.Actions == before.Actions+1 && s.Duplicates == before.Duplicates+1
	})
}

// Each board's credential is good for that board only. On a real Mosquitto
// with the shipped ACL, board b1's password cannot send an action to b2.
// On a broker that lets anyone write anywhere (a broker set up without the
// ACL), everything b1's SD card holds still cannot make b2 act: not an
// unsigned action, not one signed with another key, not b1's own action
// from the hall replayed to b2. And the hall's arbiter token is nowhere in
// a board's state directory, nor in anything sent over the broker.
func TestBoardCredentialCannotActElsewhere(t *testing.T) {
	ctx := ctxTimeout(t, 60*time.Second)
	opts := gameOptions("fide2023")

	// The shipped ACL: b1's credential writes to b2's action topic.
	locked := startBroker(t, mosquittotest.Options{Passwords: passwords, ACLFile: shippedACL})
	b1cred := credDir(t, "b1")
	b1 := client(t, locked.URL(), "b1", nil, b1cred)
	forged := wire.Action{ID: "forged", Action: wire.ActionResult, Value: "1-0"}
	payload, err := wire.Encode(&forged)
	if err != nil {
		t.Fatal(err)
	}
	if err := b1.Publish(ctx, wire.Topic("b2", wire.KindAction), payload, false); err == nil || !strings.Contains(strings.ToLower(err.Error()), "not authorized") {
		t.Errorf("b1's credential sending b2 an action: %v, want refused as not authorized", err)
	}

	// A broker with no ACL: b1's card is all an attacker needs to write.
	open := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, _ := startHall(t, config(t, open.URL(), "hall"))
	b1dir, b2dir := boardDir(t, "b1"), boardDir(t, "b2")
	board1 := startBoard(t, "b1", b1dir, config(t, open.URL(), "b1"), opts)
	t.Cleanup(func() { board1.Close() })
	board2 := startBoard(t, "b2", b2dir, config(t, open.URL(), "b2"), opts)
	t.Cleanup(func() { board2.Close() })
	waitFor(t, "both boards in the hall", 10*time.Second, func() bool { return len(h.Boards()) == 2 })

	// A spy sees everything on the broker.
	var mu sync.Mutex
	var seen [][]byte
	var b1actions []wire.Action
	spyCfg := config(t, open.URL(), "spy")
	sctx, scancel := context.WithCancel(context.Background())
	spy, err := broker.Connect(sctx, broker.ClientOptions{Config: spyCfg, ClientID: "spy", OnMessage: func(topic string, p []byte, _ bool) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, append([]byte(topic+" "), p...))
		if topic == wire.Topic("b1", wire.KindAction) {
			var a wire.Action
			if wire.Decode(p, &a, topic) == nil {
				b1actions = append(b1actions, a)
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
	if _, err := spy.Subscribe(ctx, "#"); err != nil {
		t.Fatal(err)
	}

	// The hall acts on b1: the spy (b1's own credential could read it too)
	// records the signed action.
	if err := h.Board("b1").Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: wire.ActionResult, Value: "1-0"}); err != nil {
		t.Fatalf("the hall's action on b1: %v", err)
	}
	waitFor(t, "b1's action seen", 5*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(b1actions) == 1 })
	mu.Lock()
	captured := b1actions[0]
	mu.Unlock()

	otherKey, err := actionsig.Generate()
	if err != nil {
		t.Fatal(err)
	}
	attacker := client(t, open.URL(), "b1", nil)
	attempts := []struct {
		name string
		a    wire.Action
	}{
		{"unsigned", wire.Action{ID: "u1", Action: wire.ActionResult, Value: "0-1"}},
		{"signed with a key of b1's making", func() wire.Action {
			a := wire.Action{ID: "k1", Action: wire.ActionResult, Value: "0-1"}
			otherKey.Sign(&a, "b2")
			return a
		}()},
		{"b1's action from the hall, replayed to b2", captured},
		{"b1's action from the hall, renamed for b2", func() wire.Action { a := captured; a.Board, a.ID = "b2", "r2"; return a }()},
		{"b1's action from the hall, its value changed", func() wire.Action { a := captured; a.Board, a.ID, a.Value = "b2", "r3", "0-1"; return a }()},
	}
	before := board2.Uplink.Stats()
	for _, at := range attempts {
		p, err := wire.Encode(&at.a)
		if err != nil {
			t.Fatal(err)
		}
		if err := attacker.Publish(ctx, wire.Topic("b2", wire.KindAction), p, false); err != nil {
			t.Fatalf("%s: %v", at.name, err)
		}
	}
	waitFor(t, "b2 refusing every attempt", 5*time.Second, func() bool {
		return board2.Uplink.Stats().Refused == before.Refused+len(attempts)
	})
	if st, _ := board2.Local.State(ctx); st.Result != nil {
		t.Errorf("b2: a result was declared by b1's credential: %+v", st.Result)
	}
	if s := board2.Uplink.Stats(); s.Actions != before.Actions {
		t.Errorf("b2 carried out %d actions", s.Actions-before.Actions)
	}
	// The hall can still act on b2.
	if err := h.Board("b2").Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: wire.ActionResult, Value: "1/2-1/2"}); err != nil {
		t.Errorf("the hall's action on b2: %v", err)
	}

	// The arbiter token is in no board's files, nor on the broker.
	for _, dir := range []string{b1dir, b2dir, b1cred} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), testToken) {
				t.Errorf("%s holds the hall's arbiter token", path)
			}
			return nil
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the spy saw nothing")
	}
	for _, m := range seen {
		if strings.Contains(string(m), testToken) {
			t.Errorf("the arbiter token crossed the broker: %.200s", m)
		}
	}
}
