package computer

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/corentings/chess/v2/uci"
)

// Request is a game for the computer to answer: its initial position, the
// moves played since, and the clocks when there is a time control.
type Request struct {
	// StartFEN is the game's initial position; "" is the standard start.
	StartFEN string
	// Moves are the moves played since, in UCI ("e2e4", "e1g1", "e7e8q").
	Moves []string
	// Clocks are the players' clocks when the game has a time control; nil
	// lets the level's per-move limit decide how long the engine thinks.
	Clocks *Clocks
	// DrawOffered says the opponent's draw offer stands; the reply says
	// whether the computer accepts it (see DrawPolicy).
	DrawOffered bool
}

// Clocks are the time left on both clocks when the request is made, and the
// time control's increments and moves to the next control.
type Clocks struct {
	White, Black       time.Duration // time left
	WhiteInc, BlackInc time.Duration // added after each move
	// MovesToGo is the number of moves to the next time control; 0 when
	// the rest of the game is played on this time (sudden death, or an
	// increment alone).
	MovesToGo int
}

// game is a request checked and encoded: every move legal, the position it
// leads to analysed, and the UCI "position" command that gives it to an
// engine.
type game struct {
	startFEN string   // the initial position as board writes it
	moves    []string // the moves in UCI as board writes them
	final    *board.Analysis
	command  string // "position startpos moves e2e4 e7e5", "position fen ..."
}

// prepare checks req and encodes it. A request that continues the game of
// prev (same start, prev's moves then more) replays only the new moves, so a
// game of many moves costs the same per request as a short one.
func prepare(req Request, prev *game) (*game, error) {
	startFEN := req.StartFEN
	if startFEN == "" {
		startFEN = board.StartFEN
	}
	var (
		g    = &game{moves: make([]string, 0, len(req.Moves))}
		a    *board.Analysis
		from int
	)
	if prev != nil && startFEN == prev.startFEN && isPrefix(prev.moves, req.Moves) {
		g.startFEN = prev.startFEN
		g.moves = append(g.moves, prev.moves...)
		a, from = prev.final, len(prev.moves)
	} else {
		start, err := board.ParseFEN(startFEN)
		if err != nil {
			return nil, fmt.Errorf("computer: request: start position: %w", err)
		}
		g.startFEN = start.FEN()
		if a, err = board.Analyse(start); err != nil {
			return nil, fmt.Errorf("computer: request: start position: %w", err)
		}
	}
	for i := from; i < len(req.Moves); i++ {
		m, err := board.ParseUCI(req.Moves[i])
		if err != nil {
			return nil, fmt.Errorf("computer: request: move %d: %w", i+1, err)
		}
		if !a.IsLegal(m) {
			return nil, fmt.Errorf("computer: request: move %d (%s) is not legal in %s", i+1, req.Moves[i], a.Position.FEN())
		}
		next, err := board.Analyse(a.Position.Apply(m))
		if err != nil {
			return nil, fmt.Errorf("computer: request: after move %d (%s): %w", i+1, req.Moves[i], err)
		}
		g.moves = append(g.moves, m.UCI())
		a = next
	}
	g.final = a
	var b strings.Builder
	b.Grow(len("position fen ") + 90 + 6*len(g.moves))
	if g.startFEN == board.StartFEN {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen ")
		b.WriteString(g.startFEN)
	}
	if len(g.moves) > 0 {
		b.WriteString(" moves")
		for _, m := range g.moves {
			b.WriteByte(' ')
			b.WriteString(m)
		}
	}
	g.command = b.String()
	return g, nil
}

// isPrefix reports whether short is a prefix of long.
func isPrefix(short, long []string) bool {
	if len(short) > len(long) {
		return false
	}
	for i := range short {
		if short[i] != long[i] {
			return false
		}
	}
	return true
}

// continues reports whether g carries on the game of prev: the same start,
// prev's moves then perhaps more. A game that does not is a new game for the
// engine ("ucinewgame").
func (g *game) continues(prev *game) bool {
	return prev != nil && g.startFEN == prev.startFEN && isPrefix(prev.moves, g.moves)
}

// over returns ErrGameOver, with the reason, when the side to move has no move.
func (g *game) over() error {
	switch {
	case g.final.Checkmate():
		return fmt.Errorf("%w (checkmate in %s)", ErrGameOver, g.final.Position.FEN())
	case g.final.Stalemate():
		return fmt.Errorf("%w (stalemate in %s)", ErrGameOver, g.final.Position.FEN())
	}
	return nil
}

// positionCmd is the UCI "position" command, sent through the rules library
// as a command of this package's own. The library's CmdPosition would need
// the position as a *chess.Position, which only the library's FEN decoder
// makes, and that decoder shares a package-level buffer between calls (a data
// race when several games start at once; board parses FEN itself for that
// reason). CmdPosition would also make the library decode the engine's
// bestmove against the game's initial position rather than the position after
// the moves; with this command it decodes the move's squares alone, and the
// player checks it against the right position.
type positionCmd string

// String is the command line.
func (c positionCmd) String() string { return string(c) }

// ProcessResponse expects nothing: "position" has no answer.
func (positionCmd) ProcessResponse(*uci.Engine) error { return nil }

// goCmd is the library's "go" command with one addition: it tells when the
// library has handed the line to the engine's pipe, so that a "stop" sent on
// cancellation cannot overtake the "go" it is meant to stop.
type goCmd struct {
	uci.CmdGo
	written chan struct{}
}

// ProcessResponse notes that "go" is written, then reads the search's answer
// as the library does.
func (c goCmd) ProcessResponse(e *uci.Engine) error {
	close(c.written)
	return c.CmdGo.ProcessResponse(e)
}

// goFor builds the "go" command for a search at limit, or on the clocks when
// the game has a time control (a depth or node limit still caps it), and the
// time the search is expected to take at most: the move time, the mover's
// time left, or maxThink when only depth or nodes bound it.
func goFor(limit Limit, clocks *Clocks, turn board.Color, maxThink time.Duration) (uci.CmdGo, time.Duration) {
	atLeastMs := func(d time.Duration) time.Duration { return max(d, time.Millisecond) }
	g := uci.CmdGo{Depth: limit.Depth, Nodes: limit.Nodes}
	if clocks != nil {
		g.WhiteTime, g.BlackTime = atLeastMs(clocks.White), atLeastMs(clocks.Black)
		g.WhiteIncrement, g.BlackIncrement = clocks.WhiteInc, clocks.BlackInc
		g.MovesToGo = clocks.MovesToGo
		own := g.WhiteTime
		if turn == board.Black {
			own = g.BlackTime
		}
		return g, min(own, maxThink)
	}
	if limit.MoveTime > 0 {
		g.MoveTime = atLeastMs(limit.MoveTime.Round(time.Millisecond))
		return g, g.MoveTime
	}
	return g, maxThink
}
