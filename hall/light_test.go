package hall_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/mosquittotest"
)

// scripts encodes the test games once for light boards.
func scripts(t testing.TB) []*halltest.Script {
	t.Helper()
	var out []*halltest.Script
	for _, g := range testGames {
		s, err := halltest.NewScript(context.Background(), g, game.Options{Laws: "fide2023"})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// startLights starts n light boards (l1, l2, …) on the broker at url, each
// with its own client, and waits for their connections.
func startLights(t testing.TB, url string, n int, ss []*halltest.Script) []*halltest.Light {
	t.Helper()
	ls := make([]*halltest.Light, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range ls {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			id := fmt.Sprintf("l%d", i+1)
			c := config(t, url, id)
			ls[i], errs[i] = halltest.StartLight(context.Background(), halltest.LightOptions{
				ID: id, Broker: c, Script: ss[i%len(ss)], MinBackoff: 20 * time.Millisecond, MaxBackoff: time.Second, KeepAlive: 30 * time.Second,
			})
			if errs[i] == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				errs[i] = ls[i].AwaitConnection(ctx)
				cancel()
			}
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, l := range ls {
			if l != nil {
				wg.Go(func() { l.Close() })
			}
		}
		wg.Wait()
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return ls
}

// Light boards speak the protocol as boards do: the hall takes their
// scripts' moves, in order, with their states (position, PGN) and health,
// and a light board that loses its connection sends what the hall has not
// acknowledged again.
func TestLightBoards(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, _ := startHall(t, config(t, br.URL(), "hall"))
	ss := scripts(t)
	ls := startLights(t, br.URL(), 6, ss)
	for range 8 {
		for _, l := range ls {
			if err := l.Move(); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	br.Kill()
	for range 4 {
		for _, l := range ls {
			l.Move()
		}
	}
	if err := br.Restart(); err != nil {
		t.Fatal(err)
	}
	for i, l := range ls {
		want := testGames[i%len(testGames)][:12]
		waitFor(t, l.ID()+"'s moves in the hall", 15*time.Second, func() bool { return len(h.Board(l.ID()).Moves()) >= len(want) })
		var got []string
		for _, m := range h.Board(l.ID()).Moves() {
			got = append(got, m.UCI)
		}
		if !slices.Equal(got, want) || !slices.Equal(l.Moves(), want) {
			t.Errorf("%s: the hall holds %v, the board made %v, want %v", l.ID(), got, l.Moves(), want)
		}
		waitFor(t, l.ID()+"'s state in the hall", 5*time.Second, func() bool {
			s := h.Board(l.ID()).Summary()
			pgn, err := h.Board(l.ID()).PGN(context.Background())
			return s.Online && s.FEN == h.Board(l.ID()).Moves()[11].FEN && err == nil && strings.Contains(pgn, "6. ")
		})
		if pgn, _ := h.Board(l.ID()).PGN(context.Background()); !strings.Contains(pgn, `[Board "`+l.ID()+`"]`) {
			t.Errorf("%s's PGN in the hall:\n%s", l.ID(), pgn)
		}
		if st := l.Stats(); st.Connects < 2 {
			t.Errorf("%s connected %d times across the broker's restart", l.ID(), st.Connects)
		}
	}
}
