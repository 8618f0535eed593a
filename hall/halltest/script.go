package halltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/timing"
)

// Script is a game as a board publishes it to the hall, encoded once and
// shared by every light board that plays it (Light): the game's header,
// and for each move the reports that lead to it (the move last) and the
// board's state after it. Only what names the board, its sequence numbers
// and the time are filled in at each publication.
type Script struct {
	// Header is the game's header event's "header" object.
	Header json.RawMessage
	// Start is the state message's "state" and "pgn" before any move.
	Start ScriptState
	Moves []ScriptMove
}

// ScriptMove is one move of a Script.
type ScriptMove struct {
	UCI string
	// Reports are the reports the board makes up to and including the
	// move, each as `boardd replay` prints it.
	Reports []json.RawMessage
	// State is the board's state after the move.
	State ScriptState
}

// ScriptState is a state message's body, split around the board's id.
type ScriptState struct {
	before, after []byte // the console state's JSON, around its "board" value
	pgn           []byte // the PGN as a JSON string
}

// boardMark stands for the board's id in a state encoded once.
const boardMark = "\u0001"

// NewScript plays moves (UCI, no promotions) from the initial position on
// a real game in virtual time, as the boards would, and encodes what a
// board publishes for each: its reports, its console's state and its PGN.
// opts are the game's options (the law-set: fide2023 if empty).
func NewScript(ctx context.Context, moves []string, opts game.Options) (*Script, error) {
	if opts.Laws == "" {
		opts.Laws = "fide2023"
	}
	if opts.Tags == nil {
		opts.Tags = map[string]string{"Date": journal.UnknownDate}
	}
	g, err := game.New(opts, nil)
	if err != nil {
		return nil, fmt.Errorf("halltest: script: %w", err)
	}
	clock := &timing.Virtual{}
	r := game.NewRunner(g, clock)
	var reports []json.RawMessage
	moved := 0
	r.OnReport(func(rep report.Report) {
		reports = append(reports, rep.AppendJSON(nil))
		if rep.Type == report.Move {
			moved++
		}
	})
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(rctx)
	}()
	defer func() {
		stop()
		<-done
	}()
	local, err := console.NewLocal(r, console.LocalOptions{ID: "x", Simulated: true, Poll: -1})
	if err != nil {
		return nil, err
	}
	defer local.Close()

	h := journal.NewHeader(1, opts, time.Time{})
	s := &Script{}
	hdr := map[string]any{"game": 1, "laws": h.Laws, "tags": h.Tags}
	if s.Header, err = json.Marshal(hdr); err != nil {
		return nil, err
	}
	if s.Start, err = scriptState(ctx, local); err != nil {
		return nil, err
	}
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 30 * time.Millisecond, Pause: 400 * time.Millisecond})
	settle := max(opts.Timing.Settle, 250*time.Millisecond) + opts.Timing.OpenWait + time.Second
	for i, u := range moves {
		from := len(p.Lines)
		if err := p.Move(u); err != nil {
			return nil, fmt.Errorf("halltest: script: move %d: %w", i+1, err)
		}
		for _, l := range p.Lines[from:] {
			clock.Set(l.T)
			if err := r.Submit(ctx, l); err != nil {
				return nil, fmt.Errorf("halltest: script: move %d (%s): %w", i+1, u, err)
			}
		}
		clock.Set(p.T + settle)
		if err := r.Do(ctx, func(*game.Game, time.Duration) {}); err != nil {
			return nil, err
		}
		if moved != i+1 {
			return nil, fmt.Errorf("halltest: script: move %d (%s) was not read as a move", i+1, u)
		}
		st, err := scriptState(ctx, local)
		if err != nil {
			return nil, err
		}
		s.Moves = append(s.Moves, ScriptMove{UCI: u, Reports: reports, State: st})
		reports = nil
		p.T = clock.Now()
	}
	return s, nil
}

func scriptState(ctx context.Context, local *console.Local) (ScriptState, error) {
	st, err := local.State(ctx)
	if err != nil {
		return ScriptState{}, err
	}
	st.Board = boardMark
	js, err := json.Marshal(st)
	if err != nil {
		return ScriptState{}, err
	}
	mark, _ := json.Marshal(boardMark)
	before, after, ok := bytes.Cut(js, mark)
	if !ok {
		return ScriptState{}, fmt.Errorf("halltest: script: the state does not name its board")
	}
	pgn, err := local.PGN(ctx)
	if err != nil {
		return ScriptState{}, err
	}
	pj, err := json.Marshal(pgn)
	if err != nil {
		return ScriptState{}, err
	}
	return ScriptState{before: before, after: after, pgn: pj}, nil
}

// appendEvent appends an event message (wire.Event) of board id.
func appendEvent(dst []byte, id string, seq, prev uint64, at time.Time, kind string, body json.RawMessage) []byte {
	dst = append(dst, `{"v":1,"board":`...)
	dst = strconv.AppendQuote(dst, id)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, `,"prev":`...)
	dst = strconv.AppendUint(dst, prev, 10)
	if !at.IsZero() {
		dst = append(dst, `,"at":"`...)
		dst = at.UTC().AppendFormat(dst, time.RFC3339Nano)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"kind":"`...)
	dst = append(dst, kind...)
	dst = append(dst, `","`...)
	dst = append(dst, kind...)
	dst = append(dst, `":`...)
	dst = append(dst, body...)
	return append(dst, '}')
}

// appendState appends a state message (wire.State) of board id.
func appendState(dst []byte, id string, st *ScriptState, seq, events uint64, at time.Time) []byte {
	q := strconv.Quote(id)
	dst = append(dst, `{"v":1,"board":`...)
	dst = append(dst, q...)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, `,"game":1,"game_seq":1,"events":`...)
	dst = strconv.AppendUint(dst, events, 10)
	dst = append(dst, `,"at":"`...)
	dst = at.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, `","state":`...)
	dst = append(dst, st.before...)
	dst = append(dst, q...)
	dst = append(dst, st.after...)
	dst = append(dst, `,"pgn":`...)
	dst = append(dst, st.pgn...)
	return append(dst, '}')
}
