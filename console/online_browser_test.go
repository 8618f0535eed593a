package console

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/lichess/lichesstest"
	"github.com/boardd/boardd/online"
	"github.com/boardd/boardd/opponent"
)

// withLichess makes a rig's opponent a game on a local lichess
// (lichesstest): the board plays White against Rival (1720), who answers
// e2e4 with e7e5.
func withLichess(srv **lichesstest.Server, id *string) func(t testing.TB, r *game.Runner) OpponentSource {
	return func(t testing.TB, r *game.Runner) OpponentSource {
		s := lichesstest.New(lichesstest.Options{GameKeepAlive: 200 * time.Millisecond})
		t.Cleanup(s.Close)
		gid, err := s.CreateGame(lichesstest.GameSpec{Side: board.White, Rated: true, Clock: &lichesstest.GameClock{Initial: 15 * time.Minute, Increment: 10 * time.Second},
			Opponent: lichesstest.Opponent{Name: "Rival", Rating: 1720, Moves: []string{"e7e5"}}})
		if err != nil {
			t.Fatal(err)
		}
		*srv, *id = s, gid
		tok, _ := lichess.NewToken(s.Token())
		client, err := lichess.New(lichess.Options{BaseURL: s.URL(), Token: tok, MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := online.New(online.Options{Client: client, Runner: r, GameID: gid, Side: board.White})
		if err != nil {
			t.Fatal(err)
		}
		m, err := opponent.New(opponent.Options{Runner: r, Player: sess.Player(), Side: opponent.Black})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{}, 2)
		go func() { _ = m.Run(ctx); done <- struct{}{} }()
		go func() { _ = sess.Run(ctx); done <- struct{}{} }()
		t.Cleanup(func() {
			cancel()
			<-done
			<-done
		})
		return onlineSource{sess, m}
	}
}

// A game on lichess in the console: the page names the opponent, its
// rating and the game's page, shows lichess's clocks (the side to move's
// counting down), the opponent's reply to carry out, a draw offer, the link
// going down and coming back, and lichess's result once the player resigns
// from the page.
func TestBrowserOnlineGame(t *testing.T) {
	var srv *lichesstest.Server
	var id string
	r := newRig(t, rigOptions{opponentFor: withLichess(&srv, &id), timing: game.Timing{Settle: 60 * time.Millisecond, QuickSettle: 30 * time.Millisecond}})
	page := tab(t, r.url+"/")
	waitJS(t, page, "the online panel", `!document.getElementById('online').hidden && /Rival \(1720\) plays Black on lichess/.test(document.getElementById('engine-who').textContent)`)
	if href := jsString(t, page, `document.getElementById('online-url').href`); href != "https://lichess.org/"+id {
		t.Errorf("the game's link is %q", href)
	}
	if got := jsString(t, page, `document.getElementById('online-game').textContent`); got != "rated rapid" {
		t.Errorf("the game is described as %q", got)
	}
	waitJS(t, page, "lichess's clocks", `document.getElementById('online-clock-white').textContent === 'White 15:00' && document.getElementById('online-clock-black').textContent === 'Black 15:00'`)
	if hidden := jsString(t, page, `String(document.getElementById('engine-hint').hidden && document.getElementById('engine-side').closest('.row').hidden)`); hidden != "true" {
		t.Error("the engine's hint and side controls show for an online game")
	}

	squares(t, page, "e2", "e4")
	waitJS(t, page, "the opponent's reply", `/to move: carry out e5, move the pawn from e7 to e5/.test(document.getElementById('status').textContent)`)
	squares(t, page, "e7", "e5")
	waitJS(t, page, "the reply carried out", `document.getElementById('status').textContent === 'White to move.'`)
	// With both sides moved, White's clock runs on lichess and here.
	waitJS(t, page, "White's clock running", `document.getElementById('online-clock-white').dataset.running === 'yes' && document.getElementById('online-clock-white').textContent !== 'White 15:00'`)

	if err := srv.OpponentOffersDraw(id); err != nil {
		t.Fatal(err)
	}
	waitJS(t, page, "the draw offer", `/The opponent offers a draw/.test(document.getElementById('online-status').textContent) && !document.getElementById('online-decline').disabled`)
	jsString(t, page, `(document.getElementById('online-decline').click(), 'ok')`)
	waitJS(t, page, "the offer declined", `!/offers a draw/.test(document.getElementById('online-status').textContent)`)

	srv.DropStreams()
	srv.GoDown()
	waitJS(t, page, "the link down", `/link to lichess is down/.test(document.getElementById('online-status').textContent)`)
	srv.ComeUp()
	waitJS(t, page, "the link back", `!/link to lichess is down/.test(document.getElementById('online-status').textContent)`)

	// A click by script: chromedp's clicks wait for a quiet DOM, and the
	// running clock's text changes every half second; the page asks
	// whether to resign, and the player says yes.
	jsString(t, page, `(window.confirm = () => true, document.getElementById('engine-resign').click(), 'ok')`)
	waitJS(t, page, "lichess's result", `/The game is over on lichess: 0-1 \(resign\)/.test(document.getElementById('online-status').textContent) && !document.getElementById('result').hidden`)
	if res := jsString(t, page, `document.getElementById('result').textContent`); !strings.Contains(res, "0-1") {
		t.Errorf("the board's result: %q", res)
	}
	if v, _ := srv.Game(id); v.Status != "resign" || v.Winner != "black" {
		t.Errorf("lichess's game: %+v", v)
	}
}

// onlineSource shows a session's game as the daemon's does (daemon's
// consoleOpponent, which this test cannot import): the fields the page
// shows.
type onlineSource struct {
	s *online.Session
	m *opponent.Match
}

func (src onlineSource) Opponent() *Opponent {
	ms, st := src.m.State(), src.s.State()
	o := &Opponent{Name: st.Opponent, Side: ms.Side.String(), Thinking: ms.Thinking, Move: ms.Move, Commands: []string{},
		Online: &Online{URL: st.URL, Rating: st.Rating, Title: st.Title, Rated: st.Rated, Speed: st.Speed, Status: st.Status, Result: st.Result,
			Up: st.Up, Link: st.Link, DrawOffered: st.DrawOffered, TakebackProposed: st.TakebackProposed, OpponentGone: st.OpponentGone, Notice: st.Notice}}
	if c := st.Clocks; c != nil {
		o.Online.Clock, o.Online.WhiteMs, o.Online.BlackMs, o.Online.AgeMs = true, c.White.Milliseconds(), c.Black.Milliseconds(), time.Since(c.At).Milliseconds()
		if c.Running && st.Result == "" {
			o.Online.Running = st.Turn.String()
		}
	}
	if st.Result == "" {
		o.Commands = append(o.Commands, online.CommandTakeBack, online.CommandDraw, online.CommandResign, online.CommandAbort)
		if st.DrawOffered || st.TakebackProposed {
			o.Commands = append(o.Commands, online.CommandDecline)
		}
	}
	return o
}

func (src onlineSource) Command(ctx context.Context, command, value string) error {
	return src.s.Do(ctx, command, value)
}

func (src onlineSource) Watch(fn func()) func() {
	a, b := src.s.Watch(fn), src.m.Watch(fn)
	return func() { a(); b() }
}
