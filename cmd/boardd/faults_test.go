package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// twoGames is the scenario: 8 plies, the arbiter's new game, the
// board set up again, 2 plies of the next game. cut is the new-game line.
func twoGames(t *testing.T) (lines []trace.Line, cut int) {
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 50 * time.Millisecond, Pause: 500 * time.Millisecond})
	if err := p.Move("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6"); err != nil {
		t.Fatal(err)
	}
	cut = len(p.Lines)
	p.Lines = append(p.Lines, trace.Line{T: p.T, Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter})
	p.T += 500 * time.Millisecond
	p.Reset()
	if err := p.Move("d2d4", "d7d5"); err != nil {
		t.Fatal(err)
	}
	return p.Lines, cut
}

// feed writes trace lines to boardd's standard input.
func (p *proc) feed(t *testing.T, lines []trace.Line) {
	t.Helper()
	var b []byte
	for _, l := range lines {
		b = trace.Append(b, l)
	}
	if _, err := p.stdin.Write(b); err != nil {
		t.Fatal(err)
	}
}

var consoleLine = regexp.MustCompile(`msg=console url=(\S+) board=(\S+)`)

// console returns the state URL of boardd's console, from its log.
func (p *proc) console(t *testing.T) string {
	t.Helper()
	var m []string
	waitFor(t, 10*time.Second, "the console's address in the log", func() bool {
		m = consoleLine.FindStringSubmatch(p.stderr.String())
		return m != nil
	})
	return fmt.Sprintf("%sapi/boards/%s/state", m[1], m[2])
}

// boardState is what the console's state says of the faults and moves.
type boardState struct {
	Moves []json.RawMessage `json:"moves"`
	LEDs  []struct {
		Square string `json:"square"`
		Role   string `json:"role"`
	} `json:"leds"`
}

func (s boardState) faultCorners() int {
	n := 0
	for _, l := range s.LEDs {
		if l.Role == "fault" && strings.Contains("a1 h1 a8 h8", l.Square) {
			n++
		}
	}
	return n
}

func getState(t *testing.T, url string) boardState {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s boardState
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// logLines counts boardd's log lines holding every one of parts.
func (p *proc) logLines(parts ...string) int {
	n := 0
	for _, line := range strings.Split(p.stderr.String(), "\n") {
		all := line != ""
		for _, s := range parts {
			all = all && strings.Contains(line, s)
		}
		if all {
			n++
		}
	}
	return n
}

func pgnOf(t *testing.T, bin, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, append([]string{"pgn", "--state-dir", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("boardd pgn %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// testDescriptorsRunOut runs the real boardd with few file descriptors and
// takes the rest with idle connections to its console just before the
// arbiter starts a new game (the 20,000 event streams, in small).
// The game is saved all along (the journal is open); the finished game
// cannot be archived, which is logged once, and is archived whole once the
// connections close. boardd pgn shows the right games throughout.
func testDescriptorsRunOut(t *testing.T, bin string) {
	lines, cut := twoGames(t)
	dir := t.TempDir()
	ns := newNotifySocket(t)
	env := daemonEnv("BOARDD_INPUT=-", "NOTIFY_SOCKET="+ns.path)
	p := startBoardd(t, "/bin/sh", env, "-c", `ulimit -n 32 && exec "$0" "$@"`, bin, "run", "--state-dir", dir, "--listen", "127.0.0.1:0")
	ns.await(t, "READY=1", 10*time.Second)
	state := p.console(t)
	p.feed(t, lines[:cut])
	waitFor(t, 20*time.Second, "8 plies", func() bool { return len(getState(t, state).Moves) == 8 })

	// Take every descriptor boardd has left.
	addr := strings.TrimPrefix(strings.Split(state, "/api/")[0], "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 80 {
		c, err := net.Dial("tcp", strings.TrimSuffix(addr, "/"))
		if err != nil {
			break
		}
		conns = append(conns, c)
	}
	time.Sleep(300 * time.Millisecond)
	p.feed(t, lines[cut:])
	waitFor(t, 30*time.Second, "game 2's two plies in the journal", func() bool {
		g, err := journal.Read(dir)
		if err != nil || g == nil || g.Header.Game != 2 {
			return false
		}
		moves := 0
		for _, r := range g.Records {
			if r.Kind == journal.KindReport && r.Report.Type == "move" {
				moves++
			}
		}
		return moves == 2
	})
	if n := p.logLines("level=ERROR", "not archived yet", "game=1", "too many open files"); n != 1 {
		t.Errorf("%d error lines saying game 1 is not archived for want of descriptors, want 1:\n%s", n, p.stderr.String())
	}
	if n := p.logLines("not being saved"); n != 0 {
		t.Errorf("the game was saved all along, but the log says not:\n%s", p.stderr.String())
	}
	if out := pgnOf(t, bin, dir); !strings.Contains(out, "1. d4 d5 *") {
		t.Errorf("boardd pgn meanwhile:\n%s", out)
	}
	if out := pgnOf(t, bin, dir, "--game", "1"); !strings.Contains(out, "4. c3 Nf6 *") {
		t.Errorf("boardd pgn --game 1 meanwhile:\n%s", out)
	}

	// The connections go: the archiving is retried and made.
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	waitFor(t, 30*time.Second, "game 1 archived after all", func() bool { return p.logLines("archived after all", "game=1") == 1 })
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("boardd after SIGTERM: %v\n%s", err, p.stderr.String())
	}
	games, err := journal.List(dir)
	if err != nil || len(games) != 1 || games[0].PGN == "" || games[0].Journal == "" {
		t.Fatalf("archive %+v, %v", games, err)
	}
	if out := pgnOf(t, bin, dir, "--game", "1"); !strings.Contains(out, "4. c3 Nf6 *") {
		t.Errorf("archived game 1:\n%s", out)
	}
	if g, _ := journal.Read(dir); g == nil || g.Header.Game != 2 || len(g.Finished) != 0 {
		t.Errorf("the journal after the archiving: %+v", g)
	}
}

// testFullDisk runs the first repro with the real boardd on a
// small tmpfs, as root of a user and mount namespace of its own (no root
// needed where unprivileged user namespaces are allowed): the test binary
// runs TestFullDiskChild there.
func testFullDisk(t *testing.T, bin string) {
	runInNamespace(t, "TestFullDiskChild", bin, "the injected file system's tests (package journal) stand in")
}

// runInNamespace runs the test child of this test binary as root of a user
// and mount namespace of its own, where it may mount a small tmpfs, with
// the boardd binary bin; it skips (saying what stands in, if anything)
// where such namespaces are not allowed, and fails unless child passes.
func runInNamespace(t *testing.T, child, bin, insteadNote string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+child+"$", "-test.v")
	cmd.Env = append(os.Environ(), "BOARDD_TEST_FULL_DISK_BIN="+bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	var pe *os.PathError
	if errors.As(err, &pe) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) {
		if insteadNote != "" {
			t.Skipf("no user and mount namespace to mount a small tmpfs in (%v): %s", err, insteadNote)
		}
		t.Skipf("no user and mount namespace to mount a small tmpfs in (%v)", err)
	}
	if strings.Contains(string(out), "--- SKIP: "+child) {
		t.Skipf("the child could not mount a tmpfs:\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: "+child) {
		t.Fatalf("in its namespace: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestFullDiskChild is testFullDisk's part in the namespace.
func TestFullDiskChild(t *testing.T) {
	bin := os.Getenv("BOARDD_TEST_FULL_DISK_BIN")
	if bin == "" {
		t.Skip("run by TestBinary in a namespace of its own")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("mounting a tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	lines, _ := twoGames(t)
	ns := newNotifySocket(t)
	env := daemonEnv("BOARDD_INPUT=-", "NOTIFY_SOCKET="+ns.path)
	p := startBoardd(t, bin, env, "run", "--state-dir", dir, "--listen", "127.0.0.1:0")
	ns.await(t, "READY=1", 10*time.Second)
	state := p.console(t)
	p.feed(t, lines[:5]) // e4 e5, and g1 lifted
	waitFor(t, 10*time.Second, "5 inputs in the journal", func() bool {
		g, _ := journal.Read(dir)
		return g != nil && len(g.Inputs()) == 5
	})
	// Fill the disk.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 4096)
	for {
		if _, err := filler.Write(block); err != nil {
			break
		}
	}
	for {
		if _, err := filler.Write(block[:1]); err != nil {
			break
		}
	}
	filler.Close()
	p.feed(t, lines[5:])
	waitFor(t, 30*time.Second, "game 2's two plies on the board", func() bool {
		s := getState(t, state)
		return len(s.Moves) == 2 && s.faultCorners() == 4
	})
	if n := p.logLines("level=ERROR", "not being saved", filepath.Join(dir, journal.CurrentFile), "no space left on device"); n != 1 {
		t.Errorf("%d error lines naming the journal and the full disk, want 1:\n%s", n, p.stderr.String())
	}
	// On the disk: a whole prefix of what was fed (the journal's last page
	// had room for a few more lines), no line torn or out of place.
	if g, err := journal.Read(dir); err != nil || g == nil {
		t.Errorf("the journal on the full disk: %v", err)
	} else {
		var inputs []trace.Line
		for _, f := range g.Finished {
			inputs = append(inputs, f.Inputs()...)
		}
		inputs = append(inputs, g.Inputs()...)
		for i, l := range inputs {
			if i >= len(lines) || !sameInput(l, lines[i]) {
				t.Fatalf("journalled input %d is %+v, but %+v was fed", i, l, lines[min(i, len(lines)-1)])
			}
		}
		t.Logf("on the full disk the journal held %d of the %d inputs fed", len(inputs), len(lines))
	}
	// Room again.
	if err := os.Remove(filepath.Join(dir, "filler")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "the journal writing again and game 1 archived", func() bool {
		return p.logLines("writing again") == 1 && p.logLines("game archived", "game=1") == 1
	})
	if s := getState(t, state); s.faultCorners() != 0 || len(s.Moves) != 2 {
		t.Errorf("after the disk had room: %d fault corners, %d moves", s.faultCorners(), len(s.Moves))
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("boardd after SIGTERM: %v\n%s", err, p.stderr.String())
	}
	if out := pgnOf(t, bin, dir, "--game", "1"); !strings.Contains(out, "4. c3 Nf6 *") {
		t.Errorf("archived game 1:\n%s", out)
	}
	if out := pgnOf(t, bin, dir); !strings.Contains(out, "1. d4 d5 *") {
		t.Errorf("game 2:\n%s", out)
	}
	t.Logf("boardd said:\n%s", p.stderr.String())
}

// TestFirstStartOnAFullDisk: boardd's first start in a state directory on
// a full disk runs (it used to exit 1 on the arbiter token): the fault is
// shown (the corner LEDs, the log at error level naming the token and the
// journal), the game is played and kept in memory, and when the disk has
// room again the journal and the token are written.
func TestFirstStartOnAFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the boardd binary")
	}
	runInNamespace(t, "TestFirstStartOnAFullDiskChild", buildBoardd(t), "")
}

// TestFirstStartOnAFullDiskChild is TestFirstStartOnAFullDisk's part in the
// namespace.
func TestFirstStartOnAFullDiskChild(t *testing.T) {
	bin := os.Getenv("BOARDD_TEST_FULL_DISK_BIN")
	if bin == "" {
		t.Skip("run by TestFirstStartOnAFullDisk in a namespace of its own")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("mounting a tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 4096)
	for _, b := range [][]byte{block, block[:1]} {
		for {
			if _, err := filler.Write(b); err != nil {
				break
			}
		}
	}
	filler.Close()
	lines, _ := twoGames(t)
	ns := newNotifySocket(t)
	env := daemonEnv("BOARDD_INPUT=-", "NOTIFY_SOCKET="+ns.path)
	p := startBoardd(t, bin, env, "run", "--state-dir", dir, "--listen", "127.0.0.1:0")
	ns.await(t, "READY=1", 10*time.Second)
	state := p.console(t)
	p.feed(t, lines[:8]) // e4 e5 Nf3 Nc6
	waitFor(t, 20*time.Second, "four plies on the board with the fault shown", func() bool {
		s := getState(t, state)
		return len(s.Moves) == 4 && s.faultCorners() == 4
	})
	if n := p.logLines("level=ERROR", "arbiter token could not be saved", console.TokenFile, "no space left on device"); n != 1 {
		t.Errorf("%d error lines naming the token and the full disk, want 1:\n%s", n, p.stderr.String())
	}
	if n := p.logLines("level=ERROR", "not being saved", "no space left on device"); n != 1 {
		t.Errorf("%d error lines naming the journal and the full disk, want 1:\n%s", n, p.stderr.String())
	}
	if err := os.Remove(filepath.Join(dir, "filler")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "the journal and the token written", func() bool {
		return p.logLines("writing again") == 1 && p.logLines("arbiter token is saved after all") == 1
	})
	if s := getState(t, state); s.faultCorners() != 0 || len(s.Moves) != 4 {
		t.Errorf("after the disk had room: %d fault corners, %d moves", s.faultCorners(), len(s.Moves))
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("boardd after SIGTERM: %v\n%s", err, p.stderr.String())
	}
	if out := pgnOf(t, bin, dir); !strings.Contains(out, "1. e4 e5 2. Nf3 Nc6 *") {
		t.Errorf("the game after the disk had room:\n%s", out)
	}
	if data, err := os.ReadFile(filepath.Join(dir, console.TokenFile)); err != nil || len(bytes.TrimSpace(data)) != 32 {
		t.Errorf("the arbiter token file: %q, %v", data, err)
	}
	t.Logf("boardd said:\n%s", p.stderr.String())
}
