package hall

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/report"
)

// testHall is a hall without a broker: what it would send goes nowhere, and
// the resends it asks for are kept in h.resends.
func testHall() *Hall {
	h, err := newHall(Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		panic(err)
	}
	return h
}

// stateOf is st as the hall reads it from the broker.
func stateOf(t testing.TB, st *wire.State) *stateMessage {
	t.Helper()
	payload, err := wire.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	m, err := decodeState(payload, "test")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func moveEvent(seq, prev uint64, side, uci, san, fen string) *wire.Event {
	r := report.Report{Type: report.Move, Side: side, UCI: uci, SAN: san, FEN: fen}
	return &wire.Event{Board: "b1", Seq: seq, Prev: prev, Kind: wire.EventReport, Report: r.AppendJSON(nil)}
}

func sans(b *Board) string {
	var out []string
	for _, m := range b.Moves() {
		out = append(out, m.SAN)
	}
	return strings.Join(out, " ")
}

const (
	fenE4   = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	fenE4E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	fenNf3  = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
)

// Events are taken in order once each: a duplicate is dropped, a gap asks
// the board to send again from the last held, and a ruling that takes a
// move back is followed by the move played instead.
func TestBoardEvents(t *testing.T) {
	h := testHall()
	b := h.board("b1")
	b.event(&wire.Event{Board: "b1", Seq: 1, Kind: wire.EventHeader, Header: &wire.Header{Game: 1, Laws: "sarratt1808"}}, time.Now())
	b.event(moveEvent(4, 1, "white", "e2e4", "e4", fenE4), time.Now())
	b.event(moveEvent(4, 1, "white", "e2e4", "e4", fenE4), time.Now()) // again
	if got := sans(b); got != "e4" {
		t.Fatalf("moves %q after a duplicate", got)
	}
	b.event(moveEvent(9, 7, "black", "e7e5", "e5", fenE4E5), time.Now()) // 7 never came
	applied, dups, gaps, last := b.Counts()
	if applied != 2 || dups != 1 || gaps != 1 || last != 4 {
		t.Errorf("applied %d, duplicates %d, gaps %d, last %d; want 2 1 1 4", applied, dups, gaps, last)
	}
	if seq, ok := h.resends["b1"]; !ok || seq != 4 {
		t.Errorf("resends %v, want b1 from 4+1", h.resends)
	}
	// The board sends again from 5.
	irr := report.Report{Type: report.Irregularity, Kind: "touch-move", Law: "sarratt1808:7", Offender: "white", Chooser: "black",
		Options: []report.Option{{ID: "stand"}, {ID: "move-touched"}}}
	b.event(&wire.Event{Board: "b1", Seq: 7, Prev: 4, Kind: wire.EventReport, Report: irr.AppendJSON(nil)}, time.Now())
	if s := b.Summary(); s.Pending == nil || s.Pending.Chooser != "black" {
		t.Errorf("pending %+v, want Black to choose", s.Pending)
	}
	ruling := report.Report{Type: report.Ruling, Option: "move-touched", By: "arbiter", Law: "sarratt1808:7"}
	b.event(&wire.Event{Board: "b1", Seq: 8, Prev: 7, Kind: wire.EventReport, Report: ruling.AppendJSON(nil)}, time.Now())
	// e4 was taken back: Nf3 follows the start position, not e4.
	b.event(moveEvent(12, 8, "white", "g1f3", "Nf3", fenNf3), time.Now())
	if got := sans(b); got != "Nf3" {
		t.Errorf("moves %q after the take-back, want Nf3", got)
	}
	s := b.Summary()
	if s.Pending != nil || s.Moves != 1 || s.Last == nil || s.Last.Ply != 1 || s.Turn != "black" {
		t.Errorf("summary %+v", s)
	}
	st, err := b.State(context.Background())
	if err == nil {
		t.Errorf("a state before the board sent one: %+v", st)
	}
	b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 13, Game: 1, GameSeq: 1, Events: 12, State: console.State{Board: "b1", Simulated: true, FEN: fenNf3, Moves: []console.Move{{Ply: 1, SAN: "Nf3"}}}, PGN: "[Event \"?\"]\n\n1. Nf3 *\n"}))
	st, err = b.State(context.Background())
	if err != nil || st.Simulated || len(st.Notes) != 2 || st.Notes[0].Ply != 0 || st.Notes[1].Ply != 0 || !strings.Contains(string(st.Notes[1].Report), `"by":"arbiter"`) {
		t.Errorf("state %+v, %v: want a sensor board with the hall's two notes before Nf3 (e4, the move they concern, was taken back: they stay after the last move kept, as the console places them)", st, err)
	}
	// A state showing events the hall never had asks for them.
	clear(h.resends)
	b.mu.Lock()
	b.asked = time.Time{}
	b.mu.Unlock()
	b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 20, Game: 1, GameSeq: 1, Events: 18}))
	if seq, ok := h.resends["b1"]; !ok || seq != 12 {
		t.Errorf("resends %v after a state past the events held, want b1 from 12+1", h.resends)
	}
}

// A hall that hears of a board first from its state asks for the game in
// progress, and drops events until they follow.
func TestBoardJoinsLate(t *testing.T) {
	h := testHall()
	b := h.board("b1")
	b.event(moveEvent(40, 37, "white", "e2e4", "e4", fenE4), time.Now())
	if got := sans(b); got != "" {
		t.Fatalf("moves %q before the hall knows where the board's events start", got)
	}
	b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 41, Game: 3, GameSeq: 30, Events: 40}))
	if seq := h.resends["b1"]; seq != 29 {
		t.Errorf("resend from %d+1, want the game's header, 30", seq)
	}
	b.event(&wire.Event{Board: "b1", Seq: 30, Prev: 29, Kind: wire.EventHeader, Header: &wire.Header{Game: 3, Laws: "fide2023"}}, time.Now())
	b.event(moveEvent(40, 30, "white", "e2e4", "e4", fenE4), time.Now())
	if got := sans(b); got != "e4" {
		t.Errorf("moves %q", got)
	}
}

// The hall's own reading of FENs and moves agrees with package board's.
func TestPlacementApply(t *testing.T) {
	for _, c := range []struct{ fen, uci string }{
		{board.StartFEN, "e2e4"},
		{board.StartFEN, "g1f3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"},
		{"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 2", "d4e3"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n"},
		{"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"},
		{"4k3/8/8/8/8/8/6p1/4K2R b - - 0 1", "g2h1r"},
	} {
		pos, err := board.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := board.ParseUCI(c.uci)
		if err != nil {
			t.Fatal(err)
		}
		after := pos.Apply(m)
		want, wantTurn, ok := parsePlacement(after.FEN())
		if !ok {
			t.Fatalf("%s: the hall cannot read board's FEN", c.fen)
		}
		got, turn, ok := parsePlacement(c.fen)
		if !ok || !got.apply(c.uci) {
			t.Errorf("%s %s: not applied", c.fen, c.uci)
			continue
		}
		if got != want || turn == wantTurn {
			t.Errorf("%s %s: the hall makes %v, board %v", c.fen, c.uci, got, want)
		}
	}
	for _, bad := range []string{"", "8/8/8 w", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x"} {
		if _, _, ok := parsePlacement(bad); ok {
			t.Errorf("%q read as a FEN", bad)
		}
	}
	p, _, _ := parsePlacement(board.StartFEN)
	for _, bad := range []string{"e3e4", "e2", "z2e4", "e7e8k"} {
		q := p
		if q.apply(bad) {
			t.Errorf("%q applied", bad)
		}
	}
}

func TestNaturalOrder(t *testing.T) {
	ids := []string{"b10", "b2", "a", "b1", "board-02", "board-1", "b02", "hall-3"}
	slices.SortFunc(ids, func(a, b string) int {
		switch {
		case naturalLess(a, b):
			return -1
		case naturalLess(b, a):
			return 1
		}
		return 0
	})
	if got := strings.Join(ids, " "); got != "a b1 b2 b02 b10 board-1 board-02 hall-3" {
		t.Errorf("natural order: %s", got)
	}
}

// A game whose last state came before its end (a result and a new game at
// once leave no state between them: the board sends its state at most every
// StateEvery) is kept as the events show it, moves, rulings and result; a game whose
// last state came after its end is kept as the board wrote it. The next
// game's state, come before that game's header, changes neither.
func TestFinishedGameOutrunsState(t *testing.T) {
	result := report.Report{Type: report.Result, Result: "1-0", Reason: "arbiter", Law: "fide2023:12.9"}
	for _, c := range []struct {
		name     string
		stateSeq uint64 // the last state of game 1 (0: none)
		statePGN string
		want     []string
	}{
		{"no state after the moves", 2, "[Event \"?\"]\n[Result \"*\"]\n\n*\n", []string{"1. e4 e5 {fide2023:12.9: 1-0 (arbiter)} 1-0", `[White "Anderssen"]`, `[Result "1-0"]`}},
		{"a state before the result", 5, "[Event \"?\"]\n[Result \"*\"]\n\n{the board's comment} 1. e4 e5 *\n", []string{"1. e4 e5 {fide2023:12.9: 1-0 (arbiter)} 1-0", `[Result "1-0"]`}},
		{"a state after the result", 7, "[Event \"?\"]\n[Result \"1-0\"]\n\n{the board's comment} 1. e4 e5 1-0\n", []string{"{the board's comment} 1. e4 e5 1-0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := testHall()
			b := h.board("b1")
			b.event(&wire.Event{Board: "b1", Seq: 1, Kind: wire.EventHeader, Header: &wire.Header{Game: 1, Laws: "fide2023", Tags: map[string]string{"White": "Anderssen"}}}, time.Now())
			if c.stateSeq == 2 {
				b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 2, Game: 1, GameSeq: 1, Events: 1, PGN: c.statePGN}))
			}
			b.event(moveEvent(4, 1, "white", "e2e4", "e4", fenE4), time.Now())
			b.event(moveEvent(5, 4, "black", "e7e5", "e5", fenE4E5), time.Now())
			if c.stateSeq == 5 {
				b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 5, Game: 1, GameSeq: 1, Events: 5, PGN: c.statePGN}))
			}
			b.event(&wire.Event{Board: "b1", Seq: 7, Prev: 5, Kind: wire.EventReport, Report: result.AppendJSON(nil)}, time.Now())
			if c.stateSeq == 7 {
				b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 7, Game: 1, GameSeq: 1, Events: 7, PGN: c.statePGN, State: console.State{Result: &console.Result{Result: "1-0"}}}))
			}
			// The next game's state comes before its header (the header
			// reaches the board's uplink from its journal): it tells the
			// hall nothing of the game it follows.
			next := stateOf(t, &wire.State{Board: "b1", Seq: 10, Game: 2, GameSeq: 9, Events: 7, PGN: "[Event \"?\"]\n[Result \"*\"]\n\n*\n"})
			b.setState(next)
			if s := b.Summary(); s.Result == nil || s.Result.Result != "1-0" {
				t.Errorf("game 1's result after game 2's state: %+v", s.Result)
			}
			b.event(&wire.Event{Board: "b1", Seq: 9, Prev: 7, Kind: wire.EventHeader, Header: &wire.Header{Game: 2, Laws: "fide2023"}}, time.Now())
			b.setState(next)
			done := b.Finished()
			if len(done) != 1 {
				t.Fatalf("finished %+v, want game 1", done)
			}
			for _, w := range c.want {
				if !strings.Contains(done[0].PGN, w) {
					t.Errorf("game 1 kept as\n%s\nwant %q in it", done[0].PGN, w)
				}
			}
		})
	}
}

// The PGN written from the events numbers the moves from the set-up's move
// number and side, and keeps lines under 80 columns.
func TestEventPGN(t *testing.T) {
	mv := func(sans ...string) []Move {
		var out []Move
		for _, s := range sans {
			out = append(out, Move{SAN: s})
		}
		return out
	}
	long := make([]string, 60)
	for i := range long {
		long[i] = "Nf3"
	}
	for _, c := range []struct {
		name  string
		h     wire.Header
		moves []Move
		notes []console.Note
		res   *console.Result
		want  string
	}{
		{"from the start", wire.Header{Tags: map[string]string{"White": "A", "Result": "*"}}, mv("e4", "e5", "Nf3"), nil, &console.Result{Result: "1/2-1/2"},
			"[White \"A\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n"},
		{"black to move in a set-up", wire.Header{FEN: "4k3/8/8/8/8/8/8/R3K3 b Q - 3 30"}, mv("Kd7", "Ra7+"), nil, nil,
			"[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 b Q - 3 30\"]\n\n30... Kd7 31. Ra7+ *\n"},
		{"rulings as comments", wire.Header{}, mv("Nf3", "e5", "e4"), []console.Note{
			{Ply: 0, Report: []byte(`{"type":"irregularity","t":3200,"kind":"false-move","law":"hastings1895:IV","offender":"white","chooser":"arbiter","options":[{"id":"move-touched-g1","squares":["g1"]}]}`)},
			{Ply: 0, Report: []byte(`{"type":"ruling","t":3200,"option":"move-touched-g1","by":"arbiter","law":"hastings1895:IV"}`)},
			{Ply: 1, Report: []byte(`{"type":"mismatch","t":4000,"missing":["g1"]}`)},
			{Ply: 1, Report: []byte(`{"type":"synced","t":4100}`)},
			{Ply: 1, Report: []byte(`{"type":"irregularity","t":5000,"kind":"touch-move","law":"hastings1895:IV","offender":"black","chooser":"white","options":[{"id":"move-touched","squares":["d7"]}]}`)},
			{Ply: 2, Report: []byte(`{"type":"ruling","t":6000,"option":"stand","by":"lapse","law":"hastings1895:IV","reason":"not claimed before the offended player's own move"}`)},
			{Ply: 9, Report: []byte(`{"type":"result","t":7000,"result":"1-0","reason":"mate","law":"hastings1895:mate"}`)},
			{Ply: 3, Report: []byte(`not json`)},
		}, &console.Result{Result: "1-0"},
			"[Result \"1-0\"]\n\n{false-move by white, hastings1895:IV; hastings1895:IV: move-touched-g1 by\narbiter} 1. Nf3 {touch-move by black, hastings1895:IV} 1... e5\n{hastings1895:IV: stand by lapse (not claimed before the offended player's own\nmove)} 2. e4 {hastings1895:mate: 1-0 (mate)} 1-0\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := eventPGN(&c.h, c.moves, c.notes, c.res); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	got := eventPGN(&wire.Header{}, mv(long...), nil, nil)
	for _, l := range strings.Split(got, "\n") {
		if len(l) >= 80 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if !strings.Contains(got, "30. Nf3 Nf3 *") {
		t.Errorf("60 plies end %q, want move 30 and *", got[len(got)-20:])
	}
}

// A board whose state shows events the hall never had is asked for them
// again once a second until they come, though it sends nothing more: the
// first request may have been lost (sent before the board had subscribed
// again after a broker's restart).
func TestGapAskedAgain(t *testing.T) {
	h := testHall()
	b := h.board("b1")
	b.event(&wire.Event{Board: "b1", Seq: 1, Kind: wire.EventHeader, Header: &wire.Header{Game: 1, Laws: "fide2023"}}, time.Now())
	b.event(moveEvent(4, 1, "white", "e2e4", "e4", fenE4), time.Now())
	now := time.Now()
	if _, ok := b.gapDue(now); ok {
		t.Fatal("a request before any state")
	}
	b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 4, Game: 1, GameSeq: 1, Events: 4}))
	if _, ok := b.gapDue(now.Add(5 * time.Second)); ok {
		t.Fatal("a request with every event held")
	}
	// Events 5 to 9 were lost; the state says 9 were sent.
	b.setState(stateOf(t, &wire.State{Board: "b1", Seq: 9, Game: 1, GameSeq: 1, Events: 9}))
	b.mu.Lock()
	asked := b.asked
	b.mu.Unlock()
	for _, c := range []struct {
		after time.Duration
		ask   bool
	}{{500 * time.Millisecond, false}, {1500 * time.Millisecond, true}, {2 * time.Second, false}, {3 * time.Second, true}} {
		from, ok := b.gapDue(asked.Add(c.after))
		if ok != c.ask || (ok && from != 4) {
			t.Errorf("%v after the state's request: asked %v from %d+1, want %v from 4+1", c.after, ok, from, c.ask)
		}
	}
	b.event(&wire.Event{Board: "b1", Seq: 9, Prev: 4, Kind: wire.EventTag, Tag: &wire.Tag{Name: "Round", Value: "1"}}, time.Now())
	if _, ok := b.gapDue(asked.Add(time.Hour)); ok {
		t.Error("a request once the events came")
	}
}
