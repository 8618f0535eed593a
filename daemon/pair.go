package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/pair"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// startPair pairs this board with another for one game (--pair,
// --pair-side): the side played at this board is the player's, the other
// is played from off the board by the paired board, whose moves are shown
// (and, with a voice, announced) for the player to carry out.
func (d *daemon) startPair() error {
	with, side := d.pairSettings()
	if with == "" {
		if side != "" {
			return UsageError{fmt.Errorf("--pair-side %q without --pair: pair the board with another first", side)}
		}
		return nil
	}
	if d.cfg.Engine.Path != "" || d.o.Lichess {
		return UsageError{fmt.Errorf("--pair %q: the other side is the paired board's; no --engine or --lichess with it", with)}
	}
	here, err := board.ParseColor(side)
	if err != nil {
		return UsageError{fmt.Errorf("--pair-side %q: the side played at this board: white or black", side)}
	}
	if vi := d.opts.VisuallyImpaired; vi != "" && vi != here.String() {
		// Appendix D's special board is the visually impaired player's
		// own: the other board is the sighted player's, read by Article 4.
		return UsageError{fmt.Errorf("--visually-impaired %s with --pair-side %s: the visually impaired player plays at his own board (fide2023:D.1); give --visually-impaired on his board only, naming the side he plays there", vi, here)}
	}
	mode, addr, ok := strings.Cut(with, ":")
	if !ok || addr == "" || mode != "listen" && mode != "connect" && mode != "hall" {
		return UsageError{fmt.Errorf("--pair %q: want hall:BOARD (the other board's id, through the hall's broker), listen:ADDR (wait for the other board, e.g. listen:0.0.0.0:7070) or connect:ADDR (e.g. connect:board-01.lan:7070)", with)}
	}
	if mode == "hall" && d.hall == nil {
		return UsageError{fmt.Errorf("--pair %q: pairing through the hall's broker needs --hall (and --board-id)", with)}
	}
	ctx, cancel := context.WithCancel(d.ctx)
	var link pair.Link
	log := d.log.With("part", "pair")
	switch mode {
	case "hall":
		m, err := pair.DialMQTT(ctx, d.hall.broker, d.hall.board, addr, log)
		if err != nil {
			cancel()
			return UsageError{fmt.Errorf("--pair: %w", err)}
		}
		link = m
	case "listen":
		l, err := pair.Listen(ctx, addr, log)
		if err != nil {
			cancel()
			return UsageError{fmt.Errorf("--pair: %w", err)}
		}
		log.Info("waiting for the other board", "addr", l.Addr().String())
		link = l
	default:
		link = pair.Dial(ctx, addr, log)
	}
	player := pair.NewPlayer(link, "the paired board ("+addr+")", d.runner, here)
	player.SetLogger(log)
	there := opponent.White
	if here == board.White {
		there = opponent.Black
	}
	m, err := opponent.New(opponent.Options{Runner: d.runner, Player: player, Side: there, TimeControl: d.opts.TimeControl, Logger: log})
	if err != nil {
		cancel()
		return err
	}
	d.paired = m
	d.pairing = &pairing{player: player, match: m, other: addr, here: here, clock: d.runner.Clock()}
	if d.voice != nil {
		stop := player.Watch(d.pairing.sayChanges(d.voice))
		d.onClose(func() error { stop(); return nil })
	}
	done := make(chan struct{}, 2)
	go func() { _ = player.Run(ctx); done <- struct{}{} }()
	go func() { _ = m.Run(ctx); done <- struct{}{} }()
	d.onClose(func() error {
		cancel()
		<-done
		<-done
		return nil
	})
	log.Info("paired", "here", here.String(), "there", here.Other().String(), "link", with)
	return nil
}

// pairSettings returns the other board and the side played here: the
// flags --pair and --pair-side, each where given, else the configuration's
// [pair] with and side.
func (d *daemon) pairSettings() (with, side string) {
	with, side = d.o.Pair, d.o.PairSide
	if with == "" {
		with = d.cfg.Pair.With
	}
	if side == "" {
		side = d.cfg.Pair.Side
	}
	return with, side
}

// pairing is this board's pairing with another, as the console and the
// voice tell it.
type pairing struct {
	player *pair.Player
	match  *opponent.Match // the match against the other board
	here   board.Color     // the side played at this board
	other  string          // the other board: its id, or its address
	clock  timing.Clock    // the runner's, to date a difference
}

// console returns the pairing as the console shows it.
func (p *pairing) console() *console.Pair {
	st := p.player.State()
	c := &console.Pair{Other: p.other, Gone: st.Gone}
	if st.DrawOffered {
		c.DrawOffer, c.Law = p.here.Other().String(), st.Law
	}
	if st.TakeBackAsked {
		c.TakeBackAsked = max(st.TakeBackPlies, 1)
	}
	c.TakeBack = st.TakeBack
	if de := st.Difference; de != nil {
		df := &console.Difference{Move: de.Move(), Why: de.Why,
			HereMoves: append([]string{}, de.Ours.Moves...), ThereMoves: append([]string{}, de.Theirs.Moves...)}
		if n := df.Move; n > 0 {
			df.Here, df.There = de.Ours.Moves[n-1], de.Theirs.Moves[n-1]
		}
		if at, ok := wallAt(p.clock, st.Since); ok {
			df.Since = at.UTC().Truncate(time.Second)
		}
		c.Differ = df
	}
	return c
}

// wallAt returns the wall-clock time of the game's time t on clock c, when
// c knows its epoch (real time, carried on from a journal or not).
func wallAt(c timing.Clock, t time.Duration) (time.Time, bool) {
	type epoch interface{ Epoch() time.Time }
	switch c := c.(type) {
	case journal.Clock:
		if e, ok := c.Base.(epoch); ok {
			return e.Epoch().Add(t - c.Offset), true
		}
	case epoch:
		return c.Epoch().Add(t), true
	}
	return time.Time{}, false
}

// sayChanges returns a watcher of the pairing that says aloud what
// changed: a difference between the boards (D.2.7), once each time it
// appears, and the other board or the broker gone away and back. Watchers
// may be told from several goroutines.
func (p *pairing) sayChanges(v *speech) func() {
	var mu sync.Mutex
	var last pair.State
	return func() {
		st := p.player.State()
		mu.Lock()
		before := last
		last = st
		mu.Unlock()
		w := v.words
		if de := st.Difference; de != nil && (before.Difference == nil || before.Difference.Why != de.Why) {
			v.say(w.BoardsDiffer(de.Why))
		}
		if st.DrawOffered && !before.DrawOffered {
			v.say(w.DrawOffered(p.here.Other()))
		}
		if st.TakeBackAsked && !before.TakeBackAsked {
			v.say(w.TakeBackAsked(p.here.Other(), st.TakeBackPlies))
		}
		if st.TakeBack == pair.TakeBackRefused && before.TakeBack != pair.TakeBackRefused {
			v.say(w.TakeBackRefused(p.here.Other()))
		}
		if st.Gone == before.Gone {
			return
		}
		switch {
		case st.Gone == pair.GoneBoard:
			v.say(w.OtherBoardGone())
		case st.Gone == pair.GoneBroker:
			v.say(w.BrokerGone())
		case before.Gone == pair.GoneBoard:
			v.say(w.OtherBoardBack())
		case before.Gone == pair.GoneBroker:
			v.say(w.BrokerBack())
		}
	}
}

// pairedOpponent is the paired board's match as the console's opponent
// panel shows it: a difference between the boards is the arbiter's notice
// (State.Pair), not the opponent's fault.
type pairedOpponent struct{ console.OpponentSource }

// Opponent returns the panel's state without a difference as its fault,
// and only the commands both boards carry out (pairedCommand).
func (p pairedOpponent) Opponent() *console.Opponent {
	o := p.OpponentSource.Opponent()
	if _, ok := pair.Differs(o.Fault); ok {
		o.Fault = ""
	}
	o.Commands = slices.DeleteFunc(o.Commands, func(c string) bool { return !pairedCommand(c) })
	return o
}

// pairedCommand reports whether a paired board takes an opponent command:
// each it takes goes to the other board too (a take-back and a draw by
// agreement, a resignation ending the game on both). A hint, a new game, a
// side or a level would act on this board alone, and the boards would
// differ.
func pairedCommand(command string) bool {
	switch command {
	case opponent.CommandTakeBack, opponent.CommandDraw, opponent.CommandResign:
		return true
	}
	return false
}

// Command refuses what would act on this board alone (pairedCommand),
// and passes the rest on.
func (p pairedOpponent) Command(ctx context.Context, command, value string) error {
	if !pairedCommand(command) {
		return &console.RefusedError{Err: fmt.Errorf("%s: the other side is played on the paired board; a %s here would act on this board alone (the arbiter's console starts a new game on each board)", command, command)}
	}
	return p.OpponentSource.Command(ctx, command, value)
}

// press takes a button press: the buttons of the other board's side
// (nobody sits there) are the player's commands, as against an engine:
// check offers a draw (or accepts the other board's), j'adoube asks to
// take back (or agrees to the other board's request). It reports whether
// the press was one.
func (p *pairing) press(ctx context.Context, l trace.Line, log *slog.Logger) bool {
	if l.Kind != trace.Press || l.Side != p.here.Other().String() {
		return false
	}
	var command string
	switch l.Button {
	case trace.ButtonCheck:
		command = opponent.CommandDraw
	case trace.ButtonJadoube:
		command = opponent.CommandTakeBack
	default:
		log.Info("the paired board's side's button does nothing", "button", l.Button, "side", l.Side)
		return true
	}
	if err := p.match.Do(ctx, command, ""); err != nil {
		log.Warn("paired board's command by button not carried out", "button", l.Button, "command", command, "err", err)
	}
	return true
}
