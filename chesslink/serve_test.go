package chesslink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/ptypair"
)

// fakeApp is a chess app on the master side of a pseudo-terminal whose
// slave the emulator serves, reached through a symlink as a device path
// would be. It keeps a slave descriptor of its own so the master never reads
// EIO while the emulator closes and reopens its port.
type fakeApp struct {
	t      *testing.T
	pty    *ptypair.PTY // the app's end; it holds the slave open too
	parity Parity
	dec    Decoder
	buf    []byte
	raw    []byte   // every byte received
	queue  []string // replies received and not yet expected
	status []string // every status received, in order
}

func newFakeApp(t *testing.T, link string) *fakeApp {
	t.Helper()
	p, err := ptypair.Open(link)
	if err != nil {
		t.Fatal(err)
	}
	a := &fakeApp{t: t, pty: p, dec: Decoder{Replies: true, RequireParity: true}, buf: make([]byte, 4096)}
	t.Cleanup(a.close)
	return a
}

func (a *fakeApp) close() { a.pty.Close() }

// send writes a command as the app does: its body, check digits, parity.
func (a *fakeApp) send(body string) {
	a.t.Helper()
	a.write(AppendMessage(nil, []byte(body), a.parity))
}

func (a *fakeApp) write(b []byte) {
	a.t.Helper()
	if _, err := a.pty.Write(b); err != nil {
		a.t.Fatalf("app write: %v", err)
	}
}

// read reads for up to d and decodes what came.
func (a *fakeApp) read(d time.Duration) {
	a.t.Helper()
	_ = a.pty.SetReadDeadline(time.Now().Add(d))
	n, err := a.pty.Read(a.buf)
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		a.t.Fatalf("app read: %v", err)
	}
	a.raw = append(a.raw, a.buf[:n]...)
	a.dec.Feed(a.buf[:n], func(body []byte, err error) {
		if err != nil {
			a.t.Errorf("app: malformed message from the emulator: %v", err)
			return
		}
		if body[0] == 's' {
			a.status = append(a.status, string(body))
			return
		}
		a.queue = append(a.queue, string(body))
	})
}

// expect reads until a reply (not a status) arrives and checks it is want.
// Statuses sent unasked in between are kept aside, as an app must: the
// board may slip them between a command and its answer.
func (a *fakeApp) expect(want string) {
	a.t.Helper()
	end := time.Now().Add(5 * time.Second)
	for len(a.queue) == 0 {
		if time.Now().After(end) {
			a.t.Fatalf("app: no reply within 5s, want %q", want)
		}
		a.read(20 * time.Millisecond)
	}
	got := a.queue[0]
	a.queue = a.queue[1:]
	if got != want {
		a.t.Fatalf("app: reply %q, want %q", got, want)
	}
}

// nextStatus reads until a status arrives and returns the placement it
// shows.
func (a *fakeApp) nextStatus(seen int) [64]board.Man {
	a.t.Helper()
	end := time.Now().Add(5 * time.Second)
	for len(a.status) <= seen {
		if time.Now().After(end) {
			a.t.Fatalf("app: no status within 5s")
		}
		a.read(20 * time.Millisecond)
	}
	m, err := ParseStatus([]byte(a.status[seen]), FromH1)
	if err != nil {
		a.t.Fatal(err)
	}
	return m
}

// silence reads for d and fails on any reply; it returns the statuses that
// came.
func (a *fakeApp) silence(d time.Duration) int {
	a.t.Helper()
	before := len(a.status)
	for end := time.Now().Add(d); time.Now().Before(end); {
		a.read(20 * time.Millisecond)
	}
	if len(a.queue) > 0 {
		a.t.Fatalf("app: replies %q, want silence", a.queue)
	}
	return len(a.status) - before
}

// emulator runs an Emulator on link until the test ends.
type emulator struct {
	*Emulator
	leds chan LEDPattern
}

func startEmulator(t *testing.T, link string, o Options) *emulator {
	t.Helper()
	e := &emulator{leds: make(chan LEDPattern, 64)}
	o.ShowLEDs = func(p LEDPattern) {
		if got := e.Emulator.LEDs(); got != p { // calling back must not deadlock
			t.Errorf("LEDs() during ShowLEDs is not the pattern shown")
		}
		e.leds <- p
	}
	o.MinBackoff, o.MaxBackoff = 5*time.Millisecond, 50*time.Millisecond
	e.Emulator = NewEmulator(o)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := e.Serve(ctx, link); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return e
}

func (e *emulator) nextLEDs(t *testing.T) LEDPattern {
	t.Helper()
	select {
	case p := <-e.leds:
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("no LED pattern within 5s")
	}
	return LEDPattern{}
}

func setup(t *testing.T, o Options) (*emulator, *fakeApp, string) {
	t.Helper()
	link := filepath.Join(t.TempDir(), "chesslink")
	app := newFakeApp(t, link)
	e := startEmulator(t, link, o)
	if err := e.SetPlacement(men(t, board.StartFEN)); err != nil {
		t.Fatal(err)
	}
	return e, app, link
}

// TestAppHandshake connects as the apps seen do (python-mchess and
// picochess: version, debounce, scan time, status) and checks the answers,
// the board's default of a status every scan, and its end once the app asks
// for reports on change.
func TestAppHandshake(t *testing.T) {
	_, app, _ := setup(t, Options{})
	app.send("V")
	app.expect("v0103")
	start := men(t, board.StartFEN)
	// Every scan by default: statuses come unasked.
	for i := range 3 {
		if got := app.nextStatus(i); got != start {
			t.Fatalf("status %d shows %v", i, got)
		}
	}
	app.send("W0207") // on change with 5 scans' debounce
	app.expect("w0207")
	app.send("R01")
	app.expect("r0114")
	app.send("W0130") // 98 ms scans
	app.expect("w0130")
	app.send("R01")
	app.expect("r0130")
	app.send("I00")
	app.expect("i0055mm")
	if n := app.silence(300 * time.Millisecond); n != 0 {
		t.Errorf("%d statuses after reports on change were asked for", n)
	}
	seen := len(app.status)
	app.send("S")
	if got := app.nextStatus(seen); got != start {
		t.Errorf("S answered %v", got)
	}
	if got := app.status[seen]; got != "sRNBKQBNRPPPPPPPP"+strings.Repeat(".", 32)+"pppppppprnbkqbnr" {
		t.Errorf("S answered %q", got)
	}
	// The board's bytes carry odd parity (the decoder requires it); check
	// one by hand: the v of the version is 0x76, its 0 is 0xB0.
	if i := strings.Index(string(app.raw), "v\xb01\xb0\xb374"); i < 0 {
		t.Errorf("version reply not sent as 76 b0 31 b0 b3 37 34 in % x", app.raw[:min(len(app.raw), 16)])
	}
}

// TestAppGame plays a game's placements into the emulator as boardd would
// (men lifted and set down, a capture, castling, a promotion) and checks
// that an app asking for reports on change sees each, once, in full.
func TestAppGame(t *testing.T) {
	e, app, _ := setup(t, Options{})
	app.send("W0203")
	app.expect("w0203")
	// The status asked for, and maybe one sent unasked when the mode
	// changed before the first scan: the version's answer comes after both.
	app.send("S")
	app.send("V")
	app.expect("v0103")
	steps := []struct{ what, fen string }{
		{"e2 lifted", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"1.e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"1...d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		{"the d5 pawn taken off", "rnbqkbnr/ppp1pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		{"2.exd5", "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"},
		{"castling: the king on g1", "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K1KR w kq - 0 10"},
		{"castling: O-O done", "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R4RK1 b kq - 1 10"},
		{"the pawn on a7 lifted", "7k/8/8/8/8/8/8/K7 w - - 0 60"},
		{"a8=Q", "Q6k/8/8/8/8/8/8/K7 b - - 0 60"},
		{"a8=N, set down as a knight", "N6k/8/8/8/8/8/8/K7 b - - 0 60"},
	}
	for _, s := range steps {
		// The castling step's first FEN has two white kings: not a
		// position, but what the board shows mid-move is a placement.
		var m [64]board.Man
		if p, err := board.ParseFEN(s.fen); err == nil {
			m = p.Men
		} else {
			m = placementOf(t, s.fen)
		}
		seen := len(app.status)
		if err := e.SetPlacement(m); err != nil {
			t.Fatal(err)
		}
		if got := app.nextStatus(seen); got != m {
			t.Errorf("%s: the app saw\n%s\nwant\n%s", s.what, AppendStatus(nil, &got, FromH1), AppendStatus(nil, &m, FromH1))
		}
	}
	// The same placement again changes nothing.
	e.SetPlacement(placementOf(t, "N6k/8/8/8/8/8/8/K7"))
	if n := app.silence(200 * time.Millisecond); n != 0 {
		t.Errorf("%d statuses for an unchanged placement", n)
	}
}

// placementOf reads the placement field of a FEN without the rules' checks.
func placementOf(t *testing.T, fen string) [64]board.Man {
	t.Helper()
	var m [64]board.Man
	rank, file := 7, 0
	for _, c := range strings.Fields(fen)[0] {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			man, ok := board.ManFromFEN(byte(c))
			if !ok {
				t.Fatalf("placement %q: %q", fen, c)
			}
			m[board.NewSquare(file, rank)] = man
			file++
		}
	}
	return m
}

// TestAppLEDs lights moves as apps do and checks the squares boardd is told
// to light.
func TestAppLEDs(t *testing.T) {
	e, app, _ := setup(t, Options{})
	app.send("W0201")
	app.expect("w0201")
	type lit struct {
		square string
		code   uint8
	}
	cases := []struct {
		name string
		lit  []lit
		want string
	}{
		{"a move's from and to in two codes", []lit{{"e2", 0xCC}, {"e4", 0x33}}, "e2 e4"},
		{"a double step in one code", []lit{{"d7", 0xFF}, {"d5", 0xFF}}, "d5 d7"},
		{"a knight's move", []lit{{"g8", 0x0F}, {"f6", 0xF0}}, "f6 g8"},
		{"castling", []lit{{"e1", 0xFF}, {"g1", 0xFF}}, "e1 g1"},
		{"a capture on a neighbouring square", []lit{{"e4", 0xFF}, {"d5", 0xFF}}, "e4 d5"},
		{"one square", []lit{{"h8", 0xAA}}, "h8"},
	}
	for _, c := range cases {
		cmd := Command{Letter: CmdLEDs, LEDs: LEDPattern{SlotTime: 0x20}}
		for _, l := range c.lit {
			cmd.LEDs.LightSquare(sq(t, l.square), l.code)
		}
		app.send(cmd.String())
		app.expect("l")
		p := e.nextLEDs(t)
		if got := squareNames(p.Lit()); got != c.want {
			t.Errorf("%s: boardd lights %q, want %q", c.name, got, c.want)
		}
		if p.Codes != cmd.LEDs.Codes || p.SlotTime != 0x20 {
			t.Errorf("%s: the raw pattern is not what the app sent", c.name)
		}
		if l := e.LEDs(); l.Codes != p.Codes {
			t.Errorf("%s: LEDs() is not the last pattern", c.name)
		}
	}
	app.send("X")
	app.expect("x")
	if p := e.nextLEDs(t); !p.Dark() {
		t.Error("X did not darken the LEDs")
	}
}

// TestAppBadMessages sends what a noisy line or a confused app sends: the
// board answers none of it and answers the next good command.
func TestAppBadMessages(t *testing.T) {
	cases := []struct {
		name    string
		strict  bool
		in      []byte
		answers bool
	}{
		{name: "bad checksum", in: []byte("V57")},
		{name: "bad checksum on a write", in: odd("W0207")[:5:5], answers: false},
		{name: "one byte's parity flipped", in: flip7(odd("S"), 0)},
		{name: "parity flipped in a check digit", in: flip7(odd("R01"), 4)},
		{name: "garbage", in: []byte("\x00\xff\r\nAT+GMR\r\n")},
		{name: "a partial LED command", in: odd("L20" + strings.Repeat("FF", 81))[:40]},
		{name: "7-bit ASCII is answered", in: none("V"), answers: true},
		{name: "7-bit ASCII refused when parity is required", strict: true, in: none("V")},
		{name: "odd parity answered when parity is required", strict: true, in: odd("V"), answers: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, app, _ := setup(t, Options{RequireParity: c.strict})
			app.send("W0201")
			app.expect("w0201")
			app.write(c.in)
			if c.answers {
				app.expect("v0103")
			} else if n := app.silence(300 * time.Millisecond); n != 0 {
				t.Errorf("%d statuses", n)
			}
			app.send("R02")
			app.expect("r0201")
			if st := e.Stats(); !c.answers && st.Decoder.Dropped()+st.Decoder.Stray == 0 {
				t.Errorf("nothing counted as dropped: %+v", st)
			}
		})
	}
}

// TestAppWithoutParity: an emulator told to send 7-bit ASCII clears bit 7.
func TestAppWithoutParity(t *testing.T) {
	_, app, _ := setup(t, Options{Parity: ParityNone})
	app.dec.RequireParity = false
	app.parity = ParityNone
	app.send("W0201")
	app.expect("w0201")
	app.send("V")
	app.expect("v0103")
	for _, b := range app.raw {
		if b&0x80 != 0 {
			t.Fatalf("byte %02X has bit 7 set", b)
		}
	}
}

// TestAppReconnects: an app that restarts mid-message and says hello again,
// then a port that disappears (a USB gadget port when the host goes) and
// comes back with another app; the board keeps its registers, placement and
// LEDs across.
func TestAppReconnects(t *testing.T) {
	e, app, link := setup(t, Options{})
	app.send("W0203")
	app.expect("w0203")
	// Half an LED command, then the app starts over.
	app.write(odd("L20" + strings.Repeat("FF", 81))[:100])
	app.send("V")
	app.expect("v0103")
	app.write(odd("W02")[:2]) // half a write, then a status request
	app.send("S")
	app.nextStatus(len(app.status))
	app.send("R02")
	app.expect("r0203")
	var led Command
	led.Letter = CmdLEDs
	led.LEDs.LightSquare(sq(t, "c3"), 0xFF)
	app.send(led.String())
	app.expect("l")
	e.nextLEDs(t)

	// The port goes away; the game goes on meanwhile.
	app.close()
	os.Remove(link)
	e4 := men(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if err := e.SetPlacement(e4); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // a few failed attempts to reopen
	app2 := newFakeApp(t, link)
	// Nothing meant for the first app reaches the second: the status
	// reporting the change made while no port was open went into the void,
	// as a board's line sends with nobody listening; the new app asks.
	if n := app2.silence(150 * time.Millisecond); n != 0 {
		t.Errorf("%d statuses queued for the old connection reached the new one", n)
	}
	app2.send("V")
	app2.expect("v0103")
	app2.send("R02")
	app2.expect("r0203")
	seen := len(app2.status)
	app2.send("S")
	if got := app2.nextStatus(seen); got != e4 {
		t.Errorf("after reconnecting, S shows %s", AppendStatus(nil, &got, FromH1))
	}
	if got := e.LEDs(); squareNames(got.Lit()) != "c3" {
		t.Errorf("the LEDs were lost: %q", squareNames(got.Lit()))
	}
	if st := e.Stats(); st.Opens < 2 || st.Losses < 1 {
		t.Errorf("opened %d, lost %d: the port was not reopened", st.Opens, st.Losses)
	}
}

func TestServeStopsWithContext(t *testing.T) {
	e := NewEmulator(Options{MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond,
		Open: func(string, int) (Port, error) { return nil, fmt.Errorf("no such port") }})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := e.Serve(ctx, "/nonexistent"); err != nil {
		t.Errorf("Serve returned %v, want nil when ctx ends", err)
	}
}

// deadPort fails every read at once: a gadget port whose host has gone.
type deadPort struct{}

func (deadPort) Read([]byte) (int, error)    { return 0, io.EOF }
func (deadPort) Write(b []byte) (int, error) { return len(b), nil }
func (deadPort) Close() error                { return nil }

// warnings counts log records at warning level and above.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	w.mu.Lock()
	w.msgs = append(w.msgs, r.Message)
	w.mu.Unlock()
	return nil
}
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnings) WithGroup(string) slog.Handler      { return w }

// TestServeQuietWhileThePortKeepsFailing: a port that fails as soon as it
// opens, over and over, is warned about once, not at every attempt.
func TestServeQuietWhileThePortKeepsFailing(t *testing.T) {
	var w warnings
	var opened, lost int
	e := NewEmulator(Options{MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond, Logger: slog.New(&w),
		Open: func(string, int) (Port, error) { return deadPort{}, nil },
		Connected: func(open bool) {
			if open {
				opened++
			} else {
				lost++
			}
		}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	e.Serve(ctx, "/dev/ttyGS0")
	st := e.Stats()
	if st.Opens < 5 {
		t.Fatalf("only %d attempts", st.Opens)
	}
	if uint64(opened) != st.Opens || lost != opened {
		t.Errorf("Connected told of %d opens and %d losses; the port opened %d times, each lost", opened, lost, st.Opens)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.msgs) != 1 || w.msgs[0] != "chesslink: app port fails as soon as it opens; retrying with backoff" {
		t.Errorf("warnings %q", w.msgs)
	}
}

// TestAppFloodCountsLostReplies floods the board with commands through a
// real pseudo-terminal while reading nothing: replies beyond the backlog
// are dropped, and every one dropped is counted in RepliesLost (and shown
// in the stats' summary), so that the replies the app reads and those
// counted lost make up every command.
func TestAppFloodCountsLostReplies(t *testing.T) {
	e, app, _ := setup(t, Options{})
	app.send("W0201") // reports off: only replies come
	app.expect("w0201")
	const flood = 4000 // 4000 statuses of 67 bytes: far more than the backlog
	msg := AppendMessage(nil, []byte("S"), app.parity)
	var all []byte
	for range flood {
		all = append(all, msg...)
	}
	app.write(all)
	end := time.Now().Add(10 * time.Second)
	for e.Stats().Commands < flood+1 {
		if time.Now().After(end) {
			t.Fatalf("the board carried out %d commands of %d", e.Stats().Commands, flood+1)
		}
		time.Sleep(5 * time.Millisecond)
	}
	seen := len(app.status)
	app.silence(500 * time.Millisecond)
	got := len(app.status) - seen
	st := e.Stats()
	if st.RepliesLost == 0 {
		t.Errorf("no reply counted lost after %d statuses asked for and none read (%d came)", flood, got)
	}
	if uint64(got)+st.RepliesLost != flood {
		t.Errorf("%d replies read + %d counted lost = %d, want the %d commands", got, st.RepliesLost, uint64(got)+st.RepliesLost, flood)
	}
	if s := st.String(); !strings.Contains(s, fmt.Sprintf("replies lost %d", st.RepliesLost)) {
		t.Errorf("the stats' summary %q does not show the replies lost", s)
	}
}

// TestAppUnreadStatusesHeldBack serves a real pseudo-terminal, whose
// kernel buffer takes tens of KiB from the board without blocking: an app
// that neither reads nor speaks has about 1 KiB of statuses waiting after a
// burst of board changes, not the burst, and the placement comes once it
// speaks again; an app that reads (and speaks now and then, as apps light
// their moves) gets every status.
func TestAppUnreadStatusesHeldBack(t *testing.T) {
	const e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	placements := [2][64]board.Man{men(t, board.StartFEN), men(t, e4)}
	t.Run("not reading", func(t *testing.T) {
		e, app, _ := setup(t, Options{})
		// Every scan (the board's default), a burst of 250 changes, then
		// a second of the board standing.
		for i := range 250 {
			if err := e.SetPlacement(placements[i%2]); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Second)
		if e.Stats().ReportsHeld == 0 {
			t.Fatalf("no status held back: %v", e.Stats())
		}
		app.silence(300 * time.Millisecond) // read what waits, say nothing
		if n := len(app.raw); n > 1024+67 {
			t.Errorf("%d bytes (%d statuses) waited for the app, want at most about 1 KiB", n, len(app.status))
		}
		// The app speaks: it hears the answer and the placement as it is.
		if err := e.SetPlacement(placements[1]); err != nil {
			t.Fatal(err)
		}
		seen := len(app.status)
		app.send("V")
		app.expect("v0103")
		if got := app.nextStatus(seen); got != placements[1] {
			t.Errorf("after the app spoke, the status shows %v", got)
		}
	})
	t.Run("reading", func(t *testing.T) {
		e, app, _ := setup(t, Options{})
		app.send("W0203") // on change
		app.expect("w0203")
		seen := len(app.status)
		for i := range 60 {
			want := placements[(i+1)%2]
			if err := e.SetPlacement(want); err != nil {
				t.Fatal(err)
			}
			for len(app.status) <= seen || app.nextStatus(len(app.status)-1) != want {
				app.nextStatus(len(app.status))
			}
			seen = len(app.status)
			if i%5 == 4 {
				app.send("X") // the app lights its move now and then
				app.expect("x")
			}
		}
		if st := e.Stats(); st.ReportsHeld != 0 {
			t.Errorf("statuses held back from an app that reads: %v", st)
		}
		// Every change came, each once, alternating (the first status
		// after W may repeat the placement already shown).
		got := app.status[len(app.status)-60:]
		for i, s := range got {
			m, err := ParseStatus([]byte(s), FromH1)
			if err != nil {
				t.Fatal(err)
			}
			if m != placements[(i+1)%2] {
				t.Fatalf("status %d of 60 shows the wrong placement", i+1)
			}
		}
	})
}
