package hall_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/mosquittotest"
)

// roomBridge is the bridge docs/hall.md ships for a second playing room:
// the hall's broker connects to the room's broker as the hall (the shipped
// ACL on the room's broker lets the hall read the boards and write
// acknowledgements and actions, which is all a bridge carries), takes the
// boards' topics in and sends the hall's out.
func roomBridge(name, addr, password string, clean bool) mosquittotest.Bridge {
	return mosquittotest.Bridge{
		Name: name, Address: addr, Username: "hall", Password: password, ClientID: "hall-bridge-" + name,
		CleanSession: clean, RestartTimeout: time.Second, KeepAlive: 20 * time.Second,
		Topics: []string{
			"boardd/v1/+/event in 1", "boardd/v1/+/state in 1", "boardd/v1/+/health in 1", "boardd/v1/+/reply in 1",
			"boardd/v1/+/ack out 1", "boardd/v1/+/action out 1",
		},
	}
}

// Two playing rooms, each with its own Mosquitto and the shipped ACL on
// both, one hall: the hall's broker bridges the second room's in
// (Mosquitto's own bridge). A board plays in the hall's room, two in the
// second; the link between the rooms is cut mid-game while every board
// plays on, and restored: the hall's games equal the replays, nothing lost
// and nothing doubled. With the bridge's session kept, the room's broker
// queues the boards' events for it meanwhile; with a clean session they
// are gone, and the hall asks the boards for them again (their retained
// states show what it missed).
func TestTwoRoomsBridged(t *testing.T) {
	for _, c := range []struct {
		name  string
		clean bool
	}{{"session kept", false}, {"clean session", true}} {
		t.Run(c.name, func(t *testing.T) { testTwoRooms(t, c.clean) })
	}
}

func testTwoRooms(t *testing.T, clean bool) {
	pw := map[string]string{"hall": "hall-secret-1", "a1": "a1-secret-1", "r1": "r1-secret-1", "r2": "r2-secret-1"}
	room2 := startBroker(t, mosquittotest.Options{ACLFile: shippedACL, Passwords: map[string]string{"hall": pw["hall"], "r1": pw["r1"], "r2": pw["r2"]}})
	link, err := mosquittotest.NewLink(room2.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close() })
	main := startBroker(t, mosquittotest.Options{ACLFile: shippedACL, Passwords: map[string]string{"hall": pw["hall"], "a1": pw["a1"]},
		Bridges: []mosquittotest.Bridge{roomBridge("room2", link.Addr(), pw["hall"], clean)}})
	cred := func(user string) string {
		t.Helper()
		return passwordDir(t, user, pw[user])
	}
	h, _ := startHall(t, config(t, main.URL(), "hall", cred("hall")))
	opts := gameOptions("fide2023")
	var ps []*player
	for i, room := range []struct{ id, url string }{{"a1", main.URL()}, {"r1", room2.URL()}, {"r2", room2.URL()}} {
		p := &player{g: makeGame(t, testGames[i])}
		p.b = startBoard(t, room.id, boardDir(t, room.id), config(t, room.url, room.id, cred(room.id)), opts)
		p.want = replayMoves(t, p.g, opts)
		ps = append(ps, p)
	}
	t.Cleanup(func() {
		for _, p := range ps {
			p.b.Close()
		}
	})
	ctx := ctxTimeout(t, 90*time.Second)
	play := func(from, to int) { t.Helper(); playMoves(t, ctx, ps, from, to) }
	held := func(id string) int { return len(hallMoves(h, id)) }

	play(0, 6)
	waitFor(t, "6 moves of every board, both rooms, in the hall", 15*time.Second, func() bool {
		return held("a1") >= 6 && held("r1") >= 6 && held("r2") >= 6
	})

	link.Cut()
	play(6, 12)
	waitFor(t, "the hall's room", 10*time.Second, func() bool { return held("a1") >= 12 })
	if n1, n2 := held("r1"), held("r2"); n1 != 6 || n2 != 6 {
		t.Errorf("the second room's boards reached the hall with the link cut: %d and %d moves, want 6", n1, n2)
	}
	time.Sleep(300 * time.Millisecond) // the second room plays on unseen a moment

	link.Restore()
	start := time.Now()
	waitFor(t, "the second room caught up after the link's restoration", 20*time.Second, func() bool {
		return held("r1") >= 12 && held("r2") >= 12
	})
	t.Logf("the second room caught up %v after the link came back", time.Since(start).Round(time.Millisecond))
	play(12, len(testGames[0]))

	for _, p := range ps {
		id := p.b.ID()
		waitFor(t, id+"'s game in the hall", 10*time.Second, func() bool { return held(id) >= len(p.want) })
		if got := hallMoves(h, id); !slices.Equal(got, p.want) {
			t.Errorf("%s: the hall holds\n%v\nthe replay made\n%v", id, got, p.want)
		}
		applied, dups, gaps, _ := h.Board(id).Counts()
		t.Logf("%s: %d events taken, %d dropped as held already, %d as not following", id, applied, dups, gaps)
	}
	if link.Connections() < 2 {
		t.Errorf("the bridge connected %d times through the link: the cut went unnoticed", link.Connections())
	}
}

// passwordDir writes a credential directory with user's password.
func passwordDir(t *testing.T, user, password string) string {
	t.Helper()
	dir := fmt.Sprintf("%s/cred-%s", t.TempDir(), user)
	writeCred(t, dir, password)
	return dir
}
