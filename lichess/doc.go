// Package lichess plays a game on lichess.org from a physical board, through
// lichess's Board API: the account's token and its scopes, seeks and
// challenges, the account's event stream and a game's state stream
// (newline-delimited JSON), moves, draw offers, takebacks, resignation,
// aborting and claims.
//
// Links fail and the game must not. Streams are read with a stall detector
// (lichess writes an empty line every 6 to 7 seconds) and reconnected with
// backoff; a 429 answer holds every request back for a full minute, as lichess
// asks. A Game follows one game across drops, restarts of lichess and restarts
// of boardd: it resynchronises from the move list lichess sends on each
// connection and decides what to send and what to show with Reconcile, a pure
// function of lichess's moves, the board's moves and the log of moves already
// sent, so that a move made while offline is sent once when the link is back,
// and none is sent twice.
//
// Every timer (backoff, the rate-limit pause, the stall detector, request
// timeouts) runs on an injected timing.Clock and wait function, so tests drive
// time. The token goes only into the Authorization header; it never appears
// in a log line, an error or a formatted value (Token redacts itself).
//
// The package follows the lichess OpenAPI description named by SpecVersion and
// SpecCommit; lichesstest is a local server implementing the same endpoints.
package lichess

// The version of lichess's published OpenAPI description
// (github.com/lichess-org/api, doc/specs/lichess-api.yaml) this package was
// written against, and the commit of that repository it was read at.
const (
	SpecVersion = "2.0.165"
	SpecCommit  = "f59dc80500ca0db2ac6669aa9bedfdef45f3e47d"
)
