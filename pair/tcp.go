package pair

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/boardd/boardd/timing"
)

// maxLine bounds one game's line on a TCP link (a long game's moves fit
// many times over).
const maxLine = 64 << 10

// TCP is a Link over TCP, one JSON object a line ({"start": FEN, "moves":
// [UCI...]}): one board listens (Listen), the other connects (Dial) and
// connects again whenever the connection is lost. The last game sent is
// sent again on every new connection, so a board that went away and came
// back hears where the game stands.
type TCP struct {
	in    chan Game
	log   *slog.Logger
	reach *reachBox

	mu     sync.Mutex
	conn   net.Conn
	latest *Game
	addr   net.Addr // the address listened on (Listen)
}

// onWire is a game as a link carries it.
type onWire struct {
	Start string   `json:"start"`
	Moves []string `json:"moves"`
	Side  string   `json:"side,omitempty"`
	End   string   `json:"end,omitempty"`
	Offer string   `json:"offer,omitempty"`
}

func newTCP(log *slog.Logger) *TCP {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &TCP{in: make(chan Game, 16), log: log, reach: newReachBox()}
}

// Listen returns a link that waits on addr ("0.0.0.0:7070") for the other
// board, taking a new connection in place of the old; it stops listening
// when ctx ends.
func Listen(ctx context.Context, addr string, log *slog.Logger) (*TCP, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pair: listening on %s: %w", addr, err)
	}
	t := newTCP(log)
	t.addr = ln.Addr()
	context.AfterFunc(ctx, func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				if ctx.Err() == nil {
					t.log.Error("pair: not listening for the other board any more", "err", err)
				}
				t.drop(nil)
				return
			}
			t.log.Info("pair: the other board connected", "from", c.RemoteAddr())
			go t.serve(ctx, c)
		}
	}()
	return t, nil
}

// Addr returns the address a listening link listens on.
func (t *TCP) Addr() net.Addr { return t.addr }

// Dial returns a link that connects to the other board at addr
// ("board-01.club.lan:7070"), and connects again after a lost connection
// (every retry, 1 s at first, doubling up to 30 s) until ctx ends.
func Dial(ctx context.Context, addr string, log *slog.Logger) *TCP {
	t := newTCP(log)
	go func() {
		backoff := time.Second
		var d net.Dialer
		for ctx.Err() == nil {
			c, err := d.DialContext(ctx, "tcp", addr)
			if err != nil {
				t.log.Warn("pair: the other board cannot be reached; trying again", "addr", addr, "err", err, "in", backoff)
				if !timing.Sleep(ctx, backoff) {
					return
				}
				backoff = min(2*backoff, 30*time.Second)
				continue
			}
			backoff = time.Second
			t.log.Info("pair: connected to the other board", "addr", addr)
			t.serve(ctx, c)
			if ctx.Err() == nil {
				t.log.Warn("pair: the other board went away; the game waits for it", "addr", addr)
			}
		}
	}()
	return t
}

// serve makes c the link's connection, sends it the last game and reads
// the other board's games from it until it fails.
func (t *TCP) serve(ctx context.Context, c net.Conn) {
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	t.mu.Lock()
	if t.conn != nil {
		t.conn.Close()
	}
	t.conn = c
	latest := t.latest
	t.mu.Unlock()
	t.reach.tell(Reach{Up: true})
	if latest != nil {
		if err := t.write(c, *latest); err != nil {
			t.lost(c)
			return
		}
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 4096), maxLine)
	for sc.Scan() {
		var w onWire
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.log.Warn("pair: the other board sent garbage; dropping the connection", "err", err)
			break
		}
		select {
		case t.in <- Game(w):
		case <-ctx.Done():
			t.drop(c)
			return
		}
	}
	t.lost(c)
}

// lost drops c, and says the other board has gone away if c was the
// link's connection (not one a newer connection replaced).
func (t *TCP) lost(c net.Conn) {
	if t.drop(c) {
		t.reach.tell(Reach{Gone: GoneBoard})
	}
}

// drop closes c (the current connection, or any when nil) and forgets it;
// it reports whether it was the link's connection.
func (t *TCP) drop(c net.Conn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	current := false
	if t.conn != nil && (c == nil || t.conn == c) {
		t.conn.Close()
		t.conn = nil
		current = true
	}
	if c != nil {
		c.Close()
	}
	return current
}

// write sends g on c, bounded by a write deadline.
func (t *TCP) write(c net.Conn, g Game) error {
	b, err := json.Marshal(onWire(g))
	if err != nil {
		return fmt.Errorf("pair: encoding the game: %w", err)
	}
	if err := c.SetWriteDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return fmt.Errorf("pair: sending to %s: %w", c.RemoteAddr(), err)
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("pair: sending to %s: %w", c.RemoteAddr(), err)
	}
	return nil
}

// Send sends g to the other board if it is connected, and keeps it to send
// on the next connection otherwise: the game waits for the other board, it
// is not lost.
func (t *TCP) Send(ctx context.Context, g Game) error {
	t.mu.Lock()
	t.latest = &g
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		t.log.Warn("pair: the other board is not connected; the game goes to it when it is", "moves", len(g.Moves))
		return nil
	}
	if err := t.write(c, g); err != nil {
		t.log.Warn("pair: the other board went away; the game goes to it when it is back", "err", err)
		t.lost(c)
	}
	return nil
}

// Receive delivers the other board's games.
func (t *TCP) Receive() <-chan Game { return t.in }

// Reach tells when the other board connects and when its connection is
// lost (GoneBoard).
func (t *TCP) Reach() <-chan Reach { return t.reach.ch }
