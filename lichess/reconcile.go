package lichess

import (
	"fmt"

	"github.com/boardd/boardd/board"
)

// SendStatus is what boardd knows of a move it POSTed to lichess.
type SendStatus uint8

// Statuses of a sent move, from least to most known.
const (
	// SendPending: the move is being POSTed, or was and no answer came
	// (no connection, a lost one, a timeout): lichess may or may not have
	// played it. It is journaled as pending before the POST goes out.
	SendPending SendStatus = iota + 1
	// SendAccepted: lichess answered 200.
	SendAccepted
	// SendRefused: lichess answered 400; the move was not played.
	SendRefused
	// SendSeen: a state from lichess listed the move at its ply.
	SendSeen
)

var sendStatusNames = [...]string{SendPending: "pending", SendAccepted: "accepted", SendRefused: "refused", SendSeen: "seen"}

func (s SendStatus) String() string {
	if int(s) < len(sendStatusNames) && sendStatusNames[s] != "" {
		return sendStatusNames[s]
	}
	return fmt.Sprintf("SendStatus(%d)", int(s))
}

// MarshalText writes the status's name, for the journal.
func (s SendStatus) MarshalText() ([]byte, error) {
	if int(s) >= len(sendStatusNames) || sendStatusNames[s] == "" {
		return nil, fmt.Errorf("lichess: send status %d has no name", int(s))
	}
	return []byte(sendStatusNames[s]), nil
}

// UnmarshalText reads a status's name.
func (s *SendStatus) UnmarshalText(b []byte) error {
	for i, n := range sendStatusNames {
		if n != "" && n == string(b) {
			*s = SendStatus(i)
			return nil
		}
	}
	return fmt.Errorf("lichess: send status %q: want pending, accepted, refused or seen", clip(string(b)))
}

// Sent is one entry of the send log: a move of the board's side that boardd
// POSTed (or is about to) at a ply of the game. The log is journaled with the
// game, so that after a restart boardd knows what it may already have sent.
type Sent struct {
	Ply    int        `json:"ply"`  // 0 for the game's first move
	Move   string     `json:"move"` // UCI
	Status SendStatus `json:"status"`
	// Reason is lichess's message when it refused the move.
	Reason string `json:"reason,omitempty"`
}

// ReconcileInput is what Reconcile compares.
type ReconcileInput struct {
	// Server is the game's moves as lichess last listed them (gameFull or
	// gameState), in UCI.
	Server []string
	// ServerFinished says that state had ended the game.
	ServerFinished bool
	// Fresh says the state was read on a connection opened after every
	// POST of a pending or accepted entry had ended: it reflects whatever
	// those POSTs did. A state from an older connection may predate them.
	Fresh bool
	// Local is the game's moves as the board has them (boardd's journal),
	// in UCI: the moves shown from lichess and those the board's side made.
	Local []string
	// Sent is the send log.
	Sent []Sent
	// Side is the side the board plays; FirstToMove the side to move at
	// ply 0 (White, unless the game started from a position with Black to
	// move).
	Side, FirstToMove board.Color
}

// ConflictKind says why a move made on the board does not count.
type ConflictKind uint8

// Kinds of conflict.
const (
	// ConflictRefused: lichess refused the move (Reason says why).
	ConflictRefused ConflictKind = iota + 1
	// ConflictDiverged: the game went another way on lichess at or before
	// the move (a takeback, or a move made elsewhere), so it never counted.
	ConflictDiverged
	// ConflictGameOver: the game ended on lichess before the move counted.
	ConflictGameOver
)

var conflictNames = [...]string{ConflictRefused: "refused", ConflictDiverged: "diverged", ConflictGameOver: "game-over"}

func (k ConflictKind) String() string {
	if int(k) < len(conflictNames) && conflictNames[k] != "" {
		return conflictNames[k]
	}
	return fmt.Sprintf("ConflictKind(%d)", int(k))
}

// Conflict is a move of the board's side that lichess does not have and
// will not take: the board must be guided back.
type Conflict struct {
	Kind   ConflictKind
	Ply    int
	Move   string
	Reason string // lichess's refusal, for ConflictRefused
}

// Plan is what Reconcile decides: first take back Retract moves from the
// end of the board's game, then play Show (lichess's moves, usually the
// opponent's); send Send, if any; or Wait for lichess's word on a move sent.
type Plan struct {
	Retract int
	Show    []string
	// Send is a move of the board's side to POST at ply SendPly ("" for
	// none). The send log in Sent already lists it as pending: journal it
	// before sending.
	Send    string
	SendPly int
	// Wait says a move is sent and lichess's state does not show it yet;
	// a fresh state (a new connection) will settle it.
	Wait bool
	// Conflict is the first of the board's moves that will not count, if
	// any; it is among the moves retracted.
	Conflict *Conflict
	// Local is the board's game after Retract and Show.
	Local []string
	// Sent is the send log after this plan, to journal.
	Sent []Sent
}

// Changes reports whether the plan changes the board's game or reports a
// conflict.
func (p *Plan) Changes() bool { return p.Retract > 0 || len(p.Show) > 0 || p.Conflict != nil }

// Reconcile decides how to bring the board's game and lichess's together
// from lichess's moves, the board's moves and the send log. It is a pure
// function: the same input gives the same plan, so boardd can apply it after
// a drop, a reconnection, or a restart from its journal alike.
//
// Lichess is the authority. Where the two agree on a common start, what
// follows decides:
//   - lichess has more moves: the board shows them;
//   - the board has one more move, of its own side, at the ply lichess is
//     waiting for: it is sent unless the log shows it sent, in which case
//     Reconcile waits while the send may still land, sends it again once a
//     fresh state shows it did not, takes it back if lichess listed or
//     accepted it and has since taken it back, and takes it back as a
//     conflict if lichess refused it;
//   - the board has other moves lichess no longer has (a takeback), or the
//     two differ (moves made elsewhere): the board takes its moves back to
//     the common start and shows lichess's. A move of the board's side
//     among those taken back that lichess never had is a conflict.
//
// A move is therefore sent only while no earlier POST of it can still be
// played, and never at a ply lichess has filled.
func Reconcile(in ReconcileInput) Plan {
	ours := func(ply int) bool { return (ply%2 == 0) == (in.FirstToMove == in.Side) }
	server, local := in.Server, in.Local

	// p is the length of the start both games share.
	p := 0
	for p < len(server) && p < len(local) && server[p] == local[p] {
		p++
	}
	// The log entries that still describe a move of the board's, the
	// latest per ply, marked seen where lichess lists them in the shared
	// start.
	sent := make([]Sent, 0, len(in.Sent)+1)
	for _, s := range in.Sent {
		if s.Ply < 0 || s.Ply >= len(local) || local[s.Ply] != s.Move || !ours(s.Ply) {
			continue
		}
		if s.Ply < p {
			s.Status, s.Reason = SendSeen, ""
		}
		sent = upsertSent(sent, s)
	}
	extra := local[p:]
	var plan Plan
	// lost finds the first move of the board's side among the extra moves
	// that lichess never took, for a conflict of the given kind.
	lost := func(kind ConflictKind) *Conflict {
		for i, m := range extra {
			ply := p + i
			if !ours(ply) {
				continue
			}
			e, ok := findSent(sent, ply)
			switch {
			case ok && (e.Status == SendSeen || e.Status == SendAccepted):
				continue // it counted, then was taken back
			case ok && e.Status == SendRefused:
				return &Conflict{Kind: ConflictRefused, Ply: ply, Move: m, Reason: e.Reason}
			}
			return &Conflict{Kind: kind, Ply: ply, Move: m}
		}
		return nil
	}

	switch {
	case len(extra) == 0:
		plan.Show = server[p:]
	case p < len(server):
		plan.Retract, plan.Show = len(extra), server[p:]
		plan.Conflict = lost(ConflictDiverged)
	case in.ServerFinished:
		plan.Retract = len(extra)
		plan.Conflict = lost(ConflictGameOver)
	case len(extra) == 1 && ours(p):
		e, ok := findSent(sent, p)
		switch {
		case !ok:
			plan.Send, plan.SendPly = extra[0], p
		case e.Status == SendPending && in.Fresh:
			plan.Send, plan.SendPly = extra[0], p
		case e.Status == SendPending:
			plan.Wait = true
		case e.Status == SendAccepted && !in.Fresh:
			plan.Wait = true
		case e.Status == SendRefused:
			plan.Retract = 1
			plan.Conflict = &Conflict{Kind: ConflictRefused, Ply: p, Move: extra[0], Reason: e.Reason}
		default: // seen, or accepted and absent from a fresh state: taken back
			plan.Retract = 1
		}
	default:
		plan.Retract = len(extra)
		plan.Conflict = lost(ConflictDiverged)
	}

	plan.Local = make([]string, 0, len(local)-plan.Retract+len(plan.Show))
	plan.Local = append(plan.Local, local[:len(local)-plan.Retract]...)
	plan.Local = append(plan.Local, plan.Show...)
	if len(plan.Show) == 0 {
		plan.Show = nil
	} else {
		plan.Show = append([]string(nil), plan.Show...)
	}

	// Keep the entries of moves not taken back, of the last two plies
	// (enough to tell a takeback of the board's last move from a move never
	// sent), and add the one to send.
	keep := sent[:0]
	for _, s := range sent {
		if s.Ply < len(local)-plan.Retract && s.Ply >= len(plan.Local)-2 {
			keep = append(keep, s)
		}
	}
	if plan.Send != "" {
		keep = upsertSent(keep, Sent{Ply: plan.SendPly, Move: plan.Send, Status: SendPending})
	}
	plan.Sent = keep
	return plan
}

func findSent(log []Sent, ply int) (Sent, bool) {
	for _, s := range log {
		if s.Ply == ply {
			return s, true
		}
	}
	return Sent{}, false
}

// upsertSent replaces the entry of s's ply, or appends s, keeping the log
// in ply order.
func upsertSent(log []Sent, s Sent) []Sent {
	for i := range log {
		if log[i].Ply == s.Ply {
			log[i] = s
			return log
		}
	}
	log = append(log, s)
	for i := len(log) - 1; i > 0 && log[i].Ply < log[i-1].Ply; i-- {
		log[i], log[i-1] = log[i-1], log[i]
	}
	return log
}
