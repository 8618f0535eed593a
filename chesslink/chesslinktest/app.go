// Package chesslinktest is a chess app's end of the ChessLink protocol
// over a real pseudo-terminal, for tests that speak to boardd's emulation
// (package chesslink, `boardd run --emulate chesslink:PATH`) as an app on
// the host of a USB cable does: it sends commands with check digits and odd
// parity, reads every byte the board sends, and sorts the board's messages
// into replies and statuses.
package chesslinktest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/chesslink"
	"github.com/boardd/boardd/ptypair"
)

// Wait bounds every wait for the board's answer.
const Wait = 10 * time.Second

// App is an app on the master side of a pseudo-terminal whose slave the
// emulation serves, reached through a symbolic link as a device path would
// be. It keeps a descriptor of the slave open itself, so that its master
// never reads an error while the emulation closes and reopens the port.
type App struct {
	t    testing.TB
	link string
	pty  *ptypair.PTY // the app's end; it holds the slave open too
	// Parity is what bit 7 of the bytes the app sends carries (odd by
	// default, as over a UART; ParityNone as over a USB gadget port).
	Parity chesslink.Parity

	replies  chan string // the board's replies, in order
	statuses chan string // its statuses, in order
	done     chan struct{}

	mu      sync.Mutex
	raw     []byte // every byte received
	bad     []error
	readErr error
}

// Open makes a pseudo-terminal, points link at its slave (replacing what
// was there) and starts reading what the board sends. The app is closed
// when the test ends.
func Open(t testing.TB, link string) *App {
	t.Helper()
	p, err := ptypair.Open(link)
	if err != nil {
		t.Fatalf("chesslinktest: %v", err)
	}
	a := &App{t: t, link: link, pty: p,
		replies: make(chan string, 1024), statuses: make(chan string, 4096), done: make(chan struct{})}
	go a.read()
	t.Cleanup(a.Close)
	return a
}

// read decodes what the board sends until the master is closed.
func (a *App) read() {
	defer close(a.done)
	dec := chesslink.Decoder{Replies: true, RequireParity: true}
	buf := make([]byte, 4096)
	for {
		n, err := a.pty.Read(buf)
		a.mu.Lock()
		a.raw = append(a.raw, buf[:n]...)
		a.mu.Unlock()
		dec.Feed(buf[:n], func(body []byte, err error) {
			if err != nil {
				a.mu.Lock()
				a.bad = append(a.bad, err)
				a.mu.Unlock()
				return
			}
			if body[0] == 's' {
				a.statuses <- string(body)
			} else {
				a.replies <- string(body)
			}
		})
		if err != nil {
			if !errors.Is(err, os.ErrClosed) && !errors.Is(err, io.EOF) {
				a.mu.Lock()
				a.readErr = err
				a.mu.Unlock()
			}
			return
		}
	}
}

// Close closes the app's end and the link's target: the port vanishes from
// under the board, as a USB gadget's does when the cable is pulled. It
// removes link.
func (a *App) Close() {
	a.pty.Close() // removes link too
	<-a.done
}

// Send writes a command as the app does: its body (e.g. "W0203"), check
// digits, parity.
func (a *App) Send(body string) {
	a.t.Helper()
	a.Write(chesslink.AppendMessage(nil, []byte(body), a.Parity))
}

// Write writes raw bytes to the board.
func (a *App) Write(b []byte) {
	a.t.Helper()
	if _, err := a.pty.Write(b); err != nil {
		a.t.Fatalf("chesslinktest: write: %v", err)
	}
}

// Expect waits for the board's next reply (statuses sent unasked are kept
// aside, as an app must: the board may slip them between a command and its
// answer) and fails the test unless it is want (a body, e.g. "v0103").
func (a *App) Expect(want string) {
	a.t.Helper()
	select {
	case got := <-a.replies:
		if got != want {
			a.t.Fatalf("chesslinktest: reply %q, want %q", got, want)
		}
	case <-time.After(Wait):
		a.t.Fatalf("chesslinktest: no reply within %v, want %q%s", Wait, want, a.faults())
	}
}

// NextStatus waits for the board's next status and returns the placement
// it shows (counted from h1).
func (a *App) NextStatus() [64]board.Man {
	a.t.Helper()
	select {
	case body := <-a.statuses:
		m, err := chesslink.ParseStatus([]byte(body), chesslink.FromH1)
		if err != nil {
			a.t.Fatalf("chesslinktest: %v", err)
		}
		return m
	case <-time.After(Wait):
		a.t.Fatalf("chesslinktest: no status within %v%s", Wait, a.faults())
	}
	return [64]board.Man{}
}

// Drain forgets the statuses received so far and returns how many there
// were.
func (a *App) Drain() int {
	n := 0
	for {
		select {
		case <-a.statuses:
			n++
		default:
			return n
		}
	}
}

// Silence waits for d and fails the test if the board replied to anything
// meanwhile; it returns how many statuses came (and forgets them).
func (a *App) Silence(d time.Duration) int {
	a.t.Helper()
	select {
	case got := <-a.replies:
		a.t.Fatalf("chesslinktest: reply %q, want silence", got)
	case <-time.After(d):
	}
	return a.Drain()
}

// Raw returns every byte received so far.
func (a *App) Raw() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]byte(nil), a.raw...)
}

// Malformed returns the faults of the board's messages that did not decode
// (there should be none).
func (a *App) Malformed() []error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]error(nil), a.bad...)
}

func (a *App) faults() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := ""
	if len(a.bad) > 0 {
		s += fmt.Sprintf("; malformed messages from the board: %v", a.bad)
	}
	if a.readErr != nil {
		s += fmt.Sprintf("; read: %v", a.readErr)
	}
	return s
}

// Placement returns the placement of a FEN's first field (the rules'
// checks aside: a mid-move placement may have two kings of a side), square
// 0 being a1.
func Placement(t testing.TB, fen string) [64]board.Man {
	t.Helper()
	var m [64]board.Man
	rank, file := 7, 0
	for _, c := range fen {
		switch {
		case c == ' ':
			return m
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			man, ok := board.ManFromFEN(byte(c))
			if !ok || rank < 0 || file > 7 {
				t.Fatalf("chesslinktest: placement %q: %q", fen, c)
			}
			m[board.NewSquare(file, rank)] = man
			file++
		}
	}
	return m
}

// FEN writes a placement as a FEN's first field.
func FEN(men [64]board.Man) string {
	p := board.Position{Men: men}
	return p.Placement()
}
