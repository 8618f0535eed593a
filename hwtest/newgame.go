package hwtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// ConsoleArbiter starts new games on boardd the way a rig operator does
// between scenarios: as the arbiter, through boardd's console (POST
// .../arbiter new-game with the scenario's position, then laws if the
// scenario names another law-set; docs/api.md). Its NewGame is a
// RigOptions.NewGame.
type ConsoleArbiter struct {
	// URL is the console's address, e.g. http://127.0.0.1:8080.
	URL string
	// TokenFile holds the arbiter token (boardd's state directory's
	// arbiter-token). It is read when a new game is first needed.
	TokenFile string
	// Board is the board's id; empty: the console's only board.
	Board string
	// Client makes the requests (a client with a 10 s timeout if nil).
	Client *http.Client
}

// NewGame starts a new game from the position fen under the law-set laws
// (empty: the one in force), on the console's board, which must stand at
// the position at (what boardd said on the link): so that a rig never
// starts a game on another boardd than the one at the end of its line.
func (a *ConsoleArbiter) NewGame(ctx context.Context, at, laws, fen string) error {
	if a.URL == "" {
		return errors.New("no console to start a new game from: give the rig --console URL")
	}
	data, err := os.ReadFile(a.TokenFile)
	if err != nil {
		return fmt.Errorf("the arbiter token, to start a new game: %w (give the rig the state directory of the boardd it tests: --state-dir DIR)", err)
	}
	token := strings.TrimSpace(string(data))
	id := a.Board
	if id == "" {
		var boards []struct {
			ID string `json:"id"`
		}
		if err := a.do(ctx, http.MethodGet, "/api/boards", "", nil, &boards); err != nil {
			return err
		}
		if len(boards) != 1 {
			return fmt.Errorf("the console at %s serves %d boards: name one with --board-id", a.URL, len(boards))
		}
		id = boards[0].ID
	}
	base := "/api/boards/" + url.PathEscape(id)
	var st struct {
		FEN  string `json:"fen"`
		Laws struct {
			ID string `json:"id"`
		} `json:"laws"`
	}
	if err := a.do(ctx, http.MethodGet, base+"/state", "", nil, &st); err != nil {
		return err
	}
	if !samePosition(st.FEN, at) {
		return fmt.Errorf("the console at %s shows board %s at %s, but the boardd on the line stands at %s: another boardd? (--console)", a.URL, id, st.FEN, at)
	}
	if err := a.do(ctx, http.MethodPost, base+"/arbiter", token, map[string]string{"action": "new-game", "value": fen}, nil); err != nil {
		return err
	}
	if laws != "" && laws != st.Laws.ID {
		if err := a.do(ctx, http.MethodPost, base+"/arbiter", token, map[string]string{"action": "laws", "value": laws}, nil); err != nil {
			return err
		}
	}
	return nil
}

// do sends one request to the console and decodes its JSON answer into out
// (if not nil); an answer other than 200 is an error with the console's
// words.
func (a *ConsoleArbiter) do(ctx context.Context, method, path, token string, body, out any) error {
	client := a.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	var rd io.Reader
	if body != nil {
		js, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(a.URL, "/")+path, rd)
	if err != nil {
		return fmt.Errorf("rig: console: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("rig: console: %w", err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("rig: console %s %s: %w", method, path, err)
	}
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			return fmt.Errorf("rig: console %s %s: %s", method, path, e.Error)
		}
		return fmt.Errorf("rig: console %s %s: %s", method, path, res.Status)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("rig: console %s %s: %w", method, path, err)
		}
	}
	return nil
}
