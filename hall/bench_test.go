package hall

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
)

// benchPayloads plays a game of 40 moves on a game and returns, for each
// move, the event and the state message a board publishes for it (with the
// lines its voice said lately).
func benchPayloads(b *testing.B) (events, states [][]byte) {
	b.Helper()
	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	r := game.NewRunner(p, timing.NewReal())
	var moves []report.Report
	r.OnReport(func(rep report.Report) {
		if rep.Type == report.Move {
			moves = append(moves, rep)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	local, err := console.NewLocal(r, console.LocalOptions{ID: "b1", Poll: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer local.Close()
	pl := journaltest.NewPlayer(0, journaltest.Timing{Step: 30 * time.Millisecond, Pause: 400 * time.Millisecond})
	uci := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
		"b1d2", "c8b7", "b3c2", "f8e8", "d2f1", "e7f8", "f1g3", "g7g6", "c1g5", "h7h6", "g5d2", "f8g7", "a2a4", "c7c5", "d4d5", "c5c4", "a4b5", "a6b5", "a1a8", "d8a8"}
	if err := pl.Move(uci...); err != nil {
		b.Fatal(err)
	}
	seq := uint64(1)
	prev := uint64(0)
	for _, l := range pl.Lines {
		if err := r.Submit(ctx, l); err != nil {
			b.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(moves) < len(uci) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	st, err := local.State(ctx)
	if err != nil {
		b.Fatal(err)
	}
	pgn, _ := local.PGN(ctx)
	since := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	for k, m := range moves {
		seq += 3
		ev := &wire.Event{Board: "b1", Seq: seq, Prev: prev, Kind: wire.EventReport, Report: m.AppendJSON(nil)}
		prev = seq
		data, err := wire.Encode(ev)
		if err != nil {
			b.Fatal(err)
		}
		events = append(events, data)
		seq++
		// The board's voice said each move: its state carries the lines
		// of the last two moves (wire.SaidFor).
		var said []wire.Said
		for n := max(k, 1); n <= k+1; n++ {
			said = append(said, wire.Said{N: uint64(n), Text: "Springer Gustav eins Felix drei", Lang: "de"})
		}
		sm := &wire.State{Board: "b1", Seq: seq, Game: 1, GameSeq: 1, Events: prev, State: st, PGN: pgn, Said: said, SaidSince: since}
		data, err = wire.Encode(sm)
		if err != nil {
			b.Fatal(err)
		}
		states = append(states, data)
	}
	return events, states
}

// BenchmarkHallMessages measures the hall taking one move's messages from a
// board: the move event and the state message that follows it (a state of
// the game 40 moves in, with its PGN and the lines the board said lately,
// the newest handed on as a say event).
func BenchmarkHallMessages(b *testing.B) {
	events, states := benchPayloads(b)
	b.Logf("event %d bytes, state %d bytes", len(events[0]), len(states[len(states)-1]))
	h, err := newHall(Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	var bytes int64
	for _, e := range events {
		bytes += int64(len(e))
	}
	for _, s := range states {
		bytes += int64(len(s))
	}
	b.SetBytes(bytes / int64(len(events)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		i := n % len(events)
		if i == 0 {
			// The board's game begins again: a fresh board each round.
			h.mu.Lock()
			h.boards, h.order = map[string]*Board{}, nil
			h.mu.Unlock()
		}
		h.message(wire.Topic("b1", wire.KindEvent), events[i], false)
		h.message(wire.Topic("b1", wire.KindState), states[i], true)
		n++
	}
}

// BenchmarkEventPGN writes a finished game of 80 moves from the hall's
// events, as the hall does when the board's last state came before the
// game's end.
func BenchmarkEventPGN(b *testing.B) {
	h := &wire.Header{Game: 1, Tags: map[string]string{"White": "Anderssen", "Black": "Kieseritzky", "Date": "1851.06.21"}}
	moves := make([]Move, 160)
	for i := range moves {
		moves[i] = Move{SAN: []string{"Nf3", "Nf6", "Ng1", "Ng8"}[i%4]}
	}
	res := &console.Result{Result: "1/2-1/2"}
	b.ReportAllocs()
	for b.Loop() {
		if len(eventPGN(h, moves, nil, res)) == 0 {
			b.Fatal("empty")
		}
	}
}
