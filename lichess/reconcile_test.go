package lichess

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boardd/boardd/board"
)

func mv(s string) []string { return strings.Fields(s) }

func TestReconcileTable(t *testing.T) {
	W, B := board.White, board.Black
	type want struct {
		retract  int
		show     string
		send     string
		sendPly  int
		wait     bool
		conflict *Conflict
		sent     []Sent
	}
	cases := []struct {
		name     string
		server   string
		finished bool
		fresh    bool
		local    string
		sent     []Sent
		side     board.Color
		first    board.Color
		want     want
	}{
		{name: "new game, nothing played", side: W, first: W},
		{name: "in step", server: "e2e4 e7e5", local: "e2e4 e7e5", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendSeen, ""}},
			want: want{sent: []Sent{{0, "e2e4", SendSeen, ""}}}},
		{name: "the opponent replied: show it, and the sent move is seen", server: "e2e4 e7e5", local: "e2e4", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendAccepted, ""}},
			want: want{show: "e7e5", sent: []Sent{{0, "e2e4", SendSeen, ""}}}},
		{name: "resume with an empty board record: show every move", server: "e2e4 e7e5 g1f3", local: "", side: B, first: W,
			want: want{show: "e2e4 e7e5 g1f3"}},
		{name: "journal behind lichess after a restart", server: "e2e4 e7e5 g1f3 b8c6", local: "e2e4", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendPending, ""}},
			want: want{show: "e7e5 g1f3 b8c6"}},
		{name: "the board's move, never sent: send it", server: "e2e4 e7e5", local: "e2e4 e7e5 g1f3", side: W, first: W,
			want: want{send: "g1f3", sendPly: 2, sent: []Sent{{2, "g1f3", SendPending, ""}}}},
		{name: "sent, no answer, state not fresh: wait", server: "e2e4 e7e5", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendPending, ""}},
			want: want{wait: true, sent: []Sent{{2, "g1f3", SendPending, ""}}}},
		{name: "sent, no answer, a fresh state lacks it: send again", server: "e2e4 e7e5", fresh: true, local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendPending, ""}},
			want: want{send: "g1f3", sendPly: 2, sent: []Sent{{2, "g1f3", SendPending, ""}}}},
		{name: "accepted, the state predates it: wait", server: "e2e4 e7e5", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendAccepted, ""}},
			want: want{wait: true, sent: []Sent{{2, "g1f3", SendAccepted, ""}}}},
		{name: "accepted, a fresh state lacks it: taken back, no conflict", server: "e2e4 e7e5", fresh: true, local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendAccepted, ""}},
			want: want{retract: 1}},
		{name: "seen, now gone: the board's last move taken back", server: "e2e4 e7e5", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendSeen, ""}, {2, "g1f3", SendSeen, ""}},
			want: want{retract: 1, sent: []Sent{{0, "e2e4", SendSeen, ""}}}},
		{name: "refused: guide it back", server: "e2e4 e7e5", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendRefused, "Not your turn, or game already over"}},
			want: want{retract: 1, conflict: &Conflict{ConflictRefused, 2, "g1f3", "Not your turn, or game already over"}}},
		{name: "takeback of two plies", server: "e2e4 e7e5", local: "e2e4 e7e5 g1f3 b8c6", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendSeen, ""}},
			want: want{retract: 2}},
		{name: "takeback of the opponent's move, then another reply", server: "e2e4 e7e5 g1f3 d7d6", local: "e2e4 e7e5 g1f3 b8c6", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendSeen, ""}},
			want: want{retract: 1, show: "d7d6", sent: []Sent{{2, "g1f3", SendSeen, ""}}}},
		{name: "takeback while the board's offline move waited", server: "e2e4 e7e5 g1f3", local: "e2e4 e7e5 g1f3 b8c6 f1b5", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendSeen, ""}, {4, "f1b5", SendPending, ""}},
			want: want{retract: 2, conflict: &Conflict{ConflictDiverged, 4, "f1b5", ""}, sent: []Sent{{2, "g1f3", SendSeen, ""}}}},
		{name: "a move made elsewhere overtakes the board's", server: "e2e4 e7e5 g1f3", local: "e2e4 e7e5 f1c4", side: W, first: W,
			sent: []Sent{{2, "f1c4", SendPending, ""}},
			want: want{retract: 1, show: "g1f3", conflict: &Conflict{ConflictDiverged, 2, "f1c4", ""}}},
		{name: "a move made elsewhere, the board's refused", server: "e2e4 e7e5 g1f3", local: "e2e4 e7e5 f1c4", side: W, first: W,
			sent: []Sent{{2, "f1c4", SendRefused, "Not your turn, or game already over"}},
			want: want{retract: 1, show: "g1f3", conflict: &Conflict{ConflictRefused, 2, "f1c4", "Not your turn, or game already over"}}},
		{name: "the game ended before the board's move counted", server: "e2e4 e7e5", finished: true, fresh: true, local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendPending, ""}},
			want: want{retract: 1, conflict: &Conflict{ConflictGameOver, 2, "g1f3", ""}}},
		{name: "the game ended in step", server: "f2f3 e7e5 g2g4 d8h4", finished: true, local: "f2f3 e7e5 g2g4 d8h4", side: B, first: W,
			sent: []Sent{{3, "d8h4", SendAccepted, ""}},
			want: want{sent: []Sent{{3, "d8h4", SendSeen, ""}}}},
		{name: "playing black: send the reply", server: "e2e4", local: "e2e4 e7e5", side: B, first: W,
			want: want{send: "e7e5", sendPly: 1, sent: []Sent{{1, "e7e5", SendPending, ""}}}},
		{name: "black to move first (from a position)", server: "", local: "e7e5", side: B, first: B,
			want: want{send: "e7e5", sendPly: 0, sent: []Sent{{0, "e7e5", SendPending, ""}}}},
		{name: "an opponent's move lichess no longer has", server: "e2e4", local: "e2e4 e7e5", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendSeen, ""}},
			want: want{retract: 1, sent: []Sent{{0, "e2e4", SendSeen, ""}}}},
		{name: "the opponent's move dropped, the board's reply never counted", server: "e2e4", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendPending, ""}},
			want: want{retract: 2, conflict: &Conflict{ConflictDiverged, 2, "g1f3", ""}}},
		{name: "stale entries are dropped", server: "e2e4 e7e5", local: "e2e4 e7e5", side: W, first: W,
			sent: []Sent{{0, "d2d4", SendPending, ""}, {1, "e7e5", SendPending, ""}, {5, "g1f3", SendPending, ""}, {-1, "a2a3", SendSeen, ""}}},
		{name: "a pending move lichess lists is seen", server: "e2e4 e7e5 g1f3 b8c6", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendPending, ""}},
			want: want{show: "b8c6", sent: []Sent{{2, "g1f3", SendSeen, ""}}}},
		{name: "a refusal lichess contradicts (an earlier send landed) is seen", server: "e2e4 e7e5 g1f3", local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendRefused, "Not your turn, or game already over"}},
			want: want{sent: []Sent{{2, "g1f3", SendSeen, ""}}}},
		{name: "the latest entry of a ply counts", server: "e2e4 e7e5", fresh: true, local: "e2e4 e7e5 g1f3", side: W, first: W,
			sent: []Sent{{2, "g1f3", SendPending, ""}, {2, "g1f3", SendRefused, "Piece on g1 cannot move to f3"}},
			want: want{retract: 1, conflict: &Conflict{ConflictRefused, 2, "g1f3", "Piece on g1 cannot move to f3"}}},
		{name: "the log keeps the last two plies", server: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", local: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendSeen, ""}, {2, "g1f3", SendSeen, ""}, {4, "f1b5", SendAccepted, ""}},
			want: want{sent: []Sent{{4, "f1b5", SendSeen, ""}}}},
		{name: "a first move taken elsewhere: the whole record is replaced", server: "d2d4 e7e5", local: "e2e4 e7e5", side: W, first: W,
			sent: []Sent{{0, "e2e4", SendPending, ""}},
			want: want{retract: 2, show: "d2d4 e7e5", conflict: &Conflict{ConflictDiverged, 0, "e2e4", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := ReconcileInput{
				Server: mv(c.server), ServerFinished: c.finished, Fresh: c.fresh, Local: mv(c.local),
				Sent: slices.Clone(c.sent), Side: c.side, FirstToMove: c.first,
			}
			got := Reconcile(in)
			if got.Retract != c.want.retract || strings.Join(got.Show, " ") != c.want.show || got.Send != c.want.send ||
				(got.Send != "" && got.SendPly != c.want.sendPly) || got.Wait != c.want.wait {
				t.Errorf("plan: retract %d, show %q, send %q@%d, wait %v\nwant retract %d, show %q, send %q@%d, wait %v",
					got.Retract, strings.Join(got.Show, " "), got.Send, got.SendPly, got.Wait,
					c.want.retract, c.want.show, c.want.send, c.want.sendPly, c.want.wait)
			}
			if !reflect.DeepEqual(got.Conflict, c.want.conflict) {
				t.Errorf("conflict %+v, want %+v", got.Conflict, c.want.conflict)
			}
			if len(got.Sent) != 0 || len(c.want.sent) != 0 {
				if !reflect.DeepEqual(got.Sent, c.want.sent) {
					t.Errorf("send log %+v, want %+v", got.Sent, c.want.sent)
				}
			}
			wantLocal := append(slices.Clone(in.Local[:len(in.Local)-got.Retract]), got.Show...)
			if !slices.Equal(got.Local, wantLocal) {
				t.Errorf("local %v, want %v", got.Local, wantLocal)
			}
			if !reflect.DeepEqual(in.Sent, c.sent) {
				t.Errorf("Reconcile changed its input's send log: %+v", in.Sent)
			}
		})
	}
}

// TestReconcileExhaustive runs Reconcile on every combination of lichess's
// moves and the board's (sequences of up to four plies over a two-way
// tree), a status (or none) for each of the board's moves, fresh or not,
// finished or not, either side, and checks the invariants that make the
// link safe: lichess is followed, a move is sent only at the ply lichess
// awaits and only when no earlier send of it can still land, and nothing is
// dropped without a conflict unless lichess had it.
func TestReconcileExhaustive(t *testing.T) {
	var seqs [][]string
	var grow func(prefix []string)
	grow = func(prefix []string) {
		seqs = append(seqs, slices.Clone(prefix))
		if len(prefix) == 4 {
			return
		}
		for _, c := range []string{"a", "b"} {
			grow(append(prefix, fmt.Sprintf("%s%d", c, len(prefix))))
		}
	}
	grow(nil)
	statuses := []SendStatus{0, SendPending, SendAccepted, SendRefused, SendSeen}
	checked := 0
	for _, side := range []board.Color{board.White, board.Black} {
		ours := func(ply int) bool { return (ply%2 == 0) == (side == board.White) }
		for _, server := range seqs {
			for _, local := range seqs {
				var plies []int
				for p := range local {
					if ours(p) {
						plies = append(plies, p)
					}
				}
				combos := 1
				for range plies {
					combos *= len(statuses)
				}
				for combo := 0; combo < combos; combo++ {
					var log []Sent
					k := combo
					for _, p := range plies {
						if st := statuses[k%len(statuses)]; st != 0 {
							log = append(log, Sent{Ply: p, Move: local[p], Status: st, Reason: "r"})
						}
						k /= len(statuses)
					}
					for _, fresh := range []bool{false, true} {
						for _, finished := range []bool{false, true} {
							in := ReconcileInput{Server: server, ServerFinished: finished, Fresh: fresh, Local: local, Sent: log, Side: side, FirstToMove: board.White}
							checkPlan(t, in, Reconcile(in))
							checked++
						}
					}
				}
			}
		}
	}
	t.Logf("%d inputs checked", checked)
}

func checkPlan(t *testing.T, in ReconcileInput, p Plan) {
	t.Helper()
	ours := func(ply int) bool { return (ply%2 == 0) == (in.FirstToMove == in.Side) }
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("server %v finished %v fresh %v local %v sent %+v side %v:\nplan %+v\n"+format,
			append([]any{in.Server, in.ServerFinished, in.Fresh, in.Local, in.Sent, in.Side, p}, args...)...)
	}
	status := func(ply int) SendStatus {
		var st SendStatus
		for _, s := range in.Sent {
			if s.Ply == ply && ply < len(in.Local) && in.Local[ply] == s.Move {
				st = s.Status
			}
		}
		return st
	}
	if p.Retract < 0 || p.Retract > len(in.Local) {
		fail("retract out of range")
	}
	kept := in.Local[:len(in.Local)-p.Retract]
	if !slices.Equal(p.Local, append(slices.Clone(kept), p.Show...)) {
		fail("Local is not the record after Retract and Show")
	}
	// Lichess is followed: the board ends on lichess's moves, or on them
	// plus one move of its own awaiting lichess.
	switch {
	case slices.Equal(p.Local, in.Server):
		if p.Send != "" || p.Wait {
			fail("in step with lichess, yet sending or waiting")
		}
	case len(p.Local) == len(in.Server)+1 && slices.Equal(p.Local[:len(in.Server)], in.Server):
		ply := len(in.Server)
		if !ours(ply) || in.ServerFinished {
			fail("the board keeps a move lichess cannot take")
		}
		if (p.Send != "") == p.Wait {
			fail("one move ahead of lichess: want exactly one of send and wait")
		}
		if p.Retract != 0 || len(p.Show) != 0 {
			fail("changes the board while a move is outstanding")
		}
	default:
		fail("the board does not follow lichess")
	}
	if p.Send != "" {
		if p.SendPly != len(in.Server) || p.Local[p.SendPly] != p.Send {
			fail("sends at ply %d, lichess awaits ply %d", p.SendPly, len(in.Server))
		}
		switch st := status(p.SendPly); {
		case st == SendAccepted || st == SendSeen || st == SendRefused:
			fail("sends a move lichess has answered (%v)", st)
		case st == SendPending && !in.Fresh:
			fail("sends again while the first send may still land")
		}
	}
	if p.Wait {
		if st := status(len(in.Server)); in.Fresh || st != SendPending && st != SendAccepted {
			fail("waits on a fresh state, or with nothing sent (status %v)", st)
		}
	}
	// Every move of the board's side taken back either counted on lichess
	// (seen or accepted) or is reported: the first such as the conflict.
	var firstLost int = -1
	for ply := len(kept); ply < len(in.Local); ply++ {
		if ours(ply) && status(ply) != SendSeen && status(ply) != SendAccepted {
			firstLost = ply
			break
		}
	}
	switch {
	case firstLost < 0 && p.Conflict != nil:
		fail("a conflict when every retracted move counted")
	case firstLost >= 0 && p.Conflict == nil:
		fail("the board's move at ply %d is dropped without a conflict", firstLost)
	case firstLost >= 0:
		c := p.Conflict
		if c.Ply != firstLost || c.Move != in.Local[firstLost] {
			fail("conflict names ply %d %s, want %d %s", c.Ply, c.Move, firstLost, in.Local[firstLost])
		}
		if (status(firstLost) == SendRefused) != (c.Kind == ConflictRefused) {
			fail("conflict kind %v for status %v", c.Kind, status(firstLost))
		}
	}
	// The log describes the record.
	seen := map[int]bool{}
	for _, s := range p.Sent {
		if s.Ply < 0 || s.Ply >= len(p.Local) || p.Local[s.Ply] != s.Move || !ours(s.Ply) || seen[s.Ply] || s.Ply < len(p.Local)-2 {
			fail("log entry %+v does not describe a recent move of the board's", s)
		}
		seen[s.Ply] = true
	}
	if p.Send != "" && !slices.Contains(p.Sent, Sent{Ply: p.SendPly, Move: p.Send, Status: SendPending}) {
		fail("the move to send is not journaled as pending")
	}
	// Applying the plan settles it: with a send under way (so no state is
	// fresh), the next reconcile changes nothing and sends nothing.
	again := Reconcile(ReconcileInput{Server: in.Server, ServerFinished: in.ServerFinished, Local: p.Local, Sent: p.Sent, Side: in.Side, FirstToMove: in.FirstToMove})
	if again.Changes() || again.Send != "" || !slices.Equal(again.Local, p.Local) {
		fail("not settled: the plan again gives %+v", again)
	}
}
