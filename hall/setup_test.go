package hall

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/trace"
)

// An arbiter's new game from a position no game can show is refused by the
// hall before it reaches a board: a 400 from the hall's page naming what is
// wrong, and a refusal from Board.Submit for any other caller, as a FEN
// that does not parse is.
func TestHallNewGameSetup(t *testing.T) {
	const token = "hall-setup-token-0123456789abcdef"
	h, err := newHall(Options{Token: token, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	b := h.board("b1")
	srv, err := NewServer(h, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	for _, c := range []struct {
		name, fen, want string
	}{
		{"not a FEN", "not a fen", "want a legal set-up as FEN"},
		{"kings touching", "8/8/8/8/8/8/3kK3/8 w - - 0 1", "kings"},
		{"pawn on the first rank", "4k3/8/8/8/8/8/8/4K2P w - - 0 1", "pawn"},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "check"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := `{"action":"new-game","value":"` + c.fen + `"}`
			req, err := http.NewRequest(http.MethodPost, hs.URL+"/api/boards/b1/arbiter", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := hs.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			msg, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(msg), c.want) {
				t.Errorf("answer %d %s: want 400 naming %q", res.StatusCode, msg, c.want)
			}
			err = b.Submit(context.Background(), trace.Line{Kind: trace.Arbiter, Action: wire.ActionNewGame, Value: c.fen})
			var refused *console.RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Submit: %v: want a refusal naming %q", err, c.want)
			}
		})
	}
}
