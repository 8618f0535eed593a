package computer

import (
	"errors"
	"fmt"
	"strings"
)

// Fault is what went wrong with an engine.
type Fault int

const (
	// FaultMissing: the engine could not be started (no such file, not
	// executable, not a program).
	FaultMissing Fault = iota + 1
	// FaultHandshake: the engine did not finish its handshake in time (no
	// "uciok" after "uci", no "readyok" after "isready").
	FaultHandshake
	// FaultCrashed: the engine's process ended without being told to.
	FaultCrashed
	// FaultHung: the engine stopped answering: no "bestmove" even after
	// "stop".
	FaultHung
	// FaultGarbage: the engine answered something that is not a legal move
	// in the position it was given, or no move at all.
	FaultGarbage
)

// String names the fault as the error messages do.
func (f Fault) String() string {
	switch f {
	case FaultMissing:
		return "cannot start"
	case FaultHandshake:
		return "no handshake"
	case FaultCrashed:
		return "crashed"
	case FaultHung:
		return "hung"
	case FaultGarbage:
		return "answered garbage"
	}
	return fmt.Sprintf("fault %d", int(f))
}

// FaultError reports an engine that misbehaved: which engine, what it was
// doing, what it did, and the last lines it wrote. The player restarts an
// engine after any fault (see Options.Restarts).
type FaultError struct {
	Engine    string   // the engine's "id name", or its path when it never said
	Path      string   // the executable
	Fault     Fault    // what went wrong
	During    string   // what the engine was doing: "starting", "searching", ...
	Detail    string   // what it did, in words
	LastWords []string // the engine's last lines since "uci" or "go" that had been read when the fault was noticed, oldest first
	Err       error    // the underlying error, if any
}

// Error reads like "computer: engine Stockfish 16 (/usr/games/stockfish)
// crashed while searching: exit status 1; its last words: ...".
func (e *FaultError) Error() string {
	var b strings.Builder
	b.WriteString("computer: engine ")
	if e.Engine != "" && e.Engine != e.Path {
		fmt.Fprintf(&b, "%s (%s)", e.Engine, e.Path)
	} else {
		fmt.Fprintf(&b, "%q", e.Path)
	}
	fmt.Fprintf(&b, " %s while %s", e.Fault, e.During)
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if len(e.LastWords) > 0 {
		b.WriteString("; its last words: ")
		for i, l := range e.LastWords {
			if i > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprintf(&b, "%q", l)
		}
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *FaultError) Unwrap() error { return e.Err }

// ErrClosed is the answer to a request made of, or pending when, a player is
// closed.
var ErrClosed = errors.New("computer: player closed")

// ErrGameOver is the answer to a request for a move in a position with none:
// checkmate or stalemate.
var ErrGameOver = errors.New("computer: the game is over: no legal move")
