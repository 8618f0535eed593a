package pair

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// receive waits for a game on l.
func receive(t *testing.T, ctx context.Context, l Link) Game {
	t.Helper()
	select {
	case g := <-l.Receive():
		return g
	case <-ctx.Done():
		t.Fatal("no game came")
		return Game{}
	}
}

// The TCP link carries games both ways; a game sent while the other board
// is away goes to it when it connects again; garbage drops the connection,
// not the link.
func TestTCPLink(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := Listen(ctx, "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	dctx, dcancel := context.WithCancel(ctx)
	d := Dial(dctx, l.Addr().String(), nil)
	g1 := Game{Start: board.StartFEN, Moves: []string{"e2e4"}}
	g2 := Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5"}, Side: "black", Offer: OfferDraw} // a draw offered goes with its move
	// The dialler may not be connected yet: the game waits and goes on
	// connection.
	if err := d.Send(ctx, g1); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, ctx, l); !sameGame(got, g1) {
		t.Fatalf("the listener got %+v, want %+v", got, g1)
	}
	if err := l.Send(ctx, g2); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, ctx, d); !sameGame(got, g2) {
		t.Fatalf("the dialler got %+v, want %+v", got, g2)
	}
	waitReach(t, ctx, l, Reach{Up: true})
	waitReach(t, ctx, d, Reach{Up: true})

	// The dialling board goes away; the listener's next game waits for a
	// board to connect again.
	dcancel()
	g3 := Game{Start: board.StartFEN, Moves: []string{"e2e4", "e7e5", "g1f3"}}
	for deadline := time.Now().Add(5 * time.Second); ; {
		l.mu.Lock()
		gone := l.conn == nil
		l.mu.Unlock()
		if gone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the listener never noticed the other board go")
		}
		time.Sleep(5 * time.Millisecond)
	}
	waitReach(t, ctx, l, Reach{Gone: GoneBoard})
	if err := l.Send(ctx, g3); err != nil {
		t.Fatal(err)
	}
	d2 := Dial(ctx, l.Addr().String(), nil)
	if got := receive(t, ctx, d2); !sameGame(got, g3) {
		t.Fatalf("the board back got %+v, want %+v", got, g3)
	}
	waitReach(t, ctx, l, Reach{Up: true})

	// Garbage from a stranger: its connection is dropped; the link
	// goes on with the next connection.
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("not json\n"))
	c.Close()
	d3 := Dial(ctx, l.Addr().String(), nil)
	if got := receive(t, ctx, d3); !sameGame(got, g3) {
		t.Fatalf("after garbage, a new board got %+v, want %+v", got, g3)
	}
	if err := d3.Send(ctx, g2); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, ctx, l); !sameGame(got, g2) {
		t.Fatalf("the listener got %+v, want %+v", got, g2)
	}
}

// waitReach reads what a link says of its reach until it says want.
func waitReach(t *testing.T, ctx context.Context, l Reacher, want Reach) {
	t.Helper()
	var last Reach
	for {
		select {
		case r := <-l.Reach():
			if r == want {
				return
			}
			last = r
		case <-ctx.Done():
			t.Fatalf("the link said %+v last, want %+v", last, want)
		}
	}
}
