package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/pair"
)

// startPair pairs this board with another for one game (--pair,
// --pair-side): the side played at this board is the player's, the other
// is played from off the board by the paired board, whose moves are shown
// (and, with a voice, announced) for the player to carry out.
func (d *daemon) startPair() error {
	if d.o.Pair == "" {
		if d.o.PairSide != "" {
			return UsageError{fmt.Errorf("--pair-side %q without --pair: pair the board with another first", d.o.PairSide)}
		}
		return nil
	}
	if d.cfg.Engine.Path != "" || d.o.Lichess {
		return UsageError{fmt.Errorf("--pair %q: the other side is the paired board's; no --engine or --lichess with it", d.o.Pair)}
	}
	here, err := board.ParseColor(d.o.PairSide)
	if err != nil {
		return UsageError{fmt.Errorf("--pair-side %q: the side played at this board: white or black", d.o.PairSide)}
	}
	mode, addr, ok := strings.Cut(d.o.Pair, ":")
	if !ok || addr == "" || mode != "listen" && mode != "connect" && mode != "hall" {
		return UsageError{fmt.Errorf("--pair %q: want hall:BOARD (the other board's id, through the hall's broker), listen:ADDR (wait for the other board, e.g. listen:0.0.0.0:7070) or connect:ADDR (e.g. connect:board-01.lan:7070)", d.o.Pair)}
	}
	if mode == "hall" && d.hall == nil {
		return UsageError{fmt.Errorf("--pair %q: pairing through the hall's broker needs --hall (and --board-id)", d.o.Pair)}
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
	side := opponent.White
	if here == board.White {
		side = opponent.Black
	}
	m, err := opponent.New(opponent.Options{Runner: d.runner, Player: player, Side: side, TimeControl: d.opts.TimeControl, Logger: log})
	if err != nil {
		cancel()
		return err
	}
	d.paired = m
	if d.voice != nil {
		// A difference between the boards is said aloud (D.2.7), once
		// each time it appears. Watchers may be told from several
		// goroutines.
		var mu sync.Mutex
		last := ""
		stop := m.Watch(func() {
			f := m.State().Fault
			mu.Lock()
			seen := f == last
			last = f
			mu.Unlock()
			if why, ok := pair.Differs(f); ok && !seen {
				d.voice.say(d.voice.words.BoardsDiffer(why))
			}
		})
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
	log.Info("paired", "here", here.String(), "there", here.Other().String(), "link", d.o.Pair)
	return nil
}
