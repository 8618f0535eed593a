package lichess

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ScopeBoardPlay is the scope the Board API needs.
const ScopeBoardPlay = "board:play"

// Account returns the token's owner (GET /api/account) with the token's
// scopes, which lichess reports in the X-OAuth-Scopes header of every
// authenticated answer.
func (c *Client) Account(ctx context.Context) (Account, error) {
	var w struct {
		ID       string `json:"id"`
		Username string `json:"username"`
		Title    string `json:"title"`
		Disabled bool   `json:"disabled"`
	}
	h, err := c.call(ctx, request{method: "GET", path: "/api/account", auth: true}, &w)
	if err != nil {
		return Account{}, err
	}
	a := Account{ID: w.ID, Username: w.Username, Title: w.Title, Disabled: w.Disabled}
	if h != nil {
		if v, ok := h["X-Oauth-Scopes"]; ok {
			a.Scopes = splitScopes(strings.Join(v, ","))
		}
	}
	if a.ID == "" {
		return Account{}, errors.New("lichess: GET /api/account: the answer names no account")
	}
	return a, nil
}

// splitScopes reads a comma-separated scope list.
func splitScopes(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// TokenScopes asks lichess which scopes the client's token has (POST
// /api/token/test), for when an answer lacks the X-OAuth-Scopes header. It
// returns ErrTokenRejected if lichess does not know the token.
func (c *Client) TokenScopes(ctx context.Context) ([]string, error) {
	var out map[string]*struct {
		UserID string `json:"userId"`
		Scopes string `json:"scopes"`
	}
	if _, err := c.call(ctx, request{method: "POST", path: "/api/token/test", body: c.token.Reveal()}, &out); err != nil {
		return nil, err
	}
	t, ok := out[c.token.Reveal()]
	if !ok || t == nil {
		return nil, fmt.Errorf("lichess: POST /api/token/test: %w", ErrTokenRejected)
	}
	return splitScopes(t.Scopes), nil
}

// TokenAdvice says what to do about err, a token lichess rejects (revoked,
// expired, mistyped) or one lacking the board:play scope: create a new
// token with that scope on TokenPage and put it in place of TokenFile. It
// is "" for any other error.
func TokenAdvice(err error) string {
	switch {
	case errors.Is(err, ErrTokenRejected):
		return fmt.Sprintf("create a new personal token with the board:play scope at %s and replace %s with it", TokenPage, TokenFile)
	case errors.Is(err, ErrMissingScope):
		return fmt.Sprintf("create a new personal token with \"Play games with the board API\" (board:play) ticked at %s and replace %s with it", TokenPage, TokenFile)
	}
	return ""
}

// CheckToken checks, before play, that the token is good for the Board API:
// lichess knows it, it has the board:play scope, and its account is not a
// bot (bots play through the Bot API). It returns the account, or an error
// saying what is wrong and what to do; errors.Is tells ErrTokenRejected and
// ErrMissingScope apart.
func (c *Client) CheckToken(ctx context.Context) (Account, error) {
	a, err := c.Account(ctx)
	if errors.Is(err, ErrTokenRejected) {
		return Account{}, fmt.Errorf("lichess: %w: %s", ErrTokenRejected, TokenAdvice(err))
	}
	if err != nil {
		return Account{}, err
	}
	if a.Scopes == nil {
		if a.Scopes, err = c.TokenScopes(ctx); err != nil {
			return Account{}, err
		}
	}
	if !a.HasScope(ScopeBoardPlay) {
		has := "no scope"
		if len(a.Scopes) > 0 {
			has = "only " + strings.Join(a.Scopes, ", ")
		}
		return a, fmt.Errorf("lichess: the token of %s has %s: %w; create a token with \"Play games with the board API\" (board:play) ticked at %s", a.Username, has, ErrMissingScope, TokenPage)
	}
	if strings.EqualFold(a.Title, "BOT") {
		return a, fmt.Errorf("lichess: %s is a bot account; the Board API is for people's accounts", a.Username)
	}
	if a.Disabled {
		return a, fmt.Errorf("lichess: the account %s is closed", a.Username)
	}
	return a, nil
}

// Playing returns the account's games in progress, the most urgent first
// (GET /api/account/playing), for resuming after a restart.
func (c *Client) Playing(ctx context.Context) ([]OngoingGame, error) {
	var w struct {
		NowPlaying []wireGameInfo `json:"nowPlaying"`
	}
	q := url.Values{"nb": {"50"}}
	if _, err := c.call(ctx, request{method: "GET", path: "/api/account/playing", query: q, auth: true}, &w); err != nil {
		return nil, err
	}
	out := make([]OngoingGame, 0, len(w.NowPlaying))
	for i := range w.NowPlaying {
		g, err := w.NowPlaying[i].decode()
		if err != nil {
			return nil, fmt.Errorf("lichess: GET /api/account/playing: game %d: %w", i+1, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// Seek is a public seek for a game against a random player.
type Seek struct {
	// Time and Increment are the clock of a real-time game. The Board API
	// seeks rapid and classical games only: Time + 40×Increment must be at
	// least 8 minutes. Lichess takes Time in minutes (fractions allowed:
	// 0.25, 0.5, 0.75, 1.5) and Increment in whole seconds, up to 180 each.
	Time, Increment time.Duration
	// Days makes a correspondence seek instead (1, 2, 3, 5, 7, 10 or 14
	// days a move); Time and Increment must then be zero.
	Days int
	// Rated asks for a rated game (casual if false).
	Rated bool
	// Color is "white", "black", or "" / "random".
	Color string
	// Variant is the variant key ("" for standard).
	Variant string
	// RatingRange, e.g. "1500-1800", limits the opponents ("" for any).
	RatingRange string
}

// form checks the seek and writes it as lichess's form.
func (s Seek) form() (url.Values, error) {
	f := url.Values{"rated": {strconv.FormatBool(s.Rated)}}
	if s.Days != 0 {
		if s.Time != 0 || s.Increment != 0 {
			return nil, errors.New("a correspondence seek (Days) has no clock: leave Time and Increment zero")
		}
		switch s.Days {
		case 1, 2, 3, 5, 7, 10, 14:
		default:
			return nil, fmt.Errorf("days %d: want 1, 2, 3, 5, 7, 10 or 14", s.Days)
		}
		f.Set("days", strconv.Itoa(s.Days))
	} else {
		if s.Time < 0 || s.Time > 180*time.Minute || s.Increment < 0 || s.Increment > 180*time.Second {
			return nil, fmt.Errorf("clock %v+%v: want up to 180 minutes and 180 seconds", s.Time, s.Increment)
		}
		if s.Increment%time.Second != 0 {
			return nil, fmt.Errorf("increment %v: lichess takes whole seconds", s.Increment)
		}
		if s.Time+40*s.Increment < 8*time.Minute {
			return nil, fmt.Errorf("clock %v+%v is blitz or faster: the Board API seeks rapid and classical games (time + 40 × increment of 8 minutes or more)", s.Time, s.Increment)
		}
		f.Set("time", strconv.FormatFloat(s.Time.Minutes(), 'f', -1, 64))
		f.Set("increment", strconv.Itoa(int(s.Increment/time.Second)))
		switch s.Color {
		case "", "random":
		case "white", "black":
			f.Set("color", s.Color)
		default:
			return nil, fmt.Errorf("color %q: want white, black or random", s.Color)
		}
	}
	if s.Variant != "" {
		f.Set("variant", s.Variant)
	}
	if s.RatingRange != "" {
		f.Set("ratingRange", s.RatingRange)
	}
	return f, nil
}

// Seek posts a seek (POST /api/board/seek). A real-time seek lasts while
// the connection does: Seek returns nil when lichess closes it, which it
// does once the seek is accepted (the game then starts in the event
// stream, which should be open before seeking) or has expired; cancelling
// ctx withdraws the seek. A correspondence seek returns at once with the
// seek's id.
func (c *Client) Seek(ctx context.Context, s Seek) (string, error) {
	form, err := s.form()
	if err != nil {
		return "", fmt.Errorf("lichess: seek: %w", err)
	}
	r := request{method: "POST", path: "/api/board/seek", form: form, auth: true}
	if s.Days != 0 {
		var out struct {
			ID string `json:"id"`
		}
		if _, err := c.call(ctx, r, &out); err != nil {
			return "", err
		}
		return out.ID, nil
	}
	c.log.Info("lichess: seeking a game", "time", s.Time, "increment", s.Increment, "rated", s.Rated, "color", s.Color)
	err = c.stream(ctx, r, nil, func([]byte) error { return nil })
	if err != nil {
		return "", err
	}
	return "", nil
}

// AcceptChallenge accepts a challenge (POST /api/challenge/{id}/accept);
// the game then starts in the event stream.
func (c *Client) AcceptChallenge(ctx context.Context, id string) error {
	return c.okCall(ctx, request{method: "POST", path: "/api/challenge/" + url.PathEscape(id) + "/accept", auth: true})
}

// DeclineChallenge declines a challenge (POST
// /api/challenge/{id}/decline); reason is one of lichess's keys (generic,
// later, tooFast, tooSlow, timeControl, rated, casual, standard, variant,
// noBot, onlyBot) or "".
func (c *Client) DeclineChallenge(ctx context.Context, id, reason string) error {
	var form url.Values
	if reason != "" {
		form = url.Values{"reason": {reason}}
	}
	return c.okCall(ctx, request{method: "POST", path: "/api/challenge/" + url.PathEscape(id) + "/decline", form: form, auth: true})
}

// CancelChallenge withdraws a challenge the account made (POST
// /api/challenge/{id}/cancel).
func (c *Client) CancelChallenge(ctx context.Context, id string) error {
	return c.okCall(ctx, request{method: "POST", path: "/api/challenge/" + url.PathEscape(id) + "/cancel", auth: true})
}

// MoveOutcome is what became of a POSTed move.
type MoveOutcome int

// Outcomes of PostMove.
const (
	// MoveUnknown: no answer (no connection, a lost one, a timeout, or a
	// server error): lichess may or may not have played the move.
	MoveUnknown MoveOutcome = iota
	// MoveAccepted: lichess answered 200.
	MoveAccepted
	// MoveRefused: lichess answered 400 (not legal, not the turn, game
	// over); the move was not played.
	MoveRefused
)

// PostMove plays a move (POST /api/board/game/{id}/move/{uci}), offering
// or accepting a draw with it if offeringDraw. A 429 is waited out and the
// move sent again (lichess acts on no rate-limited request). It returns the
// outcome with the error (nil when accepted).
func (c *Client) PostMove(ctx context.Context, gameID, uci string, offeringDraw bool) (MoveOutcome, error) {
	if !validUCI(uci) {
		return MoveRefused, fmt.Errorf("lichess: move %q: %w: not UCI", clip(uci), ErrIllegalMove)
	}
	r := request{method: "POST", path: gamePath(gameID, "move", uci), auth: true}
	if offeringDraw {
		r.query = url.Values{"offeringDraw": {"true"}}
	}
	for {
		err := c.okCall(ctx, r)
		switch {
		case err == nil:
			c.stats.movesSent.Add(1)
			return MoveAccepted, nil
		case errors.Is(err, ErrRateLimited):
			if ctx.Err() != nil {
				return MoveUnknown, ctx.Err()
			}
			continue // awaitPause holds the next try back
		case errors.Is(err, ErrRefused):
			c.stats.movesRefused.Add(1)
			return MoveRefused, err
		case errors.Is(err, ErrTokenRejected), errors.Is(err, ErrMissingScope), errors.Is(err, ErrNotFound):
			// Lichess checked the token or the game before anything else:
			// the move was not played.
			return MoveRefused, err
		}
		return MoveUnknown, err
	}
}

// Draw offers or accepts a draw (accept true), or declines the opponent's
// offer (POST /api/board/game/{id}/draw/{yes|no}). Lichess answers ok even
// when there is nothing to do; the game's state shows the offers.
func (c *Client) Draw(ctx context.Context, gameID string, accept bool) error {
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "draw", yesNo(accept)), auth: true})
}

// Takeback proposes or accepts a takeback (accept true), or declines the
// opponent's proposal (POST /api/board/game/{id}/takeback/{yes|no}). A
// takeback asked by the side to move takes back two plies (the opponent's
// move and one's own), else one.
func (c *Client) Takeback(ctx context.Context, gameID string, accept bool) error {
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "takeback", yesNo(accept)), auth: true})
}

// Resign resigns the game (POST /api/board/game/{id}/resign); lichess
// aborts it instead while it may still be aborted.
func (c *Client) Resign(ctx context.Context, gameID string) error {
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "resign"), auth: true})
}

// Abort aborts the game (POST /api/board/game/{id}/abort), possible until
// both sides have moved.
func (c *Client) Abort(ctx context.Context, gameID string) error {
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "abort"), auth: true})
}

// ClaimVictory claims the game when the opponent has left it for longer
// than the time lichess gave in OpponentGone (POST
// /api/board/game/{id}/claim-victory).
func (c *Client) ClaimVictory(ctx context.Context, gameID string) error {
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "claim-victory"), auth: true})
}

// ClaimDraw claims a draw when the opponent has left the game (POST
// /api/board/game/{id}/claim-draw).
func (c *Client) ClaimDraw(ctx context.Context, gameID string) error {
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "claim-draw"), auth: true})
}

// Chat writes in the game's player or spectator chat (POST
// /api/board/game/{id}/chat).
func (c *Client) Chat(ctx context.Context, gameID, room, text string) error {
	if room != "player" && room != "spectator" {
		return fmt.Errorf("lichess: chat room %q: want player or spectator", room)
	}
	return c.okCall(ctx, request{method: "POST", path: gamePath(gameID, "chat"), form: url.Values{"room": {room}, "text": {text}}, auth: true})
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
