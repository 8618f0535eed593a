package hall_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/boardd/boardd/hall/mosquittotest"
)

// shippedConf is the Mosquitto configuration shipped for operators.
var shippedConf = filepath.Join("..", "systemd", "mosquitto", "boardd.conf")

// shippedSettings are the shipped configuration's general settings, the
// lines before its first listener, less the files it names (the test's
// broker has its own password file and ACL): what a test broker needs to
// behave as the shipped one does.
func shippedSettings(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(shippedConf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, _, _ := strings.Cut(line, " ")
		if key == "listener" {
			break
		}
		switch key {
		case "password_file", "acl_file", "per_listener_settings":
			// The test broker names its own files; its one listener
			// makes per-listener settings moot.
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// holder is an MQTT connection held open, noting when the broker ends it.
type holder struct {
	c    *paho.Client
	lost chan string
}

// hold connects as user with client id id and keeps the connection.
func hold(t *testing.T, addr, user, password, id string) *holder {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	h := &holder{lost: make(chan string, 4)}
	note := func(why string) {
		select {
		case h.lost <- why:
		default:
		}
	}
	h.c = paho.NewClient(paho.ClientConfig{Conn: conn, ClientID: id,
		OnServerDisconnect: func(d *paho.Disconnect) { note(fmt.Sprintf("DISCONNECT reason %#x", d.ReasonCode)) },
		OnClientError:      func(err error) { note(err.Error()) },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cp := &paho.Connect{ClientID: id, CleanStart: true, KeepAlive: 30, UsernameFlag: true, Username: user, PasswordFlag: true, Password: []byte(password)}
	if _, err := h.c.Connect(ctx, cp); err != nil {
		t.Fatalf("%s as %s: %v", user, id, err)
	}
	t.Cleanup(func() { h.c.Disconnect(&paho.Disconnect{}) })
	return h
}

// TestClientIDTakeover: one board's password cannot knock another board,
// or the hall, off the broker by connecting under its client id. With the
// shipped configuration (use_username_as_clientid) the broker takes the
// user name as the client id, so b1's password under b2's or the hall's
// client id is b1's own session; without it, the real b2 and hall are
// thrown off each time (the test sees the takeover it guards against).
func TestClientIDTakeover(t *testing.T) {
	shipped := shippedSettings(t)
	found := false
	for _, l := range shipped {
		found = found || l == "use_username_as_clientid true"
	}
	if !found {
		t.Fatalf("%s does not tie the client id to the user name (use_username_as_clientid true): %q", shippedConf, shipped)
	}
	var without []string
	for _, l := range shipped {
		if !strings.HasPrefix(l, "use_username_as_clientid") {
			without = append(without, l)
		}
	}
	cases := []struct {
		name     string
		settings []string
		takeover bool // the victims are thrown off
	}{
		{"the shipped configuration", shipped, false},
		{"without use_username_as_clientid", without, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			br := startBroker(t, mosquittotest.Options{Passwords: passwords, ACLFile: shippedACL, Extra: c.settings})
			victims := []struct {
				user, id string
				h        *holder
			}{{user: "b2", id: "boardd-b2"}, {user: "hall", id: "boardd-hall"}}
			for i, v := range victims {
				victims[i].h = hold(t, br.Addr(), v.user, passwords[v.user], v.id)
			}
			for round := range 3 {
				for i, v := range victims {
					// b1's password under the victim's client id.
					err := connectAs(br.Addr(), "b1", passwords["b1"], v.id)
					var why string
					select {
					case why = <-v.h.lost:
					case <-time.After(500 * time.Millisecond):
					}
					if thrown := why != ""; thrown != c.takeover {
						t.Errorf("round %d: b1's password as %s (connect: %v): the real %s thrown off: %v (%s), want %v", round+1, v.id, err, v.user, thrown, why, c.takeover)
					}
					if why != "" {
						victims[i].h = hold(t, br.Addr(), v.user, passwords[v.user], v.id) // back on, for the next round
					}
				}
			}
		})
	}
}

// connectAs makes one MQTT connection as user with client id id, holds it
// a moment, and closes it.
func connectAs(addr, user, password, id string) error {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	c := paho.NewClient(paho.ClientConfig{Conn: conn, ClientID: id})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cp := &paho.Connect{ClientID: id, CleanStart: true, KeepAlive: 5, UsernameFlag: true, Username: user, PasswordFlag: true, Password: []byte(password)}
	if _, err := c.Connect(ctx, cp); err != nil {
		return err
	}
	time.Sleep(100 * time.Millisecond)
	return c.Disconnect(&paho.Disconnect{})
}
