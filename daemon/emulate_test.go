package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/chesslink"
	"github.com/boardd/boardd/chesslink/chesslinktest"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

func TestEmulatePort(t *testing.T) {
	for _, c := range []struct{ value, port, err string }{
		{"", "", ""},
		{"chesslink:/dev/ttyGS0", "/dev/ttyGS0", ""},
		{"chesslink:", "", "want chesslink:PATH"},
		{"dgt:/dev/ttyGS0", "", "want chesslink:PATH"},
	} {
		port, err := emulatePort(c.value)
		if port != c.port || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: port %q, error %v; want %q, %q", c.value, port, err, c.port, c.err)
		}
	}
	if got := absEmulate("chesslink:ptys/app"); !strings.HasPrefix(got, "chesslink:/") || !strings.HasSuffix(got, "/ptys/app") {
		t.Errorf("a relative port on the command line is not made absolute: %q", got)
	}
}

// The flag wins over the file, and a bad value is named by the flag.
func TestConfigureEmulate(t *testing.T) {
	path := writeFile(t, "boardd.toml", "emulate = \"chesslink:/dev/ttyGS0\"\n")
	d, _ := testDaemon(t, Options{Config: path})
	if err := d.configure(); err != nil || d.cfg.Emulate != "chesslink:/dev/ttyGS0" {
		t.Fatalf("emulate %q, error %v", d.cfg.Emulate, err)
	}
	d, _ = testDaemon(t, Options{Config: path, Emulate: "chesslink:/dev/ttyACM1"})
	if err := d.configure(); err != nil || d.cfg.Emulate != "chesslink:/dev/ttyACM1" {
		t.Fatalf("emulate %q, error %v", d.cfg.Emulate, err)
	}
	d, _ = testDaemon(t, Options{Emulate: "dgt:/dev/ttyGS0"})
	if err := d.configure(); err == nil || !strings.Contains(err.Error(), `--emulate (emulate) = "dgt:/dev/ttyGS0"`) {
		t.Errorf("error %v, want one naming --emulate", err)
	}
}

func TestAppBlink(t *testing.T) {
	const slot = 0x20 * chesslink.SlotUnit // 131 ms, as apps send
	cases := []struct {
		code uint8
		slot time.Duration
		want led.Blink
	}{
		{0xFF, slot, led.Steady},
		{0xF0, slot, led.Slow},               // 1 Hz
		{0xCC, slot, led.Slow},               // 2 Hz in 1.05 s: just under
		{0xAA, slot, led.Fast},               // 3.8 Hz
		{0x0F, slot, led.Slow},               // the other half of a move shown in turn
		{0xCC, chesslink.SlotUnit, led.Fast}, // 61 Hz: as fast as boardd goes
		{0xFE, 0xFF * chesslink.SlotUnit, led.Slow},
		{0x80, 0x10 * chesslink.SlotUnit, led.Slow}, // a short flash every 0.52 s
		{0x81, 0x08 * chesslink.SlotUnit, led.Fast}, // one run across the wrap, 3.8 Hz
	}
	for _, c := range cases {
		if got := appBlink(c.code, c.slot); got != c.want {
			t.Errorf("code %02X every %v: %v, want %v", c.code, c.slot, got, c.want)
		}
	}
}

func TestAppFrame(t *testing.T) {
	sq := func(n string) board.Square { s, _ := board.ParseSquare(n); return s }
	p := chesslink.LEDPattern{SlotTime: 0x20}
	p.LightSquare(sq("e2"), 0xFF)
	p.LightSquare(sq("e4"), 0xAA)
	f := appFrame(&p)
	if f.Role[sq("e2")] != led.Hint || f.Blink[sq("e2")] != led.Steady || f.Role[sq("e4")] != led.Hint || f.Blink[sq("e4")] != led.Fast {
		t.Errorf("e2 %v %v, e4 %v %v; want hint steady, hint fast", f.Role[sq("e2")], f.Blink[sq("e2")], f.Role[sq("e4")], f.Blink[sq("e4")])
	}
	if got := f.Squares(led.Hint).SquareNames(); strings.Join(got, " ") != "e2 e4" {
		t.Errorf("lit %v, want e2 e4 (e3, between, is no square of the app's)", got)
	}
	var dark chesslink.LEDPattern
	if f := appFrame(&dark); f != (led.Frame{}) {
		t.Errorf("a dark pattern lit %s", f.String())
	}
}

// emulated is a board in real time with the emulation on a pseudo-terminal
// and an app at its other end.
type emulated struct {
	t      *testing.T
	ctx    context.Context
	runner *game.Runner
	e      *emulation
	app    *chesslinktest.App
	link   string
	rec    *lockedRecorder
}

func startEmulated(t *testing.T) *emulated {
	t.Helper()
	g, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewReal()
	runner := game.NewRunner(g, clock)
	rec := &lockedRecorder{}
	leds := led.NewDriver(rec, clock, nil)
	lighting.Follow(runner, leds)
	link := filepath.Join(t.TempDir(), "chesslink")
	app := chesslinktest.Open(t, link)
	e := newEmulation(slog.New(slog.DiscardHandler), clock, leds)
	runner.OnChange(e.onChange)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); _ = runner.Run(ctx) }()
	go func() { defer wg.Done(); _ = leds.Run(ctx) }()
	go func() { defer wg.Done(); _ = e.em.Serve(ctx, link) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return &emulated{t: t, ctx: ctx, runner: runner, e: e, app: app, link: link, rec: rec}
}

func (b *emulated) submit(text string) {
	b.t.Helper()
	l, err := trace.Parse([]byte(`{"t":0,` + text + `}`))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := b.runner.Submit(b.ctx, l); err != nil {
		b.t.Fatalf("%s: %v", text, err)
	}
}

func (b *emulated) snapshot() *game.Snapshot {
	b.t.Helper()
	s, err := b.runner.Snapshot(b.ctx)
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}

// lockedRecorder is a Recorder read while a Driver writes it.
type lockedRecorder struct {
	mu sync.Mutex
	r  led.Recorder
}

func (l *lockedRecorder) Show(f *led.Frame, t time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Show(f, t)
}
func (l *lockedRecorder) Deadline() (time.Duration, bool) { return 0, false }
func (l *lockedRecorder) Halt() error                     { return nil }
func (l *lockedRecorder) String() string                  { return "recorder" }

// await waits until the LEDs last shown satisfy ok.
func (l *lockedRecorder) await(t *testing.T, what string, ok func(f *led.Frame) bool) {
	t.Helper()
	var f led.Frame
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		l.mu.Lock()
		f = l.r.Last()
		l.mu.Unlock()
		if ok(&f) {
			return
		}
	}
	t.Fatalf("the LEDs never showed %s; last:\n%s", what, f.String())
}

// TestEmulationFollowsTheGame plays a game with an en passant capture,
// captures with either man lifted first, castling king first and a
// promotion with a capture, lift by lift, into a real runner, and checks
// every status an app asking for reports on change receives: one for each
// man lifted or set down, showing the men as they stand, mid-move
// included, and nothing when the game merely recognises what the board
// already shows.
func TestEmulationFollowsTheGame(t *testing.T) {
	b := startEmulated(t)
	app := b.app
	app.Send("V")
	app.Expect("v0103")
	app.Send("W0203")
	app.Expect("w0203")
	app.Send("S")
	app.Send("V") // fences the statuses of the handshake
	app.Expect("v0103")
	app.Drain()

	// Each move: -SQ lifts, +SQM sets man M down, !K names the promotion
	// piece for the side to move.
	script := []string{
		"-e2 +e4P", "-a7 +a6p", "-e4 +e5P", "-d7 +d5p",
		"-e5 +d6P -d5", // en passant, the pawn taken last
		"-g8 +f6n",
		"-c7 -d6 +c7P", // the man taken lifted first
		"-b8 +c6n", "-g1 +f3N", "-e7 +e6p", "-f1 +c4B", "-b7 +b5p",
		"-e1 +g1K -h1 +f1R", // castling, the king first
		"-b5 -c4 +c4p",      // the taker lifted first
		"!q -c7 -d8 +d8Q",   // a capture promoting to a queen
		"-e8 -d8 +d8k",
	}
	shown := board.Start().Men
	for i, move := range script {
		before := b.snapshot()
		for _, tok := range strings.Fields(move) {
			sq, _ := board.ParseSquare(tok[1:min(3, len(tok))])
			switch tok[0] {
			case '!':
				b.submit(`"promote":"` + tok[1:] + `","side":"` + before.Position.Turn.String() + `"`)
				continue
			case '-':
				b.submit(`"lift":"` + sq.String() + `"`)
				shown[sq] = board.NoMan
			case '+':
				b.submit(`"place":"` + sq.String() + `"`)
				shown[sq], _ = board.ManFromFEN(tok[3])
			}
			if got := app.NextStatus(); got != shown {
				t.Fatalf("move %d (%s), %s: the app saw %s, want %s", i+1, move, tok, chesslinktest.FEN(got), chesslinktest.FEN(shown))
			}
			time.Sleep(40 * time.Millisecond)
		}
		var s *game.Snapshot
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if s = b.snapshot(); s.Moves > before.Moves || time.Now().After(end) {
				break
			}
		}
		if s.Moves != i+1 || s.Position.Men != shown {
			t.Fatalf("move %d (%s): the game has %d moves, %s; the board shows %s", i+1, move, s.Moves, s.Position.FEN(), chesslinktest.FEN(shown))
		}
	}
	if n := app.Silence(300 * time.Millisecond); n != 0 {
		t.Errorf("%d statuses more than the changes", n)
	}
	if bad := app.Malformed(); len(bad) > 0 {
		t.Errorf("malformed messages: %v", bad)
	}
}

// TestEmulationShowsTheAppsLEDs: an app's LED pattern shows on boardd's
// LEDs as hints over the last move, goes with X, and goes dark when the
// app's port is lost; an app that reconnects lights them anew.
func TestEmulationShowsTheAppsLEDs(t *testing.T) {
	b := startEmulated(t)
	sq := func(n string) board.Square { s, _ := board.ParseSquare(n); return s }
	b.submit(`"lift":"e2"`)
	b.submit(`"place":"e4"`)
	b.rec.await(t, "the last move", func(f *led.Frame) bool { return f.Role[sq("e4")] == led.LastMove })

	lights := func(app *chesslinktest.App) {
		var l chesslink.Command
		l.Letter, l.LEDs.SlotTime = chesslink.CmdLEDs, 0x20
		l.LEDs.LightSquare(sq("e7"), 0xCC)
		l.LEDs.LightSquare(sq("e5"), 0x33)
		app.Send(l.String())
		app.Expect("l")
	}
	lights(b.app)
	b.rec.await(t, "the app's move e7-e5 over the last move", func(f *led.Frame) bool {
		return f.Role[sq("e7")] == led.Hint && f.Blink[sq("e7")] == led.Slow && f.Role[sq("e5")] == led.Hint && f.Role[sq("e4")] == led.LastMove
	})
	if layer := b.e.Layer(); strings.Join(layer.Squares(led.Hint).SquareNames(), " ") != "e5 e7" {
		got := layer.Squares(led.Hint).SquareNames()
		t.Errorf("the console's layer lights %v", got)
	}
	b.app.Send("X")
	b.app.Expect("x")
	b.rec.await(t, "the app's LEDs gone", func(f *led.Frame) bool { return f.Squares(led.Hint) == 0 })

	lights(b.app)
	b.rec.await(t, "the app's LEDs again", func(f *led.Frame) bool { return f.Role[sq("e7")] == led.Hint })
	b.app.Close()
	b.rec.await(t, "the app's LEDs gone with its port", func(f *led.Frame) bool { return f.Squares(led.Hint) == 0 })
	if l := b.e.Layer(); l != (led.Frame{}) {
		t.Errorf("the console's layer kept the lost app's LEDs")
	}
	app2 := chesslinktest.Open(t, b.link)
	app2.Send("S")
	if got, want := app2.NextStatus(), b.snapshot().Position.Men; got != want {
		t.Errorf("the app back sees %s, want %s", chesslinktest.FEN(got), chesslinktest.FEN(want))
	}
	lights(app2)
	b.rec.await(t, "the app's LEDs lit anew", func(f *led.Frame) bool { return f.Role[sq("e5")] == led.Hint })
}

// BenchmarkEmulationChange is the emulation's work for one change of the
// game: the placement named from the snapshot, handed to the board, and
// the status reported on change encoded for the app.
func BenchmarkEmulationChange(b *testing.B) {
	g, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var snaps []*game.Snapshot
	now := time.Duration(0)
	for _, text := range []string{`"lift":"e2"`, `"place":"e4"`, `"lift":"d7"`, `"place":"d5"`, `"lift":"e4"`, `"lift":"d5"`, `"place":"d5"`} {
		now += 400 * time.Millisecond
		l, _ := trace.Parse([]byte(`{"t":0,` + text + `}`))
		l.T = now
		if err := g.Input(l); err != nil {
			b.Fatal(err)
		}
		snaps = append(snaps, g.Snapshot())
	}
	s := chesslink.NewSession(chesslink.Options{})
	s.Receive(0, chesslink.AppendMessage(nil, []byte("W0203"), chesslink.ParityOdd))
	out := s.TakeOutput(nil)
	var e emulation
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t := time.Duration(i) * time.Millisecond
		if err := s.SetPlacement(t, e.tracker.Update(snaps[i%len(snaps)])); err != nil {
			b.Fatal(err)
		}
		out = s.TakeOutput(out[:0])
	}
	if len(out) == 0 {
		b.Fatal("no status encoded")
	}
}

// FuzzAppLEDs feeds arbitrary bytes to the board's session as an app's and
// maps every LED pattern it takes onto boardd's LEDs: nothing panics, and
// an app lights nothing but hints, and nothing over a frame not at rest.
func FuzzAppLEDs(f *testing.F) {
	var l chesslink.Command
	l.Letter, l.LEDs.SlotTime = chesslink.CmdLEDs, 0x20
	l.LEDs.LightSquare(12, 0xCC)
	l.LEDs.LightSquare(28, 0x33)
	f.Add(chesslink.AppendMessage(nil, []byte(l.String()), chesslink.ParityOdd))
	f.Add(chesslink.AppendMessage(nil, []byte("L00"+strings.Repeat("81", 81)), chesslink.ParityNone))
	f.Add([]byte("X58W0204\x00\xffL"))
	var busy led.Frame
	busy.Set(6, led.MustMove, led.Steady)
	f.Fuzz(func(t *testing.T, data []byte) {
		var frames []led.Frame
		s := chesslink.NewSession(chesslink.Options{ShowLEDs: func(p chesslink.LEDPattern) { frames = append(frames, appFrame(&p)) }})
		s.Receive(0, data)
		for _, fr := range frames {
			for sq, r := range fr.Role {
				if r != led.Off && r != led.Hint {
					t.Fatalf("the app lit %s as %v", board.Square(sq), r)
				}
			}
			if got := led.Overlay(&busy, &fr); got != busy {
				t.Fatalf("the app's LEDs showed over a man that must move")
			}
		}
	})
}
