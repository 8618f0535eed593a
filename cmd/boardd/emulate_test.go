package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/chesslink"
	"github.com/boardd/boardd/chesslink/chesslinktest"
)

// consoleClient reaches a running boardd's console as the page does.
type consoleClient struct {
	t     *testing.T
	url   string // ends in /
	board string
}

// consoleOf waits for boardd to log its console's address.
func consoleOf(t *testing.T, p *proc, board string) *consoleClient {
	t.Helper()
	re := regexp.MustCompile(`msg=console url=(http://\S+/)`)
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(p.stderr.String()); m != nil {
			return &consoleClient{t: t, url: m[1], board: board}
		}
	}
	t.Fatalf("boardd never logged its console; stderr:\n%s", p.stderr.String())
	return nil
}

// input plays one input on the simulated board, as a click on the page.
func (c *consoleClient) input(body string) {
	c.t.Helper()
	resp, err := http.Post(c.url+"api/boards/"+c.board+"/input", "application/json", strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("input %s: %s %s", body, resp.Status, msg)
	}
}

// consoleState is the part of the console's state these tests read.
type consoleState struct {
	FEN   string `json:"fen"`
	Moves []struct {
		SAN string `json:"san"`
	} `json:"moves"`
	LEDs []struct {
		Square, Role, Blink string
	} `json:"leds"`
	Pending *struct {
		Kind string `json:"kind"`
	} `json:"pending"`
}

func (s *consoleState) leds() map[string]string {
	out := map[string]string{}
	for _, l := range s.LEDs {
		out[l.Square] = l.Role + "/" + l.Blink
	}
	return out
}

func (c *consoleClient) state() consoleState {
	c.t.Helper()
	resp, err := http.Get(c.url + "api/boards/" + c.board + "/state")
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var st consoleState
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		c.t.Fatal(err)
	}
	return st
}

// await polls the state until ok holds.
func (c *consoleClient) await(what string, ok func(st *consoleState) bool) consoleState {
	c.t.Helper()
	var st consoleState
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if st = c.state(); ok(&st) {
			return st
		}
	}
	c.t.Fatalf("the console never showed %s; last: %+v", what, st)
	return st
}

// TestEmulateChessLink runs the real boardd on the simulated board with
// --emulate on a pseudo-terminal and speaks to it as an app on the host
// of a USB cable does: the handshake; bad check digits and bad parity met
// by silence; the app's LEDs on boardd's own (the console's), hidden while
// a ruling's options show and back after; a game with captures, en
// passant, castling and a promotion played by clicks on the console, every
// man lifted and set down reported to the app as he stands; the app's port
// pulled and another app connecting; and a clean stop.
func TestEmulateChessLink(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs boardd")
	}
	bin := buildBoardd(t)
	link := filepath.Join(t.TempDir(), "ttyGS0")
	app := chesslinktest.Open(t, link)
	p := startBoardd(t, bin, daemonEnv(), "run", "--state-dir", t.TempDir(), "--listen", "127.0.0.1:0",
		"--board-id", "emu", "--emulate", "chesslink:"+link, "--log-level", "debug")
	c := consoleOf(t, p, "emu")
	defer func() {
		if t.Failed() {
			t.Logf("boardd said:\n%s", p.stderr.String())
		}
	}()

	// The handshake apps make: version, reports on change, the status.
	app.Send("V")
	app.Expect("v0103")
	app.Send("W0203")
	app.Expect("w0203")
	app.Send("S")
	app.Send("V") // fences the statuses of the handshake
	app.Expect("v0103")
	app.Drain()
	start := board.Start().Men

	// Garbage is answered by silence, as the board answers it; the next
	// good command is answered.
	for name, bad := range map[string][]byte{
		"a bad check digit":        []byte("V57"),
		"a character's parity bad": flipParity(chesslink.AppendMessage(nil, []byte("S"), chesslink.ParityOdd), 1),
		"a broken LED command":     chesslink.AppendMessage(nil, []byte("L20"+strings.Repeat("F", 100)), chesslink.ParityOdd),
		"line noise":               []byte("\x00\xff\r\nATZ\r\n"),
	} {
		app.Write(bad)
		if n := app.Silence(200 * time.Millisecond); n != 0 {
			t.Errorf("%s: %d statuses", name, n)
		}
	}
	app.Send("R02")
	app.Expect("r0203")

	// The app lights e2-e4: boardd's LEDs show it (here, the console's).
	sq := func(name string) board.Square { s, _ := board.ParseSquare(name); return s }
	appLights := func(app *chesslinktest.App, from, to string) {
		var l chesslink.Command
		l.Letter, l.LEDs.SlotTime = chesslink.CmdLEDs, 0x20
		l.LEDs.LightSquare(sq(from), 0xFF)
		l.LEDs.LightSquare(sq(to), 0xAA)
		app.Send(l.String())
		app.Expect("l")
	}
	appLights(app, "e2", "e4")
	c.await("the app's e2-e4", func(st *consoleState) bool {
		l := st.leds()
		return l["e2"] == "hint/steady" && l["e4"] == "hint/fast" && l["e3"] == ""
	})

	// White touches g1, then plays e2-e4: Black chooses, and the app's
	// LEDs give way to the options.
	shown := start
	play := func(body string, sq string, man byte) {
		t.Helper()
		c.input(body)
		if man == 0 {
			shown[board.Square(mustSquare(t, sq))] = board.NoMan
		} else {
			shown[board.Square(mustSquare(t, sq))], _ = board.ManFromFEN(man)
		}
		if got := app.NextStatus(); got != shown {
			t.Fatalf("after %s the app saw %s, want %s", body, chesslinktest.FEN(got), chesslinktest.FEN(shown))
		}
	}
	play(`{"lift":"g1"}`, "g1", 0)
	time.Sleep(250 * time.Millisecond) // held: a touch, not a brush
	play(`{"place":"g1"}`, "g1", 'N')
	play(`{"lift":"e2"}`, "e2", 0)
	play(`{"place":"e4"}`, "e4", 'P')
	st := c.await("the ruling's options", func(st *consoleState) bool { return st.Pending != nil })
	if l := st.leds(); l["e2"] != "" || l["f3"] != "option-2/slow" {
		t.Errorf("while Black chooses the LEDs are %v: the app's e2 showed, or the options did not", l)
	}
	c.input(`{"choose":"stand","side":"black"}`)
	c.await("the app's LEDs back over the last move", func(st *consoleState) bool {
		l := st.leds()
		return st.Pending == nil && len(st.Moves) == 1 && l["e2"] == "hint/steady" && l["e4"] == "hint/fast"
	})
	app.Send("X")
	app.Expect("x")
	c.await("the app's LEDs gone", func(st *consoleState) bool {
		l := st.leds()
		return l["e2"] == "last-move/steady" && l["e4"] == "last-move/steady"
	})

	// The game: -SQ lifts, +SQM sets man M down, !K names the promotion
	// piece for the side to move.
	script := []string{
		"-a7 +a6p", "-e4 +e5P", "-d7 +d5p",
		"-e5 +d6P -d5", // en passant, the pawn taken last
		"-g8 +f6n",
		"-c7 -d6 +c7P", // the man taken lifted first
		"-b8 +c6n", "-g1 +f3N", "-e7 +e6p", "-f1 +c4B", "-b7 +b5p",
		"-e1 +g1K -h1 +f1R", // castling, the king first
		"-b5 -c4 +c4p",      // the taker lifted first
		"!q -c7 -d8 +d8Q",   // a capture promoting to a queen
		"-e8 -d8 +d8k",
	}
	for i, move := range script {
		side := []string{"white", "black"}[(i+1)%2]
		for _, tok := range strings.Fields(move) {
			switch tok[0] {
			case '!':
				c.input(`{"promote":"` + tok[1:] + `","side":"` + side + `"}`)
			case '-':
				play(`{"lift":"`+tok[1:]+`"}`, tok[1:], 0)
			case '+':
				play(`{"place":"`+tok[1:3]+`"}`, tok[1:3], tok[3])
			}
			time.Sleep(30 * time.Millisecond)
		}
		st := c.await(fmt.Sprintf("move %d (%s)", i+2, move), func(st *consoleState) bool { return len(st.Moves) >= i+2 })
		if len(st.Moves) != i+2 {
			t.Fatalf("after %s: moves %+v", move, st.Moves)
		}
	}
	if st := c.state(); !strings.HasPrefix(st.FEN, "r1bk1b1r/5ppp/p1n1pn2/8/2p5/5N2/PPPP1PPP/RNBQ1RK1 w") || st.Moves[len(st.Moves)-2].SAN != "cxd8=Q+" {
		t.Errorf("the game ended at %s, last moves %+v", st.FEN, st.Moves[len(st.Moves)-2:])
	}
	if n := app.Silence(300 * time.Millisecond); n != 0 {
		t.Errorf("%d statuses beyond the changes", n)
	}

	// The app lights a move, then its cable is pulled: the LEDs go dark; a
	// new app finds the board where the game stands.
	appLights(app, "h2", "h4")
	c.await("the app's h2-h4", func(st *consoleState) bool { return st.leds()["h2"] == "hint/steady" })
	app.Close()
	c.await("the app's LEDs gone with its port", func(st *consoleState) bool { return st.leds()["h2"] == "" })
	app2 := chesslinktest.Open(t, link)
	app2.Send("R02") // the registers outlive the connection
	app2.Expect("r0203")
	app2.Send("S")
	if got := app2.NextStatus(); got != shown {
		t.Errorf("the new app sees %s, want %s", chesslinktest.FEN(got), chesslinktest.FEN(shown))
	}
	if bad := append(app.Malformed(), app2.Malformed()...); len(bad) > 0 {
		t.Errorf("malformed messages from boardd: %v", bad)
	}

	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Errorf("boardd stopped with %v", err)
	}
	logs := p.stderr.String()
	for _, want := range []string{"emulating a ChessLink board for apps", "chesslink: app port lost; reopening", "chesslink emulation stopped"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if strings.Contains(logs, "panic") {
		t.Errorf("boardd panicked:\n%s", logs)
	}
}

func mustSquare(t *testing.T, name string) board.Square {
	t.Helper()
	s, err := board.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// flipParity returns a copy of b with bit 7 of byte i flipped.
func flipParity(b []byte, i int) []byte {
	out := append([]byte(nil), b...)
	out[i] ^= 0x80
	return out
}

// TestEmulateRelativePort parses --emulate as `boardd run` does: a
// relative port is taken from the directory boardd is started in (and
// logged absolute), as the flag's help, the docs and the fault all say; a
// value that is no chesslink:PATH is refused with a fault saying so.
func TestEmulateRelativePort(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tests := []struct {
		value string
		code  int    // -1: boardd runs (stopped by the test)
		want  string // in stderr
	}{
		{"chesslink:ptys/ttyGS0", -1, "port=" + filepath.Join(dir, "ptys", "ttyGS0")},
		{"chesslink:", 2, `--emulate (emulate) = "chesslink:": expected chesslink:PATH, the serial port apps reach the board on, such as "chesslink:/dev/ttyGS0" (a relative PATH is taken from the directory boardd is started in)`},
		{"ttyGS0", 2, `--emulate (emulate) = "ttyGS0": expected chesslink:PATH`},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var stderr syncBuffer
			env := &environment{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
			done := make(chan int, 1)
			go func() {
				done <- dispatch(ctx, env, []string{"run", "--state-dir", t.TempDir(), "--listen", "127.0.0.1:0", "--emulate", tc.value})
			}()
			if tc.code >= 0 {
				if code := <-done; code != tc.code || !strings.Contains(stderr.String(), tc.want) {
					t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.want)
				}
				return
			}
			for !strings.Contains(stderr.String(), tc.want) {
				select {
				case code := <-done:
					t.Fatalf("boardd exited %d; stderr %q, want %q", code, stderr.String(), tc.want)
				case <-ctx.Done():
					t.Fatalf("stderr %q lacks %q", stderr.String(), tc.want)
				case <-time.After(10 * time.Millisecond):
				}
			}
			cancel()
			<-done
		})
	}
}
