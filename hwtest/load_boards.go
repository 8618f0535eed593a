package hwtest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// loadBoard is one simulated board of a run and what the run measured of
// its moves.
type loadBoard struct {
	id string
	// play plays the board's moves from start until ctx ends.
	play  func(ctx context.Context, start time.Time) error
	moves func() []string // the moves made, in UCI
	close func()

	mu    sync.Mutex
	made  []time.Time // when each move was made
	acked []time.Time // when the broker acknowledged its event (light boards)
	page  []time.Time // when the hall's event stream first showed it
	// shownMoves and shownAt are the most moves the hall's event stream
	// has shown, and when: the stream may show a move before its maker
	// has recorded making it (the sender runs on a goroutine of its own).
	shownMoves int
	shownAt    time.Time
	inRun      bool
	firstIn    int // the first move made within the window (-1: none yet)
	played     int // moves made within the window
}

func newLoadBoard(id string) *loadBoard { return &loadBoard{id: id, firstIn: -1} }

// moveMade records a move made at at.
func (lb *loadBoard) moveMade(at time.Time) {
	lb.mu.Lock()
	lb.made = append(lb.made, at)
	if lb.shownMoves >= len(lb.made) && len(lb.page) == len(lb.made)-1 {
		shown := lb.shownAt
		if shown.Before(at) {
			shown = at
		}
		lb.page = append(lb.page, shown)
	}
	if lb.inRun {
		if lb.firstIn < 0 {
			lb.firstIn = len(lb.made) - 1
		}
		lb.played++
	}
	lb.mu.Unlock()
}

// moveAcked records when the broker acknowledged move i's event.
func (lb *loadBoard) moveAcked(i int, at time.Time) {
	lb.mu.Lock()
	for len(lb.acked) <= i {
		lb.acked = append(lb.acked, time.Time{})
	}
	lb.acked[i] = at
	lb.mu.Unlock()
}

// shown records that the hall's page shows n moves at t.
func (lb *loadBoard) shown(n int, t time.Time) {
	lb.mu.Lock()
	if n > lb.shownMoves {
		lb.shownMoves, lb.shownAt = n, t
	}
	for len(lb.page) < n && len(lb.page) < len(lb.made) {
		lb.page = append(lb.page, t)
	}
	lb.mu.Unlock()
}

// loadGameMoves returns a game's first plies moves in UCI, from the initial
// position, cut before a promotion (the synthesised hands do not name a
// promotion's piece).
func loadGameMoves(g Game, plies int) ([]string, error) {
	if g.Start.FEN() != board.StartFEN {
		return nil, fmt.Errorf("hwtest: load: %s does not start from the initial position", g.Name)
	}
	var out []string
	pos := g.Start
	for _, m := range g.Moves {
		if len(out) == plies || pos.IsPromotion(m) {
			break
		}
		out = append(out, m.UCI())
		pos = pos.Apply(m)
	}
	return out, nil
}

// loadTrace makes a game's hand events, a move every pace from phase: each
// move's events 80 ms apart.
func loadTrace(moves []string, pace, phase time.Duration) ([]trace.Line, error) {
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: time.Millisecond, Pause: time.Millisecond})
	var out []trace.Line
	for n, u := range moves {
		before := len(p.Lines)
		if err := p.Move(u); err != nil {
			return nil, fmt.Errorf("hwtest: load: %w", err)
		}
		at := phase + time.Duration(n)*pace
		for j, l := range p.Lines[before:] {
			l.T = at + time.Duration(j)*80*time.Millisecond
			out = append(out, l)
		}
	}
	return out, nil
}

// startFullBoard starts a board as `boardd run` wires it (halltest.Board:
// a game driven in real time, its journal in a state directory of its own,
// the console's board over the runner, an uplink) that plays moves, one
// every pace from phase.
func startFullBoard(ctx context.Context, lb *loadBoard, moves []string, pace, phase time.Duration, cfg *broker.Config, verifier *actionsig.Verifier, dir string, log *slog.Logger) error {
	lines, err := loadTrace(moves, pace, phase)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("hwtest: load: %w", err)
	}
	b, err := halltest.Start(ctx, halltest.Options{
		ID: lb.id, Dir: dir, Broker: cfg, Verifier: verifier, Logger: log,
		Game: game.Options{Laws: "fide2023", Timing: game.Timing{Settle: 150 * time.Millisecond}},
		OnMove: func(_ uint64, _ report.Report, at time.Time) {
			lb.moveMade(at)
		},
	})
	if err != nil {
		return fmt.Errorf("hwtest: load: board %s: %w", lb.id, err)
	}
	lb.play = func(ctx context.Context, start time.Time) error { return loadPlayAt(ctx, b, lines, start) }
	lb.moves = func() []string {
		var out []string
		for _, r := range b.Moves() {
			out = append(out, r.UCI)
		}
		return out
	}
	lb.close = func() { b.Close() }
	return nil
}

// loadPlayAt feeds lines to a board, each at start plus its time.
func loadPlayAt(ctx context.Context, b *halltest.Board, lines []trace.Line, start time.Time) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for _, l := range lines {
		if d := time.Until(start.Add(l.T)); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				return nil
			case <-timer.C:
			}
		}
		if err := b.Runner.Submit(ctx, l); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("hwtest: load: board %s: %w", b.ID(), err)
		}
	}
	return nil
}

// startLightBoard starts a light board (halltest.Light: the protocol's
// messages of a game encoded once, its own MQTT client and session, no game
// behind it) that makes a move every pace from phase.
func startLightBoard(ctx context.Context, lb *loadBoard, script *halltest.Script, pace, phase time.Duration, cfg *broker.Config, log *slog.Logger) error {
	l, err := halltest.StartLight(ctx, halltest.LightOptions{
		ID: lb.id, Broker: cfg, Script: script, Logger: log,
		OnAcked: func(move int, _ time.Time, acked time.Time) { lb.moveAcked(move, acked) },
	})
	if err != nil {
		return fmt.Errorf("hwtest: load: board %s: %w", lb.id, err)
	}
	actx, cancel := context.WithTimeout(ctx, time.Minute)
	err = l.AwaitConnection(actx)
	cancel()
	if err != nil {
		l.Close()
		return fmt.Errorf("hwtest: load: board %s: connecting: %w", lb.id, err)
	}
	lb.play = func(ctx context.Context, start time.Time) error {
		timer := time.NewTimer(time.Hour)
		defer timer.Stop()
		for n := range script.Moves {
			if d := time.Until(start.Add(phase + time.Duration(n)*pace)); d > 0 {
				timer.Reset(d)
				select {
				case <-ctx.Done():
					return nil
				case <-timer.C:
				}
			}
			if ctx.Err() != nil {
				return nil
			}
			at := time.Now()
			if err := l.Move(); err != nil {
				if errors.Is(err, halltest.ErrScriptEnd) {
					return nil
				}
				return err
			}
			lb.moveMade(at)
		}
		return nil
	}
	lb.moves = l.Moves
	lb.close = func() { l.Close() }
	return nil
}

// loadScripts encodes the games the light boards play, once each.
func loadScripts(ctx context.Context, games [][]string) ([]*halltest.Script, error) {
	out := make([]*halltest.Script, len(games))
	for i, g := range games {
		s, err := halltest.NewScript(ctx, g, game.Options{Laws: "fide2023"})
		if err != nil {
			return nil, fmt.Errorf("hwtest: load: %w", err)
		}
		out[i] = s
	}
	return out, nil
}

func loadBoardDir(base, id string) string { return filepath.Join(base, id) }
