package hall

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/report"
)

// playFrom returns the move reports of the moves given in UCI, played from
// the start, as a board sends them.
func playFrom(t *testing.T, uci ...string) []report.Report {
	t.Helper()
	pos, err := board.ParseFEN(board.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	var out []report.Report
	for _, u := range uci {
		m, err := board.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		a, err := board.Analyse(pos)
		if err != nil {
			t.Fatal(err)
		}
		san := a.SAN(m)
		side := "white"
		if pos.Turn == board.Black {
			side = "black"
		}
		pos = pos.Apply(m)
		out = append(out, report.Report{Type: report.Move, Side: side, UCI: u, SAN: san, FEN: pos.FEN()})
	}
	return out
}

// TestNotesStayAtTheirPlyAfterATakeBack: the hall's board, fed the messages
// a board sends for a game against an engine (moves, a touch-move ruled by
// the arbiter, a take-back of one or two plies with the board set back,
// moves played again), keeps each note after the ply it happened after, as
// the board's own console does (console.TestNotesStayAtTheirPlyAfterATakeBack):
// the take-back's note after the last move kept, never after a later move
// that took a taken-back move's number; and its state, its grid summary and
// the game it keeps from its events agree.
func TestNotesStayAtTheirPlyAfterATakeBack(t *testing.T) {
	tests := []struct {
		name       string
		plies      int
		again      []string // played after the take-back, from the moves kept
		wantMoves  string
		wantTakeAt int // the take-back's note's ply
		wantRuleAt int // the touch-move ruling's ply (after Nf3, unless taken back)
	}{
		{"two plies", 2, []string{"g1f3", "b8c6"}, "e4 e5 Nf3 Nc6", 2, 2},
		{"one ply", 1, []string{"g8f6", "b1c3"}, "e4 e5 Nf3 Nf6 Nc3", 3, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := testHall()
			b := h.board("b1")
			seq := uint64(1)
			b.event(&wire.Event{Board: "b1", Seq: seq, Kind: wire.EventHeader, Header: &wire.Header{Game: 1, Laws: "fide2023"}}, time.Now())
			send := func(r report.Report) {
				t.Helper()
				ev := &wire.Event{Board: "b1", Seq: seq + 2, Prev: seq, Kind: wire.EventReport, Report: r.AppendJSON(nil)}
				seq += 2
				b.event(ev, time.Now())
				if _, _, gaps, last := b.Counts(); gaps != 0 || last != seq {
					t.Fatalf("event %d not taken: gaps %d, last %d", seq, gaps, last)
				}
			}
			first := playFrom(t, "e2e4", "e7e5", "g1f3", "b8c6")
			for _, r := range first[:3] {
				send(r)
			}
			send(report.Report{Type: report.Irregularity, Kind: report.KindTouchMove, Law: "fide2023:4.3.1", Offender: "black", Chooser: report.Arbiter,
				Options: []report.Option{{ID: report.OptMoveTouched, Squares: []string{"b8"}}}})
			send(report.Report{Type: report.Ruling, Option: report.OptMoveTouched, By: report.Arbiter, Law: "fide2023:4.3.1"})
			send(first[3])
			send(report.Report{Type: report.Ruling, Option: report.OptTakeBack, By: report.White, Reason: report.TakeBackReason(tc.plies)})
			send(report.Report{Type: report.Mismatch, Missing: []string{"b8"}, Extra: []string{"c6"}})
			// Before any move is played again, the grid shows the game as
			// it now goes.
			if s := b.Summary(); s.Moves != 4-tc.plies || s.Last == nil || s.Last.SAN != first[3-tc.plies].SAN || s.FEN != first[3-tc.plies].FEN {
				t.Errorf("after the take-back: summary moves %d, last %+v, fen %q; want %d moves, the last %s", s.Moves, s.Last, s.FEN, 4-tc.plies, first[3-tc.plies].SAN)
			}
			send(report.Report{Type: report.Synced})
			kept := []string{"e2e4", "e7e5", "g1f3", "b8c6"}[:4-tc.plies]
			all := playFrom(t, append(kept, tc.again...)...)
			for _, r := range all[len(kept):] {
				send(r)
			}
			if got := sans(b); got != tc.wantMoves {
				t.Fatalf("moves %q, want %q", got, tc.wantMoves)
			}
			var moves []console.Move
			for i, r := range all {
				moves = append(moves, console.Move{Ply: i + 1, Side: r.Side, SAN: r.SAN})
			}
			b.setState(stateOf(t, &wire.State{Board: "b1", Seq: seq + 1, Game: 1, GameSeq: 1, Events: seq,
				State: console.State{Board: "b1", FEN: all[len(all)-1].FEN, Moves: moves}, PGN: "[Event \"?\"]\n\n*\n"}))
			st, err := b.State(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			at := map[string][]int{}
			for _, n := range st.Notes {
				var rep struct {
					Type   string `json:"type"`
					Option string `json:"option"`
				}
				if err := json.Unmarshal(n.Report, &rep); err != nil {
					t.Fatal(err)
				}
				at[rep.Type+" "+rep.Option] = append(at[rep.Type+" "+rep.Option], n.Ply)
			}
			want := map[string][]int{
				"irregularity ": {tc.wantRuleAt}, "ruling " + string(report.OptMoveTouched): {tc.wantRuleAt},
				"ruling take-back": {tc.wantTakeAt}, "mismatch ": {tc.wantTakeAt}, "synced ": {tc.wantTakeAt},
			}
			for k, w := range want {
				if len(at[k]) != 1 || at[k][0] != w[0] {
					t.Errorf("%s: the note after plies %v, want after ply %d", k, at[k], w[0])
				}
			}
			if s := b.Summary(); s.Moves != len(all) || s.Last == nil || s.Last.Ply != len(all) {
				t.Errorf("summary moves %d, last %+v; want %d", s.Moves, s.Last, len(all))
			}
			// The game as the hall keeps it from its events (a board whose
			// last state came before its game's end) has the comments
			// where the state has the notes.
			b.mu.Lock()
			pgn := eventPGN(b.header, b.moves, b.notes, b.result)
			b.mu.Unlock()
			flat := strings.Join(strings.Fields(pgn), " ")
			take := "(" + report.TakeBackReason(tc.plies) + ")}"
			i := strings.Index(flat, take)
			if i < 0 {
				t.Fatalf("no take-back comment in\n%s", pgn)
			}
			before := strings.Fields(flat[:i])
			j := len(before) - 1
			for j >= 0 && !strings.HasPrefix(before[j], "{") {
				j--
			}
			if j < 1 || before[j-1] != all[tc.wantTakeAt-1].SAN {
				t.Errorf("the take-back's comment does not follow %s (ply %d):\n%s", all[tc.wantTakeAt-1].SAN, tc.wantTakeAt, pgn)
			}
		})
	}
}

// TestBoardSaid: the lines of the board's voice in its state messages are
// handed to the board's watchers (the hall's page of the board) as say
// events, each once: none from the first state the hall hears (said before
// it was there), the lines past the last taken in the same run, every line
// of a new run (the board restarted), nothing from a line without words.
func TestBoardSaid(t *testing.T) {
	run1 := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	run2 := run1.Add(time.Hour)
	line := func(n uint64, text string) wire.Said { return wire.Said{N: n, Text: text, Lang: "de"} }
	states := []struct {
		since time.Time
		said  []wire.Said
		want  []string
	}{
		{run1, []wire.Said{line(1, "eins"), line(2, "zwei")}, nil}, // the first state: not spoken late
		{run1, []wire.Said{line(1, "eins"), line(2, "zwei"), line(3, "drei")}, []string{`{"text":"drei","lang":"de"}`}},
		{run1, []wire.Said{line(2, "zwei"), line(3, "drei")}, nil},
		{run1, nil, nil},
		{run1, []wire.Said{line(3, "drei"), line(4, ""), line(5, "fünf"), line(6, "sechs")}, []string{`{"text":"fünf","lang":"de"}`, `{"text":"sechs","lang":"de"}`}},
		{run2, []wire.Said{line(0, "null"), line(1, "neu")}, []string{`{"text":"neu","lang":"de"}`}},
		{run2, []wire.Said{line(1, "neu")}, nil},
	}
	h := testHall()
	b := h.board("b1")
	var got []string
	stop := b.Watch(func(c console.Change) {
		if c.Say != nil {
			got = append(got, string(c.Say))
		}
	})
	defer stop()
	for i, st := range states {
		got = nil
		b.setState(stateOf(t, &wire.State{Board: "b1", Seq: uint64(10 + i), Game: 1, GameSeq: 1, Events: uint64(9 + i), Said: st.said, SaidSince: st.since}))
		if strings.Join(got, " | ") != strings.Join(st.want, " | ") {
			t.Errorf("state %d: said %q, want %q", i, got, st.want)
		}
	}
}
