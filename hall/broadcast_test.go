package hall_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/trace"
)

// A game is finished by the arbiter's result and a new one begun on the
// board (its journal rotates: the new game's header reaches the hall from
// the journal); the round's PGN holds both games with the hall's tags, the
// board's PGN the new one, and a poller that has the current PGN gets 304.
func TestBroadcast(t *testing.T) {
	br := startBroker(t, mosquittotest.Options{AllowAnonymous: true})
	h, err := hall.New(context.Background(), hall.Options{
		Broker: config(t, br.URL(), "hall"), Token: testToken, Signer: testSigner, AckEvery: 100 * time.Millisecond, Logger: logger(t),
		Event: "Club night", Round: "5", Pairings: map[string]hall.Pairing{"b1": {White: "Anderssen", Black: "Kieseritzky"}},
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := hall.NewServer(h, hall.ServerOptions{Settle: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		h.Close()
	})
	ctx := ctxTimeout(t, 30*time.Second)
	b := startBoard(t, "b1", boardDir(t, "b1"), config(t, br.URL(), "b1"), gameOptions("fide2023"))
	t.Cleanup(func() { b.Close() })
	g := makeGame(t, testGames[2][:6])
	if err := b.PlayMoves(ctx, g.lines, g.ends, 0, len(g.ends)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "6 moves in the hall", 10*time.Second, func() bool { return len(hallMoves(h, "b1")) == 6 })
	hb := h.Board("b1")
	if err := hb.Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: wire.ActionResult, Value: "1-0"}); err != nil {
		t.Fatal(err)
	}
	if err := hb.Submit(ctx, trace.Line{Kind: trace.Arbiter, Action: wire.ActionNewGame}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new game in the hall", 10*time.Second, func() bool {
		s := hb.Summary()
		return s.Game == 2 && s.Moves == 0 && len(hb.Finished()) == 1
	})
	if st := b.Uplink.Stats(); st.FromDisk == 0 {
		t.Error("the new game's header did not come from the journal")
	}
	get := func(path string, header ...string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, hs.URL+path, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body), res.Header.Get("ETag")
	}
	// The new game's state comes from the board a moment after its header.
	waitFor(t, "the new game's state in the hall", 10*time.Second, func() bool {
		code, _, _ := get("/broadcast/boards/b1.pgn")
		return code == http.StatusOK
	})
	code, round, etag := get("/broadcast/rounds/5.pgn")
	if code != http.StatusOK || strings.Count(round, `[Event "Club night"]`) != 2 || strings.Count(round, `[Round "5"]`) != 2 ||
		strings.Count(round, `[White "Anderssen"]`) != 2 || !strings.Contains(round, "3. exd6 Qxd6 1-0") || !strings.Contains(round, `[Result "*"]`) {
		t.Errorf("round 5: %d\n%s", code, round)
	}
	if code, _, _ := get("/broadcast/rounds/5.pgn", "If-None-Match", etag); code != http.StatusNotModified {
		t.Errorf("polling again with the ETag: %d, want 304", code)
	}
	if code, one, _ := get("/broadcast/boards/b1.pgn"); code != http.StatusOK || strings.Contains(one, "exd6") || !strings.Contains(one, `[Board "b1"]`) {
		t.Errorf("board b1's PGN: %d\n%s", code, one)
	}
	if code, _, _ := get("/broadcast/rounds/6.pgn"); code != http.StatusNotFound {
		t.Errorf("an unknown round: %d", code)
	}
	if code, idx, _ := get("/broadcast/"); code != http.StatusOK || !strings.Contains(idx, `"5":"/broadcast/rounds/5.pgn"`) {
		t.Errorf("the broadcast index: %d %s", code, idx)
	}
}
