package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/boardd/boardd/button"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/trace"
	"github.com/boardd/boardd/voice"
)

// speech is the running voice: the announcer that draws lines from the
// game, and the speaker that reads them aloud.
type speech struct {
	announcer *voice.Announcer
	speaker   *voice.Speaker
	words     voice.Words
	say       func(string) // a line to the speaker
}

// hold answers a button held down (docs/hardware.md): the clock button
// reads both clocks, the j'adoube button the last move again, both
// together the position piece by piece.
func (s *speech) hold(h button.Hold) {
	switch strings.Join(h.Buttons, " ") {
	case trace.ButtonClock:
		if !s.announcer.Clocks() {
			s.say(s.words.NoClock())
		}
	case trace.ButtonJadoube:
		s.announcer.RepeatLast()
	case trace.ButtonClock + " " + trace.ButtonJadoube:
		s.announcer.Position()
	}
}

// startVoice starts the voice the configuration asks for ([voice], --voice):
// the announcer follows the game's reports and snapshots on the game's
// goroutine, and hands each line to the speaker, which never holds the game
// up. A speech program that is missing is said in the log at the start; the
// game goes on silent.
func (d *daemon) startVoice() error {
	vc := d.cfg.Voice
	if vc.Language == "" || vc.Language == config.VoiceOff {
		return nil
	}
	lang, err := voice.ParseLanguage(vc.Language)
	if err != nil {
		return UsageError{fmt.Errorf("--voice: %w", err)}
	}
	conv, err := voice.ParseConvention(vc.Convention)
	if err != nil {
		return UsageError{fmt.Errorf("--voice-convention: %w", err)}
	}
	log := d.log.With("part", "voice")
	sp := voice.NewSpeaker(voice.SpeakerOptions{Path: vc.Program, Voice: lang.Voice(), Args: vc.Args, Log: log})
	if err := sp.Check(); err != nil {
		log.Error("boardd will not be heard; the game goes on", "err", err)
	}
	words := voice.Words{Lang: lang, Convention: conv}
	say := func(line string) {
		log.Debug("saying", "line", line)
		sp.Say(line)
	}
	s := &speech{announcer: voice.NewAnnouncer(words, say), speaker: sp, words: words, say: say}
	d.runner.OnReport(s.announcer.Report)
	d.runner.OnChange(s.announcer.Snapshot)
	ctx, cancel := context.WithCancel(d.ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = sp.Run(ctx) // ends with ctx
	}()
	d.onClose(func() error { cancel(); wg.Wait(); return nil })
	d.voice = s
	log.Info("speaking", "language", lang, "convention", conv)
	return nil
}
