package opponenttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// ConsoleDoor is a simulated board reached through its console's JSON API
// (docs/api.md), as the page reaches it: the hands' lifts, places and
// promotions are POSTed as the page's clicks are, and the game is read from
// the board's state. It lets Hands play a running boardd.
type ConsoleDoor struct {
	// Board is the board's API address: "http://127.0.0.1:8080/api/boards/ID".
	Board string
	// Token is the arbiter token, "" to play as the player at the board.
	Token  string
	Client *http.Client
}

func (c *ConsoleDoor) client() *http.Client {
	if c.Client == nil {
		return http.DefaultClient
	}
	return c.Client
}

func (c *ConsoleDoor) post(ctx context.Context, path string, body any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Board+"/"+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.client().Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s %s: %s: %s", path, data, res.Status, bytes.TrimSpace(msg))
	}
	return nil
}

// Submit POSTs a lift, place or promote line as the page does.
func (c *ConsoleDoor) Submit(ctx context.Context, l trace.Line) error {
	switch l.Kind {
	case trace.Lift:
		return c.post(ctx, "input", map[string]string{"lift": l.Square.String()})
	case trace.Place:
		return c.post(ctx, "input", map[string]string{"place": l.Square.String()})
	case trace.Promote:
		return c.post(ctx, "input", map[string]string{"promote": string(l.Piece.Letter()), "side": l.Side})
	case trace.Press:
		return c.post(ctx, "input", map[string]string{"press": l.Button, "side": l.Side})
	}
	return fmt.Errorf("opponenttest: a console takes no %s line from the page", l.Kind)
}

// Command gives the board's engine a command (POST .../opponent).
func (c *ConsoleDoor) Command(ctx context.Context, command, value string) error {
	return c.post(ctx, "opponent", map[string]string{"command": command, "value": value})
}

// State GETs the board's state.
func (c *ConsoleDoor) State(ctx context.Context) (console.State, error) {
	var st console.State
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Board+"/state", nil)
	if err != nil {
		return st, err
	}
	res, err := c.client().Do(req)
	if err != nil {
		return st, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(res.Body)
		return st, fmt.Errorf("GET state: %s: %s", res.Status, bytes.TrimSpace(msg))
	}
	return st, json.NewDecoder(res.Body).Decode(&st)
}

// Snapshot reads the state as much of a game's snapshot as the hands use:
// the position, the moves, what the board must be brought to, the move to
// carry out, a ruling or result.
func (c *ConsoleDoor) Snapshot(ctx context.Context) (*game.Snapshot, error) {
	st, err := c.State(ctx)
	if err != nil {
		return nil, err
	}
	pos, err := board.ParseFEN(st.FEN)
	if err != nil {
		return nil, fmt.Errorf("opponenttest: state's fen: %w", err)
	}
	s := &game.Snapshot{Position: pos, Expected: pos, Moves: len(st.Moves), Syncing: st.Syncing, Mismatch: st.Mismatch}
	if st.Syncing {
		// What the board must show: the men lifted from it, and the men
		// standing but on the squares to clear.
		exp := pos
		exp.Men = [64]board.Man{}
		for name, letter := range st.Men {
			sq, _ := board.ParseSquare(name)
			if man, ok := board.ManFromFEN(letter[0]); ok && !slices.Contains(st.Extra, name) {
				exp.Men[sq] = man
			}
		}
		for name, letter := range st.Lifted {
			sq, _ := board.ParseSquare(name)
			if man, ok := board.ManFromFEN(letter[0]); ok {
				exp.Men[sq] = man
			}
		}
		s.Expected = exp
	}
	if st.Result != nil {
		s.Result = &report.Report{Type: report.Result, Result: st.Result.Result, Reason: st.Result.Reason, Law: st.Result.Law}
		s.Mode = game.AwaitNewGame
	}
	if st.Pending != nil {
		p := st.Pending
		s.Pending = &report.Report{Type: report.Irregularity, Kind: p.Kind, Law: p.Law, Offender: p.Offender, Chooser: p.Chooser, Options: p.Options}
	}
	if rm := st.Remote; rm != nil {
		s.Remote = [2]bool{rm.White, rm.Black}
		if aw := rm.Awaiting; aw != nil {
			if m, err := board.ParseUCI(aw.UCI); err == nil {
				s.Awaiting, s.HasAwaiting = m, true
			}
		}
	}
	return s, nil
}
