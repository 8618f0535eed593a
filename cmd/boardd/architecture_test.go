package main

import (
	"os/exec"
	"strings"
	"testing"
)

// testSupport says whether the package at path is test support: boardd's
// test packages (a path element named hwtest or ptypair, or ending in
// "test": lichesstest, halltest, mosquittotest, ...), the pseudo-terminal
// library the rig needs, and the standard library's testing.
func testSupport(path string) bool {
	if path == "testing" || strings.HasPrefix(path, "testing/") || path == "github.com/creack/pty" {
		return true
	}
	rest, ok := strings.CutPrefix(path, "github.com/boardd/boardd/")
	if !ok {
		return false
	}
	for _, elem := range strings.Split(rest, "/") {
		if elem == "hwtest" || elem == "ptypair" || strings.HasSuffix(elem, "test") {
			return true
		}
	}
	return false
}

func TestTestSupport(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"github.com/boardd/boardd/hwtest", true},
		{"github.com/boardd/boardd/hwtest/hallsim", true},
		{"github.com/boardd/boardd/ptypair", true},
		{"github.com/boardd/boardd/lichess/lichesstest", true},
		{"github.com/boardd/boardd/opponent/opponenttest", true},
		{"github.com/boardd/boardd/chesslink/chesslinktest", true},
		{"github.com/boardd/boardd/hall/halltest", true},
		{"github.com/boardd/boardd/hall/halltest/mqttlite", true},
		{"github.com/boardd/boardd/hall/mosquittotest", true},
		{"github.com/boardd/boardd/journal/journaltest", true},
		{"github.com/boardd/boardd/browsertest", true},
		{"github.com/creack/pty", true},
		{"testing", true},
		{"github.com/boardd/boardd/lichess", false},
		{"github.com/boardd/boardd/hall/uplink", false},
		{"github.com/boardd/boardd/serialport", false},
		{"internal/testlog", false}, // the standard library's own, linked by os
		{"periph.io/x/conn/v3/spi/spitest", false},
	} {
		if got := testSupport(c.path); got != c.want {
			t.Errorf("testSupport(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// The daemon links no test support: the rig is a program of its own
// (hwtest/cmd/rig), and the test doubles stay with the tests.
func TestDaemonLinksNoTestSupport(t *testing.T) {
	out, err := exec.Command(goTool(t), "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !strings.Contains(string(out), "github.com/boardd/boardd/daemon\n") {
		t.Fatalf("go list -deps listed %d packages, without the daemon: the list is broken", len(deps))
	}
	for _, p := range deps {
		if testSupport(p) {
			t.Errorf("boardd links %s, which is test support", p)
		}
	}
}
