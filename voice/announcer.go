package voice

import (
	"sync"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
)

// Announcer turns a game's reports and snapshots into the lines boardd
// says, and hands each to say as it comes: a move once it is made (a move
// pending is never announced), the opponent's move to carry out (the
// snapshot's Awaiting, once each), an irregularity, a ruling, the result.
// It answers requests for the clocks, the last move again and the
// position. Report and Snapshot are called on the game's loop goroutine
// (Runner.OnReport, Runner.OnChange); the requests may come from any
// goroutine. say must not block (a Speaker's Say queues).
type Announcer struct {
	words Words
	say   func(string)

	mu       sync.Mutex
	pos      board.Position // the game's position as last seen
	known    bool           // pos is known
	snap     *game.Snapshot // the last snapshot
	lastMove string         // the last move's words
	awaiting string         // the awaited move announced, "" when none waits
}

// NewAnnouncer returns an announcer of w's words that hands each line to
// say.
func NewAnnouncer(w Words, say func(string)) *Announcer {
	return &Announcer{words: w, say: say}
}

// Report announces what a report says, if it says anything a player must
// hear: a move, an irregularity, a ruling, a result.
func (a *Announcer) Report(r report.Report) {
	a.mu.Lock()
	line := a.reportLine(r)
	a.mu.Unlock()
	if line != "" {
		a.say(line)
	}
}

// reportLine returns the words of r ("" for none), keeping the position.
func (a *Announcer) reportLine(r report.Report) string {
	switch r.Type {
	case report.Move:
		line := a.moveWords(r)
		a.lastMove = line
		if p, err := board.ParseFEN(r.FEN); err == nil {
			a.pos, a.known = p, true
		}
		return line
	case report.Irregularity:
		return a.words.Irregularity(r, a.position())
	case report.Ruling:
		return a.words.Ruling(r, a.position())
	case report.Result:
		return a.words.Result(r)
	}
	return ""
}

// position returns a copy of the position last seen, nil if none.
func (a *Announcer) position() *board.Position {
	if !a.known {
		return nil
	}
	p := a.pos
	return &p
}

// moveWords returns the words of a move report, played in the position
// last seen; where that position does not hold the move's man, the words
// come from the SAN alone.
func (a *Announcer) moveWords(r report.Report) string {
	m, err := board.ParseUCI(r.UCI)
	if err != nil {
		return r.SAN
	}
	if a.known {
		if mv, err := Describe(a.pos, m); err == nil {
			return a.words.Move(mv)
		}
	}
	return a.words.Move(fromSAN(r, m))
}

// fromSAN reads what a move did from its SAN and UCI, where the position
// it was played in is not known: en passant cannot be told apart from
// another pawn capture, nor the man taken named.
func fromSAN(r report.Report, m board.Move) Move {
	mv := Move{From: m.From, To: m.To, Promo: m.Promo, Piece: board.Pawn}
	if c, err := board.ParseColor(r.Side); err == nil {
		mv.Side = c
	}
	san := r.SAN
	switch {
	case len(san) >= 5 && san[:5] == "O-O-O":
		mv.Piece, mv.Castling = board.King, -1
	case len(san) >= 3 && san[:3] == "O-O":
		mv.Piece, mv.Castling = board.King, 1
	case san != "":
		if man, ok := board.ManFromFEN(san[0]); ok && san[0] >= 'A' && san[0] <= 'Z' {
			mv.Piece = man.Kind()
		}
	}
	for i := 0; i < len(san); i++ {
		switch san[i] {
		case 'x':
			mv.Capture = true // a man of a kind unknown
		case '+':
			mv.Check = true
		case '#':
			mv.Check, mv.Mate = true, true
		}
	}
	return mv
}

// Snapshot keeps the game's position and announces the opponent's move to
// carry out when one newly awaits.
func (a *Announcer) Snapshot(s *game.Snapshot) {
	a.mu.Lock()
	a.snap = s
	a.pos, a.known = s.Position, true
	line := ""
	if s.HasAwaiting {
		if mv, err := Describe(s.Position, s.Awaiting); err == nil {
			if w := a.words.Awaiting(mv); w != a.awaiting {
				a.awaiting, line = w, w
			}
		}
	} else {
		a.awaiting = ""
	}
	a.mu.Unlock()
	if line != "" {
		a.say(line)
	}
}

// Clocks says both clocks, and reports whether a clock runs to be read.
func (a *Announcer) Clocks() bool {
	a.mu.Lock()
	var line string
	if a.snap != nil && a.snap.Clocks != nil {
		line = a.words.Clocks(a.snap.Clocks.WhiteLeft, a.snap.Clocks.BlackLeft)
	}
	a.mu.Unlock()
	if line == "" {
		return false
	}
	a.say(line)
	return true
}

// RepeatLast says the last move again, and reports whether there was one.
func (a *Announcer) RepeatLast() bool {
	a.mu.Lock()
	line := a.lastMove
	if a.awaiting != "" {
		line = a.awaiting
	}
	a.mu.Unlock()
	if line == "" {
		return false
	}
	a.say(line)
	return true
}

// Position says the position piece by piece, and reports whether one is
// known.
func (a *Announcer) Position() bool {
	a.mu.Lock()
	line := ""
	if a.known {
		line = a.words.Position(a.pos)
	}
	a.mu.Unlock()
	if line == "" {
		return false
	}
	a.say(line)
	return true
}
