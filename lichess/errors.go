package lichess

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Errors a caller can test for with errors.Is. An *APIError matches the one
// its HTTP status stands for.
var (
	// ErrTokenRejected: lichess does not know the token (401): it was
	// revoked, mistyped or has expired.
	ErrTokenRejected = errors.New("lichess rejected the token (revoked, expired or mistyped)")
	// ErrMissingScope: the token lacks a scope the request needs (403), or
	// CheckToken found no board:play among its scopes.
	ErrMissingScope = errors.New("the token lacks the board:play scope")
	// ErrRefused: lichess refused the request as invalid (400), e.g. a move
	// that is not legal or not the player's turn.
	ErrRefused = errors.New("lichess refused the request")
	// ErrNotFound: no such game or challenge, or not the account's (404).
	ErrNotFound = errors.New("not found on lichess")
	// ErrRateLimited: lichess answered 429; every request now waits a full
	// minute.
	ErrRateLimited = errors.New("rate limited by lichess")
	// ErrStalled: a stream sent nothing, not even its keep-alive empty
	// line, for the stall timeout.
	ErrStalled = errors.New("stream stalled: nothing received within the stall timeout")
	// ErrGameOver: the game has ended; no move can be played.
	ErrGameOver = errors.New("the game is over")
	// ErrNotYourTurn: a move was handed over while the other side is to
	// move on the board.
	ErrNotYourTurn = errors.New("it is not the board's side to move")
	// ErrIllegalMove: a move handed over is not legal in the board's
	// position.
	ErrIllegalMove = errors.New("illegal move")
)

// APIError is an answer from lichess with a status other than 2xx. Its
// message is lichess's "error" field when the body has one.
type APIError struct {
	Method, Path string // the request, without host or query
	Status       int
	Message      string
	// RetryAfter is the Retry-After header of a 429, if lichess sent one.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("lichess: %s %s: %d: %s", e.Method, e.Path, e.Status, msg)
}

// Is makes errors.Is(err, ErrRefused) and the like true for the matching
// status.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrTokenRejected:
		return e.Status == http.StatusUnauthorized
	case ErrMissingScope:
		return e.Status == http.StatusForbidden
	case ErrRefused:
		return e.Status == http.StatusBadRequest
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	}
	return false
}

// fatal reports whether an error means retrying cannot help: the token is
// rejected or lacks a scope, or the thing asked for does not exist.
func fatal(err error) bool {
	return errors.Is(err, ErrTokenRejected) || errors.Is(err, ErrMissingScope) || errors.Is(err, ErrNotFound)
}

// clip shortens text quoted in an error.
func clip(s string) string {
	if len(s) > 16 {
		return s[:16] + "…"
	}
	return s
}
