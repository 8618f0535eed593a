package main

import (
	"bytes"
	"github.com/boardd/boardd/report"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/trace"
)

// buildBoardd builds the real boardd binary into a temporary directory.
func buildBoardd(t *testing.T) string {
	t.Helper()
	return goBuild(t, ".", "boardd")
}

// goTool is the go command (go test puts its own first on the PATH).
func goTool(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	return path
}

// goBuild builds the command pkg (a path from this directory) as name in
// the test's temporary directory.
func goBuild(t *testing.T, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	cmd := exec.Command(goTool(t), "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// notifySocket is a fake systemd notify socket.
type notifySocket struct {
	path string
	conn *net.UnixConn
	msgs chan string
}

func newNotifySocket(t *testing.T) *notifySocket {
	t.Helper()
	// Unix socket paths are short: not under the long test temp directory.
	dir, err := os.MkdirTemp("", "boardd-notify")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	ns := &notifySocket{path: path, conn: c, msgs: make(chan string, 256)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			if err != nil {
				close(ns.msgs)
				return
			}
			ns.msgs <- string(buf[:n])
		}
	}()
	t.Cleanup(func() { c.Close() })
	return ns
}

// await waits for a notification holding line, skipping others (a
// watchdog ping may come between).
func (ns *notifySocket) await(t *testing.T, line string, within time.Duration) string {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case m, ok := <-ns.msgs:
			if !ok {
				t.Fatalf("notify socket closed waiting for %q", line)
			}
			for _, l := range strings.Split(m, "\n") {
				if l == line {
					return m
				}
			}
		case <-deadline:
			t.Fatalf("no %q from boardd within %v", line, within)
		}
	}
}

// syncBuffer is a bytes.Buffer safe to write from a process's copier and
// read from the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is one run of the boardd binary.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *syncBuffer
	done   chan struct{}
	err    error
}

// env is the process environment without systemd's variables, plus extra.
func daemonEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY", "BOARDD_INPUT", "BOARDD_ARCHIVE_CAP":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func startBoardd(t *testing.T, bin string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

func (p *proc) wait(t *testing.T, within time.Duration) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(within):
		t.Fatalf("boardd did not exit within %v; stderr:\n%s", within, p.stderr.String())
		return nil
	}
}

// killGame is the game the SIGKILL test plays: a touch-move irregularity and
// its lapse (a ruling in the PGN), captures, castling, check and mate.
func killGame(t *testing.T) []trace.Line {
	// The touch is held long enough to count (a brush is no touch).
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 250 * time.Millisecond, Pause: 500 * time.Millisecond})
	if err := p.Touch("g1"); err != nil {
		t.Fatal(err)
	}
	p.Timing.Step = 50 * time.Millisecond
	if err := p.Move("e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g7g6", "e1g1", "b8c6", "f3e5", "g4d1", "c4f7", "e8e7", "c3d5"); err != nil {
		t.Fatal(err)
	}
	return p.Lines
}

// gamePGN plays lines through a game in virtual time: the game as
// played, without any crash.
func gamePGN(t *testing.T, lines []trace.Line) string {
	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	p.Finish(lines[len(lines)-1].T)
	return p.PGN()
}

var dateTag = regexp.MustCompile(`(?m)^\[Date "[^"]*"\]\n`)

// sameInput compares an input as journalled with the one fed (the time is
// the daemon's, so it is not compared).
func sameInput(a, b trace.Line) bool {
	a.T, b.T, a.Seq, b.Seq = 0, 0, 0, 0
	return a == b
}

// TestBinary builds the real boardd binary once and runs it as systemd
// and a power cut would.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the boardd binary")
	}
	bin := buildBoardd(t)
	t.Run("SIGKILL at random points", func(t *testing.T) { testSIGKILL(t, bin) })
	t.Run("systemd notifications", func(t *testing.T) { testSystemdNotifications(t, bin) })
	t.Run("descriptors run out at a new game", func(t *testing.T) { testDescriptorsRunOut(t, bin) })
	t.Run("full disk on a small tmpfs", func(t *testing.T) { testFullDisk(t, bin) })
	t.Run("plays an engine through the console", func(t *testing.T) { testEngine(t, bin) })
}

// testSIGKILL plays a game into the real boardd binary on the simulated
// board, kills it with SIGKILL at random points (and right after a lift,
// mid-move) many times, restarts it each time and feeds it the rest of the
// game; the final PGN must be the game played.
func testSIGKILL(t *testing.T, bin string) {
	lines := killGame(t)
	want := gamePGN(t, lines)
	if !strings.Contains(want, `[TerminationDetails "checkmate`) || !strings.Contains(want, "by lapse") || !strings.Contains(want, "O-O") {
		t.Fatalf("the game is not the one meant:\n%s", want)
	}
	dir := t.TempDir()
	ns := newNotifySocket(t)
	env := daemonEnv("BOARDD_INPUT=-", "NOTIFY_SOCKET="+ns.path)
	args := []string{"run", "--state-dir", dir, "--listen", "127.0.0.1:0", "--log-level", "debug"}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	kills := 14
	journalled := func() []trace.Line {
		g, err := journal.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if g == nil {
			return nil
		}
		return g.Inputs()
	}
	midMove := 0
	var p *proc
	defer func() {
		if t.Failed() && p != nil {
			data, _ := os.ReadFile(filepath.Join(dir, journal.CurrentFile))
			t.Logf("seed %d; the last boardd said:\n%s\njournal:\n%s", seed, p.stderr.String(), data)
		}
	}()
	for run := 0; ; run++ {
		done := journalled()
		for i, l := range done {
			if i >= len(lines) || !sameInput(l, lines[i]) {
				t.Fatalf("run %d: journalled input %d is %+v, but %+v was fed", run, i, l, lines[min(i, len(lines)-1)])
			}
		}
		p = startBoardd(t, bin, env, args...)
		ns.await(t, "READY=1", 10*time.Second)
		// The rest of the game, in its own rhythm from the last input the
		// journal has: the outage is not game time.
		if n := len(done); n > 0 && n < len(lines) {
			time.Sleep(lines[n].T - lines[n-1].T)
		}
		fed := time.Now()
		var rest bytes.Buffer
		for _, l := range lines[len(done):] {
			rest.Write(trace.Append(nil, l))
		}
		if _, err := p.stdin.Write(rest.Bytes()); err != nil {
			t.Fatal(err)
		}
		if run == kills || len(done) == len(lines) {
			kills = run
			break
		}
		left := min(lines[len(lines)-1].T-lines[len(done)].T, 1500*time.Millisecond)
		if run%2 == 1 {
			// Mid-move: as soon as a lift is journalled.
			deadline := fed.Add(lines[len(lines)-1].T - lines[len(done)].T)
			for time.Now().Before(deadline) {
				in := journalled()
				if len(in) > len(done) && in[len(in)-1].Kind == trace.Lift {
					midMove++
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
		} else {
			time.Sleep(time.Duration(rng.Int64N(int64(left) + 1)))
		}
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.wait(t, 5*time.Second)
		if strings.Contains(p.stderr.String(), "judged differently") {
			t.Errorf("run %d: the replay diverged from the journal:\n%s", run, p.stderr.String())
		}
	}

	// The last run finishes the game: every input journalled and the mate
	// reported. Then SIGTERM stops it cleanly.
	deadline := time.Now().Add(lines[len(lines)-1].T + 20*time.Second)
	for {
		g, err := journal.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		finished := false
		for _, r := range g.Records {
			if r.Kind == journal.KindReport && r.Report.Type == report.Result {
				finished = true
			}
		}
		if finished && len(g.Inputs()) == len(lines) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not finish: %d of %d inputs journalled; stderr:\n%s", len(g.Inputs()), len(lines), p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	ns.await(t, "STOPPING=1", 5*time.Second)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("boardd after SIGTERM: %v; stderr:\n%s", err, p.stderr.String())
	}
	if midMove == 0 || kills < 8 {
		t.Errorf("%d kills, %d mid-move: too few to tell", kills, midMove)
	}
	t.Logf("%d kills, %d of them mid-move", kills, midMove)

	out, err := exec.Command(bin, "pgn", "--state-dir", dir).Output()
	if err != nil {
		t.Fatalf("boardd pgn: %v", err)
	}
	date := dateTag.FindString(string(out))
	if !regexp.MustCompile(`^\[Date "(\?\?\?\?\.\?\?\.\?\?|\d{4}\.\d\d\.\d\d)"\]\n$`).MatchString(date) {
		t.Errorf("PGN date tag %q", date)
	}
	got := dateTag.ReplaceAllString(string(out), "")
	if w := dateTag.ReplaceAllString(want, ""); got != w {
		t.Errorf("PGN after %d kills:\n%s\nwant:\n%s", kills, got, w)
	}
	cur, err := os.ReadFile(filepath.Join(dir, journal.CurrentPGN))
	if err != nil || string(cur) != string(out) {
		t.Errorf("current.pgn differs from boardd pgn: %v\n%s", err, cur)
	}
	fen, err := exec.Command(bin, "fen", "--state-dir", dir).Output()
	if err != nil || !strings.HasPrefix(string(fen), "r2q1bnr/ppp1kB1p/2np2p1/3NN3/4P3/8/PPPP1PPP/R1Bb1RK1 b - -") {
		t.Errorf("boardd fen: %q, %v", fen, err)
	}
}

// testSystemdNotifications runs the real binary against a fake notify
// socket: readiness, watchdog pings, a reload on SIGHUP that changes the
// log level from the configuration file, and a clean stop on SIGTERM.
func testSystemdNotifications(t *testing.T, bin string) {
	dir := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "boardd.toml")
	if err := os.WriteFile(cfg, []byte("log_level = \"warn\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := newNotifySocket(t)
	env := daemonEnv("NOTIFY_SOCKET="+ns.path, "WATCHDOG_USEC=200000")
	p := startBoardd(t, bin, env, "run", "--state-dir", dir, "--listen", "127.0.0.1:0", "--config", cfg)
	ready := ns.await(t, "READY=1", 10*time.Second)
	if !strings.Contains(ready, "STATUS=game 1 (fide2023)") {
		t.Errorf("readiness %q: want the game in the status", ready)
	}
	for range 3 {
		ns.await(t, "WATCHDOG=1", time.Second) // every 100 ms
	}
	if strings.Contains(p.stderr.String(), `msg="boardd running"`) {
		t.Errorf("info lines logged at log_level warn:\n%s", p.stderr.String())
	}
	if err := os.WriteFile(cfg, []byte("log_level = \"debug\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.cmd.Process.Signal(syscall.SIGHUP)
	reloading := ns.await(t, "RELOADING=1", 5*time.Second)
	if !strings.Contains(reloading, "MONOTONIC_USEC=") {
		t.Errorf("reloading %q: want MONOTONIC_USEC", reloading)
	}
	ns.await(t, "READY=1", 5*time.Second)
	ns.await(t, "WATCHDOG=1", time.Second)
	p.cmd.Process.Signal(syscall.SIGTERM)
	ns.await(t, "STOPPING=1", 5*time.Second)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.stderr.String())
	}
	logs := p.stderr.String()
	if !strings.Contains(logs, `msg=reloaded`) || !strings.Contains(logs, "log_level=DEBUG") {
		t.Errorf("no reload to debug in the log:\n%s", logs)
	}
	if strings.Contains(logs, "level=ERROR") {
		t.Errorf("errors logged:\n%s", logs)
	}
	// The journal is whole and the directory free for the next daemon.
	j, g, err := journal.Open(journal.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g == nil || g.Torn() || g.Header.Game != 1 {
		t.Errorf("journal after the stop: %+v", g)
	}
}

// playInto plays lines into the journal of dir in virtual time, as the
// daemon would, and closes it.
func playInto(t *testing.T, dir string, lines []trace.Line) {
	t.Helper()
	j, g, err := journal.Open(journal.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	base := game.Options{Laws: "nycc"}
	var p *game.Game
	var h journal.Header
	if g != nil {
		t.Fatal("playInto wants a new state directory")
	}
	if h, err = j.Begin(0, journal.NewHeader(j.Game(), base, time.Time{})); err != nil {
		t.Fatal(err)
	}
	if p, err = game.New(h.Options(base), nil); err != nil {
		t.Fatal(err)
	}
	rn := game.NewRunner(p, nil)
	rec := journal.NewRecorder(j, journal.RecorderOptions{Game: func() *game.Game { return p }, Occupancy: func() board.Occupancy { return p.Snapshot().Occupancy }, Header: h})
	rn.OnReport(rec.Report)
	for _, l := range lines {
		p.Advance(l.T)
		rec.Input(l)
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	for d := p.Deadline(); d < lines[len(lines)-1].T+time.Hour; d = p.Deadline() {
		p.Advance(d)
	}
}

func TestPGNAndFENCommands(t *testing.T) {
	dir := t.TempDir()
	pl := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := pl.Move("f2f3", "e7e5", "g2g4", "d8h4"); err != nil {
		t.Fatal(err)
	}
	pl.Reset()
	if err := pl.Move("d2d4"); err != nil {
		t.Fatal(err)
	}
	playInto(t, dir, pl.Lines)
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &environment{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
		code := dispatch(t.Context(), env, args)
		return code, out.String(), errb.String()
	}
	cases := []struct {
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{[]string{"pgn", "--state-dir", dir}, 0, []string{`[LawSet "nycc"]`, "1. d4 *"}, ""},
		{[]string{"pgn", "--state-dir", dir, "--game", "1"}, 0, []string{`[Result "0-1"]`, "2. g4 Qh4# 0-1"}, ""},
		{[]string{"pgn", "--state-dir", dir, "--list"}, 0, []string{"GAME", "1 ", "0-1", "nycc", "kept", "2 (in progress)", "current"}, ""},
		{[]string{"fen", "--state-dir", dir}, 0, []string{"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq"}, ""},
		{[]string{"pgn", "--state-dir", dir, "--game", "9"}, 1, nil, "no game 9"},
		{[]string{"pgn", "--state-dir", t.TempDir()}, 1, nil, "no game in progress"},
		{[]string{"fen", "--state-dir", t.TempDir()}, 1, nil, "no game in progress"},
		{[]string{"pgn", "--state-dir", dir, "--list", "--game", "1"}, 2, nil, "usage"},
		{[]string{"pgn", "extra"}, 2, nil, "usage"},
		{[]string{"pgn"}, 2, nil, "no state directory"},
	}
	for _, c := range cases {
		code, out, errs := run(c.args...)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d; stderr %s", c.args, code, c.code, errs)
		}
		for _, w := range c.out {
			if !strings.Contains(out, w) {
				t.Errorf("%q: no %q in\n%s", c.args, w, out)
			}
		}
		if !strings.Contains(errs, c.err) {
			t.Errorf("%q: stderr %q, want %q", c.args, errs, c.err)
		}
	}
}

// TestPGNWarnsOfATornLastLine: with no daemon running, a last line cut
// short is what a power cut left, and boardd pgn says so as boardd run
// would; while a daemon holds the journal it is the line being written.
func TestPGNWarnsOfATornLastLine(t *testing.T) {
	dir := t.TempDir()
	pl := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := pl.Move("e2e4", "e7e5"); err != nil {
		t.Fatal(err)
	}
	playInto(t, dir, pl.Lines)
	f, err := os.OpenFile(filepath.Join(dir, journal.CurrentFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"t":99000,"seq":`)
	f.Close()
	run := func() (int, string, string) {
		var out, errb bytes.Buffer
		env := &environment{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
		code := dispatch(t.Context(), env, []string{"pgn", "--state-dir", dir})
		return code, out.String(), errb.String()
	}
	code, out, errs := run()
	if code != 0 || !strings.Contains(out, "1. e4 e5 *") || !strings.Contains(errs, "warning:") || !strings.Contains(errs, "torn tail") {
		t.Errorf("no daemon: exit %d, stderr %q, stdout\n%s", code, errs, out)
	}
	// A daemon holds the lock: no warning.
	lock, err := os.OpenFile(filepath.Join(dir, journal.LockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(); code != 0 || errs != "" {
		t.Errorf("a daemon running: exit %d, stderr %q", code, errs)
	}
}

// TestPGNShowsAGameBeingArchived: a finished game still at the head of the
// journal (its archiving failed) is listed and printed; the game in
// progress is the one after it.
func TestPGNShowsAGameBeingArchived(t *testing.T) {
	dir := t.TempDir()
	pl := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := pl.Move("f2f3", "e7e5", "g2g4", "d8h4"); err != nil {
		t.Fatal(err)
	}
	pl.Reset()
	if err := pl.Move("d2d4"); err != nil {
		t.Fatal(err)
	}
	playInto(t, dir, pl.Lines)
	// Undo the archiving: game 1 back at the head of the journal.
	games, _ := journal.List(dir)
	first, _ := os.ReadFile(games[0].Journal)
	cur, _ := os.ReadFile(filepath.Join(dir, journal.CurrentFile))
	os.WriteFile(filepath.Join(dir, journal.CurrentFile), append(first, cur...), 0o640)
	os.Remove(games[0].Journal)
	os.Remove(games[0].PGN)
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &environment{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
		code := dispatch(t.Context(), env, append(args, "--state-dir", dir))
		return code, out.String(), errb.String()
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"pgn"}, []string{"1. d4 *"}},
		{[]string{"pgn", "--game", "1"}, []string{"2. g4 Qh4# 0-1"}},
		{[]string{"pgn", "--list"}, []string{"being archived", "2 (in progress)"}},
	} {
		code, out, errs := run(c.args...)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("%q: exit %d, stderr %q, no %q in\n%s", c.args, code, errs, w, out)
			}
		}
	}
	// boardd run's journal archives it at start.
	j, g, err := journal.Open(journal.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if games, _ := journal.List(dir); len(games) != 1 || g.Header.Game != 2 || len(g.Finished) != 1 {
		t.Errorf("after open: archive %+v, game %d", games, g.Header.Game)
	}
	if g, _ := journal.Read(dir); len(g.Finished) != 0 {
		t.Errorf("game 1 still at the head of the journal")
	}
}

// boardd pgn --list names the law-set in force in the game in progress,
// which the arbiter may have changed since the game began.
func TestPGNListNamesTheLawsInForce(t *testing.T) {
	dir := t.TempDir()
	pl := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := pl.Move("d2d4"); err != nil {
		t.Fatal(err)
	}
	last := pl.Lines[len(pl.Lines)-1].T
	lines := append(pl.Lines, trace.Line{T: last + 2*time.Second, Kind: trace.Arbiter, Action: trace.ActionLaws, Value: "sarratt1808", Side: trace.SideArbiter})
	playInto(t, dir, lines)
	var out, errb bytes.Buffer
	env := &environment{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	if code := dispatch(t.Context(), env, []string{"pgn", "--state-dir", dir, "--list"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var row string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "(in progress)") {
			row = l
		}
	}
	if !strings.Contains(row, "sarratt1808") {
		t.Errorf("the game in progress under sarratt1808 since the switch is listed as %q", row)
	}
}
