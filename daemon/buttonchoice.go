package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// choiceButton says which option of a ruling a button chooses, counting
// from 0 in the options' order: j'adoube the first (option-1, blue), check
// the second (option-2, magenta), claim the third (option-3, yellow). The
// clock button keeps its meaning (-1); a ruling with more options than
// buttons is chosen from the console.
func choiceButton(button string) int {
	switch button {
	case trace.ButtonJadoube:
		return 0
	case trace.ButtonCheck:
		return 1
	case trace.ButtonClaim:
		return 2
	}
	return -1
}

// errRulingChanged refuses a choice by button when the ruling it was meant
// for is no longer the one waiting.
var errRulingChanged = errors.New("the ruling waiting changed before the choice")

// buttonOption is the option a press chooses in the ruling pending, if the
// presser is its chooser: "" when the press chooses nothing.
func buttonOption(pending *report.Report, l trace.Line) report.OptionID {
	if pending == nil || l.Kind != trace.Press {
		return ""
	}
	if pending.Chooser != report.White && pending.Chooser != report.Black || string(pending.Chooser) != l.Side {
		return ""
	}
	if i := choiceButton(l.Button); i >= 0 && i < len(pending.Options) {
		return pending.Options[i].ID
	}
	return ""
}

// chooseByButton takes a press of the player a ruling waits for as his
// choice (see choiceButton): on a board with buttons and no screen, the
// offended player chooses the penalty with his own buttons. The choice is
// submitted as a `choose` line, journalled like a choice made on the
// console. It reports whether the press was a choice.
func (d *daemon) chooseByButton(ctx context.Context, l trace.Line) bool {
	var (
		option  report.OptionID
		at      time.Duration
		chooser report.Party
	)
	if err := d.runner.Do(ctx, func(g *game.Game, _ time.Duration) {
		if p := g.Snapshot().Pending; p != nil {
			option, at, chooser = buttonOption(p, l), p.T, p.Chooser
		}
	}); err != nil || option == "" {
		return false
	}
	choice := trace.Line{Kind: trace.Choose, Option: string(option), Side: l.Side}
	err := d.runner.SubmitIf(ctx, choice, func(g *game.Game) error {
		if p := g.Snapshot().Pending; p == nil || p.T != at || p.Chooser != chooser {
			return errRulingChanged
		}
		return nil
	})
	if err != nil {
		if ctx.Err() == nil {
			d.log.Warn("choice by button not applied", "button", l.Button, "side", l.Side, "option", option, "err", err)
		}
		return true
	}
	d.log.Info("ruling chosen by button", "button", l.Button, "side", l.Side, "option", option)
	return true
}
